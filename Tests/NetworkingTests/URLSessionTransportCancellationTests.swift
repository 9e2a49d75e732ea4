import AtomicCore
import Foundation
import GitHubStandIn
import Networking
import TestSupport
import Testing

/// How far the race has got; read by the test while the race runs on a thread of its own.
private final class RaceProgress: @unchecked Sendable {
    private let lock = NSLock()
    private var round = 0
    private var done = false
    private var stuck = false
    private var answered = 0
    private var cancelled = 0

    func begin(_ round: Int) { lock.withLock { self.round = round } }
    func record(answered: Bool) { lock.withLock { if answered { self.answered += 1 } else { cancelled += 1 } } }
    func finish() { lock.withLock { done = true } }
    func giveUp() { lock.withLock { stuck = true } }
    var snapshot: (round: Int, done: Bool, stuck: Bool, answered: Int, cancelled: Int) {
        lock.withLock { (round, done, stuck, answered, cancelled) }
    }
}

/// Runs the races' tasks on a thread of their own instead of the test process's shared pool, which other tests
/// hold for seconds at a time on a busy machine: a round then lasts as long as its race, not as long as the queue
/// for the pool (the first test below once took 84 s of an 85 s run that way). Which thread runs a task does not
/// touch the race itself: the cancels still come from other threads, and URLSession answers on its own queue.
private final class RaceExecutor: TaskExecutor, @unchecked Sendable {
    private let queue = DispatchQueue(label: "gh-users.cancellation-races")

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }
}

private let raceExecutor = RaceExecutor()

struct URLSessionTransportCancellationTests {
    /// Cancelling a request just as its answer arrives used to deadlock: URLSession's `data(for:)` cancelled with a
    /// `sync` onto the session's queue from inside the task's cancellation handler, while that queue waited for
    /// the task's lock to resume it. The race runs on a thread of its own, so a deadlock fails this test (the
    /// stuck thread is left behind) instead of hanging the suite.
    @Test func cancellingAsTheAnswerArrivesNeverHangs() async throws {
        try await withTaskExecutorPreference(raceExecutor) { try await cancelAsTheAnswerArrives() }
    }

    private func cancelAsTheAnswerArrives() async throws {
        let server = try StandInServer(configuration: StandInConfiguration(userCount: 300, rateLimit: 10_000_000))
        try server.start()
        defer { server.stop() }
        let transport = URLSessionTransport.outsideHome()
        var headers = HTTPHeaders()
        headers.set("Authorization", "Bearer race-token")
        let request = HTTPRequest(
            url: try #require(URL(string: server.baseURL + "/users?per_page=100")), headers: headers)
        // With URLSession.data(for:) the race deadlocked within the first few dozen rounds.
        let rounds = Stress.rounds(100)
        let progress = RaceProgress()
        _ = try await transport.send(request)  // Opens the connection.

        Thread.detachNewThread {
            // The cancels land anywhere in the first `spread` after the request, and the spread follows the
            // answers: wider after a round that was cancelled, narrower after one that was answered. So about as
            // many land before the answer as after it, however long answers take on a machine as loaded as now,
            // without a stopwatch.
            var spread: UInt32 = 3_000
            for round in 0..<rounds {
                progress.begin(round)
                let answeredBefore = progress.snapshot.answered
                let exchange = Task.detached(executorPreference: raceExecutor) {
                    (try? await transport.send(request)) != nil
                }
                // Cancel before, during and after the answer lands.
                usleep(UInt32.random(in: 0...spread))
                // From another thread: the deadlock used to catch the cancelling thread itself.
                DispatchQueue.global().async { exchange.cancel() }
                let ended = DispatchSemaphore(value: 0)
                Task.detached(executorPreference: raceExecutor) {
                    progress.record(answered: await exchange.value)
                    ended.signal()
                }
                if ended.wait(timeout: .now() + 60) == .timedOut {
                    progress.giveUp()
                    return
                }
                let answered = progress.snapshot.answered > answeredBefore
                spread = answered ? max(500, spread / 4 * 3) : min(200_000, spread / 4 * 5)
            }
            progress.finish()
        }

        // Generous (a round waits for the shared test thread pool, which other tests may hold for seconds): the
        // race takes a few seconds; only a hang comes near this.
        let deadline = ContinuousClock.now + .seconds(600)
        while !progress.snapshot.done, !progress.snapshot.stuck, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
        }
        let result = progress.snapshot
        #expect(result.done, "round \(result.round) of \(rounds) never ended: cancelling the request deadlocked")
        // Both outcomes happened, so cancellation really did meet answers on their way in.
        #expect(result.answered > 0)
        #expect(result.cancelled > 0)
    }

    /// Cancellation answers at once, without waiting for the server or for URLSession to acknowledge it.
    @Test func aCancelledRequestEndsAtOnceWithCancelled() async throws {
        try await withTaskExecutorPreference(raceExecutor) { try await cancelAWaitingRequest() }
    }

    private func cancelAWaitingRequest() async throws {
        let server = try StandInServer(configuration: StandInConfiguration(latencyMilliseconds: 60_000))
        try server.start()
        defer { server.stop() }
        let transport = URLSessionTransport.outsideHome()
        let request = HTTPRequest(url: try #require(URL(string: server.baseURL + "/users")))
        let outcome = Outcome()
        let exchange = outcome.recording { try await transport.send(request) }
        try await Task.sleep(for: .milliseconds(100))
        // Cancelled and waited for without blocking a thread of the test's own pool: a cancellation that hangs
        // fails this test, not the whole run.
        DispatchQueue.global().async { exchange.cancel() }
        // Generous: the answer is a minute away, and cancellation takes milliseconds.
        let deadline = ContinuousClock.now + .seconds(30)
        while outcome.value == nil, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        let result = try #require(outcome.value, "the cancelled request had not ended after 30 s")
        #expect(throws: TransportError.cancelled) { try result.get() }
    }

    /// A body past the cap answers the caller from URLSession's delegate queue while the cancel goes on
    /// elsewhere, and the caller's own cancel may land at the same moment: one of the two answers it, exactly
    /// once (a second resume would crash), and no round hangs. Repeated, as races are.
    @Test func passingTheCapAsTheCallerCancelsAnswersOnce() async throws {
        try await withTaskExecutorPreference(raceExecutor) { try await passTheCapAsTheCallerCancels() }
    }

    private func passTheCapAsTheCallerCancels() async throws {
        let limit = 64 << 10
        let server = try RawTestServer { connection in
            guard connection.write("HTTP/1.1 200 OK\r\nContent-Length: \(4 * limit)\r\n\r\n") else { return }
            let chunk = [UInt8](repeating: 0x20, count: limit / 4)
            for _ in 0..<16 where connection.write(chunk) {}
        }
        defer { server.stop() }
        let transport = URLSessionTransport.outsideHome(maximumBodyBytes: limit)
        let request = HTTPRequest(url: try #require(URL(string: server.baseURL + "/users")))
        var outcomes: [String: Int] = [:]
        let rounds = Stress.rounds(50)
        for round in 0..<rounds {
            let outcome = Outcome()
            let exchange = outcome.recording { try await transport.send(request) }
            if round.isMultiple(of: 2) {
                try await Task.sleep(for: .microseconds(Int.random(in: 0...3_000)))
                DispatchQueue.global().async { exchange.cancel() }
            }
            let deadline = ContinuousClock.now + .seconds(60)
            while outcome.value == nil, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(2))
            }
            let result = try #require(outcome.value, "round \(round) had not ended after 60 s")
            switch result {
            case .failure(TransportError.responseTooLarge(let cap)) where cap == limit:
                outcomes["too large", default: 0] += 1
            case .failure(TransportError.cancelled): outcomes["cancelled", default: 0] += 1
            default: Issue.record("round \(round) ended with \(result)")
            }
        }
        // Every uncancelled round passed the cap.
        #expect(outcomes["too large", default: 0] >= rounds / 2, "\(outcomes)")
    }
}

/// Whether the hung requests' server threads may let their connections go.
private final class Release: @unchecked Sendable {
    private let lock = NSLock()
    private var released = false

    func release() { lock.withLock { released = true } }
    var isReleased: Bool { lock.withLock { released } }
}

extension URLSessionTransportCancellationTests {
    /// Over HTTP/1.1 a request given up on (an attempt that timed out, a cancel) keeps its connection until its
    /// session's own timeout. The request after it, a retry, gets a connection of its own, also after three rounds
    /// given up on (a request's attempts with the default retries). Before: it went to the session whose
    /// connections the given-up transfers still held, and libcurl queued it behind them (a review saw no retry go
    /// out for 5 s after a 2 s `--timeout`; here it never would); then, with two sets, the third round's did.
    @Test func aRequestAfterGivenUpTransfersGetsAConnectionOfItsOwn() async throws {
        let release = Release()
        let server = try RawTestServer { connection in
            if connection.head.hasPrefix("GET /hang") {
                while !release.isReleased, !connection.awaitHangUp(seconds: 0.1) {}
                return
            }
            connection.write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n[]")
        }
        defer {
            release.release()
            server.stop()
        }
        FoundationFolders.keepOutOfHome()
        let transport = URLSessionTransport(maximumConnectionsPerHost: 4, requestTimeout: 600)
        let hung = Outcome()
        for round in 1...3 {
            let hanging = try (0..<4).map { index in
                let request = HTTPRequest(url: try #require(URL(string: server.baseURL + "/hang/\(round)/\(index)")))
                return hung.recording { try await transport.send(request) }
            }
            // A generous bound for a loaded machine: the four arrive in milliseconds.
            let arrived = ContinuousClock.now + .seconds(60)
            while server.requests.count < 4 * round, ContinuousClock.now < arrived {
                try await Task.sleep(for: .milliseconds(10))
            }
            try #require(server.requests.count == 4 * round, "round \(round): \(server.requests.count) requests")
            for task in hanging { task.cancel() }
            for task in hanging { await task.value }
        }
        let outcome = Outcome()
        let request = HTTPRequest(url: try #require(URL(string: server.baseURL + "/users")))
        let exchange = outcome.recording { try await transport.send(request) }
        // The given-up transfers hold their connections for the session's 600 s: an answer at all is the fix.
        let deadline = ContinuousClock.now + .seconds(60)
        while outcome.value == nil, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        exchange.cancel()
        let result = try #require(outcome.value, "the request after the given-up ones had no answer after 60 s")
        #expect(try result.get().status == 200)
    }
}

extension URLSessionTransportCancellationTests {
    /// A request whose task was cancelled before it reached URLSession is never sent: a write the run says was
    /// interrupted must not go out. Before: the cancel handler only queued its answer, and the request was sent.
    @Test func aRequestCancelledBeforeItStartsIsNeverSent() async throws {
        let server = try RawTestServer { connection in
            connection.write("HTTP/1.1 204 No Content\r\n\r\n")
        }
        defer { server.stop() }
        let transport = URLSessionTransport.outsideHome()
        let cancelled = HTTPRequest(
            method: .put, url: try #require(URL(string: server.baseURL + "/user/following/octocat")))
        let sent = Task.detached {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await transport.send(cancelled)
        }
        await #expect(throws: TransportError.cancelled) { try await sent.value }
        // A request after it is answered; by then the cancelled one would have arrived first.
        let after = HTTPRequest(url: try #require(URL(string: server.baseURL + "/user")))
        #expect(try await transport.send(after).status == 204)
        #expect(server.requests.allSatisfy { !$0.hasPrefix("PUT ") }, "\(server.requests)")
    }
}

/// What a request ended with, once it has.
private final class Outcome: @unchecked Sendable {
    private let lock = NSLock()
    private var result: Result<HTTPResponse, any Error>?

    func set(_ result: Result<HTTPResponse, any Error>) { lock.withLock { self.result = result } }
    var value: Result<HTTPResponse, any Error>? { lock.withLock { result } }

    /// Runs `send` on a task of its own, which records its end here.
    func recording(_ send: @escaping @Sendable () async throws -> HTTPResponse) -> Task<Void, Never> {
        Task.detached(executorPreference: raceExecutor) {
            do {
                self.set(.success(try await send()))
            } catch {
                self.set(.failure(error))
            }
        }
    }
}
