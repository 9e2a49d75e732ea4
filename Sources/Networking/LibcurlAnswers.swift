import AtomicCore
import Foundation

/// What the transport reads and sets without touching FoundationNetworking: which HTTP version a head shows,
/// what a failure says (libcurl's messages reach us only as text, in a `URLError`), the proxy setting libcurl
/// reads from the environment, and the body cap's setting. The transport's file keeps what needs URLSession.
extension URLSessionTransport {
    /// An answer's head that only HTTP/1.1 sends: a connection-specific field (RFC 9113 §8.2.2 forbids them in
    /// HTTP/2, and libcurl's nghttp2 refuses such an answer), or an `X-` name with a capital letter (HTTP/2 names
    /// are lower-case; swift-corelibs-foundation capitalizes every other name it hands over, so only `X-` names
    /// show how they were sent). An HTTP/1.1 server that sends none of these keeps its requests on one connection.
    static func showsHTTP1(_ names: some Sequence<String>) -> Bool {
        names.contains { name in
            let lower = name.lowercased()
            if ["connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade"].contains(lower) {
                return true
            }
            return lower.hasPrefix("x-") && name != lower
        }
    }

    /// libcurl's CURLE_COULDNT_CONNECT, "Failed to connect to 127.0.0.1 port 9 after 0 ms: Couldn't connect to
    /// server", names where it tried to go: the server, or the proxy it took from the environment, which the
    /// message must name instead. A host other than the request's that is no proxy in use is the one tried
    /// (after a redirect, say): it is named as it is, never as a proxy. Its text does not say whether the port
    /// refused or the host was unreachable (the errno is only in its verbose log), so neither does ours.
    static func connectFailure(_ message: String, url: URL?, proxyHosts: Set<String> = []) -> TransportError {
        let reason = "refused or unreachable"
        let prefix = "Failed to connect to "
        guard message.hasPrefix(prefix), let portRange = message.range(of: " port "),
            let port = Int(message[portRange.upperBound...].prefix { $0.isNumber })
        else {
            return .cannotConnect(reason, host: host(of: url))
        }
        let tried = String(message[message.index(message.startIndex, offsetBy: prefix.count)..<portRange.lowerBound])
        let target = (tried.contains(":") ? "[\(tried)]" : tried) + ":\(port)"
        let toTheServer = url.map { bare($0.host ?? "") == bare(tried) && effectivePort($0) == port } ?? false
        if !toTheServer, proxyHosts.contains(bare(tried)) {
            return .proxyUnreachable(proxy: target, detail: reason)
        }
        return .cannotConnect(reason, host: target)
    }

    static func bare(_ host: String) -> String {
        host.trimmingCharacters(in: CharacterSet(charactersIn: "[]")).lowercased()
    }

    /// The hosts of the proxies libcurl reads from `environment` (`http_proxy`, `HTTPS_PROXY`, `https_proxy`,
    /// `ALL_PROXY`, `all_proxy`), each given as a URL or as `host:port`; an empty or unreadable value names none.
    package static func proxyHosts(in environment: [String: String]) -> Set<String> {
        let names = ["http_proxy", "HTTPS_PROXY", "https_proxy", "ALL_PROXY", "all_proxy"]
        return Set(
            names.compactMap { name -> String? in
                guard let value = environment[name]?.trimmingCharacters(in: .whitespaces), !value.isEmpty else {
                    return nil
                }
                let url = URL(string: value.contains("://") ? value : "http://" + value)
                return url?.host.map(bare).flatMap { $0.isEmpty ? nil : $0 }
            })
    }

    static func effectivePort(_ url: URL) -> Int? {
        url.port ?? (url.scheme?.lowercased() == "http" ? 80 : 443)
    }

    /// swift-corelibs-foundation hands most libcurl failures on as code -1 with libcurl's error text, and no
    /// libcurl code anywhere in `userInfo` (measured with libcurl 7.88.1 and OpenSSL 3.0): the text is all
    /// there is to tell a short body from a certificate that failed its check. The prefixes are libcurl's own
    /// format strings (found in libcurl.so.4) or its OpenSSL error text as measured; anything else stays
    /// `other`, which is neither retried nor answered from the cache.
    static func libcurlFailure(_ message: String, host: String) -> TransportError {
        // "transfer closed with 90 bytes remaining to read", "... with outstanding read data remaining"
        if message.hasPrefix("transfer closed with") { return .truncatedBody }
        // "Error while processing content unencoding: invalid distance too far back": zlib's words after libcurl's.
        let unencoding = "Error while processing content unencoding: "
        if message.hasPrefix(unencoding) {
            return .other("the server's compressed body is corrupt (\(message.dropFirst(unencoding.count)))")
        }
        // A chunked body that does not parse, or an encoding not asked for (`br`): an answer, in libcurl's words
        // (helper-322) "Failed reading the chunked-encoded stream" and "Unrecognized or bad HTTP Content or
        // Transfer-Encoding".
        if message.hasPrefix("Failed reading the chunked-encoded stream") || message.contains("in chunked-encoding") {
            return .other("the server's chunked body is malformed")
        }
        if message.hasPrefix("Unrecognized or bad HTTP Content or Transfer-Encoding") {
            return .other("the server's body is in an encoding gh-users did not ask for")
        }
        // "Recv failure: Connection reset by peer", "Send failure: Broken pipe" (CURLE_RECV_ERROR, _SEND_ERROR):
        // the connection dropped under the transfer, as when libcurl's own resend of a request whose kept-alive
        // connection closed is cut off in turn (helper-302: exit 1 with no retry, where `--retries` promised 3).
        if message.hasPrefix("Recv failure:") || message.hasPrefix("Send failure:") { return .connectionLost }
        // "SSL: no alternative certificate subject name matches target host name '127.0.0.1'" and
        // "SSL: certificate subject name 'x' does not match target host name 'y'"
        if message.hasPrefix("SSL: no alternative certificate subject name matches target")
            || (message.hasPrefix("SSL: certificate subject name") && message.contains("does not match target"))
        {
            return .tls(.nameMismatch, host: host, detail: message)
        }
        // "SSL certificate problem: self-signed certificate" (unable to get local issuer certificate, expired,
        // ...), or libcurl's generic text for CURLE_PEER_FAILED_VERIFICATION when no detail was recorded.
        if message.hasPrefix("SSL certificate problem:")
            || message == "SSL peer certificate or SSH remote key was not OK"
        {
            return .tls(.untrustedCertificate, host: host, detail: message)
        }
        // "Could not resolve proxy: proxy.corp" (CURLE_COULDNT_RESOLVE_PROXY).
        let unresolvedProxy = "Could not resolve proxy: "
        if message.hasPrefix(unresolvedProxy) {
            return .proxyUnreachable(
                proxy: String(message.dropFirst(unresolvedProxy.count)), detail: "the proxy's name does not resolve")
        }
        // "Unsupported proxy syntax in 'http://[bad'", "Unsupported proxy scheme for 'ftp://proxy:21'" (helper-334):
        // a setting, not the network, so the message names the variables to check. libcurl 8.2 on adds its reason
        // after the quote (": Bad IPv6 address", curl's pull request 11137), which is kept.
        for (prefix, reason) in [
            ("Unsupported proxy syntax in '", "is not a URL libcurl can read"),
            (
                "Unsupported proxy scheme for '",
                "names a scheme libcurl does not take for a proxy (http, https, socks5…)"
            ),
        ] where message.hasPrefix(prefix) {
            let quoted = message.dropFirst(prefix.count)
            guard let end = quoted.lastIndex(of: "'") else { continue }
            let more = quoted[quoted.index(after: end)...]
            let why = more.hasPrefix(": ") && more.count > 2 ? " (\(more.dropFirst(2)))" : ""
            return .proxyUnusable(proxy: String(quoted[..<end]), reason: reason + why)
        }
        // "CONNECT tunnel failed, response 403" (libcurl 7.88); "Received HTTP code 407 from proxy after
        // CONNECT" (before 7.73).
        if let status = proxyStatus(message) {
            return .proxyRefused(host: host, status: status)
        }
        // "OpenSSL/3.0.19: error:0A00010B:SSL routines::wrong version number" (plain http on that port),
        // "OpenSSL SSL_connect: SSL_ERROR_SYSCALL in connection to host:443", or CURLE_SSL_CONNECT_ERROR's text.
        if message.hasPrefix("OpenSSL") || message.hasPrefix("SSL connect error") {
            return .tls(.handshake, host: host, detail: message)
        }
        return .other(message)
    }

    private static func proxyStatus(_ message: String) -> Int? {
        let current = "CONNECT tunnel failed, response "
        if message.hasPrefix(current) {
            return Int(message.dropFirst(current.count).prefix { $0.isNumber })
        }
        let older = "Received HTTP code "
        if message.hasPrefix(older), message.hasSuffix(" from proxy after CONNECT") {
            return Int(message.dropFirst(older.count).prefix { $0.isNumber })
        }
        return nil
    }

    static func host(of url: URL?) -> String {
        guard let url, let host = url.host else { return "the server" }
        return url.port.map { "\(host):\($0)" } ?? host
    }

    static func transportError(_ error: any Error, proxyHosts: Set<String> = []) -> TransportError {
        if let error = error as? TransportError { return error }
        if error is CancellationError { return .cancelled }
        guard let urlError = error as? URLError else {
            return .other(String(describing: error))
        }
        // libcurl quotes a proxy setting it cannot read as it was given, password and all.
        let words = urlError.localizedDescription
        let detail = words.contains("proxy") ? URLUserInfo.maskedSetting(in: words) : URLUserInfo.masked(in: words)
        switch urlError.code {
        case .cancelled: return .cancelled
        case .timedOut: return .timedOut
        // libcurl's "Empty reply from server": the connection closed before any answer.
        case .networkConnectionLost, .badServerResponse: return .connectionLost
        case .cannotConnectToHost:
            return connectFailure(detail, url: urlError.failingURL, proxyHosts: proxyHosts)
        case .cannotFindHost, .dnsLookupFailed:
            if detail.hasPrefix("Could not resolve proxy") { return libcurlFailure(detail, host: host(urlError)) }
            return .cannotConnect("the host name does not resolve", host: host(urlError))
        case .notConnectedToInternet:
            return .cannotConnect("not connected to a network", host: host(urlError))
        // The codes Apple's URLSession uses; swift-corelibs-foundation reports these as -1 (below).
        case .serverCertificateUntrusted, .serverCertificateHasUnknownRoot, .serverCertificateHasBadDate,
            .serverCertificateNotYetValid:
            return .tls(.untrustedCertificate, host: host(urlError), detail: detail)
        case .secureConnectionFailed, .clientCertificateRejected, .clientCertificateRequired:
            return .tls(.handshake, host: host(urlError), detail: detail)
        // Most libcurl failures come as -1 (a proxy's too, measured); whatever the code, libcurl's text decides.
        // CURLE_COULDNT_CONNECT's text under another code (a review saw it twice in 80 kills of a server
        // mid-run) is a connect failure all the same, retried as one.
        default:
            if detail.hasPrefix("Failed to connect to ") {
                return connectFailure(detail, url: urlError.failingURL, proxyHosts: proxyHosts)
            }
            return libcurlFailure(detail, host: host(urlError))
        }
    }

    /// The host the failed request was for, with its port when it has one, for the message.
    private static func host(_ error: URLError) -> String {
        host(of: error.failingURL)
    }

    /// libcurl refuses a response head that it cannot hold or swift-corelibs-foundation cannot read, and says
    /// so in words of its own that would mislead (measured, libcurl 7.88.1): "Out of memory" for a header line
    /// over 100 KiB, "Too large response headers: 307212 > 307200" past 300 KiB in all, and "Failed writing
    /// header" when Foundation drops a line it cannot decode (a Latin-1 byte). Before any response arrived,
    /// those texts are about the head. nil for any other failure.
    /// Some texts are a head's whenever they come (helper-320 met them raw): "Nul byte in header", "Header without
    /// colon", "Invalid Content-Length: value", and the 300 KiB cap after a server's run of `100 Continue` heads,
    /// which came after a response was held.
    static func headFailure(_ error: any Error, afterAResponse: Bool = false) -> TransportError? {
        guard let error = error as? URLError else { return nil }
        let message = error.localizedDescription
        if message.hasPrefix("Too large response headers") {
            return .malformedHeaders("more than 300 KiB of headers in all")
        }
        if message == "Nul byte in header" { return .malformedHeaders("a header line holds a NUL byte") }
        if message == "Header without colon" { return .malformedHeaders("a header line has no colon") }
        if message.hasPrefix("Invalid Content-Length") || message.hasPrefix("Overflow Content-Length") {
            return .malformedHeaders("its Content-Length is not a length")
        }
        guard !afterAResponse else { return nil }
        if message == "Out of memory" { return .malformedHeaders("a header line is over 100 KiB") }
        if message == "Failed writing header" {
            return .malformedHeaders("a header line is not UTF-8 text or not a header")
        }
        return nil
    }

    /// Adds `host` to both spellings of the no-proxy list, keeping what the user listed. swift-corelibs-foundation
    /// sets no proxy of its own on libcurl, so libcurl's reading of the environment decides.
    /// Every request of the run goes to the API's own origin (a redirect elsewhere is refused), so `*` (no proxy
    /// at all) is exact, whatever spelling of the loopback host was given: libcurl connects to `127.0.0.01` as
    /// `127.0.0.1` but matches a `NO_PROXY` entry as written, so naming the host would let the proxy read the
    /// token. Set once for the process, before any session exists.
    static func bypassProxies() {
        for name in ["NO_PROXY", "no_proxy"] { setenv(name, "*", 1) }
    }

    /// Reads `GH_USERS_MAX_RESPONSE_BYTES` as `ByteSize` reads every size setting (`256M`, `500MB`); nil for
    /// anything else, including zero, so the caller can refuse it.
    package static func maximumBodyBytes(fromSetting text: String) -> Int? {
        // At most 1 TiB: beyond that the number is a typo.
        ByteSize.parse(text).flatMap { $0 <= 1 << 40 ? Int($0) : nil }
    }
}
