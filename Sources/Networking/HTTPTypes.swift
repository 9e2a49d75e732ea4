import Foundation

/// Header fields in the order given, matched without regard to case.
package struct HTTPHeaders: Sendable, Equatable, Sequence {
    package private(set) var fields: [(name: String, value: String)]

    package init(_ fields: [(name: String, value: String)] = []) {
        self.fields = fields
    }

    /// One field per name, the last of any that differ only in case winning, as `set` would leave them, in
    /// linear time: a server may send tens of thousands of header lines.
    package init(uniquing fields: some Sequence<(name: String, value: String)>) {
        var kept: [(name: String, value: String)] = []
        var positions: [String: Int] = [:]
        for field in fields {
            let key = field.name.lowercased()
            if let position = positions[key] {
                kept[position] = field
            } else {
                positions[key] = kept.count
                kept.append(field)
            }
        }
        self.fields = kept
    }

    package subscript(name: String) -> String? {
        let lowered = name.lowercased()
        // Only a name of the same length can match, so most fields cost no lowercased copy.
        let length = lowered.utf8.count
        return fields.first { $0.name.utf8.count == length && $0.name.lowercased() == lowered }?.value
    }

    /// Replaces every field of that name with one field.
    package mutating func set(_ name: String, _ value: String) {
        remove(name)
        fields.append((name, value))
    }

    package mutating func remove(_ name: String) {
        let lowered = name.lowercased()
        fields.removeAll { $0.name.lowercased() == lowered }
    }

    package func makeIterator() -> IndexingIterator<[(name: String, value: String)]> {
        fields.makeIterator()
    }

    package static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool {
        lhs.fields.elementsEqual(rhs.fields) { $0.name == $1.name && $0.value == $1.value }
    }
}

package enum HTTPMethod: String, Sendable {
    case get = "GET"
    case head = "HEAD"
    case put = "PUT"
    case delete = "DELETE"
    case post = "POST"
    case patch = "PATCH"
}

/// Whether a POST may be sent again: a GraphQL query changes nothing, so a transient failure, a 500, a 503 or a
/// secondary limit is retried as a GET's would be.
package enum QueryRepeat: Sendable, Equatable {
    /// Not a query: a POST is never sent twice.
    case never
    /// A page of a list, which cannot be asked for smaller: a 502 or 504 (a query that ran out of time) is
    /// retried too, as a GET's is.
    case asIs
    /// A batch: a 502 or 504 is handed back at once, for the caller to ask for less.
    case smallerOnTimeout
}

package struct HTTPRequest: Sendable, Equatable {
    package var method: HTTPMethod
    package var url: URL
    package var headers: HTTPHeaders
    /// What a POST sends (a GraphQL query as JSON); nil sends no body.
    package var body: Foundation.Data?
    /// A POST that only reads (a GraphQL query), so sending it again repeats nothing (`QueryRepeat`).
    package var repeatableQuery = QueryRepeat.never
    /// At most this many retries of a failure with no answer, where the policy allows more (nil: the policy's). A
    /// run that found the network down and has a copy to answer with asks once (`ConditionalFetcher`).
    package var transportRetries: Int?
    /// Told the answer's status and head as soon as they arrive, before the body (`HeadObserver`); the live
    /// transport calls it, a stub need not.
    package var onHead: HeadObserver?

    package init(
        method: HTTPMethod = .get, url: URL, headers: HTTPHeaders = HTTPHeaders(), body: Foundation.Data? = nil
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }
}

package struct HTTPResponse: Sendable, Equatable {
    package var status: Int
    package var headers: HTTPHeaders
    package var body: Foundation.Data
    /// The URL that answered, which differs from the request's after a redirect.
    package var url: URL
    /// How many times the request was sent for this answer, over how long: more than one when the client tried
    /// again (a 5xx), so that a failure can say it was retried, as one with no answer does (helper-326).
    package var attempts = 1
    package var elapsed = Duration.zero

    package init(status: Int, headers: HTTPHeaders = HTTPHeaders(), body: Foundation.Data = Foundation.Data(), url: URL)
    {
        self.status = status
        self.headers = headers
        self.body = body
        self.url = url
    }
}

/// A failure to get a usable HTTP answer.
package enum TransportError: Error, Sendable, Equatable {
    /// No connection to `host` ("127.0.0.1:9", or the bare host when the URL gives no port): `detail` says
    /// why in a few words (refused or unreachable, a name that does not resolve). A stub may leave `host` out.
    case cannotConnect(String, host: String? = nil)
    /// The proxy libcurl took from the environment (`HTTPS_PROXY`, `https_proxy`, `ALL_PROXY`, `http_proxy`)
    /// could not be reached: no connection was made to GitHub at all, so the message must name the proxy.
    case proxyUnreachable(proxy: String, detail: String)
    /// The proxy answered the CONNECT for `host` with an error `status` (403: policy, 407: it wants
    /// credentials): it will not tunnel there, and asking again will not change its mind.
    case proxyRefused(host: String, status: Int)
    /// A proxy setting libcurl cannot use (`HTTPS_PROXY=http://[bad`, `ftp://proxy:21`): `proxy` as libcurl quoted
    /// it (its user information masked), `reason` in our words. Nothing was sent anywhere.
    case proxyUnusable(proxy: String, reason: String)
    case timedOut
    case connectionLost
    /// Fewer body bytes arrived than Content-Length announced.
    case truncatedBody
    case cancelled
    /// TLS refused the server: `host` is the one asked, `detail` the TLS library's own words.
    case tls(TLSFailure, host: String, detail: String)
    /// The body (after decompression) passed the transport's cap, and the transfer was stopped.
    case responseTooLarge(limit: Int)
    /// The response's head could not be read (a header line over libcurl's 100 KiB, more than 300 KiB in all,
    /// a line that is not UTF-8): `reason` says which, in our words.
    case malformedHeaders(String)
    /// A redirect to a URL that is not http or https, which is never followed. `requestID` is the redirect's own
    /// `x-github-request-id`: the redirect is GitHub's answer, and the message names it as any other refusal does.
    case redirectRefused(String, requestID: String? = nil)
    /// A redirect that leaves the request's origin (`scheme://host:port`, the origin it named): another server's
    /// answer would pass for GitHub's, so it is never followed. `requestID` as for `redirectRefused`.
    case redirectToAnotherOrigin(String, requestID: String? = nil)
    case other(String)
}

extension TransportError {
    /// The `x-github-request-id` of the answer this failure stands for, when an answer came (a refused redirect).
    package var requestID: String? {
        switch self {
        case .redirectRefused(_, let requestID), .redirectToAnotherOrigin(_, let requestID): return requestID
        default: return nil
        }
    }
}

/// One line in words, for `--verbose` and `--debug` as much as for messages: the interpolation of a failure
/// must never print a Swift value such as `cannotConnect("…")`. Text that came from libcurl (and so may quote
/// the server's certificate names) is kept to one line; the caller sanitises it for the terminal.
extension TransportError: CustomStringConvertible {
    package var description: String {
        switch self {
        case .cannotConnect(let detail, let host):
            guard let host else { return "cannot connect: \(Self.oneLine(detail))" }
            return "cannot connect to \(Self.oneLine(host)) (\(Self.oneLine(detail)))"
        case .proxyUnreachable(let proxy, let detail):
            return "cannot connect to the proxy \(Self.oneLine(proxy)) (\(Self.oneLine(detail)))"
        case .proxyRefused(let host, let status):
            return "the proxy refused to open a tunnel to \(Self.oneLine(host)) (it answered HTTP \(status))"
        case .proxyUnusable(let proxy, let reason):
            return "the proxy setting '\(Self.oneLine(proxy))' \(reason)"
        case .timedOut: return "the request timed out"
        case .connectionLost: return "the connection was lost"
        case .truncatedBody: return "the response was cut short"
        case .cancelled: return "cancelled"
        case .tls(.untrustedCertificate, let host, let detail):
            return "the TLS certificate of \(Self.oneLine(host)) is not trusted (\(Self.oneLine(detail)))"
        case .tls(.nameMismatch, let host, let detail):
            return "the TLS certificate of \(Self.oneLine(host)) is for another name (\(Self.oneLine(detail)))"
        case .tls(.handshake, let host, let detail):
            return "the TLS handshake with \(Self.oneLine(host)) failed (\(Self.oneLine(detail)))"
        case .responseTooLarge(let limit): return "the response is larger than the \(Self.byteCount(limit)) limit"
        case .malformedHeaders(let reason):
            return "the server's headers are too large or malformed (\(Self.oneLine(reason)))"
        case .redirectRefused(let target, _):
            return
                "the server redirected to \(Self.oneLine(target)), which is not http or https, so it was not followed"
        case .redirectToAnotherOrigin(let origin, _):
            return "the server redirected to another server, \(Self.oneLine(origin)), so it was not followed"
        case .other(let detail): return Self.oneLine(detail)
        }
    }

    private static func oneLine(_ text: String) -> String {
        text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).joined(separator: " ")
    }

    /// "64 MiB" for the sizes a cap is set to; bytes otherwise.
    package static func byteCount(_ bytes: Int) -> String {
        if bytes >= 1 << 20, bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
        if bytes >= 1 << 10, bytes % (1 << 10) == 0 { return "\(bytes >> 10) KiB" }
        return bytes == 1 ? "1 byte" : "\(bytes) bytes"
    }
}

/// A request that failed after every attempt the retry policy allowed, with what was tried: the message says
/// "after 4 attempts over 3.1 s" rather than leaving the user to guess whether anything was retried.
package struct RequestFailure: Error, Sendable, Equatable {
    package let error: TransportError
    /// Times the transport was asked, this last failure included.
    package let attempts: Int
    /// From the first attempt's start to the last one's end, waits between them included.
    package let elapsed: Duration
    /// Cancelled between attempts (before the first, or in a wait), with no request under way: a write was not
    /// sent again, and any it sent before had its answer.
    package var cancelledBetweenAttempts = false

    package init(_ error: TransportError, attempts: Int, elapsed: Duration) {
        self.error = error
        self.attempts = attempts
        self.elapsed = elapsed
    }
}

/// What part of TLS failed, so the message can say what to fix.
package enum TLSFailure: Sendable, Equatable {
    /// The certificate chain does not lead to a trusted CA (self-signed, a private or proxy CA, expired).
    case untrustedCertificate
    /// A trusted certificate, but for another name than the host asked for.
    case nameMismatch
    /// The handshake itself failed: not TLS on that port, no common protocol or cipher, a reset.
    case handshake
}

/// The one seam between the HTTP client and the wire. The live value wraps URLSession; tests pass closures.
package typealias HTTPTransport = @Sendable (HTTPRequest) async throws -> HTTPResponse
