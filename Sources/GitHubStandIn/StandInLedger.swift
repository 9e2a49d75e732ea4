import Foundation

struct RateLimitSnapshot: Equatable {
    var limit: Int
    var remaining: Int
    var reset: Int

    var used: Int { limit - remaining }
}

struct RateLimitCharge {
    var snapshot: RateLimitSnapshot
    var allowed: Bool
}

/// What every connection shares: the request journal, queued faults and rate-limit buckets, under one lock.
final class StandInLedger: @unchecked Sendable {
    private let lock = NSLock()
    private var journal: [RecordedRequest] = []
    private var faultQueues: [String: [StandInFault]] = [:]
    /// What each bucket spent of its window, and when the window ends: requests under `core` and `search`, points
    /// under `graphql`. The hourly buckets share one fixed window, as GitHub's primary limit's: when it ends every
    /// one refills. A search bucket's one-minute window is opened by its first search after the last one ended, as
    /// GitHub's.
    private var windows: [String: (reset: Int, used: Int)] = [:]
    private var windowReset: Int
    private var requestSerial = 0
    private let startedAt: Int
    private var clockOffset = 0
    private var recording = true
    /// For each path a fault told to wait: the server time before which a request for it came too soon.
    private var waitsAsked: [String: Double] = [:]
    private var earlyCount = 0

    private let searchWindowSeconds: Int

    init(now: Int, searchWindowSeconds: Int = 60) {
        startedAt = now
        windowReset = now + 3_600
        self.searchWindowSeconds = max(1, searchWindowSeconds)
    }

    var isRecording: Bool {
        get { lock.withLock { recording } }
        set { lock.withLock { recording = newValue } }
    }

    func record(_ request: RecordedRequest) {
        lock.withLock { if recording { journal.append(request) } }
    }

    var recordedRequests: [RecordedRequest] { lock.withLock { journal } }

    func clearRecordedRequests() {
        lock.withLock { journal.removeAll() }
    }

    func askToWait(forPath path: String, until: Double) {
        lock.withLock { waitsAsked[path] = max(waitsAsked[path] ?? until, until) }
    }

    func noteArrival(forPath path: String) {
        lock.withLock {
            guard let until = waitsAsked[path], Date().timeIntervalSince1970 + Double(clockOffset) < until else {
                return
            }
            earlyCount += 1
        }
    }

    var requestsTooEarly: Int { lock.withLock { earlyCount } }

    func preciseTime() -> Double {
        lock.withLock { Date().timeIntervalSince1970 + Double(clockOffset) }
    }

    func enqueue(_ faults: [StandInFault], forPath path: String) {
        lock.withLock { faultQueues[path, default: []].append(contentsOf: faults) }
    }

    func takeFault(forPath path: String) -> StandInFault? {
        lock.withLock {
            guard var queue = faultQueues[path], !queue.isEmpty else { return nil }
            let fault = queue.removeFirst()
            faultQueues[path] = queue.isEmpty ? nil : queue
            return fault
        }
    }

    /// The caller's standing in `resource`'s bucket, spending nothing (`free` shows core's).
    func peek(_ resource: StandInRateResource, for caller: StandInCaller, now: Int) -> RateLimitSnapshot {
        lock.withLock { snapshot(resource, caller, now: now) }
    }

    /// Spends `points` (0 for a 304; a query's cost for `graphql`) when that many, and at least one, are left;
    /// otherwise spends nothing and is refused. `free` spends nothing.
    func charge(_ resource: StandInRateResource, for caller: StandInCaller, points: Int, now: Int) -> RateLimitCharge {
        lock.withLock {
            let before = snapshot(resource, caller, now: now)
            guard resource != .free else { return RateLimitCharge(snapshot: before, allowed: true) }
            guard before.remaining >= max(1, points) else { return RateLimitCharge(snapshot: before, allowed: false) }
            if points > 0 {
                let key = resource.rawValue + " " + caller.bucket
                let used = windows[key].map { $0.reset == before.reset ? $0.used : 0 } ?? 0
                windows[key] = (before.reset, used + points)
            }
            return RateLimitCharge(snapshot: snapshot(resource, caller, now: now), allowed: true)
        }
    }

    /// Under the lock.
    private func snapshot(_ resource: StandInRateResource, _ caller: StandInCaller, now: Int) -> RateLimitSnapshot {
        let search = resource == .search
        let limit = search ? caller.searchLimit : resource == .graphql ? caller.graphQLLimit : caller.coreLimit
        while windowReset <= now { windowReset += 3_600 }
        guard let window = windows[(resource == .free ? "core" : resource.rawValue) + " " + caller.bucket],
            now < window.reset
        else {
            return RateLimitSnapshot(
                limit: limit, remaining: limit, reset: search ? now + searchWindowSeconds : windowReset)
        }
        return RateLimitSnapshot(limit: limit, remaining: limit - min(limit, window.used), reset: window.reset)
    }

    func currentTime() -> Int {
        lock.withLock { Int(Date().timeIntervalSince1970) + clockOffset }
    }

    func advanceClock(by seconds: Int) {
        lock.withLock { clockOffset += max(0, seconds) }
    }

    /// Shaped like GitHub's `X-GitHub-Request-Id`; unique per server.
    func nextRequestID() -> String {
        let serial = lock.withLock {
            requestSerial += 1
            return requestSerial
        }
        return String(
            format: "%04lX:%06lX:%07lX:%07lX:%08lX", 0xC000 | (serial & 0xFFF), (serial &* 7_919) & 0xFF_FFFF, serial,
            (serial &* 31) & 0xFFF_FFFF, startedAt & 0xFFFF_FFFF)
    }
}
