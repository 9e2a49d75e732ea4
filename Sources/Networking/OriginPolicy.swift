import Foundation

/// Where a token may go: only to the API's own origin (scheme, host and port), and over plain http only
/// when that origin is a loopback address.
package enum OriginPolicy {
    package static func mayReceiveToken(_ url: URL, apiRoot: URL) -> Bool {
        guard sameOrigin(url, apiRoot) else { return false }
        return isSecureOrLoopback(url)
    }

    /// A `Link` URL is followed only on the API's own origin: another server's page would be mixed into the
    /// output as if GitHub had sent it.
    package static func mayFollowLink(_ url: URL, apiRoot: URL) -> Bool {
        sameOrigin(url, apiRoot)
    }

    /// Where a `Link` URL on the API's origin stands against the API root's path. Compared as a proxy does (`..`
    /// resolved, slashes merged), case aside; a root with no path (github.com's) takes any. An escape that makes a
    /// segment `.` or `..`, or puts a slash or a backslash in one (`v3%2F..%2F..`), is `hidden`: a proxy that
    /// decodes it before it matches (nginx does) reads another path, as does one that is not UTF-8. An escaped dot
    /// in a name (`r%2Ex`) is neither.
    package enum LinkPath: Equatable {
        case under, outside
        case hidden(String)
    }

    package static func linkPath(_ url: URL, apiRoot: URL) -> LinkPath {
        func bare(_ path: String) -> String { path.split(separator: "/").joined(separator: "/").lowercased() }
        let root = bare(apiRoot.path)
        guard !root.isEmpty else { return .under }
        let encoded = URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedPath ?? ""
        // An escape that is not UTF-8 (`%C3/`) hides what the path is: Foundation reads no path at all.
        let hides = encoded.split(separator: "/").contains { segment in
            guard segment.contains("%") else { return false }
            guard let decoded = segment.removingPercentEncoding else { return true }
            return decoded == "." || decoded == ".." || decoded.contains("/") || decoded.contains("\\")
        }
        if hides { return .hidden(encoded) }
        let link = bare(url.standardized.path)
        return link == root || link.hasPrefix(root + "/") ? .under : .outside
    }

    /// `scheme://host:port` as a message names it (the port only when the URL gives one).
    package static func origin(_ url: URL) -> String {
        (url.scheme ?? "") + "://" + (url.host ?? "") + (url.port.map { ":\($0)" } ?? "")
    }

    package static func sameOrigin(_ lhs: URL, _ rhs: URL) -> Bool {
        lhs.scheme?.lowercased() == rhs.scheme?.lowercased()
            && lhs.host?.lowercased() == rhs.host?.lowercased()
            && effectivePort(lhs) == effectivePort(rhs)
    }

    /// The host that must go around any proxy: an http API root on a loopback address that is sent the token.
    /// A proxy over plain http reads the whole request, the token too (`http_proxy`, `ALL_PROXY`), and a
    /// loopback address is this machine's own, which no proxy is needed to reach. nil for an https root (the
    /// proxy tunnels it, and sees no token) or when no token goes.
    package static func mustBypassProxy(apiRoot: URL, sendsToken: Bool) -> String? {
        guard sendsToken, apiRoot.scheme?.lowercased() == "http", let host = apiRoot.host, isLoopback(host: host)
        else { return nil }
        return host.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
    }

    package static func isSecureOrLoopback(_ url: URL) -> Bool {
        switch url.scheme?.lowercased() {
        case "https": return true
        case "http": return isLoopback(host: url.host ?? "")
        default: return false
        }
    }

    package static func isLoopback(host: String) -> Bool {
        let bare = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]")).lowercased()
        if bare == "localhost" || bare == "::1" { return true }
        let octets = bare.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets[0] == "127" && octets.allSatisfy { UInt8($0) != nil }
    }

    /// github.com's own hosts, as gh reads them (`NormalizeHostname`): github.com and every subdomain of it, in any
    /// case, with or without a final dot. An API root there (`https://api.github.com.`, a mistyped
    /// `https://github.com/api/v3`) was taken for an Enterprise host and sent the enterprise token.
    package static func isGitHubCom(_ host: String) -> Bool {
        let name = bareHost(host)
        return name == "github.com" || name.hasSuffix(".github.com")
    }

    /// A ghe.com host (GitHub Enterprise Cloud with data residency), as gh's `IsTenancy` reads it.
    package static func isTenancy(_ host: String) -> Bool { bareHost(host).hasSuffix(".ghe.com") }

    /// A host name in lower case without its final dots, as a name is compared (`api.github.com..` too, which
    /// no resolver takes, but one rule everywhere keeps the token choice and its warning together).
    package static func bareHost(_ host: String) -> String {
        var name = Substring(host.lowercased())
        while name.hasSuffix(".") { name = name.dropLast() }
        return String(name)
    }

    private static func effectivePort(_ url: URL) -> Int? {
        if let port = url.port { return port }
        switch url.scheme?.lowercased() {
        case "https": return 443
        case "http": return 80
        default: return nil
        }
    }
}
