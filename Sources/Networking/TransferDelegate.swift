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
        /// Told the head when it arrives (`HTTPRequest.onHead`).
        var onHead: HeadObserver?
        /// Told the body's length as it grows (`HeadObserver.grew`), each time it reaches `nextGrowthMark`.
        var grew: (@Sendable (Int) -> Void)?
        var nextGrowthMark = 1 << 20
        /// Why a redirect was not followed: the failure the caller gets instead of the redirect's own answer.
        var refusedRedirect: TransportError?
        /// The caller was cancelled: it has had its answer, and whatever still arrives is dropped.
        var abandoned = false

        init(limit: Int) {
            self.limit = limit
        }
    }

    private let lock = NSLock()
    private var transfers: [Int: Transfer] = [:]

    /// Runs `request` to completion, keeping at most `maximumBodyBytes` of (decompressed) body.
    func load(
        _ request: URLRequest, in session: URLSession, maximumBodyBytes: Int, onHead: HeadObserver? = nil
    ) async throws -> (Foundation.Data, URLResponse) {
        let task = session.dataTask(with: request)
        let transfer = Transfer(limit: maximumBodyBytes)
        transfer.onHead = onHead
        transfer.grew = onHead?.grew
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
            transfer.grew = nil
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
        let (tooLarge, onHead) = lock.withLock { () -> (Bool, HeadObserver?) in
            guard let transfer = transfers[dataTask.taskIdentifier] else { return (false, nil) }
            transfer.response = response
            defer { transfer.onHead = nil }
            // A plain body announced as too large need not be read at all. (A compressed one's length says
            // nothing about what it inflates to.)
            let encoded = (response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Encoding") != nil
            if !encoded, response.expectedContentLength > Int64(transfer.limit) {
                transfer.overLimit = true
            } else if !encoded, response.expectedContentLength > 0, transfer.body.isEmpty {
                // A body of known length is gathered in one buffer of that size, not in one that doubles as it
                // grows, each smaller one left behind in the allocator (issue 38). Pages not yet touched cost
                // nothing, so a length that overstates the body costs no memory.
                transfer.body = Foundation.Data(capacity: Int(response.expectedContentLength))
            }
            return (transfer.overLimit, transfer.abandoned ? nil : transfer.onHead)
        }
        // `.cancel` does not stop libcurl here (a 200 MB body was still read to its end, measured), so the
        // transfer is let through and cancelled like one that grows past the cap.
        completionHandler(.allow)
        if tooLarge { refuseTooLarge(dataTask) }
        if let onHead, !tooLarge, let http = response as? HTTPURLResponse {
            onHead.observe(http.statusCode, URLSessionTransport.headers(of: http))
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Foundation.Data) {
        let (passedLimit, grown) = lock.withLock { () -> (Bool, (@Sendable (Int) -> Void, Int)?) in
            guard let transfer = transfers[dataTask.taskIdentifier], !transfer.overLimit, !transfer.abandoned else {
                return (false, nil)
            }
            guard transfer.body.count + data.count <= transfer.limit else {
                transfer.overLimit = true
                transfer.body = Foundation.Data()
                return (true, nil)
            }
            transfer.body.append(data)
            let count = transfer.body.count
            guard let grew = transfer.grew, count >= transfer.nextGrowthMark else { return (false, nil) }
            while transfer.nextGrowthMark <= count { transfer.nextGrowthMark *= 2 }
            return (false, (grew, count))
        }
        if passedLimit { refuseTooLarge(dataTask) }
        if let (grew, count) = grown { grew(count) }
    }

    /// Answers the caller as soon as the body is known to be too large, then stops the transfer. The cancel
    /// may land late (see `cancel`): a fast body kept a loaded machine's URLSession busy for 50 s once
    /// (measured), and the caller need not wait for that; what still arrives is dropped.
    private func refuseTooLarge(_ task: URLSessionDataTask) {
        let answer = lock.withLock { () -> (CheckedContinuation<(Foundation.Data, URLResponse), any Error>, Int)? in
            guard let transfer = transfers[task.taskIdentifier], let continuation = transfer.continuation else {
                return nil
            }
            transfer.continuation = nil
            return (continuation, transfer.limit)
        }
        if let (continuation, limit) = answer {
            continuation.resume(throwing: TransportError.responseTooLarge(limit: limit))
        }
        cancel(task)
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
        // A write is never re-sent elsewhere (URLSession would repeat a PUT, token and all, to any Location), nor
        // a GraphQL POST, which FoundationNetworking re-sends without its body: the redirect itself is the answer.
        if let method = task.originalRequest?.httpMethod.flatMap(HTTPMethod.init(rawValue:)),
            method.isWrite || method == .post
        {
            completionHandler(nil)
            return
        }
        // Only http and https are followed. swift-corelibs-foundation turns `Location: file:///etc/passwd` into
        // a request for `/etc/passwd` on the same server, so the header is checked as well as the new URL.
        let location = response.value(forHTTPHeaderField: "Location").flatMap { URL(string: $0) }
        let targets = [request.url, location].compactMap { $0 }
        let requestID = response.value(forHTTPHeaderField: "X-GitHub-Request-Id")
        if let refused = targets.first(where: { !["http", "https"].contains($0.scheme?.lowercased() ?? "http") }) {
            refuse(task, .redirectRefused(refused.absoluteString, requestID: requestID), completionHandler)
            return
        }
        // Another origin's answer would pass for GitHub's (and URLSession on Linux would forward the token
        // there), so a redirect is followed only within the origin the request named, as a `next` link is.
        // (The new request's URL is where it would go; a relative `Location` resolves to the same origin.)
        if let original = task.originalRequest?.url, let target = request.url,
            !OriginPolicy.sameOrigin(original, target)
        {
            refuse(
                task, .redirectToAnotherOrigin(OriginPolicy.origin(target), requestID: requestID), completionHandler)
            return
        }
        completionHandler(request)
    }

    /// Ends the task with the redirect's own answer, which the caller never sees: it gets `failure`.
    private func refuse(
        _ task: URLSessionTask, _ failure: TransportError,
        _ completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        lock.withLock { transfers[task.taskIdentifier]?.refusedRedirect = failure }
        completionHandler(nil)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        // An abandoned transfer's caller, or one past the cap, was answered already; its continuation is gone.
        guard let transfer = lock.withLock({ transfers.removeValue(forKey: task.taskIdentifier) }),
            let continuation = lock.withLock({ () -> CheckedContinuation<(Foundation.Data, URLResponse), any Error>? in
                defer { transfer.continuation = nil }
                return transfer.continuation
            })
        else { return }
        if let refused = transfer.refusedRedirect {
            continuation.resume(throwing: refused)
        } else if let error {
            let head = transfer.response == nil ? URLSessionTransport.headFailure(error) : nil
            continuation.resume(throwing: head ?? error)
        } else if let response = transfer.response ?? task.response {
            continuation.resume(returning: (transfer.body, response))
        } else {
            continuation.resume(throwing: TransportError.other("no response"))
        }
    }
}
