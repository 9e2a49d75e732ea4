import Foundation
import Networking
import TestSupport
import Testing

@testable import Data
@testable import Domain

private let now = Date(timeIntervalSince1970: 1_700_000_000)
private let root = URL(string: "http://127.0.0.1:9")!
private let usersURL = "https://api.github.com/users?since=0&per_page=2"
private let page = #"[{"login":"a","id":1},{"login":"b","id":2}]"#

/// A network failure says what was tried and advises what to check next: the attempts and their time, the API
/// URL, the proxy when the proxy failed, and the cache when it holds a copy. Data's text names no option of the
/// executable; the advice is a value the executable words (`NetworkMessagePresentationTests`).
struct NetworkMessageTests {
    private func failure(_ error: TransportError, attempts: Int = 4, cachedCopy: Bool = false) -> (
        text: String, advice: [NetworkAdvice]
    ) {
        let failure = RequestFailure(error, attempts: attempts, elapsed: .milliseconds(3_140))
        guard
            case .network(let text, let advice, _) = ErrorMapping.domainError(
                for: failure, endpoint: "GET /users/octocat", apiRoot: root, cachedCopy: cachedCopy)
        else {
            Issue.record("not a network error")
            return ("", [])
        }
        #expect(!text.contains("--"), "Data names no option: \(text)")
        return (text, advice)
    }

    private func message(_ error: TransportError, attempts: Int = 4, cachedCopy: Bool = false) -> String {
        failure(error, attempts: attempts, cachedCopy: cachedCopy).text
    }

    @Test func aRefusedConnectionSaysWhatWasTriedAndAdvisesTheAPIURL() {
        let said = failure(.cannotConnect("refused or unreachable", host: "127.0.0.1:9"))
        #expect(said.text == "cannot connect to 127.0.0.1:9 (refused or unreachable), after 4 attempts over 3.1 s")
        #expect(said.advice == [.checkAPIRoot(root, timedOut: false)])
    }

    /// A refused redirect is GitHub's answer, so its failure names the answer's request id (issue 38); a failure
    /// with no answer names none.
    @Test(arguments: [
        TransportError.redirectToAnotherOrigin("https://elsewhere.example", requestID: " CB8A:3A5F "),
        .redirectRefused("file:///etc/passwd", requestID: " CB8A:3A5F "),
    ])
    func aRefusedRedirectNamesItsRequestID(_ error: TransportError) {
        let failure = RequestFailure(error, attempts: 1, elapsed: .zero)
        let mapped = ErrorMapping.domainError(for: failure, endpoint: "GET /users", apiRoot: root, cachedCopy: false)
        #expect(mapped.requestID == "CB8A:3A5F")
        let unanswered = ErrorMapping.domainError(
            for: RequestFailure(.connectionLost, attempts: 1, elapsed: .zero), endpoint: "GET /users", apiRoot: root,
            cachedCopy: false)
        #expect(unanswered.requestID == nil)
    }

    @Test func oneAttemptIsSaidInTheSingular() {
        #expect(
            message(.connectionLost, attempts: 1) == "the connection was lost, after 1 attempt over 3.1 s")
    }

    @Test func aTimeoutAdvisesTheTimeout() {
        #expect(failure(.timedOut).advice == [.checkAPIRoot(root, timedOut: true)])
    }

    @Test func aCachedCopyIsAdvisedLast() {
        let advice = failure(.cannotConnect("refused or unreachable", host: "127.0.0.1:9"), cachedCopy: true).advice
        #expect(advice == [.checkAPIRoot(root, timedOut: false), .cachedCopy(endpoint: "GET /users/octocat")])
        #expect(failure(.cannotConnect("refused or unreachable", host: "127.0.0.1:9")).advice.count == 1)
    }

    /// A name that does not match is advised to be checked where the host is set; the executable says where.
    @Test func aNameMismatchAdvisesTheHost() {
        let said = failure(.tls(.nameMismatch, host: "api.github.com", detail: "d"), attempts: 1)
        #expect(said.text == "the TLS certificate of api.github.com is for another name (d)")
        #expect(said.advice == [.checkHostName])
    }

    @Test func anUnreachableProxyIsNamedWithWhereItCameFrom() {
        let said = failure(.proxyUnreachable(proxy: "127.0.0.1:3128", detail: "refused or unreachable"))
        #expect(said.advice.isEmpty)
        #expect(
            said.text
                == "cannot connect to the proxy 127.0.0.1:3128 (refused or unreachable), after 4 attempts over 3.1 s\n"
                + "The proxy comes from HTTPS_PROXY, https_proxy or ALL_PROXY (http_proxy for an http URL): check it, "
                + "or list the API's host in NO_PROXY to go around it.")
    }

    @Test func aProxySettingThatCannotBeUsedSaysWhereItCameFrom() {
        let said = failure(.proxyUnusable(proxy: "http://[bad", reason: "is not a URL libcurl can read"), attempts: 1)
        #expect(said.advice.isEmpty)
        #expect(
            said.text
                == "the proxy setting 'http://[bad' is not a URL libcurl can read\n"
                + "The proxy comes from HTTPS_PROXY, https_proxy or ALL_PROXY (http_proxy for an http URL): check it, "
                + "or list the API's host in NO_PROXY to go around it.")
    }

    @Test func aProxyThatRefusesTheTunnelSaysWhy() {
        #expect(
            message(.proxyRefused(host: "api.github.com", status: 407), attempts: 1)
                == "the proxy refused to open a tunnel to api.github.com (it answered HTTP 407)\n"
                + "The proxy wants credentials: give them in its URL, as "
                + "https_proxy=http://USER:PASSWORD@HOST:PORT.")
        #expect(
            message(.proxyRefused(host: "api.github.com", status: 403), attempts: 1).hasSuffix(
                "\nThe proxy's policy keeps that host out: ask whoever runs it, or list the host in NO_PROXY if it "
                    + "can be reached directly."))
    }

    /// A certificate failure is one attempt and an answer: no "after", no API URL hint, but the system way.
    @Test func anUntrustedCertificateGivesTheSystemWayAndSaysTheVariablesAreNotRead() {
        let said = failure(
            .tls(.untrustedCertificate, host: "api.github.com", detail: "SSL certificate problem: x"), attempts: 1,
            cachedCopy: true)
        #expect(
            said.text
                == "the TLS certificate of api.github.com is not trusted (SSL certificate problem: x)\n"
                + "If a corporate proxy or a private certificate authority signs it, add that CA to the system store "
                + "(Debian, Ubuntu: copy it to /usr/local/share/ca-certificates/ and run update-ca-certificates; "
                + "Fedora, RHEL: to /etc/pki/ca-trust/source/anchors/ and run update-ca-trust).\n"
                + "SSL_CERT_FILE, SSL_CERT_DIR and CURL_CA_BUNDLE are not read: see 'gh-users help environment'.")
        #expect(said.advice == [.cachedCopy(endpoint: "GET /users/octocat")])
        // An expired certificate got the CA store's advice, which cannot help: the dates are what to check.
        let expired = failure(
            .tls(
                .untrustedCertificate, host: "ghe.example.com",
                detail: "SSL certificate problem: certificate has expired"), attempts: 1, cachedCopy: false)
        #expect(
            expired.text.hasSuffix(
                "\nCheck this machine's date and time, and that its CA certificates are up to date (Debian, Ubuntu: "
                    + "the ca-certificates package); if both are, the server's certificate needs renewing by whoever "
                    + "runs it."))
        #expect(!expired.text.contains("system store"))
    }

    @Test func cancellationAndTheCapAreNotNetworkErrors() {
        let cancelled = RequestFailure(.cancelled, attempts: 2, elapsed: .seconds(1))
        #expect(
            ErrorMapping.domainError(for: cancelled, endpoint: "GET /x", apiRoot: root, cachedCopy: true) == .cancelled)
        let large = RequestFailure(.responseTooLarge(limit: 1 << 20), attempts: 1, elapsed: .zero)
        guard
            case .malformedResponse(_, let detail, _) = ErrorMapping.domainError(
                for: large, endpoint: "GET /x", apiRoot: root, cachedCopy: false)
        else {
            Issue.record("a body over the cap is a malformed response")
            return
        }
        #expect(detail.hasPrefix("the body is larger than the 1 MiB limit"))
    }
}

/// Whether the cache holds a copy is Data's to know: the fetcher says so when no answer came.
struct OfflineHintTests {
    private func temporaryDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("gh-users-offline-hint-\(UUID().uuidString)")
    }

    private func repository(_ stub: StubTransport, cache: DiskResponseCache, mode: CacheMode) -> GitHubRepository {
        GitHubRepository(
            client: HTTPClient(
                configuration: HTTPClientConfiguration(baseURL: URL(string: "https://api.github.com")!, userAgent: "t"),
                transport: stub.transport,
                logger: .disabled,
                retryPolicy: RetryPolicy(maxRetries: 1),
                clock: RetryClock(now: { now }, random: { 0 }, sleep: { _, _ in })
            ),
            cache: CacheSettings(store: cache, mode: mode),
            now: { now }
        )
    }

    private func networkFailure(_ body: () async throws -> Void) async -> (text: String, advice: [NetworkAdvice])? {
        do {
            try await body()
        } catch {
            if case .network(let text, let advice, _) = error as? DomainError { return (text, advice) }
        }
        return nil
    }

    /// Filled by one good answer first.
    private func filledCache(_ stub: StubTransport) async throws -> DiskResponseCache {
        let cache = DiskResponseCache(directory: temporaryDirectory(), limitBytes: 1_000_000)
        stub.stub(usersURL, headers: [("ETag", "W/\"v1\"")], body: page)
        _ = try await repository(stub, cache: cache, mode: .readWrite).firstPage(
            GitHubEndpoints.users(since: 0), perPage: 2)
        return cache
    }

    @Test func aCertificateFailureWithACachedCopyPointsAtOffline() async throws {
        let stub = StubTransport()
        let cache = try await filledCache(stub)
        defer { try? FileManager.default.removeItem(at: cache.directory) }
        stub.fail(usersURL, with: .tls(.untrustedCertificate, host: "api.github.com", detail: "d"))
        let said = await networkFailure {
            _ = try await repository(stub, cache: cache, mode: .readWrite).firstPage(
                GitHubEndpoints.users(since: 0), perPage: 2)
        }
        #expect(said?.advice == [.cachedCopy(endpoint: "GET /users?since=0&per_page=2")])
    }

    @Test func underNoCacheACopyOnDiskStillPointsAtOffline() async throws {
        let stub = StubTransport()
        let cache = try await filledCache(stub)
        defer { try? FileManager.default.removeItem(at: cache.directory) }
        for _ in 0..<2 { stub.fail(usersURL, with: .cannotConnect("refused or unreachable", host: "api.github.com")) }
        let said = await networkFailure {
            _ = try await repository(stub, cache: cache, mode: .disabled).firstPage(
                GitHubEndpoints.users(since: 0), perPage: 2)
        }
        #expect(said?.text == "cannot connect to api.github.com (refused or unreachable), after 2 attempts over 0.0 s")
        #expect(said?.advice.last == .cachedCopy(endpoint: "GET /users?since=0&per_page=2"))
        #expect(stub.unusedStubs.isEmpty)
    }

    @Test func withoutACopyOfflineIsNotOffered() async throws {
        let stub = StubTransport()
        let cache = DiskResponseCache(directory: temporaryDirectory(), limitBytes: 1_000_000)
        defer { try? FileManager.default.removeItem(at: cache.directory) }
        for _ in 0..<2 { stub.fail(usersURL, with: .timedOut) }
        let said = await networkFailure {
            _ = try await repository(stub, cache: cache, mode: .readWrite).firstPage(
                GitHubEndpoints.users(since: 0), perPage: 2)
        }
        #expect(said?.text == "the request timed out, after 2 attempts over 0.0 s")
        #expect(said?.advice == [.checkAPIRoot(URL(string: "https://api.github.com")!, timedOut: true)])
    }
}
