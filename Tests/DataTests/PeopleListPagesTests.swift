import Foundation
import Networking
import TestSupport
import Testing

@testable import Data
@testable import Domain

/// What Data decides for the people lists: the July 2026 check of a repository's stargazers and watchers, the
/// public members' redirect, the token's own account, and where stargazers are read (REST or GraphQL). Over the
/// strict stub: every request is one these tests expect, and every expected one is sent.
struct PeopleListPagesTests {
    private static func repository(_ stub: StubTransport) -> GitHubRepository {
        GitHubRepository(
            client: HTTPClient(
                configuration: HTTPClientConfiguration(
                    baseURL: URL(string: "https://api.github.com")!, userAgent: "gh-users/test", token: "ghp_test"),
                transport: stub.transport, logger: .disabled, retryPolicy: RetryPolicy(maxRetries: 0)))
    }

    private static let owner = ListOwner.repository(try! RepositoryName(validating: "octo/app"))
    private static let stargazers = GitHubEndpoints.records(.stargazers, under: owner)

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
        let stub = StubTransport()
        stub.stub(
            "https://api.github.com/repos/octo/app/stargazers?per_page=30", status: 403,
            body: #"{"message":"Must have push access to view repository stargazers."}"#)
        stub.stub("https://api.github.com/repos/octo/app", body: #"{"id":1,"stargazers_count":5}"#)
        let error = await Self.refusal { () async throws(DomainError) in
            _ = try await Self.repository(stub).firstPage(
                Self.stargazers, perPage: 30, withheld: .stargazers, of: Self.owner)
        }
        guard case .unauthorized(403, let message, let problem, nil)? = error else {
            Issue.record("not withheld: \(String(describing: error))")
            return
        }
        #expect(
            message == "since July 2026 GitHub lists a repository's stargazers only to its admins and collaborators")
        #expect(problem == .withheld(repository: "octo/app"))
        #expect(!message.contains("--") && !message.contains("gh-users"))
        #expect(stub.unusedStubs.isEmpty)
    }

    @Test func anEmptyFirstPageOfACountedListIsWithheldAndOfAnEmptyOneIsNot() async throws {
        let stub = StubTransport()
        stub.stub("https://api.github.com/repos/octo/app/subscribers?per_page=30", body: "[]")
        stub.stub("https://api.github.com/repos/octo/app", body: #"{"id":1,"subscribers_count":2}"#)
        let watchers = GitHubEndpoints.accounts(.watchers, under: Self.owner)
        let error = await Self.refusal { () async throws(DomainError) in
            _ = try await Self.repository(stub).firstPage(watchers, perPage: 30, withheld: .watchers, of: Self.owner)
        }
        guard case .unauthorized(200, let message, .withheld("octo/app"), _)? = error else {
            Issue.record("not withheld: \(String(describing: error))")
            return
        }
        #expect(message.hasPrefix("an empty list, of 2; since July 2026 GitHub lists a repository's watchers"))

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

    @Test func stargazersPastRESTsReachAreReadThroughGraphQLFromTheStart() async throws {
        let stub = StubTransport()
        stub.stub("https://api.github.com/repos/octo/app", body: #"{"id":1,"stargazers_count":40001}"#)
        stub.register(
            RequestMatcher("POST /graphql"),
            body: Data(
                (#"{"data":{"repository":{"stargazers":{"totalCount":40001,"pageInfo":{"hasNextPage":false,"#
                    + #""endCursor":null},"edges":[{"starredAt":"2020-01-01T00:00:00Z","node":{"databaseId":9,"#
                    + #""id":"U_9","login":"nine","url":"https://github.com/nine","avatarUrl":"https://a/9","#
                    + #""isSiteAdmin":false}}]}}}}"#).utf8))
        let reading = try #require(
            StargazerReading(
                of: Self.owner, plan: PagingPlan(limit: .all, requestedPerPage: 100), viaGraphQL: false,
                github: Self.repository(stub)))
        let first = try await reading.page(at: nil)
        #expect(first.passedRESTCap)
        #expect(first.page.items.map(\.id) == [9])
        #expect(stub.unusedStubs.isEmpty)
    }

    @Test func stargazersWithinRESTsReachAreReadThroughRESTKeyedByTheUsersID() async throws {
        let stub = StubTransport()
        stub.stub(
            "https://api.github.com/repos/octo/app/stargazers?per_page=30",
            body: #"[{"starred_at":"2020-01-01T00:00:00Z","user":{"login":"nine","id":9}}]"#)
        let reading = try #require(
            StargazerReading(
                of: Self.owner, plan: PagingPlan(limit: .count(30), requestedPerPage: 30), viaGraphQL: false,
                github: Self.repository(stub)))
        let first = try await reading.page(at: nil)
        #expect(!first.passedRESTCap)
        #expect(first.page.items.map(\.id) == [9])
        #expect(stub.unusedStubs.isEmpty)
    }
}
