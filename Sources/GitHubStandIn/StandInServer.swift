import Dispatch
import Foundation
import Glibc

/// A loopback HTTP/1.1 server that imitates the parts of GitHub's API that gh-users uses. Blocking sockets, one
/// thread per connection: simple to reason about, and plenty for tests and single-machine benchmarks.
package final class StandInServer: @unchecked Sendable {
    package let population: StandInPopulation
    package let configuration: StandInConfiguration
    /// Who follows whom now; tests read expectations from it and may set up state without HTTP.
    package let followGraph: StandInFollowGraph
    /// The organizations, teams and repositories (`World/world.json`); tests change them as their owners would.
    package let world: StandInWorldState

    /// The journal, queued faults, rate-limit buckets and clock that every connection shares.
    let ledger: StandInLedger
    /// Every resource it answers (`StandInRouteTable.gitHub()`); a test may serve others.
    var routes = StandInRouteTable.gitHub()

    private let stateLock = NSLock()
    private var phase = Phase.idle
    private var listener: Int32 = -1
    private var boundPort = 0
    private var openConnections: Set<Int32> = []
    private let shutdownLatch = ShutdownLatch()
    private let acceptLoopFinished = DispatchSemaphore(value: 0)
    private let connectionThreads = DispatchGroup()

    private enum Phase { case idle, running, stopped }

    package init(configuration: StandInConfiguration = StandInConfiguration()) throws {
        let counts = [configuration.userCount, configuration.rateLimit, configuration.searchRateLimit]
        guard (counts + [configuration.latencyMilliseconds, configuration.sameSecondAccounts]).allSatisfy({ $0 >= 0 }),
            configuration.searchWindowSeconds > 0, (0...65_535).contains(configuration.port)
        else { throw StandInServerError.invalidConfiguration }
        self.configuration = configuration
        population = StandInPopulation(
            userCount: configuration.userCount, sameSecondAccounts: configuration.sameSecondAccounts)
        followGraph = StandInFollowGraph(population: population)
        world = StandInWorldState(configuration.accessBench ? .file.addingBenchOrganization(population) : .file)
        ledger = StandInLedger(now: Int(Date().timeIntervalSince1970), configuration: configuration)
    }

    /// Binds and starts accepting, once; `port` and `baseURL` are valid once this returns.
    package func start() throws {
        stateLock.lock()
        defer { stateLock.unlock() }
        precondition(phase == .idle, "a stand-in server starts once")
        let (descriptor, port) = try LoopbackSocket.makeListener(port: configuration.port)
        (listener, boundPort, phase) = (descriptor, port, .running)
        Self.startThread("github-standin accept") { [self] in acceptLoop(listener: descriptor) }
    }

    package var port: Int { stateLock.withLock { boundPort } }

    package var baseURL: String { "http://127.0.0.1:\(port)" }

    /// Where `Link` URLs point: the server's own address, or the proxy's in front of it.
    var linkBaseURL: String { configuration.publicBaseURL ?? baseURL }

    /// Closes the listener and every connection, interrupts latency sleeps and hangs, and waits (bounded) for the
    /// server's threads to finish. Safe to call more than once.
    package func stop() {
        let running: Int32? = stateLock.withLock {
            defer { phase = .stopped }
            guard phase == .running else { return nil }
            // Wakes the threads blocked in accept and recv without freeing the descriptor numbers.
            for descriptor in openConnections { shutdown(descriptor, Int32(SHUT_RDWR)) }
            return listener
        }
        guard let listenerToClose = running else { return }
        shutdownLatch.trigger()
        shutdown(listenerToClose, Int32(SHUT_RDWR))
        // Closing only after the accept loop has left avoids closing a descriptor number another thread reused.
        if acceptLoopFinished.wait(timeout: .now() + 5) == .success { close(listenerToClose) }
        _ = connectionThreads.wait(timeout: .now() + 5)
    }

    /// What a caller with this token (nil: anonymous) has left of each bucket in the current window.
    package func rateLimitRemaining(token: String?) -> Int { remaining(.core, token: token) }
    package func searchRateLimitRemaining(token: String?) -> Int { remaining(.search, token: token) }
    package func graphQLRateLimitRemaining(token: String) -> Int { remaining(.graphql, token: token) }

    private func remaining(_ resource: StandInRateResource, token: String?) -> Int {
        ledger.peek(resource, for: StandInCaller(token: token), now: ledger.currentTime()).remaining
    }

    /// Moves the server's clock forward, so tests can watch rate-limit windows roll over without sleeping.
    package func advanceClock(bySeconds seconds: Int) { ledger.advanceClock(by: seconds) }

    /// One line per route row, so the runner's help cannot fall behind the route table.
    package static var servedRoutes: [String] {
        StandInRouteTable.gitHub().routes.map { route in
            route.method.rawValue + " " + route.patterns.map(\.readableText).joined(separator: ", ")
        }
    }

    package var requests: [RecordedRequest] { ledger.recordedRequests }

    /// On by default; the standalone executable turns it off so a long benchmark does not grow memory per request.
    package var isRecordingRequests: Bool {
        get { ledger.isRecording }
        set { ledger.isRecording = newValue }
    }

    /// Requests that came for a path before the wait a fault asked for there had passed, so a test sees a client
    /// that did not wait as a count, not a stopwatch.
    package var requestsTooEarly: Int { ledger.requestsTooEarly }

    package func resetRequests() { ledger.clearRecordedRequests() }

    /// Each request whose decoded path is `path` (query ignored) takes the next fault, until none is left.
    package func injectFaults(_ faults: [StandInFault], forPath path: String) { ledger.enqueue(faults, forPath: path) }

    private func acceptLoop(listener: Int32) {
        defer { acceptLoopFinished.signal() }
        while !shutdownLatch.isTriggered {
            // The poll timeout bounds how long stop() can wait where shutdown() does not wake accept().
            var entry = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, 200) > 0 else { continue }
            let descriptor = accept(listener, nil, nil)
            if descriptor >= 0 {
                register(descriptor)
            } else if ![EINTR, EAGAIN, ECONNABORTED].contains(errno) {
                // Out of descriptors or similar: back off instead of spinning on a listener that stays readable.
                _ = shutdownLatch.sleep(seconds: 0.01)
            }
        }
    }

    private func register(_ descriptor: Int32) {
        stateLock.lock()
        defer { stateLock.unlock() }
        guard phase == .running else {
            close(descriptor)
            return
        }
        var enabled: Int32 = 1
        // Responses go out in one send, but disabling Nagle keeps keep-alive round trips free of 40 ms stalls.
        _ = setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &enabled, socklen_t(MemoryLayout<Int32>.size))
        openConnections.insert(descriptor)
        connectionThreads.enter()
        Self.startThread("github-standin connection") { [self] in serve(descriptor) }
    }

    private static func startThread(_ name: String, _ body: @escaping @Sendable () -> Void) {
        let thread = Thread(block: body)
        thread.name = name
        thread.start()
    }

    private func serve(_ descriptor: Int32) {
        defer {
            stateLock.lock()
            // Closing under the lock guarantees stop() never shuts down a recycled descriptor number.
            openConnections.remove(descriptor)
            close(descriptor)
            stateLock.unlock()
            connectionThreads.leave()
        }
        var pending: [UInt8] = []
        var scratch = [UInt8](repeating: 0, count: 64 * 1_024)
        while !shutdownLatch.isTriggered {
            let parsed: (request: RecordedRequest, closes: Bool, size: Int)?
            do {
                parsed = try HTTPRequestParser.parse(pending)
            } catch {
                let body = StandInErrorBody.json(
                    message: error.reason, documentationURL: StandInErrorBody.genericDocumentation, status: nil)
                let response = StandInHTTPResponse(
                    status: 400, headers: [("Content-Type", "application/json; charset=utf-8")], body: body)
                _ = LoopbackSocket.sendAll(response.serialized(omitBody: false, closeConnection: true), to: descriptor)
                return
            }
            guard let (request, closes, size) = parsed else {
                guard LoopbackSocket.receive(from: descriptor, into: &pending, scratch: &scratch) else { return }
                continue
            }
            pending.removeFirst(size)
            let reply = reply(to: request)
            let latency = Double(configuration.latencyMilliseconds) / 1_000
            guard latency == 0 || shutdownLatch.sleep(seconds: latency) else { return }
            switch reply {
            case .respond(let response):
                let bytes = response.serialized(omitBody: request.method == "HEAD", closeConnection: closes)
                guard LoopbackSocket.sendAll(bytes, to: descriptor), !closes else { return }
            case .truncate(var response):
                // Always at least one byte short, so the client sees a premature EOF even for an empty body.
                response.body = response.body.isEmpty ? [0x20] : response.body
                let bytes = response.serialized(omitBody: false, closeConnection: true)
                let sent = bytes.count - (response.forbidsBody ? 0 : response.body.count - response.body.count / 2)
                _ = LoopbackSocket.sendAll(Array(bytes[..<sent]), to: descriptor)
                return
            case .hang(let seconds):
                _ = shutdownLatch.sleep(seconds: seconds)
                return
            case .close:
                return
            }
        }
    }
}

/// A one-way stop flag that sleeping threads can wait on, so stop() interrupts latency delays and hangs at once.
final class ShutdownLatch: @unchecked Sendable {
    private let condition = NSCondition()
    private var triggered = false

    var isTriggered: Bool { condition.withLock { triggered } }

    func trigger() {
        condition.withLock {
            triggered = true
            condition.broadcast()
        }
    }

    /// False if the latch was triggered first.
    func sleep(seconds: Double) -> Bool {
        let deadline = Date(timeIntervalSinceNow: max(0, seconds))
        return condition.withLock {
            // Waking before the deadline with the latch still open is spurious: wait again.
            while !triggered, condition.wait(until: deadline) {}
            return !triggered
        }
    }
}
