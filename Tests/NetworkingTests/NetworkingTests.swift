import AtomicLogger
import Foundation
import TestSupport
import Testing

@testable import Networking

struct LinkHeaderTests {
    @Test func parsesGitHubsUsersLink() {
        let link = LinkHeader(
            #"<https://api.github.com/users?per_page=100&since=135>; rel="next", <https://api.github.com/users{?since}>; rel="first""#
        )
        #expect(link.next == "https://api.github.com/users?per_page=100&since=135")
        #expect(link.links["first"] == "https://api.github.com/users{?since}")
    }

    @Test func parsesPageLinksWithOtherSpacingAndUnquotedRel() {
        let link = LinkHeader(
            "<https://x/resource?page=1>;rel=prev,<https://x/resource?page=3>; rel=\"next last\" ; title=\"a,b\""
        )
        #expect(link.links["prev"] == "https://x/resource?page=1")
        #expect(link.next == "https://x/resource?page=3")
        #expect(link.links["last"] == "https://x/resource?page=3")
    }

    /// A comma within a quoted parameter before `rel` does not end the link, and relation names are matched
    /// without regard to case (RFC 8288, 2.1.1): a proxy's `rel="NEXT"` still pages on (helper-324: neither was
    /// tested, so a list could stop quietly at its first page).
    @Test func aQuotedCommaBeforeRelAndAnUppercaseRelKeepTheLink() {
        let link = LinkHeader(
            "<https://x/resource?page=2>; title=\"a,b\"; rel=\"NEXT\", <https://x/resource?page=1>; rel=\"Prev First\"")
        #expect(link.next == "https://x/resource?page=2")
        #expect(link.links["prev"] == "https://x/resource?page=1")
        #expect(link.links["first"] == "https://x/resource?page=1")
    }

    @Test(arguments: [nil, "", "garbage", "<unterminated; rel=\"next\""])
    func toleratesMissingOrBrokenHeaders(value: String?) {
        #expect(LinkHeader(value).next == nil)
    }
}

struct HTTPHeadersTests {
    @Test func matchesNamesWithoutCase() {
        var headers = HTTPHeaders([("X-RateLimit-Remaining", "10")])
        #expect(headers["x-ratelimit-remaining"] == "10")
        headers.set("x-ratelimit-remaining", "9")
        #expect(headers.fields.count == 1)
        #expect(headers["X-RATELIMIT-REMAINING"] == "9")
    }
}

struct HTTPClientTests {
    private func client(
        _ stub: StubTransport, base: String = "https://api.github.com", token: String? = "ghp_token1234"
    )
        -> HTTPClient
    {
        HTTPClient(
            configuration: HTTPClientConfiguration(
                baseURL: URL(string: base)!, userAgent: "gh-users/9.9", token: token),
            transport: stub.transport,
            logger: .disabled,
            retryPolicy: RetryPolicy(maxRetries: 0)
        )
    }

    @Test func sendsGitHubsHeadersAndTheToken() async throws {
        let stub = StubTransport()
        stub.stub("https://api.github.com/users")
        _ = try await client(stub).get(URL(string: "https://api.github.com/users")!)
        let headers = try #require(stub.received.first).headers
        #expect(headers["User-Agent"] == "gh-users/9.9")
        #expect(headers["Accept"] == "application/vnd.github+json")
        #expect(headers["X-GitHub-Api-Version"] == "2022-11-28")
        #expect(headers["Authorization"] == "Bearer ghp_token1234")
        #expect(stub.unusedStubs.isEmpty)
    }

    @Test(arguments: [
        "https://evil.example/users",
        "http://api.github.com/users",
        "https://api.github.com:8443/users",
    ])
    func neverSendsTheTokenToAnotherOrigin(url: String) async throws {
        let stub = StubTransport()
        stub.stub(url)
        _ = try await client(stub).get(URL(string: url)!)
        #expect(try #require(stub.received.first).headers["Authorization"] == nil)
        #expect(stub.unusedStubs.isEmpty)
    }

    @Test func sendsTheTokenOverPlainHTTPOnlyToLoopback() async throws {
        let stub = StubTransport()
        stub.stub("http://127.0.0.1:8080/users")
        stub.stub("http://10.0.0.1:8080/users")
        _ = try await client(stub, base: "http://127.0.0.1:8080").get(URL(string: "http://127.0.0.1:8080/users")!)
        _ = try await client(stub, base: "http://10.0.0.1:8080").get(URL(string: "http://10.0.0.1:8080/users")!)
        #expect(stub.received[0].headers["Authorization"] == "Bearer ghp_token1234")
        #expect(stub.received[1].headers["Authorization"] == nil)
        #expect(stub.unusedStubs.isEmpty)
    }

    @Test func sendsNoAuthorizationWithoutAToken() async throws {
        let stub = StubTransport()
        stub.stub("https://api.github.com/users")
        _ = try await client(stub, token: nil).get(URL(string: "https://api.github.com/users")!)
        #expect(try #require(stub.received.first).headers["Authorization"] == nil)
    }

    @Test func passesTransportErrorsThroughTyped() async {
        let stub = StubTransport()
        stub.fail("https://api.github.com/users", with: .timedOut)
        await #expect(throws: TransportError.timedOut) {
            try await client(stub).get(URL(string: "https://api.github.com/users")!)
        }
    }

    @Test func theDebugTraceNeverShowsTheToken() async throws {
        let stub = StubTransport()
        stub.stub("https://api.github.com/users?x=ghp_token1234", headers: [("x-ratelimit-remaining", "4999")])
        let handler = InMemoryLogHandler()
        let logger = Logger(label: "t", level: .trace, handler: handler, redactor: Redactor(secrets: ["ghp_token1234"]))
        let client = HTTPClient(
            configuration: HTTPClientConfiguration(
                baseURL: URL(string: "https://api.github.com")!,
                userAgent: "gh-users/9.9",
                token: "ghp_token1234"
            ),
            transport: stub.transport,
            logger: logger
        )
        _ = try await client.get(URL(string: "https://api.github.com/users?x=ghp_token1234")!)
        // The request, the response's line with the limits, then the response's headers.
        #expect(handler.entries.count == 3)
        #expect(handler.entries.allSatisfy { !$0.message.contains("ghp_token1234") })
        #expect(handler.entries.dropFirst().first?.metadata["x-ratelimit-remaining"] == "4999")
    }
}

struct OriginPolicyTests {
    @Test(arguments: [
        ("localhost", true), ("127.0.0.1", true), ("127.8.9.10", true), ("[::1]", true), ("::1", true),
        ("127.0.0.1.evil.example", false), ("10.0.0.1", false), ("localhost.evil", false), ("128.0.0.1", false),
    ])
    func recognisesLoopback(host: String, expected: Bool) {
        #expect(OriginPolicy.isLoopback(host: host) == expected)
    }

    @Test func sameOriginComparesSchemeHostAndEffectivePort() {
        let root = URL(string: "https://API.github.com")!
        #expect(OriginPolicy.sameOrigin(URL(string: "https://api.github.com:443/x")!, root))
        #expect(!OriginPolicy.sameOrigin(URL(string: "http://api.github.com/x")!, root))
        #expect(!OriginPolicy.sameOrigin(URL(string: "https://api.github.com.evil/x")!, root))
    }
}

struct URLSessionTransportErrorTests {
    @Test func mapsURLErrorsToTransportErrors() {
        #expect(URLSessionTransport.transportError(URLError(.timedOut)) == .timedOut)
        #expect(URLSessionTransport.transportError(URLError(.networkConnectionLost)) == .connectionLost)
        #expect(URLSessionTransport.transportError(URLError(.badServerResponse)) == .connectionLost)
        // Code -1 alone says nothing: libcurl's text decides (TransportSafetyTests); without one it is `other`.
        if case .other = URLSessionTransport.transportError(URLError(.unknown)) {
        } else {
            Issue.record("a bare -1 is not known to be a short body")
        }
        #expect(URLSessionTransport.transportError(URLError(.cancelled)) == .cancelled)
        #expect(URLSessionTransport.transportError(CancellationError()) == .cancelled)
        if case .cannotConnect = URLSessionTransport.transportError(URLError(.cannotConnectToHost)) {
        } else {
            Issue.record("a refused connection should map to cannotConnect")
        }
    }
}

struct JSONPostTests {
    private func client(wait: Bool, sleeps: LockedDurations) -> HTTPClient {
        HTTPClient(
            configuration: HTTPClientConfiguration(
                baseURL: URL(string: "https://api.github.com")!, userAgent: "gh-users/test", token: "secret"),
            transport: { _ in throw TransportError.other("no network in this test") },
            logger: .disabled,
            retryPolicy: RetryPolicy(waitOnPrimaryLimit: wait),
            clock: RetryClock(
                now: { Date(timeIntervalSince1970: 1_000) }, random: { 0 },
                sleep: { duration, reason in sleeps.append(duration, reason) })
        )
    }

    @Test func aJSONPostCarriesItsBodyAndContentTypeThroughURLSession() {
        let client = client(wait: false, sleeps: LockedDurations())
        let body = Data(#"{"query":"{ viewer { login } }"}"#.utf8)
        let request = client.makeJSONPost(URL(string: "https://api.github.com/graphql")!, body: body)
        #expect(request.method == .post)
        #expect(request.headers["Content-Type"] == "application/json")
        #expect(request.headers["Authorization"] == "Bearer secret")
        let urlRequest = URLSessionTransport.urlRequest(for: request)
        #expect(urlRequest.httpMethod == "POST")
        #expect(urlRequest.httpBody == body)
        #expect(URLSessionTransport.urlRequest(for: client.makeRequest(.get, request.url)).httpBody == nil)
    }

    @Test func aRateLimitInTheBodyIsWaitedOutOnlyWhenThePolicySays() async throws {
        let reset = Date(timeIntervalSince1970: 1_030)
        let idle = LockedDurations()
        #expect(try await client(wait: false, sleeps: idle).waitForRateLimitReset(reset) == false)
        #expect(idle.values.isEmpty)
        let waited = LockedDurations()
        #expect(try await client(wait: true, sleeps: waited).waitForRateLimitReset(reset) == true)
        #expect(waited.values.map(\.0) == [.seconds(31)])
        #expect(waited.values.map(\.1) == [.primaryRateLimit(resetAt: reset)])
        // No reset named, or one already past: a minute, as for REST (before: none was waited on, or a second).
        let unnamed = LockedDurations()
        let past = Date(timeIntervalSince1970: 900)
        #expect(try await client(wait: true, sleeps: unnamed).waitForRateLimitReset(nil) == true)
        #expect(try await client(wait: true, sleeps: unnamed).waitForRateLimitReset(past) == true)
        #expect(unnamed.values.map(\.0) == [.seconds(60), .seconds(60)])
    }
}

final class LockedDurations: @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [(Duration, RetryReason)] = []
    func append(_ duration: Duration, _ reason: RetryReason) { lock.withLock { recorded.append((duration, reason)) } }
    var values: [(Duration, RetryReason)] { lock.withLock { recorded } }
}
