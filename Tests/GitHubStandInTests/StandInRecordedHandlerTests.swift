import Domain
import Foundation
import JSONBytes
import Testing

@testable import GitHubStandIn

private let rows = StandInRouteTable.gitHub().routes.compactMap { ($0.handler as? StandInRecordedHandler)?.endpoint }
/// Those under `/users/{username}/…` whose body is a list.
private let accountLists = rows.filter { $0.isAccountScoped && (try? records($0)) != nil }

/// The records of `row`'s body, as the file holds them.
private func records(_ row: Endpoint) throws -> [String] {
    let body = try #require(StandInRecordedHandler.body(named: row.operationID))
    return try JSONText.arrayElements(body).map { String(decoding: body[$0], as: UTF8.self) }
}

@Suite struct StandInRecordedHandlerTests {
    /// A row is served from the body its operation id names, so a new row with a body needs no stand-in code.
    /// `Bodies` holds the command tests' bodies too: a row a handler answers is never served from its body (nor is
    /// `/user/{account_id}` a catch-all under `/user/`: `StandInRouteTableTests.refusals`).
    @Test func aRowFindsItsBodyByItsOperationID() throws {
        #expect(rows.count >= 10)
        // A public list outside `/users/{username}/…`, linked by the organization's id as GitHub links its lists.
        let newRow = Endpoint(
            "orgs/list-for-user", .get, "/orgs/{org}/another-list", shape: .records(.organization), paging: .link,
            docs: "https://docs.github.com/rest")
        let server = try standIn(serving: [StandInRoute(newRow, handler: try #require(StandInRecordedHandler(newRow)))])
        let response = try fetch(server, "/orgs/github/another-list?per_page=1&page=2")
        #expect(try response.status == 200 && response.text == "[\(records(.orgs)[1])]")
        #expect(
            linkRelations(response.header("Link"))["first"]
                == "\(server.baseURL)/organizations/9919/another-list?per_page=1&page=1")
        #expect(StandInRecordedHandler(Endpoint("no/such-operation", .get, "/x", shape: .status, docs: "")) == nil)
        #expect(StandInRecordedHandler(.follow) == nil)
        for row in [Endpoint.listUsers, .user, .userByID, .authenticatedUser, .followers, .searchUsers] {
            #expect(StandInRecordedHandler(row) != nil && !rows.contains { $0.operationID == row.operationID })
        }
    }

    /// A row under `/users/{username}/…` is GitHub's 404 with the row's documentation for an unknown account, by
    /// login or id; a list pages its body in order, with links under the account's id.
    @Test(arguments: rows.filter(\.isAccountScoped))
    func everyAccountsRowPagesItsBodyUnderItsIDAndAnUnknownAccountIsGitHubs404(_ row: Endpoint) throws {
        let server = try standIn()
        let notFound = #"{"message":"Not Found","documentation_url":""# + row.docs + #"","status":"404"}"#
        for target in [row.path.replacing("{username}", with: "no-such-user"), row.accountPath("999999999")] {
            let response = try fetch(server, target, headers: tokenHeader)
            #expect(response.status == 404 && response.text == notFound, "\(target)")
        }
        guard accountLists.contains(row) else { return }
        let account = try #require(server.population.user(login: "octocat"))
        let path = row.accountPath(String(account.id))
        let pages = try walkPages(
            server, from: row.path.replacing("{username}", with: "OCTOCAT") + "?per_page=1",
            linkPrefix: server.baseURL + path + "?per_page=1&page=")
        #expect(try pages.map { String($0.text.dropFirst().dropLast()) } == records(row))
        #expect(try fetch(server, path + "?per_page=1", headers: tokenHeader).body == pages.first?.body)
    }

    @Test func ownListsNeedATokenAndTheRowsScope() throws {
        let server = try standIn()
        // The token's own: under /user/, or a row that needs a token; a list under /orgs/ is anyone's.
        for row in rows where row.needsToken || row.path.hasPrefix("/user/") {
            let target = row.path.replacing("{username}", with: "octocat")
            #expect(try fetch(server, target).status == 401, "\(row.path)")
            #expect(try fetch(server, target, as: "octocat").status == 200)
        }
        #expect(try fetch(server, "/user/emails", headers: bearer("gho_octocat_noscope")).status == 403)
        let own = try fetch(server, "/user/subscriptions", as: "octocat")
        #expect(own.text == "[" + (try records(.ownSubscriptions)).joined(separator: ",") + "]")
    }

    /// An account's stars are the world's, newest first: the star media type, versioned or not, gets GitHub's
    /// `{"starred_at", "repo"}` records; a request without it gets the repositories.
    @Test func theStarMediaTypeGetsTheStarRecordsVersionedOrNot() throws {
        let server = try standIn()
        let plain = try fetch(server, "/users/kitsune-fox/starred", headers: tokenHeader).jsonArray()
        let names = plain.map { $0["full_name"] as? String }
        #expect(names == ["github/linguist", "octocat/Spoon-Knife", "octocat/Hello-World"])
        for accept in ["application/vnd.github.star+json", "APPLICATION/VND.GITHUB.V3.STAR+JSON"] {
            let stars = try fetch(server, "/users/kitsune-fox/starred", headers: tokenHeader + [("Accept", accept)])
            #expect(try stars.jsonArray().map { value($0, "repo", "full_name") as? String } == names)
            #expect(try stars.jsonArray().first?["starred_at"] as? String == "2016-04-01T00:00:00Z")
        }
    }
}
