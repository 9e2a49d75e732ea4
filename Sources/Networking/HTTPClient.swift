import AtomicLogger
import Foundation

/// What every request needs to know. Presets keep the defaults in one place.
package struct HTTPClientConfiguration: Sendable {
    /// The API root, e.g. `https://api.github.com`. The token goes only to this origin.
    package var baseURL: URL
    package var userAgent: String
    package var token: String?
    package var apiVersion: String

    package init(baseURL: URL, userAgent: String, token: String? = nil, apiVersion: String = "2022-11-28") {
        self.baseURL = baseURL
        self.userAgent = userAgent
        self.token = token
        self.apiVersion = apiVersion
    }

    /// github.com itself.
    package static func github(userAgent: String, token: String?) -> HTTPClientConfiguration {
        HTTPClientConfiguration(baseURL: URL(string: "https://api.github.com")!, userAgent: userAgent, token: token)
    }
}

/// Sends requests through a transport with GitHub's required headers. It is the only place a token is attached,
/// and it attaches it only to the configured origin, so a `Link` URL that points elsewhere never carries it.
package struct HTTPClient: Sendable {
    package let configuration: HTTPClientConfiguration
    private let transport: HTTPTransport
    private let logger: Logger

    package init(configuration: HTTPClientConfiguration, transport: @escaping HTTPTransport, logger: Logger) {
        self.configuration = configuration
        self.transport = transport
        self.logger = logger
    }

    package func get(_ url: URL) async throws(TransportError) -> HTTPResponse {
        try await send(makeRequest(.get, url))
    }

    package func makeRequest(_ method: HTTPMethod, _ url: URL) -> HTTPRequest {
        var headers = HTTPHeaders()
        headers.set("User-Agent", configuration.userAgent)
        headers.set("Accept", "application/vnd.github+json")
        headers.set("X-GitHub-Api-Version", configuration.apiVersion)
        if let token = configuration.token, OriginPolicy.mayReceiveToken(url, apiRoot: configuration.baseURL) {
            headers.set("Authorization", "Bearer \(token)")
        }
        return HTTPRequest(method: method, url: url, headers: headers)
    }

    package func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        let started = ContinuousClock.now
        logger.debug("→ \(request.method.rawValue) \(request.url.absoluteString)")
        do {
            let response = try await transport(request)
            logger.debug(
                "← \(response.status) \(request.method.rawValue) \(request.url.absoluteString) in \(milliseconds(since: started)) ms",
                metadata: rateLimitMetadata(response.headers)
            )
            return response
        } catch let error as TransportError {
            logger.debug("✗ \(request.url.absoluteString): \(error) after \(milliseconds(since: started)) ms")
            throw error
        } catch is CancellationError {
            throw .cancelled
        } catch {
            throw .other(String(describing: error))
        }
    }

    private func milliseconds(since start: ContinuousClock.Instant) -> Int {
        let elapsed = ContinuousClock.now - start
        return Int(elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000)
    }

    private func rateLimitMetadata(_ headers: HTTPHeaders) -> [String: String] {
        var metadata: [String: String] = [:]
        for name in ["x-ratelimit-remaining", "x-ratelimit-limit", "x-ratelimit-reset"] {
            if let value = headers[name] { metadata[name] = value }
        }
        return metadata
    }
}

/// Where a token may go: only to the API's own origin (scheme, host and port), and over plain http only
/// when that origin is a loopback address.
package enum OriginPolicy {
    package static func mayReceiveToken(_ url: URL, apiRoot: URL) -> Bool {
        guard sameOrigin(url, apiRoot) else { return false }
        return isSecureOrLoopback(url)
    }

    package static func sameOrigin(_ lhs: URL, _ rhs: URL) -> Bool {
        lhs.scheme?.lowercased() == rhs.scheme?.lowercased()
            && lhs.host?.lowercased() == rhs.host?.lowercased()
            && effectivePort(lhs) == effectivePort(rhs)
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

    private static func effectivePort(_ url: URL) -> Int? {
        if let port = url.port { return port }
        switch url.scheme?.lowercased() {
        case "https": return 443
        case "http": return 80
        default: return nil
        }
    }
}
