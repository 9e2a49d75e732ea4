import Foundation
import Networking
import TestSupport
import Testing

@testable import Data
@testable import Domain

private func repository(_ stub: StubTransport, base: String = "https://api.github.com") -> GitHubRepository {
    GitHubRepository(
        client: HTTPClient(
            configuration: HTTPClientConfiguration(baseURL: URL(string: base)!, userAgent: "gh-users/test"),
            transport: stub.transport,
            logger: .disabled,
            // Retrying is the client's business and is tested there; here each stub answers once.
            retryPolicy: RetryPolicy(maxRetries: 0)
        )
    )
}

struct GitHubRepositoryTests {
    @Test func decodesGitHubsDocumentedListAndFollowsItsLink() async throws {
        let stub = StubTransport()
        stub.stub(
            "https://api.github.com/users?since=0&per_page=1",
            headers: [("Link", #"<https://api.github.com/users?since=1>; rel="next""#)],
            body: try fixture("users-list.json")
        )
        let page = try await repository(stub).firstPage(GitHubEndpoints.users(since: 0), perPage: 1)
        #expect(page.items.map(\.login) == ["octocat"])
        #expect(page.items.first?.type == .user)
        #expect(page.items.first?.htmlURL == "https://github.com/octocat")
        #expect(page.next == PageCursor(url: "https://api.github.com/users?since=1"))
        #expect(stub.unusedStubs.isEmpty)
    }

    @Test func keepsEachElementsExactBytes() async throws {
        let body =
            #"[{"login":"a","id":1,"extra":{"nested":[1,2]},"name":null} , {"login":"b","id":3,"type":"Organization"}]"#
        let stub = StubTransport()
        stub.stub("https://api.github.com/users?since=0&per_page=2", body: body)
        let users = try await repository(stub).firstPage(GitHubEndpoints.users(since: 0), perPage: 2).items
        #expect(
            users.map { String(decoding: $0.raw.bytes, as: UTF8.self) } == [
                #"{"login":"a","id":1,"extra":{"nested":[1,2]},"name":null}"#,
                #"{"login":"b","id":3,"type":"Organization"}"#,
            ])
        #expect(users[1].type == .organization)
        #expect(users.count == 2)
    }

    @Test func decodesAProfileWithEveryField() async throws {
        let stub = StubTransport()
        stub.stub(
            "https://api.github.com/users/octocat",
            body: try fixture("users-get-by-username.public-user-with-plan.json"))
        let user = try await repository(stub).user(login: try Login(validating: "octocat"))
        #expect(user.name == "monalisa octocat")
        #expect(user.followers == 20)
        #expect(user.createdAt == Date(timeIntervalSince1970: 1_200_285_215))
        // The raw object keeps fields the entity does not model, such as "plan".
        let raw = try JSONSerialization.jsonObject(with: Data(user.raw.bytes)) as? [String: Any]
        #expect(raw?["plan"] != nil)
        #expect(raw?.count == 33)
    }

    @Test func encodesTheLoginAsOnePathSegment() async throws {
        let stub = StubTransport()
        stub.stub(
            "https://ghe.example/api/v3/users/dependabot%5Bbot%5D",
            body: #"{"login":"dependabot[bot]","id":49699333,"type":"Bot"}"#)
        let user = try await repository(stub, base: "https://ghe.example/api/v3/").user(
            login: try Login(validating: "dependabot[bot]"))
        #expect(user.type == .bot)
        #expect(stub.unusedStubs.isEmpty)
    }

    @Test(arguments: [
        (404, [(String, String)](), #"{"message":"Not Found"}"#, DomainError.notFound(resource: "user 'ghost'")),
        (401, [], #"{"message":"Bad credentials"}"#, .unauthorized(status: 401, message: "Bad credentials")),
        (
            403, [], #"{"message":"Resource not accessible"}"#,
            .unauthorized(status: 403, message: "Resource not accessible")
        ),
        (
            403, [("X-RateLimit-Remaining", "0"), ("X-RateLimit-Reset", "1700000000")],
            #"{"message":"API rate limit exceeded"}"#,
            .rateLimited(resetAt: Date(timeIntervalSince1970: 1_700_000_000), message: "API rate limit exceeded")
        ),
        (
            429, [("x-ratelimit-remaining", "0")], #"{"message":"API rate limit exceeded"}"#,
            .rateLimited(resetAt: nil, message: "API rate limit exceeded")
        ),
        (
            403, [("x-ratelimit-remaining", "4000")], #"{"message":"Must have admin rights"}"#,
            .unauthorized(status: 403, message: "Must have admin rights")
        ),
        (502, [], "<html>Bad gateway</html>", .server(status: 502, message: "Bad Gateway")),
    ])
    func mapsStatusesToDomainErrors(status: Int, headers: [(String, String)], body: String, expected: DomainError)
        async throws
    {
        let stub = StubTransport()
        stub.stub("https://api.github.com/users/ghost", status: status, headers: headers, body: body)
        await #expect(throws: expected) {
            try await repository(stub).user(login: try Login(validating: "ghost"))
        }
    }

    @Test(arguments: [
        #"[{"login": "broken","#, #"{"login":"not-an-array","id":1}"#, #"[{"login":"no-id"}]"#,
        #"[{"login":"a","id":"one"}]"#,
    ])
    func refusesMalformedPages(body: String) async throws {
        let stub = StubTransport()
        stub.stub("https://api.github.com/users?since=0&per_page=30", body: body)
        do {
            _ = try await repository(stub).firstPage(GitHubEndpoints.users(since: 0), perPage: 30)
            Issue.record("a malformed page was accepted")
        } catch {
            guard case .malformedResponse(let endpoint, _, _) = error else {
                Issue.record("expected malformedResponse, got \(error)")
                return
            }
            #expect(endpoint == "GET /users?since=0&per_page=30")
        }
    }

    @Test func mapsTransportFailuresToNetworkErrors() async throws {
        let stub = StubTransport()
        stub.fail("https://api.github.com/users?since=0&per_page=30", with: .connectionLost)
        do {
            _ = try await repository(stub).firstPage(GitHubEndpoints.users(since: 0), perPage: 30)
            Issue.record("a lost connection was not an error")
        } catch {
            guard case .network(let detail, let advice, _) = error else {
                Issue.record("expected a network error, got \(error)")
                return
            }
            // What was tried and what to check (NetworkMessageTests has the whole text).
            #expect(detail.hasPrefix("the connection was lost, after 1 attempt over "))
            #expect(advice == [.checkAPIRoot(URL(string: "https://api.github.com")!, timedOut: false)])
        }
    }

    @Test func refusesANextLinkThatIsNotHTTP() async throws {
        let stub = StubTransport()
        await #expect(throws: DomainError.self) {
            try await repository(stub).page(GitHubEndpoints.users(since: 0), at: PageCursor(url: "file:///etc/passwd"))
        }
        #expect(stub.received.isEmpty)
    }
}

struct GitHubEndpointsTests {
    @Test(arguments: [
        ("octocat", "octocat"), ("dependabot[bot]", "dependabot%5Bbot%5D"), ("../x", "..%2Fx"),
        ("a?b#c", "a%3Fb%23c"), ("..", "%2E%2E"), (".", "%2E"), ("github3.py", "github3.py"), (".github", ".github"),
        ("é", "%C3%A9"),
    ])
    func encodesPathSegments(raw: String, encoded: String) {
        #expect(URLEncoding.pathSegment(raw) == encoded)
    }

    @Test func buildsListURLsUnderAnyRoot() async throws {
        let stub = StubTransport()
        stub.stub("https://ghe.example/api/v3/users?since=7&per_page=100", body: "[]")
        _ = try await repository(stub, base: "https://ghe.example/api/v3").firstPage(
            GitHubEndpoints.users(since: 7), perPage: 100)
        #expect(stub.unusedStubs.isEmpty)
    }

    @Test func sendsOnlyTheRepoParametersThatWereChosen() throws {
        let login = try Login(validating: "octocat")
        #expect(
            GitHubEndpoints.repos(of: login, query: RepoQuery(sort: .pushed)).firstPage(perPage: 5).target
                == "/users/octocat/repos?sort=pushed&per_page=5")
        #expect(
            GitHubEndpoints.records(.keys, of: login).firstPage(perPage: 30).target
                == "/users/octocat/keys?per_page=30")
        #expect(
            GitHubEndpoints.records(.starred, of: login, query: ["sort": nil, "direction": "asc"])
                .firstPage(perPage: 30).target == "/users/octocat/starred?direction=asc&per_page=30")
    }

    @Test func recordsKeepTheirBytesAndTheirNumericID() async throws {
        let stub = StubTransport()
        let body = #"[{"id":7,"key":"ssh-ed25519 AAAA"},{"key":"no id"}]"#
        stub.stub("https://api.github.com/users/octocat/keys?per_page=30", body: body)
        let page = try await repository(stub).firstPage(
            GitHubEndpoints.records(.keys, of: try Login(validating: "octocat")), perPage: 30)
        #expect(page.items.map(\.id) == [7, nil])
        #expect(String(decoding: page.items[1].raw.bytes, as: UTF8.self) == #"{"key":"no id"}"#)
    }
}

/// How Data fetches a list's pages for the pager (`ListedPages`) and an account a `show` names: the requests sent
/// to the strict stub, which fails on any other.
struct ListedPagesTests {
    /// The first page asks for `per_page`; every later one is the `Link` the page before named, as sent.
    @Test func theFirstPageHasItsSizeAndTheNextIsTheLinkNamed() async throws {
        let stub = StubTransport()
        stub.stub(
            "https://api.github.com/users/octocat/followers?per_page=2",
            headers: [("Link", #"<https://api.github.com/user/583231/followers?per_page=2&page=2>; rel="next""#)],
            body: #"[{"login":"a","id":1},{"login":"b","id":2}]"#)
        stub.stub(
            "https://api.github.com/user/583231/followers?per_page=2&page=2", body: #"[{"login":"c","id":3}]"#)
        let pages = repository(stub).pages(
            of: GitHubEndpoints.relations(.followers, of: try Login(validating: "octocat")), perPage: 2)
        let first = try await pages.page(at: nil, nextPage: nil)
        #expect(first.items.map(\.login) == ["a", "b"])
        #expect(first.next?.url == "https://api.github.com/user/583231/followers?per_page=2&page=2")
        let second = try await pages.page(at: first.next, nextPage: nil)
        #expect(second.items.map(\.login) == ["c"])
        #expect(second.next == nil)
        #expect(stub.unusedStubs.isEmpty)
    }

    /// A 404 of an organization's first page asks for the organization: when it is a 404 too, the organization
    /// is what is missing.
    @Test func aFirstPageThatIsA404AsksForItsOwner() async throws {
        let stub = StubTransport()
        stub.stub(
            "https://api.github.com/orgs/no-such-org/members?per_page=30", status: 404,
            body: #"{"message":"Not Found"}"#)
        stub.stub("https://api.github.com/orgs/no-such-org", status: 404, body: #"{"message":"Not Found"}"#)
        let org = try Login(validating: "no-such-org")
        let pages = repository(stub).pages(
            of: GitHubEndpoints.members(under: .organization(org), filters: [:]), perPage: 30)
        await #expect(throws: DomainError.notFound(resource: "organization 'no-such-org'")) {
            _ = try await pages.page(at: nil, nextPage: nil)
        }
        #expect(stub.unusedStubs.isEmpty)
    }

    /// `show` names an account by login or by id; each is its own request.
    @Test func anAccountIsLookedUpByLoginOrByID() async throws {
        let stub = StubTransport()
        stub.stub("https://api.github.com/users/octocat", body: #"{"login":"octocat","id":583231}"#)
        stub.stub("https://api.github.com/user/583231", body: #"{"login":"octocat","id":583231}"#)
        let github = repository(stub)
        #expect(try await github.user(.login(try Login(validating: "octocat"))).id == 583231)
        #expect(try await github.user(.id(583231)).login == "octocat")
        #expect(stub.unusedStubs.isEmpty)
    }
}
