import Domain
import Foundation
import JSONBytes
import Testing

@testable import GitHubStandIn

private let rows = StandInRouteTable.gitHub().routes.compactMap { ($0.handler as? StandInRecordedHandler)?.endpoint }
/// Those under `/users/{username}/…` whose body is a list.
private let accountLists = rows.filter { $0.isAccountScoped && (try? records($0)) != nil }

private let paginationLimited =
    #"{"message":"In order to keep the API fast for everyone, pagination is limited for this resource.","documentation_url":"https://docs.github.com/v3/#pagination","status":"422"}"#

/// The records of `row`'s body, as the file holds them; each one's `repo` for a row with a media type.
private func records(_ row: Endpoint, inMediaType: Bool = false) throws -> [String] {
    let body = try #require(StandInRecordedHandler.body(named: row.operationID))
    return try JSONText.arrayElements(body).map { range in
        let record = Array(body[range])
        let unwrapped = row.mediaType == nil || inMediaType ? record : JSONText.value(at: ["repo"], in: record)
        return String(decoding: try #require(unwrapped), as: UTF8.self)
    }
}

private func suffix(_ row: Endpoint) -> String {
    String(row.path.dropFirst("/users/{username}".count))
}

@Suite struct StandInRecordedHandlerTests {
    /// A row is served from the body its operation id names, so a new row with a body needs no stand-in code.
    @Test func aRowFindsItsBodyByItsOperationID() throws {
        #expect(rows.count >= 12)
        // A public list outside `/users/{username}/…`, as the next issue's `GET /orgs/{org}/public_members`.
        let newRow = Endpoint(
            "orgs/list-for-user", .get, "/orgs/{org}/another-list", shape: .records(.organization), paging: .link,
            docs: "https://docs.github.com/rest")
        let server = try standIn(serving: [StandInRoute(newRow, handler: try #require(StandInRecordedHandler(newRow)))])
        let response = try fetch(server, "/orgs/github/another-list?per_page=1&page=2")
        #expect(try response.status == 200 && response.text == "[\(records(.orgs)[1])]")
        #expect(
            linkRelations(response.header("Link"))["first"]
                == "\(server.baseURL)/orgs/github/another-list?per_page=1&page=1")
        #expect(StandInRecordedHandler(Endpoint("no/such-operation", .get, "/x", shape: .status, docs: "")) == nil)
        #expect(StandInRecordedHandler(.follow) == nil)
    }

    /// `Bodies` holds the command tests' bodies too: a row a handler answers is never served from its body, and
    /// `/user/{account_id}` (the profile handler's) is no catch-all under `/user/`.
    @Test func aRowAHandlerAnswersIsNeverServedFromABody() throws {
        for row in [Endpoint.listUsers, .user, .userByID, .authenticatedUser, .followers, .searchUsers] {
            #expect(StandInRecordedHandler(row) != nil && !rows.contains { $0.operationID == row.operationID })
        }
        let server = try standIn()
        #expect(try fetch(server, "/user/octocat", headers: tokenHeader).status == 404)
    }

    @Test(arguments: accountLists)
    func everyListPagesItsBodyInOrderWithLinksUnderTheAccountsID(_ row: Endpoint) throws {
        let server = try standIn()
        let expected = try records(row)
        let account = try #require(server.population.user(login: "octocat"))
        let path = row.accountPath(String(account.id))
        let pages = try walkPages(
            server, from: "/users/OCTOCAT\(suffix(row))?per_page=1",
            linkPrefix: server.baseURL + path + "?per_page=1&page=")
        #expect(pages.map { String($0.text.dropFirst().dropLast()) } == expected)
        #expect(try fetch(server, path + "?per_page=1", headers: tokenHeader).body == pages.first?.body)
    }

    @Test(arguments: rows.filter(\.isAccountScoped))
    func anUnknownAccountIsGitHubs404WithTheRowsDocumentation(_ row: Endpoint) throws {
        let server = try standIn()
        let expected = #"{"message":"Not Found","documentation_url":""# + row.docs + #"","status":"404"}"#
        for target in ["/users/no-such-user\(suffix(row))", row.accountPath("999999999")] {
            let response = try fetch(server, target, headers: tokenHeader)
            #expect(response.status == 404 && response.text == expected, "\(target)")
        }
    }

    @Test func ownListsNeedATokenAndTheRowsScope() throws {
        let server = try standIn()
        // The token's own: under /user/, or a row that needs a token; a list under /orgs/ is anyone's.
        for row in rows where row.needsToken || row.path.hasPrefix("/user/") {
            let target = row.path.replacing("{username}", with: "octocat")
            #expect(try fetch(server, target).status == 401, "\(row.path)")
            #expect(try fetch(server, target, headers: [("Authorization", "Bearer gho_octocat")]).status == 200)
        }
        let unscoped = try fetch(server, "/user/emails", headers: [("Authorization", "Bearer gho_octocat_noscope")])
        #expect(unscoped.status == 403)
        let own = try fetch(server, "/user/subscriptions", headers: [("Authorization", "Bearer gho_octocat")])
        #expect(own.text == "[" + (try records(.ownSubscriptions)).joined(separator: ",") + "]")
    }

    /// Issue 26: since July 2026 GitHub answers another account's watched repositories 204, to everyone (its REST
    /// page for watching, "New access restrictions"; python-github-backup #521 and #522).
    @Test(arguments: [nil, "octocat"])
    func anotherAccountsWatchedRepositoriesAre204ToEveryone(login: String?) throws {
        let server = try standIn()
        for target in ["/users/octocat/subscriptions?per_page=100", "/users/no-such-user/subscriptions"] {
            #expect(try fetch(server, target, as: login).status == 204, "\(target)")
        }
    }

    @Test func aCappedRowRefusesPagesPastItsCapAndAnswersAnEmptyPageInsideIt() throws {
        let server = try standIn()
        let path = "/users/octocat/events/public"
        for query in ["?per_page=100&page=4", "?per_page=7&page=44", "?page=99999999999999999"] {
            let refused = try fetch(server, path + query, headers: tokenHeader)
            #expect(refused.status == 422 && refused.text == paginationLimited, "\(query)")
            #expect(refused.header("ETag") == nil && refused.header("Link") == nil, "\(query)")
        }
        let inside = try fetch(server, path + "?per_page=7&page=43", headers: tokenHeader)
        #expect(inside.status == 200 && inside.text == "[]")
    }

    @Test func theStarMediaTypeGetsTheStarRecordsVersionedOrNotAndOthersTheRepositories() throws {
        let server = try standIn()
        let path = "/users/octocat/starred"
        let plain = try fetch(server, path, headers: tokenHeader)
        #expect(plain.text == "[" + (try records(.starred)).joined(separator: ",") + "]")
        let wrapped = "[" + (try records(.starred, inMediaType: true)).joined(separator: ",") + "]"
        #expect(wrapped != plain.text)
        for accept in ["application/vnd.github.star+json", "APPLICATION/VND.GITHUB.V3.STAR+JSON"] {
            #expect(try fetch(server, path, headers: tokenHeader + [("Accept", accept)]).text == wrapped)
        }
    }
}
