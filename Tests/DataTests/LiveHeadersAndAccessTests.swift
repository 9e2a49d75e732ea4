import AtomicLogger
import Foundation
import Networking
import TestSupport
import Testing

@testable import Data
@testable import Domain

/// Issue 19.6: a 304 answers with the stored body, but the headers that describe this request (the token's
/// scopes, the rate limit, the request id) are the live answer's.
struct RevalidatedHeadersTests {
    private let userURL = "https://api.github.com/user"
    private let body = #"{"login":"octocat","id":1,"type":"User","site_admin":false}"#

    @Test func a304CarriesItsOwnScopesAndRateLimitNotTheStoredOnes() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gh-users-304-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let stub = StubTransport()
        stub.stub(
            userURL,
            headers: [
                ("ETag", #"W/"1""#), ("Content-Type", "application/json"), ("X-OAuth-Scopes", "repo"),
                ("X-RateLimit-Remaining", "4999"),
            ], body: body)
        stub.stub(
            userURL, status: 304,
            headers: [
                ("ETag", #"W/"1""#), ("X-OAuth-Scopes", "read:user, repo"), ("X-RateLimit-Remaining", "4998"),
                ("X-GitHub-Request-Id", "ABCD:1234"),
            ], body: "")
        let repository = GitHubRepository(
            client: HTTPClient(
                configuration: HTTPClientConfiguration(
                    baseURL: URL(string: "https://api.github.com")!, userAgent: "t", token: "tok"),
                transport: stub.transport, logger: .disabled, retryPolicy: RetryPolicy(maxRetries: 0)),
            cache: CacheSettings(
                store: DiskResponseCache(directory: directory, limitBytes: 1_000_000), mode: .readWrite))
        let first = try await repository.fetch(GitHubEndpoints.authenticatedUser)
        #expect(first.scopes == ["repo"])
        let second = try await repository.fetch(GitHubEndpoints.authenticatedUser)
        #expect(stub.received.last?.headers["If-None-Match"] == #"W/"1""#)
        #expect(second.scopes == ["read:user", "repo"])
        #expect(second.user.login == "octocat")
        #expect(stub.unusedStubs.isEmpty)
    }
}

/// Issue 20.19: `--verbose` says when the cache answered without the network.
struct OfflineVerboseTests {
    @Test func anOfflineAnswerIsOneInfoLine() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gh-users-offline-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = "https://api.github.com/users/octocat"
        let stub = StubTransport()
        stub.stub(url, headers: [("ETag", #"W/"1""#)], body: #"{"login":"octocat","id":1}"#)
        let handler = InMemoryLogHandler()
        func repository(_ mode: CacheMode) -> GitHubRepository {
            GitHubRepository(
                client: HTTPClient(
                    configuration: HTTPClientConfiguration(
                        baseURL: URL(string: "https://api.github.com")!, userAgent: "t"),
                    transport: stub.transport, logger: .disabled, retryPolicy: RetryPolicy(maxRetries: 0)),
                cache: CacheSettings(store: DiskResponseCache(directory: directory, limitBytes: 1_000_000), mode: mode),
                logger: Logger(label: "t", level: .info, handler: handler))
        }
        _ = try await repository(.readWrite).user(login: Login(validating: "octocat"))
        let user = try await repository(.offline).user(login: Login(validating: "octocat"))
        #expect(user.login == "octocat")
        #expect(handler.entries.map(\.message) == ["GET /users/octocat: from the cache, offline"])
        #expect(stub.received.count == 1)
    }
}

/// Issue 19.9 (a) and (d): a spent limit names its bucket, and a 403 talks of scopes only when it is about them.
struct RateLimitBucketAndAccessMappingTests {
    private func answer(_ status: Int, _ url: String, _ headers: [(String, String)], message: String) -> HTTPResponse {
        HTTPResponse(
            status: status, headers: HTTPHeaders(headers.map { (name: $0.0, value: $0.1) }),
            body: Data(#"{"message":"\#(message)"}"#.utf8), url: URL(string: url)!)
    }

    @Test func aSpentLimitNamesItsBucket() {
        let named = answer(
            403, "https://api.github.com/search/users?q=a",
            [("x-ratelimit-remaining", "0"), ("x-ratelimit-resource", "search"), ("x-ratelimit-reset", "1700000060")],
            message: "API rate limit exceeded for 127.0.0.1.")
        #expect(
            ErrorMapping.domainError(for: named, resource: "search")
                == .rateLimited(
                    resetAt: Date(timeIntervalSince1970: 1_700_000_060),
                    message: "API rate limit exceeded for 127.0.0.1.",
                    resource: "search"))
        // An older server that names no bucket: the search path says it.
        let unnamed = answer(
            403, "https://ghe.example.com/api/v3/search/users?q=a", [("x-ratelimit-remaining", "0")], message: "m")
        #expect(ErrorMapping.domainError(for: unnamed, resource: "s") == .rateLimited(resetAt: nil, message: "m"))
        let search = answer(
            403, "https://api.github.com/search/users?q=a", [("x-ratelimit-remaining", "0")], message: "m")
        #expect(
            ErrorMapping.domainError(for: search, resource: "s")
                == .rateLimited(resetAt: nil, message: "m", resource: "search"))
        let core = answer(
            403, "https://api.github.com/users", [("x-ratelimit-remaining", "0"), ("x-ratelimit-resource", "core")],
            message: "m")
        #expect(
            ErrorMapping.domainError(for: core, resource: "u")
                == .rateLimited(resetAt: nil, message: "m", resource: "core"))
    }

    @Test(arguments: [
        // No User-Agent, as GitHub's front end answers it.
        "Request forbidden by administrative rules. Please make sure your request has a User-Agent header",
        "Resource not accessible by personal access token",
        "Repository access blocked",
    ])
    func a403ThatSaysNothingOfScopesIsUnstated(message: String) {
        let refused = answer(403, "https://api.github.com/users/octocat", [], message: message)
        #expect(
            ErrorMapping.domainError(for: refused, resource: "u")
                == .unauthorized(status: 403, message: message, problem: .unstated))
    }

    @Test func a403AboutScopesOrSingleSignOnSaysSo() {
        let lacking = answer(
            403, "https://api.github.com/user/following/a",
            [("X-OAuth-Scopes", "repo"), ("X-Accepted-OAuth-Scopes", "user, user:follow")], message: "Forbidden")
        #expect(
            ErrorMapping.domainError(for: lacking, resource: "u")
                == .unauthorized(status: 403, message: "Forbidden", problem: .scope(accepted: "user, user:follow")))
        // The token has one of the scopes: whatever the refusal is, it is not a missing scope.
        let having = answer(
            403, "https://api.github.com/user/following/a",
            [("X-OAuth-Scopes", "user"), ("X-Accepted-OAuth-Scopes", "user, user:follow")], message: "Blocked")
        #expect(ErrorMapping.domainError(for: having, resource: "u") == .unauthorized(status: 403, message: "Blocked"))
        let sso = answer(
            403, "https://api.github.com/orgs/o",
            [("X-GitHub-SSO", "required; url=https://github.com/orgs/o/sso?authorization_request=X")],
            message: "Resource protected by organization SAML enforcement.")
        #expect(
            ErrorMapping.domainError(for: sso, resource: "o")
                == .unauthorized(
                    status: 403, message: "Resource protected by organization SAML enforcement.",
                    problem: .singleSignOn(url: "https://github.com/orgs/o/sso?authorization_request=X")))
    }
}

struct TokenExpiryTests {
    /// The expiry GitHub writes, and nothing else.
    @Test(arguments: [
        ("2021-10-22 18:28:46 UTC", 1_634_927_326.0), ("2021-10-22T18:28:46 UTC", nil),
        ("2021-13-22 18:28:46 UTC", nil),
        ("2021-10-22 18:28:46 CET", nil), ("2021-10-22 18:28:4x UTC", nil), ("", nil),
        // helper-316's: a day or a second that is not, separators swapped, signs, short fields, year 0.
        ("2021-02-31 18:28:46 UTC", nil), ("2021-10-22 18:28:60 UTC", nil), ("2021:10:22-18-28-46 UTC", nil),
        ("2021-+1-22 18:28:46 UTC", nil), ("2021-1-022 18:28:46 UTC", nil), ("-021-10-22 18:28:46 UTC", nil),
        ("0000-10-22 18:28:46 UTC", nil), ("2024-02-29 00:00:00 UTC", 1_709_164_800.0),
        // With the zone's offset, as google/go-github#2650 and #3708 show it.
        ("2025-09-05 17:55:53 +0500", 1_757_076_953.0), ("2021-10-22 18:28:46 -0330", 1_634_939_926.0),
        ("2021-10-22 18:28:46 +2400", nil), ("2021-10-22 18:28:46 0500", nil), ("2021-10-22 18:28:46 +05:0", nil),
    ])
    func theExpiryDateIsReadStrictly(text: String, seconds: Double?) {
        #expect(TokenExpiry.date(text) == seconds.map(Date.init(timeIntervalSince1970:)))
    }
}
