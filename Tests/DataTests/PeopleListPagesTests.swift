import Foundation
import Networking
import TestSupport
import Testing

@testable import Data
@testable import Domain

/// What Data decides for the people lists: the July 2026 check of a repository's stargazers and watchers, the
/// public members' redirect, the token's own account, where stargazers are read (REST or GraphQL), and the pages
/// of the lists whose fetching Data decides (`PageSource`s other than `ListedPages`: the watchers, a team's own
/// members). Over the strict stub: every request is one these tests expect, and every expected one is sent.
struct PeopleListPagesTests {
    /// GitHub over `stub`, retrying `retries` times on a clock that never sleeps.
    private static func repository(_ stub: StubTransport, retries: Int = 0) -> GitHubRepository {
        GitHubRepository(
            client: HTTPClient(
                configuration: HTTPClientConfiguration(
                    baseURL: URL(string: "https://api.github.com")!, userAgent: "gh-users/test", token: "ghp_test"),
                transport: stub.transport, logger: .disabled, retryPolicy: RetryPolicy(maxRetries: retries),
                clock: RetryClock(now: { Date(timeIntervalSince1970: 0) }, random: { 0 }, sleep: { _, _ in })))
    }

    private static let repositoryName = try! RepositoryName(validating: "octo/app")
    private static let owner = ListOwner.repository(repositoryName)
    private static let stargazers = GitHubEndpoints.records(.stargazers, under: owner)

    /// GitHub refusing octo/app's `list` (403, push access needed), and answering for the repository itself with
    /// its id and the `counted` member.
    private static func refusing(_ list: String, perPage: Int, counted: String) -> StubTransport {
        let stub = StubTransport()
        stub.stub(
            "https://api.github.com/repos/octo/app/\(list)?per_page=\(perPage)", status: 403,
            body: #"{"message":"Must have push access to view repository \#(list)."}"#)
        stub.stub("https://api.github.com/repos/octo/app", body: #"{"id":1,"# + counted + "}")
        return stub
    }

    /// The refusal a withheld list is, or nil.
    private static func refusal(_ body: () async throws(DomainError) -> Void) async -> DomainError? {
        do throws(DomainError) {
            try await body()
            return nil
        } catch {
            return error
        }
    }

    @Test func aRefusedListOfARepositoryThatExistsIsWithheldAndNamesNoFlag() async throws {
        let stub = Self.refusing("stargazers", perPage: 30, counted: #""stargazers_count":5"#)
        let error = await Self.refusal { () async throws(DomainError) in
            _ = try await Self.repository(stub).firstPage(
                Self.stargazers, perPage: 30, withheld: .stargazers, of: Self.owner)
        }
        guard case .unauthorized(403, let message, let problem, nil)? = error else {
            Issue.record("not withheld: \(String(describing: error))")
            return
        }
        // GitHub's own words stay (before: dropped, though another cause, a token's permission, may be theirs).
        #expect(
            message == "since July 2026 GitHub lists a repository's stargazers only to its admins and collaborators "
                + "(GitHub said: Must have push access to view repository stargazers.)")
        #expect(problem == .withheld(repository: "octo/app", list: "stargazers"))
        #expect(!message.contains("--") && !message.contains("gh-users"))
        #expect(stub.unusedStubs.isEmpty)
    }

    /// GitHub's words are cut at 150 characters, so that the line's end (`star-history`'s way round) still fits
    /// the 300 columns a message gets (a review's find: 5,000 characters cut it off).
    /// The message of the refusal a 403 with `body` to the first page of a repository's stargazers is, when it is
    /// the list withheld (the repository counts 5); nil, with the error recorded, when it is anything else.
    static func withheldMessage(_ body: String) async -> String? {
        let stub = StubTransport()
        stub.stub("https://api.github.com/repos/octo/app/stargazers?per_page=30", status: 403, body: body)
        stub.stub("https://api.github.com/repos/octo/app", body: #"{"id":1,"stargazers_count":5}"#)
        let error = await refusal { () async throws(DomainError) in
            _ = try await repository(stub).firstPage(stargazers, perPage: 30, withheld: .stargazers, of: owner)
        }
        guard case .unauthorized(403, let message, .withheld, nil)? = error else {
            Issue.record("not withheld: \(String(describing: error))")
            return nil
        }
        return message
    }

    @Test func longWordsOfGitHubAreCutBeforeTheRule() async throws {
        let message = try #require(
            await Self.withheldMessage(#"{"message":"\#(String(repeating: "x", count: 5000))"}"#))
        #expect(message.hasSuffix(" (GitHub said: " + String(repeating: "x", count: 149) + "…)"), "\(message)")
    }

    /// A 204 in place of the first page is said as the 204 it was: it was "an empty list", HTTP 200.
    @Test(arguments: [(200, "[]", "an empty list"), (204, "", "no list")])
    func anEmptyFirstPageOfACountedListIsWithheldAndOfAnEmptyOneIsNot(
        status: Int, body: String, said: String
    ) async throws {
        let stub = StubTransport()
        stub.stub("https://api.github.com/repos/octo/app/subscribers?per_page=30", status: status, body: body)
        stub.stub("https://api.github.com/repos/octo/app", body: #"{"id":1,"subscribers_count":2}"#)
        let watchers = GitHubEndpoints.accounts(.watchers, under: Self.owner)
        let error = await Self.refusal { () async throws(DomainError) in
            _ = try await Self.repository(stub).firstPage(watchers, perPage: 30, withheld: .watchers, of: Self.owner)
        }
        guard case .unauthorized(status, let message, .withheld("octo/app", "watchers"), _)? = error else {
            Issue.record("not withheld with \(status): \(String(describing: error))")
            return
        }
        #expect(message.hasPrefix(said + ", of 2; since July 2026 GitHub lists a repository's watchers"))

        let empty = StubTransport()
        empty.stub("https://api.github.com/repos/octo/app/subscribers?per_page=30", body: "[]")
        empty.stub("https://api.github.com/repos/octo/app", body: #"{"id":1,"subscribers_count":0}"#)
        let page = try await Self.repository(empty).firstPage(
            watchers, perPage: 30, withheld: .watchers, of: Self.owner)
        #expect(page.items.isEmpty)
        #expect(empty.unusedStubs.isEmpty)
    }

    @Test func aMissingRepositoryIsNotFoundNotWithheld() async throws {
        let stub = StubTransport()
        stub.stub(
            "https://api.github.com/repos/octo/app/stargazers?per_page=30", status: 403, body: #"{"message":"x"}"#)
        stub.stub("https://api.github.com/repos/octo/app", status: 404, body: #"{"message":"Not Found"}"#)
        let error = await Self.refusal { () async throws(DomainError) in
            _ = try await Self.repository(stub).firstPage(
                Self.stargazers, perPage: 30, withheld: .stargazers, of: Self.owner)
        }
        guard case .notFound? = error else {
            Issue.record("not a missing repository: \(String(describing: error))")
            return
        }
    }

    @Test func aMembersPageAnsweredFromThePublicMembersSaysSo() async throws {
        let org = ListOwner.organization(try Login(validating: "github"))
        let members = GitHubEndpoints.members(under: org, filters: [:])
        let stub = StubTransport()
        stub.register(
            RequestMatcher("GET /orgs/github/members?per_page=30"), body: Data(#"[{"login":"a","id":1}]"#.utf8),
            redirectedTo: "/orgs/github/public_members?per_page=30")
        let redirected = try await Self.repository(stub).firstPage(members, perPage: 30)
        #expect(redirected.answeredPath == "/orgs/github/public_members")
        #expect(redirected.items.map(\.login) == ["a"])

        let plain = StubTransport()
        plain.register(
            RequestMatcher("GET /orgs/github/members?per_page=30"), body: Data(#"[{"login":"a","id":1}]"#.utf8))
        #expect(try await Self.repository(plain).firstPage(members, perPage: 30).answeredPath == nil)
        #expect(stub.unusedStubs.isEmpty && plain.unusedStubs.isEmpty)
    }

    @Test func anInstallationTokenHasNoAccountAndAnyOtherRefusalIsThrown() async throws {
        let app = StubTransport()
        app.stub(
            "https://api.github.com/user", status: 403, body: #"{"message":"Resource not accessible by integration"}"#)
        #expect(try await Self.repository(app).tokenAccount() == nil)

        let user = StubTransport()
        user.stub("https://api.github.com/user", body: #"{"login":"mona","id":7}"#)
        #expect(try await Self.repository(user).tokenAccount()?.id == 7)

        let refused = StubTransport()
        refused.stub("https://api.github.com/user", status: 403, body: #"{"message":"Bad credentials"}"#)
        let error = await Self.refusal { () async throws(DomainError) in
            _ = try await Self.repository(refused).tokenAccount()
        }
        #expect(error != nil)
    }

    /// GraphQL's last page of stargazers, holding account 9.
    private static func oneStargazerPage(totalCount: Int) -> Data {
        Data(
            (#"{"data":{"repository":{"stargazers":{"totalCount":\#(totalCount),"pageInfo":{"hasNextPage":false,"#
                + #""endCursor":null},"edges":[{"starredAt":"2020-01-01T00:00:00Z","node":{"databaseId":9,"#
                + #""id":"U_9","login":"nine","url":"https://github.com/nine","avatarUrl":"https://a/9","#
                + #""isSiteAdmin":false}}]}}}}"#).utf8)
    }

    @Test func stargazersPastRESTsReachAreReadThroughGraphQLFromTheStart() async throws {
        let stub = StubTransport()
        stub.stub("https://api.github.com/repos/octo/app", body: #"{"id":1,"stargazers_count":40001}"#)
        stub.register(
            RequestMatcher("POST /graphql"),
            body: Self.oneStargazerPage(totalCount: 40001))
        let reading = StargazerReading(
            of: Self.repositoryName, plan: PagingPlan(limit: .all, requestedPerPage: 100), viaGraphQL: false,
            github: Self.repository(stub))
        let first = try await reading.page(at: nil, nextPage: nil)
        #expect(reading.takeover != nil)
        #expect(first.items.map(\.id) == [9])
        #expect(stub.unusedStubs.isEmpty)
    }

    /// A page of stargazers through GraphQL cannot be asked for smaller: GitHub's 502 is sent again, as a GET's
    /// is (before: exit 1 at the first 502 of a long crawl).
    @Test func aGraphQLStargazerPageThatRanOutOfTimeIsAskedAgain() async throws {
        let stub = StubTransport()
        stub.register(RequestMatcher("POST /graphql"), status: 502, body: Data("<html>".utf8))
        stub.register(
            RequestMatcher("POST /graphql"),
            body: Self.oneStargazerPage(totalCount: 1))
        let page = try await Self.repository(stub, retries: 1).stargazers(
            of: Self.repositoryName, after: nil, leavingOut: [])
        #expect(page.records.map(\.id) == [9])
        #expect(stub.received.count == 2)
        #expect(stub.problems.isEmpty, "\(stub.problems)")
    }

    @Test func stargazersWithinRESTsReachAreReadThroughRESTKeyedByTheUsersID() async throws {
        let stub = StubTransport()
        stub.stub(
            "https://api.github.com/repos/octo/app/stargazers?per_page=30",
            body: #"[{"starred_at":"2020-01-01T00:00:00Z","user":{"login":"nine","id":9}}]"#)
        let reading = StargazerReading(
            of: Self.repositoryName, plan: PagingPlan(limit: .count(30), requestedPerPage: 30), viaGraphQL: false,
            github: Self.repository(stub))
        let first = try await reading.page(at: nil, nextPage: nil)
        #expect(reading.takeover == nil)
        #expect(first.items.map(\.id) == [9])
        #expect(stub.unusedStubs.isEmpty)
    }

    private static func accounts(_ ids: ClosedRange<Int>) -> String {
        "[" + ids.map { #"{"login":"u\#($0)","id":\#($0)}"# }.joined(separator: ",") + "]"
    }

    @Test func watchersAreTheFirstPageThenItsLinkAndAWithheldFirstPageIsRefused() async throws {
        let stub = StubTransport()
        let second = "https://api.github.com/repositories/1/subscribers?per_page=2&page=2"
        stub.stub(
            "https://api.github.com/repos/octo/app/subscribers?per_page=2",
            headers: [("Link", "<\(second)>; rel=\"next\"")],
            body: Self.accounts(1...2))
        stub.stub(second, body: Self.accounts(3...3))
        let watchers = Self.repository(stub).watchers(of: Self.owner, perPage: 2)
        let first = try await watchers.page(at: nil, nextPage: nil)
        #expect(first.items.map(\.id) == [1, 2])
        #expect(first.next?.url == second)
        let last = try await watchers.page(at: PageCursor(url: second), nextPage: nil)
        #expect(last.items.map(\.id) == [3])
        #expect(last.next == nil)
        #expect(stub.problems.isEmpty, "\(stub.problems)")

        let withheld = Self.refusing("subscribers", perPage: 2, counted: #""subscribers_count":3"#)
        let error = await Self.refusal { () async throws(DomainError) in
            _ = try await Self.repository(withheld).watchers(of: Self.owner, perPage: 2).page(at: nil, nextPage: nil)
        }
        guard case .unauthorized(403, _, .withheld("octo/app", "watchers"), _)? = error else {
            Issue.record("not withheld: \(String(describing: error))")
            return
        }
        #expect(withheld.problems.isEmpty, "\(withheld.problems)")
    }

    private static func teamPage(_ logins: [(Int, String)], role: String, next: String?) -> Data {
        let edges = logins.map { id, login in
            #"{"role":"\#(role)","node":{"databaseId":\#(id),"id":"U_\#(id)","login":"\#(login)","#
                + #""url":"https://github.com/\#(login)","avatarUrl":"https://a/\#(id)","isSiteAdmin":false}}"#
        }
        let info = next.map { #"{"hasNextPage":true,"endCursor":"\#($0)"}"# } ?? #"{"hasNextPage":false}"#
        return Data(
            (#"{"data":{"organization":{"team":{"members":{"totalCount":3,"edges":["# + edges.joined(separator: ",")
                + #"],"pageInfo":"# + info + "}}}}}").utf8)
    }

    /// The variables a GraphQL request sent, as JSON text.
    private static func variables(_ request: HTTPRequest) throws -> [String: Any] {
        let body = try #require(request.body)
        let object = try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
        return try #require(object["variables"] as? [String: Any])
    }

    /// A page of a team's own members cannot be asked for smaller either: its 504 is sent again.
    @Test func aTeamMembersPageThatRanOutOfTimeIsAskedAgain() async throws {
        let stub = StubTransport()
        stub.register(RequestMatcher("POST /graphql"), status: 504, body: Data("<html>".utf8))
        stub.register(RequestMatcher("POST /graphql"), body: Self.teamPage([(1, "ann")], role: "MEMBER", next: nil))
        let team = try TeamName(validating: "github/justice-league")
        let page = try await Self.repository(stub, retries: 1).directMembers(of: team, restRole: "all", perPage: 30)
            .page(at: nil, nextPage: nil)
        #expect(page.items.map(\.login) == ["ann"])
        #expect(stub.received.count == 2)
    }

    @Test func aTeamsOwnMembersArePagedThroughGraphQLWithRESTsRoleAsGraphQLs() async throws {
        let stub = StubTransport()
        stub.register(
            RequestMatcher("POST /graphql"), body: Self.teamPage([(1, "ann")], role: "MAINTAINER", next: "c1"))
        stub.register(RequestMatcher("POST /graphql"), body: Self.teamPage([(2, "bo")], role: "MAINTAINER", next: nil))
        let team = try TeamName(validating: "github/justice-league")
        let members = Self.repository(stub).directMembers(of: team, restRole: "maintainer", perPage: 2)
        let first = try await members.page(at: nil, nextPage: nil)
        #expect(first.items.map(\.login) == ["ann"])
        #expect(first.next?.url == "c1")
        #expect(
            first.items.first.map { String(decoding: $0.raw.bytes, as: UTF8.self) }?.hasSuffix(
                #""role":"maintainer","inherited":false}"#) == true)
        let last = try await members.page(at: PageCursor(url: "c1"), nextPage: nil)
        #expect(last.items.map(\.login) == ["bo"])
        #expect(last.next == nil)
        #expect(stub.problems.isEmpty, "\(stub.problems)")
        let sent = try stub.received.map(Self.variables)
        #expect(sent.map { $0["role"] as? String } == ["MAINTAINER", "MAINTAINER"])
        #expect(sent.map { $0["first"] as? Int } == [2, 2])
        #expect(sent.map { $0["after"] as? String } == [nil, "c1"])
        #expect(sent.map { $0["team"] as? String } == ["justice-league", "justice-league"])

        let all = StubTransport()
        all.register(RequestMatcher("POST /graphql"), body: Self.teamPage([(1, "ann")], role: "MEMBER", next: nil))
        _ = try await Self.repository(all).directMembers(of: team, restRole: "all", perPage: 30).page(
            at: nil, nextPage: nil)
        #expect(try all.received.map(Self.variables).map { $0["role"] is NSNull } == [true])
    }
}

/// Edges of the July 2026 check no test reached (mutation round 11).
extension PeopleListPagesTests {
    /// GitHub's words are added only where they say more than the status: a bare "Forbidden" is not repeated as
    /// "(GitHub said: Forbidden)" (M11-81).
    @Test func aBareStatusPhraseIsNotRepeatedAsGitHubsWords() async throws {
        let message = try #require(await Self.withheldMessage(#"{"message":"Forbidden"}"#))
        #expect(
            message == "since July 2026 GitHub lists a repository's stargazers only to its admins and collaborators")
    }

    /// An empty first page that links to a next one is a page of the list, not the list withheld: the next page
    /// is read, and the repository is not asked for (M11-74).
    @Test func anEmptyFirstPageWithANextLinkIsNoRefusal() async throws {
        let stub = StubTransport()
        stub.stub(
            "https://api.github.com/repos/octo/app/stargazers?per_page=30",
            headers: [("Link", #"<https://api.github.com/repositories/1/stargazers?per_page=30&page=2>; rel="next""#)],
            body: "[]")
        let page = try await Self.repository(stub).firstPage(
            Self.stargazers, perPage: 30, withheld: .stargazers, of: Self.owner)
        #expect(page.items.isEmpty)
        #expect(page.next?.url == "https://api.github.com/repositories/1/stargazers?per_page=30&page=2")
        #expect(stub.unusedStubs.isEmpty)
        #expect(stub.received.count == 1)
    }
}
