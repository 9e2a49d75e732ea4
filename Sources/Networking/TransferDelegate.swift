import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The session's delegate: it receives every task's body as it arrives, so a body can be stopped once it
/// passes the cap, and it vets every redirect.
///
/// `data(for:)` cannot do either: it gathers the whole body before it returns (a 200 MB body cost 920 MB of
/// RSS), and on Linux the delegate passed to `data(for:delegate:)` sees the bytes but cancelling its task does
/// not stop the transfer (measured). A plain `dataTask` with the session's delegate does both.
final class TransferDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    /// One task's state. URLSession calls the delegate on one serial queue, but registration and
    /// cancellation come from other threads, so everything goes through `lock`.
    private final class Transfer: @unchecked Sendable {
        let limit: Int
        var continuation: CheckedContinuation<(Foundation.Data, URLResponse), any Error>?
        var body = Foundation.Data()
        var response: URLResponse?
        var overLimit = false
        var refusedRedirect: String?
        /// The caller was cancelled: it has had its answer, and whatever still arrives is dropped.
        var abandoned = false

        init(limit: Int) {
            self.limit = limit
        }
    }

    private let lock = NSLock()
    private var transfers: [Int: Transfer] = [:]

    /// Runs `request` to completion, keeping at most `maximumBodyBytes` of (decompressed) body.
    func load(_ request: URLRequest, in session: URLSession, maximumBodyBytes: Int) async throws -> (
        Foundation.Data, URLResponse
    ) {
        let task = session.dataTask(with: request)
        let transfer = Transfer(limit: maximumBodyBytes)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let start = lock.withLock { () -> Bool in
                    guard !transfer.abandoned else { return false }
                    transfer.continuation = continuation
                    transfers[task.taskIdentifier] = transfer
                    return true
                }
                if start {
                    task.resume()
                } else {
                    continuation.resume(throwing: URLError(.cancelled))
                }
            }
        } onCancel: {
            // Never `task.cancel()` here. The handler runs under the Swift task's status lock, and `cancel()`
            // waits on URLSession's queue, which may at that moment be resuming this very continuation and
            // need that lock: a deadlock (`list --all | head -1`, Ctrl-C mid-crawl, release builds). So the
            // caller is answered from another queue, and the transfer is stopped from a thread of its own.
            DispatchQueue.global().async { self.abandon(task, transfer) }
        }
    }

    /// Answers a cancelled caller at once. The transfer itself is left to end on its own (its answer, or the
    /// session's timeout), its bytes dropped: `URLSessionTask.cancel()` racing the answer's arrival trips
    /// swift-corelibs-foundation's "task that is not in the registry" fatal error (3 runs in 3 of 2,000 races).
    private func abandon(_ task: URLSessionDataTask, _ transfer: Transfer) {
        let continuation = lock.withLock { () -> CheckedContinuation<(Foundation.Data, URLResponse), any Error>? in
            transfer.abandoned = true
            transfer.body = Foundation.Data()
            defer { transfer.continuation = nil }
            return transfer.continuation
        }
        continuation?.resume(throwing: URLError(.cancelled))
    }

    func urlSession(
        _ session: URLSession,
        dataTask: URLSessionDataTask,
        didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let tooLarge = lock.withLock { () -> Bool in
            guard let transfer = transfers[dataTask.taskIdentifier] else { return false }
            transfer.response = response
            // A plain body announced as too large need not be read at all. (A compressed one's length says
            // nothing about what it inflates to.)
            let encoded = (response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Encoding") != nil
            if !encoded, response.expectedContentLength > Int64(transfer.limit) {
                transfer.overLimit = true
            }
            return transfer.overLimit
        }
        // `.cancel` does not stop libcurl here (a 200 MB body was still read to its end, measured), so the
        // transfer is let through and cancelled like one that grows past the cap.
        completionHandler(.allow)
        if tooLarge { cancel(dataTask) }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Foundation.Data) {
        let passedLimit = lock.withLock { () -> Bool in
            guard let transfer = transfers[dataTask.taskIdentifier], !transfer.overLimit, !transfer.abandoned else {
                return false
            }
            guard transfer.body.count + data.count <= transfer.limit else {
                transfer.overLimit = true
                transfer.body = Foundation.Data()
                return true
            }
            transfer.body.append(data)
            return false
        }
        if passedLimit { cancel(dataTask) }
    }

    /// Cancels on a thread of its own. `cancel()` blocks until URLSession's work queue is free, which took up
    /// to 0.4 s on a loaded machine, and libcurl inflates a whole read of a compressed body there before it
    /// looks up. Were this delegate queue to wait, everything inflated meanwhile would pile up behind it:
    /// 1.1 GB of RSS for a 1 GiB gzip bomb, against 60 MB while this queue keeps dropping what arrives past
    /// the cap (measured); and a Dispatch worker blocked that long is one fewer for everything else.
    ///
    /// So the transfer stops a little after the cap, not at it: URLSession queues chunks to its delegate
    /// without waiting, and offers no way to stop libcurl from inside `didReceive`.
    private func cancel(_ task: URLSessionDataTask) {
        Thread.detachNewThread { task.cancel() }
    }

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        // Only http and https are followed. swift-corelibs-foundation turns `Location: file:///etc/passwd` into
        // a request for `/etc/passwd` on the same server, so the header is checked as well as the new URL.
        let location = response.value(forHTTPHeaderField: "Location").flatMap { URL(string: $0) }
        let targets = [request.url, location].compactMap { $0 }
        if let refused = targets.first(where: { !["http", "https"].contains($0.scheme?.lowercased() ?? "http") }) {
            lock.withLock { transfers[task.taskIdentifier]?.refusedRedirect = refused.absoluteString }
            completionHandler(nil)
            return
        }
        // URLSession on Linux would forward the token to another host; only the original origin gets it.
        var redirected = request
        let original = task.originalRequest?.url
        if let original, let target = request.url, !OriginPolicy.sameOrigin(original, target) {
            redirected.setValue(nil, forHTTPHeaderField: "Authorization")
        }
        completionHandler(redirected)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        // An abandoned transfer's caller was answered already; its continuation is gone.
        guard let transfer = lock.withLock({ transfers.removeValue(forKey: task.taskIdentifier) }),
            let continuation = lock.withLock({ () -> CheckedContinuation<(Foundation.Data, URLResponse), any Error>? in
                defer { transfer.continuation = nil }
                return transfer.continuation
            })
        else { return }
        if transfer.overLimit {
            continuation.resume(throwing: TransportError.responseTooLarge(limit: transfer.limit))
        } else if let refused = transfer.refusedRedirect {
            continuation.resume(throwing: TransportError.redirectRefused(refused))
        } else if let error {
            continuation.resume(throwing: error)
        } else if let response = transfer.response ?? task.response {
            continuation.resume(returning: (transfer.body, response))
        } else {
            continuation.resume(throwing: TransportError.other("no response"))
        }
    }
}
