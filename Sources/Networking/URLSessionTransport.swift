import AtomicCore
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The live transport over URLSession, with its sessions (`SessionRoute`) and their delegate (`TransferDelegate`)
/// below: the only file in the project that imports FoundationNetworking.
///
/// URLSession on Linux forwards `Authorization` to another host on a redirect and does no HTTP caching
/// (PLATFORM.md), so the session here has no cache at all and a delegate (`TransferDelegate`) that follows a
/// redirect only within the request's origin and over http(s), and caps each body.
package final class URLSessionTransport: Sendable {
    /// HTTPS goes through a session of one connection per host. libcurl holds the requests that start before that
    /// connection is up and multiplexes them all on it once HTTP/2 is agreed: the wait that swift-corelibs-foundation
    /// never asks for (`CURLOPT_PIPEWAIT`), so that `show` of 50 logins at `--concurrency 8` opened 8 connections
    /// and 8 TLS handshakes (issue 29). An answer that shows HTTP/1.1 (`showsHTTP1`) sends the requests after it to
    /// `pooled`, as plain http always goes.
    private let multiplexed: SessionRoute
    /// `maximumConnectionsPerHost` connections a host, for HTTP/1.1, which cannot multiplex, in sessions of
    /// at most `connectionsPerPooledSession`. libcurl closes an idle connection whenever a session holds more than
    /// four for each transfer under way in it (CURLMOPT_MAXCONNECTS is unset, so its cache is 4 × the transfers),
    /// so one pool of 10 lost connections whenever the transfers under way fell to two, and opened them again a
    /// moment later (issue 29: `followers --all --full --concurrency 8` opened 9–14 over HTTP/1.1 where 9 do).
    /// A session of four never holds more than that. The sessions are made `sessionSets` times over, each when
    /// first used: a set past the first is used only when the sets before it are full, mostly while transfers
    /// given up on (a timed-out attempt) still hold connections, as they do until their session's own timeout,
    /// so that a retry is not queued behind them; now and then for more requests at once than one set holds (a
    /// page beside ten lookups).
    private let pooled: [SessionRoute]
    /// One set for each attempt of a request with the default three retries: by a fifth, the first set's given-up
    /// transfers have met their session's timeout.
    static let sessionSets = 4
    static let connectionsPerPooledSession = 4
    private let sawHTTP1 = OnceFlag()
    /// The API host answered over HTTP/1.1 in an earlier run (`HTTPVersionMemory` in the executable): every
    /// request goes to the pool from the start, each on a connection of its own, instead of queueing the first
    /// four on one connection until the first answer shows the protocol (issue 38: W2 over HTTP/1.1 took
    /// 0.71–0.87 s that way, against 0.63 s).
    private let remembersHTTP1: Bool
    /// Told once what this run learned that the memory did not say: true when an answer showed HTTP/1.1, false
    /// when a run that started from the memory's HTTP/1.1 got a first HTTPS answer that does not show it.
    private let learnedHTTPVersion: (@Sendable (_ speaksHTTP1: Bool) -> Void)?
    private let firstPooledHTTPSAnswer = OnceFlag()
    private let choosing = NSLock()
    /// Over HTTPS, `requestsBeforeTheProtocolIsKnown` go on the one connection before the first answer, and the
    /// rest wait for it (see `FirstAnswerGate`): over HTTP/1.1 the ones queued there go one after another, so
    /// they are few. Plain http is HTTP/1.1 (libcurl offers HTTP/2 only over TLS) and waits for nothing.
    private let firstHTTPSAnswer = FirstAnswerGate(ahead: URLSessionTransport.requestsBeforeTheProtocolIsKnown)
    /// Four: HTTP/2 has them all on the wire with the leader, and over HTTP/1.1 three wait a round trip each.
    static let requestsBeforeTheProtocolIsKnown = 4
    /// The most body bytes (after decompression) one response may bring; past it the transfer is stopped.
    package let maximumBodyBytes: Int
    /// The hosts of the proxies libcurl takes from the environment (`proxyHosts(in:)`): a failed connection
    /// names the proxy only when it was to one of them.
    package let proxyHosts: Set<String>

    /// Generous for GitHub (a page of 100 users is about 120 KB), small enough that a hostile or broken
    /// server cannot take the machine's memory.
    package static let defaultMaximumBodyBytes = 64 << 20

    /// With a `directHost` (`OriginPolicy.mustBypassProxy`: a loopback http root sent the token) the run goes
    /// around every proxy: `NO_PROXY` and `no_proxy` become `*`, which libcurl reads for each connection.
    package init(
        maximumConnectionsPerHost: Int = 6,
        requestTimeout: TimeInterval = 60,
        maximumBodyBytes: Int = URLSessionTransport.defaultMaximumBodyBytes,
        proxyHosts: Set<String> = [],
        directHost: String? = nil,
        remembersHTTP1: Bool = false,
        learnedHTTPVersion: (@Sendable (_ speaksHTTP1: Bool) -> Void)? = nil
    ) {
        if directHost != nil { URLSessionTransport.bypassProxies() }
        self.remembersHTTP1 = remembersHTTP1
        self.learnedHTTPVersion = learnedHTTPVersion
        if remembersHTTP1 { sawHTTP1.setOnce() }
        self.maximumBodyBytes = max(1, maximumBodyBytes)
        self.proxyHosts = Set(proxyHosts.map(URLSessionTransport.bare))
        multiplexed = SessionRoute(connectionsPerHost: 1, requestTimeout: requestTimeout)
        let connections = max(1, maximumConnectionsPerHost)
        let size = URLSessionTransport.connectionsPerPooledSession
        let sizes = stride(from: 0, to: connections, by: size).map { min(size, connections - $0) }
        pooled = Array(repeating: sizes, count: URLSessionTransport.sessionSets).joined().map {
            SessionRoute(connectionsPerHost: $0, requestTimeout: requestTimeout)
        }
    }

    deinit {
        multiplexed.invalidate()
        for route in pooled { route.invalidate() }
    }

    /// `request` through the one connection, or the pool once an answer showed HTTP/1.1 (or for plain http).
    /// What an answer shows is noted before the gates let the requests waiting on it go.
    private func load(_ request: URLRequest, onHead: HeadObserver?) async throws -> (Foundation.Data, URLResponse) {
        let url = request.url ?? URL(fileURLWithPath: "/")
        if routesToOneConnection(url) {
            let leads = try await firstHTTPSAnswer.pass()
            defer { if leads { firstHTTPSAnswer.open() } }
            if routesToOneConnection(url) {
                // A head that shows HTTP/1.1 is noted at once and not told: a next page sent now would queue
                // behind this answer, or need a connection of its own.
                let told = onHead.map { observer in
                    HeadObserver(
                        { [self] status, headers in
                            note(headerNames: headers.fields.lazy.map(\.name))
                            if !sawHTTP1.isSet { observer.observe(status, headers) }
                        }, grew: observer.grew)
                }
                multiplexed.reserve()
                let answer = try await multiplexed.load(request, maximumBodyBytes: maximumBodyBytes, onHead: told)
                note(answer.1)
                return answer
            }
        }
        // Over HTTPS the one connection is the pool's first once it is idle, so a request after another reuses it
        // rather than paying a handshake; and an answer's head is not told early (`HeadObserver`), since a next page
        // sent before this answer ends would need a connection, and a handshake, of its own.
        let https = url.scheme?.lowercased() == "https"
        let answer = try await pooledRoute(after: https ? multiplexed : nil).load(
            request, maximumBodyBytes: maximumBodyBytes, onHead: https ? nil : onHead)
        if https, remembersHTTP1, firstPooledHTTPSAnswer.setOnce(), let http = answer.1 as? HTTPURLResponse,
            !URLSessionTransport.showsHTTP1(http.allHeaderFields.keys.map { "\($0)" })
        {
            learnedHTTPVersion?(false)
        }
        return answer
    }

    /// The first session with a connection to spare (`first`, then the pooled ones in order), else the least busy:
    /// a session is only opened when the ones before it are full.
    /// The choice and the count it reads are one step (`choosing`): requests that start together see each other.
    private func pooledRoute(after first: SessionRoute?) -> SessionRoute {
        choosing.withLock {
            let loads = ((first.map { [$0] } ?? []) + pooled).map { ($0, $0.underWay) }
            let route =
                loads.first(where: { $0.1 < $0.0.connectionsPerHost })?.0 ?? loads.min { $0.1 < $1.1 }?.0
                ?? pooled[0]
            route.reserve()
            return route
        }
    }

    private func note(_ response: URLResponse) {
        guard !sawHTTP1.isSet, let http = response as? HTTPURLResponse else { return }
        note(headerNames: http.allHeaderFields.keys.map { "\($0)" })
    }

    /// An answer's header names, as swift-corelibs-foundation hands them over.
    func note(headerNames: some Sequence<String>) {
        if URLSessionTransport.showsHTTP1(headerNames), sawHTTP1.setOnce() { learnedHTTPVersion?(true) }
    }

    /// Which session a request to `url` goes through: HTTPS multiplexed until an answer showed HTTP/1.1.
    func routesToOneConnection(_ url: URL) -> Bool {
        url.scheme?.lowercased() == "https" && !sawHTTP1.isSet
    }

    package var transport: HTTPTransport {
        { [self] request in try await self.send(request) }
    }

    package func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let urlRequest = URLSessionTransport.urlRequest(for: request)
        let data: Foundation.Data
        let response: URLResponse
        do {
            (data, response) = try await load(urlRequest, onHead: request.onHead)
        } catch {
            throw URLSessionTransport.transportError(error, proxyHosts: proxyHosts)
        }
        guard let http = response as? HTTPURLResponse else {
            throw TransportError.other("not an HTTP response")
        }
        return HTTPResponse(
            status: http.statusCode, headers: URLSessionTransport.headers(of: http), body: data,
            url: http.url ?? request.url)
    }

    /// The answer's header fields, in linear time: a server may send tens of thousands of lines. (Setting them
    /// one at a time compared every pair: 20,000 lines cost 3.7 s more CPU in a release build.)
    /// swift-corelibs-foundation's own parser still copies its list of lines once per line, so a head of many
    /// short lines costs quadratic time there (20,000 lines: about 5 s of CPU on a loaded 2-core machine);
    /// libcurl's 300 KiB cap on a head is what bounds it.
    static func headers(of response: HTTPURLResponse) -> HTTPHeaders {
        HTTPHeaders(
            uniquing: response.allHeaderFields.lazy.map {
                (name: String(describing: $0.key), value: String(describing: $0.value))
            })
    }

    /// The request as URLSession will carry it. `headersSent(for:)` reads it back, so the debug trace shows
    /// what URLSession keeps and not what it was offered.
    static func urlRequest(for request: HTTPRequest) -> URLRequest {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method.rawValue
        for field in request.headers {
            urlRequest.setValue(field.value, forHTTPHeaderField: field.name)
        }
        urlRequest.httpBody = request.body
        return urlRequest
    }

    /// The header fields that go out for `request` (measured with a raw server): `Host`; the request's own
    /// fields, except any whose value is silently dropped (URLRequest drops one holding CR or LF, so a token
    /// with a newline in it is never sent; libcurl drops one of only spaces); and what swift-corelibs-foundation
    /// adds, `Accept-Language: en` and, on HTTP/1.1, `Connection: keep-alive`. Over https libcurl offers HTTP/2,
    /// which has no `Connection` header, so it is claimed for plain http only.
    package static func headersSent(for request: HTTPRequest) -> HTTPHeaders {
        let kept = urlRequest(for: request)
        var sent = HTTPHeaders()
        if let host = request.url.host {
            sent.set("Host", request.url.port.map { "\(host):\($0)" } ?? host)
        }
        // libcurl takes `Name: ` with nothing but spaces after it as "remove this header".
        for field in request.headers
        where kept.value(forHTTPHeaderField: field.name) == field.value
            && (field.value.isEmpty || !field.value.allSatisfy { $0 == " " || $0 == "\t" })
        {
            sent.set(field.name, field.value)
        }
        if sent["Accept-Language"] == nil { sent.set("Accept-Language", "en") }
        if request.url.scheme?.lowercased() == "http", sent["Connection"] == nil {
            sent.set("Connection", "keep-alive")
        }
        return sent
    }
}

/// One URLSession and its delegate, made when first used: a run over HTTPS never makes the pooled one.
final class SessionRoute: @unchecked Sendable {
    private let transfers = TransferDelegate()
    let connectionsPerHost: Int
    private let requestTimeout: TimeInterval
    private let lock = NSLock()
    private var made: URLSession?
    private var loading = 0

    /// Transfers sent through this session that have not ended, given up on or not: each holds a connection.
    var underWay: Int { lock.withLock { loading } }

    init(connectionsPerHost: Int, requestTimeout: TimeInterval) {
        self.connectionsPerHost = connectionsPerHost
        self.requestTimeout = requestTimeout
    }

    /// Counts a request under way before it is sent; `load` ends it.
    func reserve() {
        lock.withLock { loading += 1 }
    }

    /// A request `reserve` counted, to its answer; it is counted until its transfer ends, which for one given up
    /// on (cancelled, timed out) is later than its answer.
    func load(_ request: URLRequest, maximumBodyBytes: Int, onHead: HeadObserver?) async throws -> (
        Foundation.Data, URLResponse
    ) {
        try await transfers.load(request, in: session, maximumBodyBytes: maximumBodyBytes, onHead: onHead) {
            [self] in lock.withLock { loading -= 1 }
        }
    }

    private var session: URLSession {
        lock.withLock {
            if let made { return made }
            let configuration = URLSessionConfiguration.ephemeral
            configuration.urlCache = nil
            configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
            configuration.httpCookieStorage = nil
            configuration.httpShouldSetCookies = false
            configuration.httpCookieAcceptPolicy = .never  // Else every header line is parsed for cookies.
            configuration.httpMaximumConnectionsPerHost = connectionsPerHost
            configuration.timeoutIntervalForRequest = requestTimeout
            let session = URLSession(configuration: configuration, delegate: transfers, delegateQueue: nil)
            made = session
            return session
        }
    }

    func invalidate() {
        lock.withLock { made }?.finishTasksAndInvalidate()
    }
}

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
        /// Told once when the transfer ends, or when it is never started.
        var ended: (@Sendable () -> Void)?

        init(limit: Int) {
            self.limit = limit
        }
    }

    private let lock = NSLock()
    private var transfers: [Int: Transfer] = [:]

    /// Runs `request` to completion, keeping at most `maximumBodyBytes` of (decompressed) body.
    func load(
        _ request: URLRequest, in session: URLSession, maximumBodyBytes: Int, onHead: HeadObserver? = nil,
        ended: (@Sendable () -> Void)? = nil
    ) async throws -> (Foundation.Data, URLResponse) {
        // A caller cancelled already makes no task, which would be left in the session unstarted.
        if Task.isCancelled {
            ended?()
            throw URLError(.cancelled)
        }
        let task = session.dataTask(with: request)
        let transfer = Transfer(limit: maximumBodyBytes)
        (transfer.onHead, transfer.grew, transfer.ended) = (onHead, onHead?.grew, ended)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                // A caller cancelled before this point has its handler's `abandon` still to come: nothing is sent.
                let start = lock.withLock { () -> Bool in
                    guard !transfer.abandoned, !Task.isCancelled else { return false }
                    transfer.continuation = continuation
                    transfers[task.taskIdentifier] = transfer
                    return true
                }
                if start {
                    task.resume()
                } else {
                    ended?()
                    continuation.resume(throwing: URLError(.cancelled))
                }
            }
        } onCancel: {
            // Never `task.cancel()` here. The handler runs under the Swift task's status lock, and `cancel()`
            // waits on URLSession's queue, which may at that moment be resuming this very continuation and
            // need that lock: a deadlock (`list --all | head -1`, Ctrl-C mid-crawl, release builds). So the
            // caller is answered from another queue, and the transfer is stopped from a thread of its own.
            DispatchQueue.global().async { self.abandon(transfer) }
        }
    }

    /// Answers a cancelled caller at once. The transfer itself is left to end on its own (its answer, or the
    /// session's timeout), its bytes dropped: `URLSessionTask.cancel()` racing the answer's arrival trips
    /// swift-corelibs-foundation's "task that is not in the registry" fatal error (3 runs in 3 of 2,000 races).
    private func abandon(_ transfer: Transfer) {
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
                // grows, each smaller one left behind in the allocator (issue 38); untouched pages cost nothing.
                // A length past what can be had (`ulimit -v`) trapped in `Data(capacity:)`: the body then grows.
                transfer.body = Foundation.Data(capacity: FreedMemory.obtainable(Int(response.expectedContentLength)))
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
        guard let transfer = lock.withLock({ transfers.removeValue(forKey: task.taskIdentifier) }) else { return }
        // The continuation is taken with what it is answered with, under one lock: a cancel landing meanwhile
        // (`abandon`, which empties the body) finds the caller answered, or answers it itself. An abandoned
        // transfer's caller, or one past the cap, was answered already.
        let (taken, body, held, refused) = lock.withLock {
            defer { transfer.continuation = nil }
            return (transfer.continuation, transfer.body, transfer.response, transfer.refusedRedirect)
        }
        transfer.ended?()
        guard let continuation = taken else { return }
        let response = held ?? task.response
        if let refused {
            continuation.resume(throwing: refused)
        } else if let error {
            // An interim 1xx head held is no answer yet: the final head's faults are still the head's (helper-322).
            let answered = ((held as? HTTPURLResponse)?.statusCode ?? 0) >= 200
            let head = URLSessionTransport.headFailure(error, afterAResponse: answered)
            continuation.resume(throwing: head ?? error)
        } else if let response {
            continuation.resume(returning: (body, response))
        } else {
            continuation.resume(throwing: TransportError.other("no response"))
        }
    }
}
