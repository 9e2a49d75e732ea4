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
    /// What each bucket spent of its hourly window: requests under `core`, points under `graphql`.
    private var spentByKey: [String: Int] = [:]
    private var windowReset: Int
    private var requestSerial = 0
    private let startedAt: Int
    /// Each search bucket's one-minute window, opened by its first search after the last one ended, as GitHub's.
    private var searchWindows: [String: (start: Int, used: Int)] = [:]
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
        switch resource {
        case .core, .free: peekHourly("core " + caller.bucket, limit: caller.coreLimit, now: now)
        case .search: lock.withLock { searchSnapshot(bucket: caller.bucket, limit: caller.searchLimit, now: now) }
        case .graphql: peekHourly("graphql " + caller.bucket, limit: caller.graphQLLimit, now: now)
        }
    }

    /// Spends `points` (0 for a 304; a query's cost for `graphql`) when that many, and at least one, are left;
    /// otherwise spends nothing and is refused.
    func charge(_ resource: StandInRateResource, for caller: StandInCaller, points: Int, now: Int) -> RateLimitCharge {
        switch resource {
        case .core: chargeHourly("core " + caller.bucket, limit: caller.coreLimit, points: points, now: now)
        case .graphql: chargeHourly("graphql " + caller.bucket, limit: caller.graphQLLimit, points: points, now: now)
        case .free: RateLimitCharge(snapshot: peek(.core, for: caller, now: now), allowed: true)
        case .search: lock.withLock { chargeSearch(bucket: caller.bucket, limit: caller.searchLimit, points, now) }
        }
    }

    private func peekHourly(_ key: String, limit: Int, now: Int) -> RateLimitSnapshot {
        lock.withLock {
            rollWindowIfDue(now: now)
            return hourlySnapshot(key, limit: limit)
        }
    }

    private func chargeHourly(_ key: String, limit: Int, points: Int, now: Int) -> RateLimitCharge {
        lock.withLock {
            rollWindowIfDue(now: now)
            let before = hourlySnapshot(key, limit: limit)
            guard before.remaining >= max(1, points) else { return RateLimitCharge(snapshot: before, allowed: false) }
            spentByKey[key, default: 0] += points
            return RateLimitCharge(snapshot: hourlySnapshot(key, limit: limit), allowed: true)
        }
    }

    private func hourlySnapshot(_ key: String, limit: Int) -> RateLimitSnapshot {
        RateLimitSnapshot(limit: limit, remaining: limit - min(limit, spentByKey[key] ?? 0), reset: windowReset)
    }

    func currentTime() -> Int {
        lock.withLock { Int(Date().timeIntervalSince1970) + clockOffset }
    }

    func advanceClock(by seconds: Int) {
        lock.withLock { clockOffset += max(0, seconds) }
    }

    private func chargeSearch(bucket: String, limit: Int, _ points: Int, _ now: Int) -> RateLimitCharge {
        let before = searchSnapshot(bucket: bucket, limit: limit, now: now)
        guard before.remaining > 0 else { return RateLimitCharge(snapshot: before, allowed: false) }
        guard points > 0 else { return RateLimitCharge(snapshot: before, allowed: true) }
        if let window = searchWindows[bucket], now < window.start + searchWindowSeconds {
            searchWindows[bucket] = (window.start, window.used + points)
        } else {
            searchWindows[bucket] = (now, points)
        }
        return RateLimitCharge(snapshot: searchSnapshot(bucket: bucket, limit: limit, now: now), allowed: true)
    }

    private func searchSnapshot(bucket: String, limit: Int, now: Int) -> RateLimitSnapshot {
        guard let window = searchWindows[bucket], now < window.start + searchWindowSeconds else {
            return RateLimitSnapshot(limit: limit, remaining: limit, reset: now + searchWindowSeconds)
        }
        let used = min(limit, window.used)
        return RateLimitSnapshot(limit: limit, remaining: limit - used, reset: window.start + searchWindowSeconds)
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

    /// A fixed hourly window, as GitHub's primary limit's: when it ends every bucket refills.
    private func rollWindowIfDue(now: Int) {
        guard now >= windowReset else {
            return
        }
        spentByKey.removeAll()
        while windowReset <= now {
            windowReset += 3_600
        }
    }
}
