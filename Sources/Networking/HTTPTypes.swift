import Foundation

/// Header fields in the order given, matched without regard to case.
package struct HTTPHeaders: Sendable, Equatable, Sequence {
    package private(set) var fields: [(name: String, value: String)]

    package init(_ fields: [(name: String, value: String)] = []) {
        self.fields = fields
    }

    package subscript(name: String) -> String? {
        let lowered = name.lowercased()
        return fields.first { $0.name.lowercased() == lowered }?.value
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

package struct HTTPRequest: Sendable, Equatable {
    package var method: HTTPMethod
    package var url: URL
    package var headers: HTTPHeaders

    package init(method: HTTPMethod = .get, url: URL, headers: HTTPHeaders = HTTPHeaders()) {
        self.method = method
        self.url = url
        self.headers = headers
    }
}

package struct HTTPResponse: Sendable, Equatable {
    package var status: Int
    package var headers: HTTPHeaders
    package var body: Foundation.Data
    /// The URL that answered, which differs from the request's after a redirect.
    package var url: URL

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
    case cannotConnect(String)
    case timedOut
    case connectionLost
    /// Fewer body bytes arrived than Content-Length announced.
    case truncatedBody
    case cancelled
    /// TLS refused the server: `host` is the one asked, `detail` the TLS library's own words.
    case tls(TLSFailure, host: String, detail: String)
    /// The body (after decompression) passed the transport's cap, and the transfer was stopped.
    case responseTooLarge(limit: Int)
    /// A redirect to a URL that is not http or https, which is never followed.
    case redirectRefused(String)
    case other(String)
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
