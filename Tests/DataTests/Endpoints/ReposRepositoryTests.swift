import Foundation
import Networking
import TestSupport
import Testing

@testable import Data
@testable import Domain

private func fixture(_ name: String) throws -> String {
    let url = try #require(Bundle.module.url(forResource: "Fixtures/\(name)", withExtension: nil))
    return try String(contentsOf: url, encoding: .utf8)
}

private func client(_ stub: StubTransport) -> HTTPClient {
    HTTPClient(
        configuration: HTTPClientConfiguration(baseURL: URL(string: "https://api.github.com")!, userAgent: "t"),
        transport: stub.transport,
        logger: .disabled,
        retryPolicy: RetryPolicy(maxRetries: 0)
    )
}

struct ReposRepositoryTests {
    @Test func decodesGitHubsDocumentedListAndSendsOnlyChosenParameters() async throws {
        let stub = StubTransport()
        stub.stub(
            "https://api.github.com/users/octocat/repos?sort=pushed&direction=asc&per_page=5",
            headers: [
                (
                    "Link",
                    #"<https://api.github.com/user/1/repos?sort=pushed&direction=asc&per_page=5&page=2>; rel="next""#
                )
            ],
            body: try fixture("repos-list-for-user.json")
        )
        let page = try await GitHubRepository(client: client(stub)).firstPage(
            GitHubEndpoints.repos(
                of: try Login(validating: "octocat"), query: RepoQuery(sort: .pushed, direction: .asc)),
            perPage: 5
        )
        let repo = try #require(page.items.first)
        #expect(repo.fullName == "octocat/Hello-World")
        #expect(repo.stargazers == 80)
        #expect(repo.forks == 9)
        #expect(!repo.fork)
        #expect(repo.language == nil)
        #expect(repo.pushedAt == Date(timeIntervalSince1970: 1_296_068_803))
        #expect(page.next?.url == "https://api.github.com/user/1/repos?sort=pushed&direction=asc&per_page=5&page=2")
        let raw = try #require(try JSONSerialization.jsonObject(with: Data(repo.raw.bytes)) as? [String: Any])
        #expect(raw["owner"] is [String: Any])
        #expect(stub.unusedStubs.isEmpty)
    }

    @Test func followsTheCursorExactly() async throws {
        let stub = StubTransport()
        stub.stub("https://api.github.com/user/1/repos?page=2", body: "[]")
        let page = try await GitHubRepository(client: client(stub)).page(
            GitHubEndpoints.repos(of: try Login(validating: "octocat"), query: RepoQuery()),
            at: PageCursor(url: "https://api.github.com/user/1/repos?page=2")
        )
        #expect(page.items.isEmpty)
        #expect(page.next == nil)
    }
}

struct SearchRepositoryTests {
    @Test func decodesTheEnvelopeAndKeepsEachItemsBytesWithItsScore() async throws {
        let stub = StubTransport()
        stub.stub(
            "https://api.github.com/search/users?q=followers%3A%3E100+type%3Aorg+location%3A%22San+Francisco%22&sort=followers&order=asc&per_page=30",
            body: try fixture("search-users.json")
        )
        let query = try UserSearchQuery(
            text: #"followers:>100 type:org location:"San Francisco""#, sort: .followers, order: .asc)
        let page = try await GitHubRepository(client: client(stub)).firstPage(
            GitHubEndpoints.searchUsers(query), perPage: 30)
        #expect(page.totalCount == 12)
        #expect(!page.incompleteResults)
        #expect(page.items.map(\.login) == ["mojombo"])
        let first = try #require(page.items.first)
        let raw = try #require(try JSONSerialization.jsonObject(with: Data(first.raw.bytes)) as? [String: Any])
        #expect(raw["score"] as? Int == 1)
        #expect(stub.unusedStubs.isEmpty)
    }

    @Test(arguments: [
        #"{"total_count":1}"#, #"{"total_count":1,"items":{}}"#, "[]", #"{"total_count":1,"items":[{"id":1}]}"#,
    ])
    func refusesBrokenEnvelopes(body: String) async throws {
        let stub = StubTransport()
        stub.stub("https://api.github.com/search/users?q=x&per_page=30", body: body)
        await #expect(throws: DomainError.self) {
            try await GitHubRepository(client: client(stub)).firstPage(
                GitHubEndpoints.searchUsers(try UserSearchQuery(text: "x")), perPage: 30)
        }
    }

    @Test(arguments: ["", "   ", "\n\t"])
    func anEmptyQueryIsRefusedBeforeAnyRequest(text: String) {
        #expect(throws: DomainError.self) { try UserSearchQuery(text: text) }
    }

    @Test(arguments: [
        ("mona", "mona"), ("a b", "a+b"), ("followers:>100", "followers%3A%3E100"),
        ("c++ & co=1#x", "c%2B%2B+%26+co%3D1%23x"),
        ("Zürich", "Z%C3%BCrich"),
    ])
    func encodesQueryValues(raw: String, encoded: String) {
        #expect(URLEncoding.queryValue(raw) == encoded)
    }
}

struct RateLimitRepositoryTests {
    @Test func decodesEveryBucketCoreAndSearchFirstAndKeepsTheBody() async throws {
        let stub = StubTransport()
        stub.stub("https://api.github.com/rate_limit", body: try fixture("rate-limit.json"))
        let overview = try await GitHubRepository(client: client(stub)).fetch(GitHubEndpoints.rateLimit)
        #expect(overview.buckets.prefix(2).map(\.resource) == ["core", "search"])
        #expect(overview.buckets.count == 10)
        let core = try #require(overview.buckets.first)
        #expect(
            core
                == RateLimitBucket(
                    resource: "core", limit: 5000, remaining: 4999, used: 1,
                    resetAt: Date(timeIntervalSince1970: 1_691_591_363)))
        let raw = try #require(try JSONSerialization.jsonObject(with: Data(overview.raw.bytes)) as? [String: Any])
        #expect(raw["rate"] != nil)
    }
}

struct MoreUsersEndpointsTests {
    @Test func userByIDAndRelations() async throws {
        let stub = StubTransport()
        stub.stub("https://api.github.com/user/583231", body: #"{"login":"octocat","id":583231}"#)
        stub.stub(
            "https://api.github.com/users/octocat/followers?per_page=100",
            headers: [("Link", #"<https://api.github.com/user/583231/followers?per_page=100&page=2>; rel="next""#)],
            body: try fixture("users-list.json")
        )
        let repository = GitHubRepository(client: client(stub))
        #expect(try await repository.user(id: 583231).login == "octocat")
        let page = try await repository.firstPage(
            GitHubEndpoints.relations(.followers, of: try Login(validating: "octocat")), perPage: 100)
        #expect(page.items.map(\.login) == ["octocat"])
        #expect(page.next?.url == "https://api.github.com/user/583231/followers?per_page=100&page=2")
        #expect(stub.unusedStubs.isEmpty)
    }

    @Test func aMissingIDNamesIt() async {
        let stub = StubTransport()
        stub.stub("https://api.github.com/user/9", status: 404, body: #"{"message":"Not Found"}"#)
        await #expect(throws: DomainError.notFound(resource: "account with id 9")) {
            try await GitHubRepository(client: client(stub)).user(id: 9)
        }
    }
}

struct SSHKeyFingerprintTests {
    @Test func matchesWhatSshKeygenPrints() {
        // `ssh-keygen -lf` on this key prints SHA256:M0zVlkNU/CNb/xsa/kHw6MgsZ3pJGdOWag4a/Yoe/OI.
        let key = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIFeg1HYPEm/rxYUARAheqzSzOKbYarlA9daYY0MPW4L2 test"
        #expect(SSHKeyFingerprint.sha256(of: key) == "SHA256:M0zVlkNU/CNb/xsa/kHw6MgsZ3pJGdOWag4a/Yoe/OI")
        #expect(
            SSHKeyFingerprint.sha256(of: "AAAAC3NzaC1lZDI1NTE5AAAAIFeg1HYPEm/rxYUARAheqzSzOKbYarlA9daYY0MPW4L2")
                == "SHA256:M0zVlkNU/CNb/xsa/kHw6MgsZ3pJGdOWag4a/Yoe/OI")
    }

    @Test(arguments: [
        "", "ssh-rsa AAA...", "ssh-rsa !!!!", "ssh-rsa AAAAB3NzaC1yc2EAAA",
        "ssh-rsa AAAAC3NzaC1lZDI1NTE5AAAAIFeg1HYPEm/rxYUARAheqzSzOKbYarlA9daYY0MPW4L2",
        "2Sg8iYjAxxmI2LvUXpJjkYrMxURPc8r+dB7TJyvv1234",
    ])
    func aMalformedKeyHasNone(key: String) {
        #expect(SSHKeyFingerprint.sha256(of: key) == nil)
    }
}

struct MediaTypeTests {
    @Test func starsAreAskedForAsStarJSON() async throws {
        let stub = StubTransport()
        let url = "https://api.github.com/users/octocat/starred?per_page=30"
        stub.stub(url, headers: [("ETag", #""s1""#)], body: #"[{"starred_at":"2011-01-16T19:06:43Z","repo":{"id":1}}]"#)
        let login = try Login(validating: "octocat")
        let page = try await GitHubRepository(client: client(stub)).firstPage(
            GitHubEndpoints.records(.starred, of: login), perPage: 30)
        #expect(page.items.count == 1)
        let request = try #require(stub.received.first)
        #expect(request.headers["Accept"] == "application/vnd.github.star+json")
    }
}
