import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The live transport over URLSession: the only file in the project that touches FoundationNetworking.
///
/// URLSession on Linux forwards `Authorization` to another host on a redirect and does no HTTP caching
/// (PLATFORM.md), so the session here has no cache at all and a delegate that strips the token when a
/// redirect leaves the origin.
package final class URLSessionTransport: Sendable {
    private let session: URLSession

    package init(maximumConnectionsPerHost: Int = 6, requestTimeout: TimeInterval = 60) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.httpMaximumConnectionsPerHost = max(1, maximumConnectionsPerHost)
        configuration.timeoutIntervalForRequest = requestTimeout
        session = URLSession(configuration: configuration, delegate: RedirectGuard(), delegateQueue: nil)
    }

    deinit {
        session.finishTasksAndInvalidate()
    }

    package var transport: HTTPTransport {
        { [self] request in try await self.send(request) }
    }

    package func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method.rawValue
        for field in request.headers {
            urlRequest.setValue(field.value, forHTTPHeaderField: field.name)
        }
        let data: Foundation.Data
        let response: URLResponse
        do {
            (data, response) = try await session.data(for: urlRequest)
        } catch {
            throw URLSessionTransport.transportError(error)
        }
        guard let http = response as? HTTPURLResponse else {
            throw TransportError.other("not an HTTP response")
        }
        var headers = HTTPHeaders()
        for (name, value) in http.allHeaderFields {
            headers.set(String(describing: name), String(describing: value))
        }
        return HTTPResponse(status: http.statusCode, headers: headers, body: data, url: http.url ?? request.url)
    }

    static func transportError(_ error: any Error) -> TransportError {
        if error is CancellationError { return .cancelled }
        guard let urlError = error as? URLError else {
            return .other(String(describing: error))
        }
        switch urlError.code {
        case .cancelled: return .cancelled
        case .timedOut: return .timedOut
        // libcurl's "Empty reply from server": the connection closed before any answer.
        case .networkConnectionLost, .badServerResponse: return .connectionLost
        case .cannotConnectToHost, .cannotFindHost, .dnsLookupFailed, .notConnectedToInternet:
            return .cannotConnect(urlError.localizedDescription)
        case .unknown:
            // libcurl reports a short body ("transfer closed with N bytes remaining") as code -1.
            return .truncatedBody
        default:
            return .other(urlError.localizedDescription)
        }
    }
}

/// Strips the token when a redirect leaves the original origin; URLSession on Linux would forward it.
private final class RedirectGuard: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        var redirected = request
        let original = task.originalRequest?.url
        if let original, let target = request.url, !OriginPolicy.sameOrigin(original, target) {
            redirected.setValue(nil, forHTTPHeaderField: "Authorization")
        }
        completionHandler(redirected)
    }
}
