import AtomicLogger
import Foundation
import TestSupport
import Testing

@testable import Networking

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A URLError as swift-corelibs-foundation builds it for a libcurl failure: code -1, libcurl's text, the URL.
private func curlFailure(_ message: String, url: String = "https://127.0.0.1:8443/users") -> URLError {
    URLError(
        .unknown,
        userInfo: [NSLocalizedDescriptionKey: message, NSURLErrorFailingURLErrorKey: URL(string: url)!]
    )
}

/// libcurl's own words, as measured against `openssl s_server` and raw servers (libcurl 7.88.1, OpenSSL 3.0).
struct LibcurlFailureMappingTests {
    @Test(arguments: [
        "SSL certificate problem: self-signed certificate",
        "SSL certificate problem: unable to get local issuer certificate",
        "SSL certificate problem: certificate has expired",
        "SSL peer certificate or SSH remote key was not OK",
    ])
    func anUntrustedCertificateIsNamedWithItsHost(message: String) {
        #expect(
            URLSessionTransport.transportError(curlFailure(message))
                == .tls(.untrustedCertificate, host: "127.0.0.1:8443", detail: message))
    }

    @Test(arguments: [
        "SSL: no alternative certificate subject name matches target host name '127.0.0.1'",
        "SSL: no alternative certificate subject name matches target hostname 'api.example.com'",
        "SSL: certificate subject name 'example.invalid' does not match target host name 'api.example.com'",
    ])
    func aNameMismatchIsNamed(message: String) {
        #expect(
            URLSessionTransport.transportError(curlFailure(message, url: "https://api.example.com/users"))
                == .tls(.nameMismatch, host: "api.example.com", detail: message))
    }

    @Test(arguments: [
        "OpenSSL/3.0.19: error:0A00010B:SSL routines::wrong version number",
        "OpenSSL SSL_connect: SSL_ERROR_SYSCALL in connection to 127.0.0.1:8443 ",
        "SSL connect error",
    ])
    func aFailedHandshakeIsNamed(message: String) {
        #expect(
            URLSessionTransport.transportError(curlFailure(message))
                == .tls(.handshake, host: "127.0.0.1:8443", detail: message))
    }

    @Test(arguments: [
        "transfer closed with 90 bytes remaining to read", "transfer closed with outstanding read data remaining",
    ])
    func onlyAShortBodyIsATruncatedBody(message: String) {
        #expect(URLSessionTransport.transportError(curlFailure(message)) == .truncatedBody)
    }

    /// A connection dropped under the transfer, in libcurl's words, is a lost connection: retried. Before: `other`,
    /// exit 1 at the first, whatever `--retries` said (a flaky network's reset, then a cut answer).
    @Test(arguments: ["Recv failure: Connection reset by peer", "Send failure: Broken pipe"])
    func aConnectionDroppedUnderTheTransferIsLost(message: String) {
        let error = URLSessionTransport.transportError(curlFailure(message))
        #expect(error == .connectionLost)
        #expect(error.isTransient)
    }

    @Test func anyOtherMinusOneIsNeitherRetriedNorCached() {
        let error = URLSessionTransport.transportError(
            curlFailure("Error while processing content unencoding: incorrect header check"))
        // In words of ours, with zlib's (helper-320: libcurl's own text was the message).
        #expect(error == .other("the server's compressed body is corrupt (incorrect header check)"))
        #expect(!error.isTransient)
    }

    /// A chunked body that does not parse, or an encoding not asked for, in words of ours (helper-322: libcurl's).
    @Test(arguments: [
        ("Failed reading the chunked-encoded stream", "the server's chunked body is malformed"),
        ("Out of memory in chunked-encoding", "the server's chunked body is malformed"),
        (
            "Unrecognized or bad HTTP Content or Transfer-Encoding",
            "the server's body is in an encoding gh-users did not ask for"
        ),
    ])
    func aBodyLibcurlCannotReadIsSaidInOurWords(message: String, said: String) {
        let error = URLSessionTransport.transportError(curlFailure(message))
        #expect(error == .other(said))
        #expect(!error.isTransient)
    }

    @Test func applesCertificateCodesMapTheSameWay() {
        let untrusted = URLError(
            .serverCertificateUntrusted, userInfo: [NSURLErrorFailingURLErrorKey: URL(string: "https://ghe.corp")!])
        guard case .tls(.untrustedCertificate, "ghe.corp", _) = URLSessionTransport.transportError(untrusted) else {
            Issue.record("-1202 should be an untrusted certificate")
            return
        }
    }

    @Test func transportErrorsPassThroughUnchanged() {
        #expect(
            URLSessionTransport.transportError(TransportError.responseTooLarge(limit: 5)) == .responseTooLarge(limit: 5)
        )
    }
}

struct ResponseSizeSettingTests {
    /// As the cache's size reads them (`ByteSize`): before, `64MB` was refused here and `64M` was 64,000,000 there.
    @Test(arguments: [
        ("1048576", 1_048_576), ("64M", 64 << 20), ("512k", 512 << 10), ("2G", 2 << 30), (" 10 ", 10),
        ("64MB", 64_000_000), ("1MiB", 1 << 20),
    ])
    func readsBytesWithAnOptionalBinarySuffix(text: String, bytes: Int) {
        #expect(URLSessionTransport.maximumBodyBytes(fromSetting: text) == bytes)
    }

    /// The limit as the too-large message names it: "the 1 byte limit", not "the 1 bytes limit".
    @Test(arguments: [(1, "1 byte"), (2, "2 bytes"), (1_500, "1500 bytes"), (1 << 10, "1 KiB"), (64 << 20, "64 MiB")])
    func aLimitIsNamedInItsUnit(bytes: Int, named: String) {
        #expect(TransportError.byteCount(bytes) == named)
    }

    @Test(arguments: ["", "0", "-1", "1.5", "lots", "2T", "99999999999999999999", "1025G"])
    func refusesAnythingElse(text: String) {
        #expect(URLSessionTransport.maximumBodyBytes(fromSetting: text) == nil)
    }

    @Test func theDefaultIsSixtyFourMebibytes() {
        #expect(URLSessionTransport.defaultMaximumBodyBytes == 64 << 20)
    }
}

struct LinkOriginTests {
    @Test func aNextLinkIsFollowedOnlyOnTheAPIsOrigin() {
        let root = URL(string: "https://ghe.corp/api/v3")!
        #expect(OriginPolicy.mayFollowLink(URL(string: "https://ghe.corp/api/v3/users?since=5")!, apiRoot: root))
        #expect(OriginPolicy.mayFollowLink(URL(string: "https://GHE.corp:443/api/v3/users")!, apiRoot: root))
        #expect(!OriginPolicy.mayFollowLink(URL(string: "https://evil.example/api/v3/users")!, apiRoot: root))
        #expect(!OriginPolicy.mayFollowLink(URL(string: "http://ghe.corp/api/v3/users")!, apiRoot: root))
        #expect(!OriginPolicy.mayFollowLink(URL(string: "https://ghe.corp:8443/api/v3/users")!, apiRoot: root))
    }
}

/// What URLSession really sends, measured with a raw server: it drops a header whose value holds CR or LF, or
/// only spaces, and adds Host, Accept-Language and (over HTTP/1.1) Connection.
struct HeadersSentTests {
    private func request(_ url: String, _ headers: [(String, String)]) -> HTTPRequest {
        HTTPRequest(url: URL(string: url)!, headers: HTTPHeaders(headers.map { (name: $0.0, value: $0.1) }))
    }

    @Test func listsWhatURLSessionAddsAndKeeps() {
        let sent = URLSessionTransport.headersSent(
            for: request("http://127.0.0.1:8080/users", [("User-Agent", "t"), ("Authorization", "Bearer abc")]))
        #expect(sent["Host"] == "127.0.0.1:8080")
        #expect(sent["User-Agent"] == "t")
        #expect(sent["Authorization"] == "Bearer abc")
        #expect(sent["Accept-Language"] == "en")
        #expect(sent["Connection"] == "keep-alive")
    }

    @Test func aHeaderURLSessionDropsIsNotClaimed() {
        let sent = URLSessionTransport.headersSent(
            for: request(
                "https://api.github.com/users",
                [("Authorization", "Bearer abc\r\nX-Injected: 1"), ("X-Blank", " "), ("Accept", "a")]))
        #expect(sent["Authorization"] == nil)
        #expect(sent["X-Blank"] == nil)
        #expect(sent["Accept"] == "a")
        #expect(sent["Host"] == "api.github.com")
        // HTTP/2 over TLS has no Connection header.
        #expect(sent["Connection"] == nil)
    }
}

/// `--debug` shows the headers that go out, and the server's text only as text.
struct DebugTraceTests {
    private func trace(
        token: String? = nil,
        responseHeaders: [(String, String)] = [],
        requestHeaders: [(String, String)] = [],
        answeredBy: String? = nil
    ) async throws -> String {
        let url = "https://api.github.com/users/octocat"
        let stub = StubTransport()
        stub.stub(answeredBy ?? url, headers: responseHeaders)
        let handler = InMemoryLogHandler()
        let client = HTTPClient(
            configuration: HTTPClientConfiguration(
                baseURL: URL(string: "https://api.github.com")!, userAgent: "gh-users/9.9", token: token),
            transport: { request in
                var redirected = request
                redirected.url = URL(string: answeredBy ?? url)!
                return try await stub.transport(redirected)
            },
            logger: Logger(label: "t", level: .debug, handler: handler)
        )
        var request = client.makeRequest(.get, URL(string: url)!)
        for (name, value) in requestHeaders { request.headers.set(name, value) }
        _ = try await client.send(request)
        return handler.entries.map { ([$0.message] + $0.metadata.sorted { $0.key < $1.key }.map { "\($0)=\($1)" }) }
            .flatMap { $0 }.joined(separator: "\n")
    }

    @Test func escapeSequencesFromTheServerAreShownNotPerformed() async throws {
        let text = try await trace(
            responseHeaders: [
                ("x-ratelimit-remaining", "\u{1B}]52;c;SGVsbG8=\u{07}"), ("x-ratelimit-limit", "\u{1B}[2J"),
                ("retry-after", "\u{9B}31m"),
            ],
            requestHeaders: [("If-None-Match", "\"\u{1B}[31mred\"")]
        )
        #expect(!text.contains("\u{1B}"))
        #expect(!text.contains("\u{07}"))
        #expect(!text.contains("\u{9B}"))
        #expect(text.contains("x-ratelimit-limit=\\e[2J"))
        #expect(text.contains("If-None-Match: \"\\e[31mred\""))
    }

    @Test func showsTheHeadersThatGoOutIncludingAcceptEncoding() async throws {
        let text = try await trace(token: "ghp_abc123")
        for line in [
            "    Host: api.github.com", "    User-Agent: gh-users/9.9", "    Accept: application/vnd.github+json",
            "    X-GitHub-Api-Version: 2022-11-28", "    Accept-Encoding: gzip, deflate", "    Accept-Language: en",
            "    Authorization: Bearer ***",
        ] {
            #expect(text.contains(line), "\(line)")
        }
    }

    @Test func neverClaimsAnAuthorizationHeaderThatURLSessionDrops() async throws {
        let text = try await trace(token: "ghp_abc\nsecond-line")
        #expect(!text.contains("Authorization"))
    }

    @Test func aRedirectOnTheSameOriginIsShown() async throws {
        let text = try await trace(token: "ghp_abc123", answeredBy: "https://api.github.com/user/583231")
        #expect(text.contains("\n    redirected to https://api.github.com/user/583231"))
    }
}
