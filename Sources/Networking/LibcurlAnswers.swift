import Foundation

/// What the transport reads from libcurl's answers without touching FoundationNetworking: which HTTP version a
/// head shows, and what a failure's text says (libcurl's messages reach us only as text).
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
}
