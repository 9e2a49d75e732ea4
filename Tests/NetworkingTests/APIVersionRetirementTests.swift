import AtomicLogger
import Foundation
import Networking
import TestSupport
import Testing

/// Issue 26.5: GitHub's docs ("API versions") say a version's end is announced with `Deprecation` and `Sunset`
/// headers before it answers 410; `x-github-api-version-selected` names the version that answered (seen in 2026,
/// `2022-11-28` to a request that named none). A run says so once, on stderr, however many answers carry them.
struct APIVersionRetirementTests {
    private let url = "https://api.github.com/users/octocat"

    private func client(_ stub: StubTransport, _ handler: InMemoryLogHandler, level: LogLevel = .warning)
        -> HTTPClient
    {
        HTTPClient(
            configuration: HTTPClientConfiguration(
                baseURL: URL(string: "https://api.github.com")!, userAgent: "gh-users/9.9", token: "ghp_secret0"),
            transport: stub.transport,
            logger: Logger(label: "t", level: level, handler: handler, redactor: Redactor(secrets: ["ghp_secret0"])),
            retryPolicy: RetryPolicy(maxRetries: 0))
    }

    /// Before: nothing was said, on any answer.
    @Test func deprecationAndSunsetAreSaidOnceARun() async throws {
        let stub = StubTransport()
        let retiring = [
            ("Deprecation", "@1893456000"), ("Sunset", "Fri, 10 Mar 2028 00:00:00 GMT"),
            ("Link", #"<https://docs.github.com/rest/about-the-rest-api/api-versions>; rel="deprecation""#),
        ]
        for _ in 0..<3 { stub.stub(url, headers: retiring, body: "{}") }
        let handler = InMemoryLogHandler()
        let client = client(stub, handler)
        for _ in 0..<3 { _ = try await client.get(URL(string: url)!) }
        let warnings = handler.entries.filter { $0.level == .warning }.map(\.message)
        #expect(
            warnings == [
                "GitHub's answer says the API version this gh-users asks for (2022-11-28) is being retired "
                    + "(Deprecation: @1893456000; Sunset: Fri, 10 Mar 2028 00:00:00 GMT; see "
                    + "https://docs.github.com/rest/about-the-rest-api/api-versions): upgrade gh-users"
            ])
    }

    @Test func anotherSelectedVersionIsSaid() async throws {
        let stub = StubTransport()
        stub.stub(url, headers: [("x-github-api-version-selected", "2026-03-10")], body: "{}")
        stub.stub(url, headers: [("x-github-api-version-selected", "2022-11-28")], body: "{}")
        let handler = InMemoryLogHandler()
        let client = client(stub, handler)
        _ = try await client.get(URL(string: url)!)
        _ = try await client.get(URL(string: url)!)
        #expect(
            handler.entries.map(\.message) == [
                "GitHub's answer says the API version this gh-users asks for (2022-11-28) is being retired "
                    + "(version 2026-03-10 answered): upgrade gh-users"
            ])
    }

    /// An empty header (a proxy's, or spaces alone) is no sign: no "(Deprecation: )" nor "(version  answered)"
    /// warning (mutation round 9's M9-29 and M9-33).
    @Test(arguments: ["Deprecation", "Sunset", "x-github-api-version-selected"])
    func anEmptyHeaderSaysNothing(name: String) {
        for value in ["", "  "] {
            #expect(APIVersionRetirement.signs(in: HTTPHeaders([(name, value)]), asked: "2022-11-28") == nil)
        }
    }

    /// The version asked for, answered, says nothing.
    @Test func theVersionAskedForSaysNothing() async throws {
        let stub = StubTransport()
        stub.stub(url, headers: [("x-github-api-version-selected", "2022-11-28")], body: "{}")
        let handler = InMemoryLogHandler()
        _ = try await client(stub, handler).get(URL(string: url)!)
        #expect(handler.entries.isEmpty)
    }

    /// Before: `--debug` showed the status line and four rate-limit headers, never the rest (a `Sunset`, the
    /// selected version). Now every response header, with a session cookie's value hidden.
    @Test func theDebugTraceShowsTheResponseHeadersWithSecretsHidden() async throws {
        let stub = StubTransport()
        stub.stub(
            url,
            headers: [
                ("x-github-api-version-selected", "2022-11-28"), ("Set-Cookie", "user_session=abc123; secure"),
                ("X-Echo", "ghp_secret0"),
            ], body: "{}")
        let handler = InMemoryLogHandler()
        _ = try await client(stub, handler, level: .debug).get(URL(string: url)!)
        #expect(handler.entries.contains { $0.message.hasPrefix("← 200") })
        let answer = try #require(handler.entries.first { $0.message.hasPrefix("  response headers:") }?.message)
        #expect(answer.contains("\n    x-github-api-version-selected: 2022-11-28"))
        #expect(answer.contains("\n    Set-Cookie: ***"))
        #expect(!answer.contains("abc123"))
        #expect(!answer.contains("ghp_secret0"))
    }
}

/// Issue 26.10: over plain http a proxy reads the token; a loopback API root with a token goes around it.
struct ProxyBypassPolicyTests {
    @Test(arguments: [
        ("http://127.0.0.1:8080", true, "127.0.0.1"), ("http://localhost:1", true, "localhost"),
        ("http://[::1]:9", true, "::1"), ("http://127.0.0.1:8080", false, nil), ("https://127.0.0.1", true, nil),
        ("https://api.github.com", true, nil), ("http://10.0.0.1", true, nil),
    ])
    func onlyAnHTTPLoopbackRootWithATokenGoesAround(root: String, token: Bool, expected: String?) {
        #expect(OriginPolicy.mustBypassProxy(apiRoot: URL(string: root)!, sendsToken: token) == expected)
    }
}
