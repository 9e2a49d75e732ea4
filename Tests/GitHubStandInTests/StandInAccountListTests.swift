import Domain
import Testing

@testable import GitHubStandIn

/// Every row the generic handler serves, in the endpoint table's order.
private let rows = Endpoint.all.filter { StandInAccountListHandler.generator(for: $0) != nil }

private let paginationLimited =
    #"{"message":"In order to keep the API fast for everyone, pagination is limited for this resource.","documentation_url":"https://docs.github.com/v3/#pagination","status":"422"}"#

/// The records of `row` for `account`, each as its generator writes it.
private func records(
    _ row: Endpoint, of account: StandInUser, in population: StandInPopulation, inMediaType: Bool = false
) throws -> [String] {
    let generator = try #require(StandInAccountListHandler.generator(for: row))
    let made = generator.records(
        StandInListQuery(account: account, population: population, query: [:], inMediaType: inMediaType))
    return (0..<made.count).map { position in
        var writer = JSONByteWriter(reservingCapacity: generator.bytesPerRecord)
        made.write(position, &writer)
        return String(decoding: writer.bytes, as: UTF8.self)
    }
}

/// The first account of the server's population holding a number of `row`'s records in `counts`.
private func holder(
    _ server: StandInServer, holding counts: some RangeExpression<Int>, of row: Endpoint
) throws -> (account: StandInUser, records: [String]) {
    for user in server.population.users {
        let held = try records(row, of: user, in: server.population)
        if counts.contains(held.count) {
            return (user, held)
        }
    }
    throw StandInServerError.invalidConfiguration("no account holds \(counts) of \(row)")
}

/// What follows the account in the row's path: `/keys`.
private func suffix(_ row: Endpoint) -> String {
    String(row.path.dropFirst("/users/{username}".count))
}

/// The page bodies of a walk joined back into one JSON array.
private func joined(_ walk: StandInPagedWalk) -> String {
    "[" + walk.responses.map { String($0.text.dropFirst().dropLast()) }.filter { !$0.isEmpty }.joined(separator: ",")
        + "]"
}

@Suite struct StandInAccountListTests {
    /// Every account list of the endpoint table is served, and every generator serves some row: a row whose
    /// records no generator makes, or a generator no row needs, fails here.
    @Test func everyAccountListOfTheEndpointTableIsServedByAGenerator() {
        let accountLists = Endpoint.all.filter { row in
            guard row.method == .get, row.isAccountScoped, case .records = row.shape else { return false }
            return !StandInAccountListHandler.retired.contains(row)
        }
        #expect(rows == accountLists)
        #expect(rows.count >= 9)
        let served = Set(
            rows.compactMap { row -> Endpoint.Item? in
                if case .records(let item) = row.shape { return item }
                return nil
            })
        #expect(served == Set(StandInAccountListHandler.registry.keys))
        #expect(rows.allSatisfy { $0.paging != .single && $0.paging != .since })
    }

    @Test(arguments: rows)
    func everyRowPagesItsRecordsInOrderWithLinksUnderTheAccountsID(_ row: Endpoint) throws {
        try withStandInServer { server throws in
            let (account, expected) = try holder(server, holding: 2...12, of: row)
            let linkPrefix = server.baseURL + row.accountPath(String(account.id)) + "?per_page=1&page="
            // Logins are case-insensitive, as on GitHub.
            let walk = try walkPages(
                server, from: "/users/\(account.login.uppercased())\(suffix(row))?per_page=1", linkPrefix: linkPrefix)
            #expect(walk.responses.count == expected.count)
            #expect(joined(walk) == "[" + expected.joined(separator: ",") + "]")
            let byID = try fetch(server, row.accountPath(String(account.id)) + "?per_page=1", headers: tokenHeader)
            #expect(byID.body == walk.responses.first?.body)
            #expect(byID.header("Link") == walk.responses.first?.header("Link"))
            // A revalidated page is a 304 that keeps its Link and costs nothing.
            let tag = try #require(byID.header("ETag"))
            let remaining = byID.header("x-ratelimit-remaining")
            let again = try fetch(
                server, row.accountPath(String(account.id)) + "?per_page=1",
                headers: tokenHeader + [("If-None-Match", tag)])
            #expect(again.status == 304 && again.body.isEmpty)
            #expect(again.header("Link") == byID.header("Link") && again.header("x-ratelimit-remaining") == remaining)
        }
    }

    @Test(arguments: rows)
    func anUnknownAccountIsGitHubs404WithTheRowsDocumentation(_ row: Endpoint) throws {
        try withStandInServer { server throws in
            let expected = #"{"message":"Not Found","documentation_url":""# + row.docs + #"","status":"404"}"#
            for target in ["/users/no-such-user\(suffix(row))", row.accountPath("999999999")] {
                let response = try fetch(server, target, headers: tokenHeader)
                #expect(response.status == 404 && response.text == expected, "\(target)")
                #expect(response.header("ETag") == nil, "\(target)")
            }
        }
    }

    @Test(arguments: rows)
    func perPageIsBoundedAndValuesThatDoNotParseFallBack(_ row: Endpoint) throws {
        try withStandInServer { server throws in
            let (account, expected) = try holder(server, holding: 2...12, of: row)
            let path = row.accountPath(String(account.id))
            func link(_ query: String, _ rel: String) throws -> String? {
                linkRelations(try fetch(server, path + query, headers: tokenHeader).header("Link"))[rel]
            }
            // Page 2 always links back to page 1, with per_page as effectively used.
            #expect(try link("?per_page=1000&page=2", "first") == server.baseURL + path + "?per_page=100&page=1")
            #expect(try link("?per_page=0&page=2", "first") == server.baseURL + path + "?per_page=30&page=1")
            #expect(try link("?per_page=abc&page=2", "first") == server.baseURL + path + "?per_page=30&page=1")
            let all = "[" + expected.joined(separator: ",") + "]"
            #expect(try fetch(server, path + "?per_page=-5", headers: tokenHeader).text == all)
            for query in ["?per_page=1&page=0", "?per_page=1&page=x", "?per_page=1&page=-1"] {
                #expect(try fetch(server, path + query, headers: tokenHeader).text == "[\(expected[0])]", "\(query)")
            }
        }
    }

    @Test(arguments: rows)
    func aCappedRowServesItsCapAndRefusesPagesPastItOthersAnswerAnEmptyPage(_ row: Endpoint) throws {
        try withStandInServer { server throws in
            guard case .capped(let cap) = row.paging else {
                let (account, _) = try holder(server, holding: 0...12, of: row)
                let far = try fetch(
                    server, row.accountPath(String(account.id)) + "?page=99999999999999999", headers: tokenHeader)
                #expect(far.status == 200 && far.text == "[]")
                return
            }
            let (account, expected) = try holder(server, holding: (cap + 1)..., of: row)
            let path = row.accountPath(String(account.id))
            let walk = try walkPages(
                server, from: path + "?per_page=100", linkPrefix: server.baseURL + path + "?per_page=100&page=")
            #expect(joined(walk) == "[" + expected.prefix(cap).joined(separator: ",") + "]")
            // An odd page size ends on a short page inside the cap; the page after it is refused.
            let lastPage = (cap + 6) / 7
            let last = try fetch(server, path + "?per_page=7&page=\(lastPage)", headers: tokenHeader)
            #expect(last.status == 200)
            #expect(try last.jsonArray().count == cap - 7 * (lastPage - 1))
            #expect(linkRelations(last.header("Link"))["next"] == nil)
            // Past the cap is refused whatever the account holds: the limit is on the page, not the data.
            let (few, _) = try holder(server, holding: 1...2, of: row)
            for target in [
                path + "?per_page=100&page=\(cap / 100 + 1)", path + "?per_page=7&page=\(lastPage + 1)",
                row.accountPath(String(few.id)) + "?page=\(cap / 30 + 1)", path + "?page=99999999999999999",
            ] {
                let refused = try fetch(server, target, headers: tokenHeader)
                #expect(refused.status == 422 && refused.text == paginationLimited, "\(target)")
                #expect(refused.header("ETag") == nil && refused.header("Link") == nil, "\(target)")
            }
            let inside = try fetch(server, row.accountPath(String(few.id)) + "?page=\(cap / 30)", headers: tokenHeader)
            #expect(inside.status == 200 && inside.text == "[]")
        }
    }

    @Test(arguments: rows.filter { $0.mediaType != nil })
    func aRowsMediaTypeGetsItsOwnRecordsVersionedOrNot(_ row: Endpoint) throws {
        try withStandInServer { server throws in
            let (account, plain) = try holder(server, holding: 2...12, of: row)
            let wrapped = try records(row, of: account, in: server.population, inMediaType: true)
            #expect(wrapped != plain)
            let mediaType = try #require(row.mediaType)
            let path = row.accountPath(String(account.id))
            #expect(try fetch(server, path, headers: tokenHeader).text == "[" + plain.joined(separator: ",") + "]")
            for accept in [mediaType, mediaType.replacing("vnd.github.", with: "vnd.github.v3.").uppercased()] {
                let response = try fetch(server, path, headers: tokenHeader + [("Accept", accept)])
                #expect(response.text == "[" + wrapped.joined(separator: ",") + "]", "\(accept)")
            }
        }
    }
}
