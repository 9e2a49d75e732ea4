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
            (data, response) = try await exchange(urlRequest)
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

// Cancellation never waits on URLSession. Its async `data(for:)` calls `URLSessionTask.cancel()` from the task's
// cancellation handler, which runs under the Swift task's status lock; `cancel()` then does a `sync` onto the
// session's queue, while that queue may be resuming the same task's continuation, which needs that lock: a
// deadlock (`list --all | head -1`, Ctrl-C mid-crawl). And `cancel()` racing the answer's arrival can also
// trip swift-corelibs-foundation's "task that is not in the registry" fatal error. So a cancelled exchange is
// answered at once with `URLError(.cancelled)`, from another queue, and the URLSessionTask is left to end on its
// own (at the latest at the session's request timeout); its late answer is dropped.
extension URLSessionTransport {
    func exchange(_ request: URLRequest) async throws -> (Foundation.Data, URLResponse) {
        let pending = PendingExchange()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let task = session.dataTask(with: request) { data, response, error in
                    if let error {
                        pending.finish(.failure(error))
                    } else if let data, let response {
                        pending.finish(.success((data, response)))
                    } else {
                        pending.finish(.failure(URLError(.badServerResponse)))
                    }
                }
                // The redirect guard must see this task's redirects too, not only the session's.
                task.delegate = session.delegate as? URLSessionTaskDelegate
                if pending.start(continuation) { task.resume() }
            }
        } onCancel: {
            // Only a hop to another queue: the handler runs under the task's status lock.
            DispatchQueue.global().async { pending.finish(.failure(URLError(.cancelled))) }
        }
    }
}

/// The one continuation of an exchange, resumed exactly once: by the answer or by cancellation, whichever
/// comes first.
private final class PendingExchange: @unchecked Sendable {
    typealias Outcome = Result<(Foundation.Data, URLResponse), any Error>

    private let lock = NSLock()
    private var continuation: CheckedContinuation<(Foundation.Data, URLResponse), any Error>?
    /// Set when the outcome is known before the continuation exists (cancelled before the request was sent).
    private var early: Outcome?

    /// Keeps the continuation; false when the exchange has already ended (it is then resumed here).
    func start(_ continuation: CheckedContinuation<(Foundation.Data, URLResponse), any Error>) -> Bool {
        let early = lock.withLock { () -> Outcome? in
            if self.early == nil { self.continuation = continuation }
            return self.early
        }
        guard let early else { return true }
        continuation.resume(with: early)
        return false
    }

    func finish(_ outcome: Outcome) {
        let continuation = lock.withLock { () -> CheckedContinuation<(Foundation.Data, URLResponse), any Error>? in
            defer { self.continuation = nil }
            if self.continuation == nil, early == nil { early = outcome }
            return self.continuation
        }
        continuation?.resume(with: outcome)
    }
}
