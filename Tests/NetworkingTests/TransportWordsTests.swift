import AtomicLogger
import Foundation
import TestSupport
import Testing

@testable import Networking

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A URLError as swift-corelibs-foundation builds it from a libcurl failure: a code, libcurl's text, the URL.
private func curlError(_ code: URLError.Code, _ message: String, url: String) -> URLError {
    URLError(code, userInfo: [NSLocalizedDescriptionKey: message, NSURLErrorFailingURLErrorKey: URL(string: url)!])
}

/// Every failure reads as words wherever it is interpolated (`--verbose`, `--debug`, messages): never as a
/// Swift value such as `cannotConnect("…")` or `truncatedBody`.
struct TransportErrorWordsTests {
    static let everyCase: [TransportError] = [
        .cannotConnect("refused"), .cannotConnect("refused or unreachable", host: "127.0.0.1:9"),
        .proxyUnreachable(proxy: "proxy.corp:3128", detail: "refused or unreachable"),
        .proxyRefused(host: "api.github.com", status: 403), .timedOut, .connectionLost, .truncatedBody, .cancelled,
        .tls(.untrustedCertificate, host: "h", detail: "d"), .tls(.nameMismatch, host: "h", detail: "d"),
        .tls(.handshake, host: "h", detail: "d"), .responseTooLarge(limit: 64 << 20),
        .redirectRefused("file:///etc/passwd"), .other("Error while processing content unencoding"),
        .redirectToAnotherOrigin("https://elsewhere.example"), .malformedHeaders("a header line is over 100 KiB"),
        .proxyUnusable(proxy: "http://[bad", reason: "is not a URL libcurl can read"),
    ]

    /// The shape Swift prints an enum case in: a lower-camel-case name, then `(` or nothing at all.
    static func looksLikeASwiftValue(_ text: String) -> Bool {
        let names = [
            "cannotConnect", "proxyUnreachable", "proxyRefused", "timedOut", "connectionLost", "truncatedBody",
            "untrustedCertificate", "nameMismatch", "responseTooLarge", "redirectRefused", "secondaryRateLimit",
            "primaryRateLimit", "redirectToAnotherOrigin", "malformedHeaders", "proxyUnusable",
        ]
        return names.contains { text.contains($0) } || text.contains("(\"") || text.contains("transport(")
    }

    @Test(arguments: everyCase)
    func interpolationIsWords(error: TransportError) {
        #expect(!Self.looksLikeASwiftValue("\(error)"), "\(String(reflecting: error))")
        #expect(!Self.looksLikeASwiftValue("\(RetryReason.transport(error))"))
        #expect(!"\(error)".contains("\n"))
    }

    /// libcurl quotes a proxy setting it cannot read as given: `HTTPS_PROXY=http://alice:s3cr3tPW@127.0.0.1:99999`
    /// printed the password on stderr, in the message and in the debug trace.
    @Test func aProxyPasswordInLibcurlsWordsIsMasked() {
        for message in [
            "Unsupported proxy syntax in 'http://alice:s3cr3tPW@127.0.0.1:99999'",
            "Unsupported proxy scheme for 'ftp://alice:s3cr3tPW@127.0.0.1:18099'",
            "Unsupported proxy syntax in 'alice:s3cr3tPW@127.0.0.1:99999'",
        ] {
            let error = URLSessionTransport.transportError(
                curlError(.unknown, message, url: "https://ghe.example.com/api/v3/users/octocat"))
            #expect(!"\(error)".contains("s3cr3tPW") && !"\(error)".contains("alice"), "\(error)")
            #expect("\(error)".contains("***@127.0.0.1:"), "\(error)")
        }
    }

    @Test func theWordsSayWhatFailedAndWhere() {
        #expect(
            "\(TransportError.cannotConnect("refused or unreachable", host: "127.0.0.1:9"))"
                == "cannot connect to 127.0.0.1:9 (refused or unreachable)")
        #expect("\(TransportError.cannotConnect("refused"))" == "cannot connect: refused")
        #expect(
            "\(TransportError.proxyUnreachable(proxy: "proxy.corp:3128", detail: "refused or unreachable"))"
                == "cannot connect to the proxy proxy.corp:3128 (refused or unreachable)")
        #expect(
            "\(TransportError.proxyRefused(host: "api.github.com", status: 407))"
                == "the proxy refused to open a tunnel to api.github.com (it answered HTTP 407)")
        #expect("\(TransportError.truncatedBody)" == "the response was cut short")
        #expect("\(RetryReason.status(503))" == "HTTP 503")
        #expect("\(RetryReason.secondaryRateLimit)" == "secondary rate limit")
    }

    @Test func textFromTheNetworkStaysOnOneLine() {
        let error = TransportError.tls(.nameMismatch, host: "h", detail: "name 'a\r\nFAKE: b'")
        #expect("\(error)" == "the TLS certificate of h is for another name (name 'a FAKE: b')")
    }
}

/// libcurl names where it failed to connect: the server, or the proxy it took from the environment.
struct ConnectFailureMappingTests {
    @Test func aRefusedServerIsNamedWithItsPort() {
        let error = URLSessionTransport.transportError(
            curlError(
                .cannotConnectToHost, "Failed to connect to 127.0.0.1 port 9 after 0 ms: Couldn't connect to server",
                url: "http://127.0.0.1:9/users/octocat"))
        #expect(error == .cannotConnect("refused or unreachable", host: "127.0.0.1:9"))
        #expect(error.isTransient)
    }

    /// libcurl's connect failure under another code (-1, or a connection lost's) is a connect failure too:
    /// before, it was `other`, neither retried nor answered from the cache, and said in libcurl's words.
    @Test(arguments: [URLError.Code.unknown, .cannotLoadFromNetwork])
    func aConnectFailureUnderAnotherCodeIsOne(code: URLError.Code) {
        let error = URLSessionTransport.transportError(
            curlError(
                code, "Failed to connect to 127.0.0.1 port 9 after 2 ms: Couldn't connect to server",
                url: "http://127.0.0.1:9/users"))
        #expect(error == .cannotConnect("refused or unreachable", host: "127.0.0.1:9"))
        #expect(error.isTransient)
    }

    @Test func theDefaultPortCountsAsTheServers() {
        let error = URLSessionTransport.transportError(
            curlError(
                .cannotConnectToHost,
                "Failed to connect to api.github.com port 443 after 3 ms: Couldn't connect to server",
                url: "https://api.github.com/users"))
        #expect(error == .cannotConnect("refused or unreachable", host: "api.github.com:443"))
    }

    @Test func aRefusingProxyIsNamedAsTheProxy() {
        let error = URLSessionTransport.transportError(
            curlError(
                .cannotConnectToHost, "Failed to connect to 127.0.0.1 port 3128 after 0 ms: Couldn't connect to server",
                url: "https://api.github.com/users"),
            proxyHosts: ["127.0.0.1"])
        #expect(error == .proxyUnreachable(proxy: "127.0.0.1:3128", detail: "refused or unreachable"))
        #expect(error.isTransient)
    }

    /// A loopback API on the proxy's own host: its refused port is the server's, not the proxy's (helper-331's
    /// mutation L7 went unseen).
    @Test func aRefusedServerOnTheProxysHostIsTheServer() {
        let error = URLSessionTransport.transportError(
            curlError(
                .cannotConnectToHost, "Failed to connect to 127.0.0.1 port 8080 after 0 ms: Couldn't connect to server",
                url: "http://127.0.0.1:8080/users"),
            proxyHosts: ["127.0.0.1"])
        #expect(error == .cannotConnect("refused or unreachable", host: "127.0.0.1:8080"))
    }

    /// "Out of memory" is a head's only before a response was held; after one, it is libcurl's own (L6).
    @Test func outOfMemoryAfterAResponseIsNoHeadFailure() {
        let error = curlError(.unknown, "Out of memory", url: "https://api.github.com/users")
        #expect(URLSessionTransport.headFailure(error) == .malformedHeaders("a header line is over 100 KiB"))
        #expect(URLSessionTransport.headFailure(error, afterAResponse: true) == nil)
    }

    /// Both spellings of the no-proxy list, which libcurl reads lower case first: a user's `no_proxy` left as it
    /// was would send a loopback run's token through `http_proxy` (L2).
    @Test func aDirectRunBypassesTheProxyInBothSpellings() {
        let names = ["NO_PROXY", "no_proxy"]
        let saved = names.map { name in (name, getenv(name).map { String(cString: $0) }) }
        defer {
            for (name, value) in saved {
                if let value { setenv(name, value, 1) } else { unsetenv(name) }
            }
        }
        setenv("no_proxy", "example.com", 1)
        setenv("NO_PROXY", "example.com", 1)
        URLSessionTransport.bypassProxies()
        #expect(String(cString: getenv("no_proxy")) == "*")
        #expect(String(cString: getenv("NO_PROXY")) == "*")
    }

    @Test func withoutLibcurlsTextTheServerIsNamed() {
        let error = URLSessionTransport.transportError(
            curlError(.cannotConnectToHost, "", url: "http://127.0.0.1:9/users"))
        #expect(error == .cannotConnect("refused or unreachable", host: "127.0.0.1:9"))
    }

    @Test func aNameThatDoesNotResolveIsSaid() {
        let error = URLSessionTransport.transportError(
            curlError(.cannotFindHost, "Could not resolve host: ghe.invalid", url: "https://ghe.invalid/api/v3/users"))
        #expect(error == .cannotConnect("the host name does not resolve", host: "ghe.invalid"))
    }

    /// Measured as code -1; a proxy's name that does not resolve is never taken for the server's.
    @Test(arguments: [URLError.Code.unknown, .cannotFindHost])
    func aProxyNameThatDoesNotResolve(code: URLError.Code) {
        let error = URLSessionTransport.transportError(
            curlError(code, "Could not resolve proxy: proxy.invalid", url: "https://api.github.com/users"))
        #expect(error == .proxyUnreachable(proxy: "proxy.invalid", detail: "the proxy's name does not resolve"))
        #expect(error.isTransient)
    }

    /// A proxy setting libcurl cannot read is a setting to fix, not a network failure in libcurl's words
    /// (helper-334): it is named as a proxy's, masked, and not retried.
    @Test func aProxySettingLibcurlCannotUseIsNamedAsOne() {
        let url = "https://api.github.com/users"
        let syntax = URLSessionTransport.transportError(
            curlError(.unknown, "Unsupported proxy syntax in 'http://alice:pw@[bad'", url: url))
        #expect(syntax == .proxyUnusable(proxy: "http://***@[bad", reason: "is not a URL libcurl can read"))
        #expect("\(syntax)" == "the proxy setting 'http://***@[bad' is not a URL libcurl can read")
        #expect(!syntax.isTransient)
        let scheme = URLSessionTransport.transportError(
            curlError(.unknown, "Unsupported proxy scheme for 'ftp://proxy:21'", url: url))
        #expect(
            "\(scheme)"
                == "the proxy setting 'ftp://proxy:21' names a scheme libcurl does not take for a proxy (http, https, "
                + "socks5…)")
        // libcurl 8.2 on gives its reason after the quote (curl's pull request 11137): kept, and still masked
        // (helper-338: the text fell through to libcurl's own words there).
        let newer = URLSessionTransport.transportError(
            curlError(.unknown, "Unsupported proxy syntax in 'http://alice:pw@[bad': Bad IPv6 address", url: url))
        #expect(
            newer
                == .proxyUnusable(proxy: "http://***@[bad", reason: "is not a URL libcurl can read (Bad IPv6 address)"))
    }

    @Test(arguments: [
        ("CONNECT tunnel failed, response 403", 403), ("CONNECT tunnel failed, response 407", 407),
        ("Received HTTP code 407 from proxy after CONNECT", 407),
    ])
    func aProxyThatRefusesTheTunnelIsAnAnswerNotRetried(message: String, status: Int) {
        let error = URLSessionTransport.transportError(
            curlError(.unknown, message, url: "https://127.0.0.1:8443/users"))
        #expect(error == .proxyRefused(host: "127.0.0.1:8443", status: status))
        #expect(!error.isTransient)
    }
}

/// What was tried, for the message: attempts and the time they took, waits included.
struct AttemptReportTests {
    private let url = URL(string: "https://api.github.com/users/octocat")!

    /// A clock whose time moves only when the loop sleeps, so the elapsed time is exactly the waits.
    private final class SteppingClock: @unchecked Sendable {
        private let lock = NSLock()
        private var time = Date(timeIntervalSince1970: 1_700_000_000)

        var clock: RetryClock {
            RetryClock(
                now: { [self] in lock.withLock { time } },
                random: { 1 },
                sleep: { [self] duration, _ in lock.withLock { time += duration.inSeconds } })
        }
    }

    private func client(_ stub: StubTransport, retries: Int, logger: Logger = .disabled) -> HTTPClient {
        HTTPClient(
            configuration: HTTPClientConfiguration(baseURL: URL(string: "https://api.github.com")!, userAgent: "t"),
            transport: stub.transport,
            logger: logger,
            retryPolicy: RetryPolicy(maxRetries: retries, baseDelay: .milliseconds(500), maxDelay: .seconds(8)),
            clock: SteppingClock().clock
        )
    }

    @Test func aFailureCarriesItsAttemptsAndTheTimeTheyTook() async {
        let stub = StubTransport()
        let refused = TransportError.cannotConnect("refused or unreachable", host: "127.0.0.1:9")
        for _ in 0..<4 { stub.fail(url.absoluteString, with: refused) }
        do {
            _ = try await client(stub, retries: 3).sendReportingAttempts(HTTPRequest(url: url))
            Issue.record("four refusals were a success")
        } catch {
            // Waits of 0.5, 1 and 2 s (full jitter at its ceiling).
            #expect(error == RequestFailure(refused, attempts: 4, elapsed: .milliseconds(3500)))
        }
        #expect(stub.unusedStubs.isEmpty)
    }

    @Test func aFailureThatIsAnAnswerIsOneAttempt() async {
        let stub = StubTransport()
        let untrusted = TransportError.tls(.untrustedCertificate, host: "h", detail: "d")
        stub.fail(url.absoluteString, with: untrusted)
        await #expect(throws: RequestFailure(untrusted, attempts: 1, elapsed: .zero)) {
            try await client(stub, retries: 3).sendReportingAttempts(HTTPRequest(url: url))
        }
    }

    @Test func sendStillThrowsTheTransportErrorAlone() async {
        let stub = StubTransport()
        for _ in 0..<2 { stub.fail(url.absoluteString, with: .connectionLost) }
        await #expect(throws: TransportError.connectionLost) {
            try await client(stub, retries: 1).send(HTTPRequest(url: url))
        }
    }

    @Test func theVerboseRetryLineIsWords() async {
        let stub = StubTransport()
        stub.fail(url.absoluteString, with: .truncatedBody)
        stub.fail(url.absoluteString, with: .cannotConnect("refused or unreachable", host: "127.0.0.1:9"))
        stub.stub(url.absoluteString, status: 200, body: "{}")
        let handler = InMemoryLogHandler()
        _ = try? await client(stub, retries: 3, logger: Logger(label: "t", level: .debug, handler: handler)).get(url)
        let info = handler.entries.filter { $0.level == .info }.map(\.message)
        #expect(
            info == [
                "GET https://api.github.com/users/octocat: the response was cut short; retry 1 of 3 in 0.5s",
                "GET https://api.github.com/users/octocat: cannot connect to 127.0.0.1:9 (refused or unreachable); "
                    + "retry 2 of 3 in 1.0s",
            ])
        let trace = handler.entries.map(\.message).joined(separator: "\n")
        #expect(trace.contains(": the response was cut short after "))
        #expect(!TransportErrorWordsTests.looksLikeASwiftValue(trace), "\(trace)")
    }
}
