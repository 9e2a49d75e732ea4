import Foundation

/// Rate-limit figures for one caller at one moment, as sent in the `x-ratelimit-*` headers.
struct RateLimitSnapshot: Equatable {
    var limit: Int
    var remaining: Int
    var reset: Int

    var used: Int { limit - remaining }
}

/// Outcome of charging a request against its caller's rate limit.
struct RateLimitCharge {
    var snapshot: RateLimitSnapshot
    /// False once the caller had nothing left: the request must be answered with the primary-limit 403.
    var allowed: Bool
}

/// Mutable state every connection thread shares: the request journal, queued faults and rate-limit buckets.
///
/// One lock guards all of it; each operation is short, so contention stays negligible even with many connections.
final class StandInLedger: @unchecked Sendable {
    private let lock = NSLock()
    private var journal: [RecordedRequest] = []
    private var faultQueues: [String: [StandInFault]] = [:]
    /// What each bucket spent of its hourly window: requests under `core`, points under `graphql`.
    private var spentByKey: [String: Int] = [:]
    private var windowReset: Int
    private var requestSerial = 0
    private let startedAt: Int
    /// Search buckets keep their own one-minute windows, opened by a bucket's first search after the last one
    /// ended, as GitHub's per-minute search limit behaves.
    private var searchWindows: [String: (start: Int, used: Int)] = [:]
    /// Seconds added to the wall clock, so tests can let rate-limit windows expire without sleeping.
    private var clockOffset = 0
    private var recording = true
    /// For each path a fault told to wait (Retry-After, a spent limit's reset): the server time, in seconds,
    /// before which a request for it came too soon; and how many did.
    private var waitsAsked: [String: Double] = [:]
    private var earlyCount = 0

    /// GitHub's search window is a minute; a test may shorten it.
    private let searchWindowSeconds: Int

    init(now: Int, searchWindowSeconds: Int = 60) {
        startedAt = now
        windowReset = now + 3_600
        self.searchWindowSeconds = max(1, searchWindowSeconds)
    }

    /// Off for long benchmark runs, where an ever-growing journal would only cost memory.
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

    /// A caller was told not to ask for `path` again before `until` (server time, in seconds).
    func askToWait(forPath path: String, until: Double) {
        lock.withLock { waitsAsked[path] = max(waitsAsked[path] ?? until, until) }
    }

    /// Counts a request for `path` that came before the wait a fault asked for had passed.
    func noteArrival(forPath path: String) {
        lock.withLock {
            guard let until = waitsAsked[path], Date().timeIntervalSince1970 + Double(clockOffset) < until else {
                return
            }
            earlyCount += 1
        }
    }

    var requestsTooEarly: Int { lock.withLock { earlyCount } }

    /// The server's notion of now to the fraction of a second, for the waits faults ask for.
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

    /// The caller's standing in `resource`'s bucket, spending nothing (`free` shows core's); with no search window
    /// open the search reset is a full minute from `now`. The `graphql` bucket refills with core's hourly window.
    func peek(_ resource: StandInRateResource, for caller: StandInCaller, now: Int) -> RateLimitSnapshot {
        switch resource {
        case .core, .free: peekHourly("core " + caller.bucket, limit: caller.coreLimit, now: now)
        case .search: lock.withLock { searchSnapshot(bucket: caller.bucket, limit: caller.searchLimit, now: now) }
        case .graphql: peekHourly("graphql " + caller.bucket, limit: caller.graphQLLimit, now: now)
        }
    }

    /// Spends `points` (0 for a 304, which GitHub does not count; a query's cost for `graphql`) of the caller's
    /// bucket when that many, and at least one, are left; otherwise spends nothing and is refused. The first
    /// search after a search window ended opens a new one. `free` spends nothing and shows core.
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

    /// The server's notion of now: wall-clock Unix seconds plus whatever tests advanced it by.
    func currentTime() -> Int {
        lock.withLock { Int(Date().timeIntervalSince1970) + clockOffset }
    }

    func advanceClock(by seconds: Int) {
        lock.withLock { clockOffset += max(0, seconds) }
    }

    /// Under the lock.
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

    /// Shaped like GitHub's `X-GitHub-Request-Id` (five hex groups); unique per server.
    func nextRequestID() -> String {
        let serial = lock.withLock {
            requestSerial += 1
            return requestSerial
        }
        return String(
            format: "%04lX:%06lX:%07lX:%07lX:%08lX", 0xC000 | (serial & 0xFFF), (serial &* 7_919) & 0xFF_FFFF, serial,
            (serial &* 31) & 0xFFF_FFFF, startedAt & 0xFFFF_FFFF)
    }

    /// A fixed hourly window, as GitHub's primary limit uses: when it ends every bucket refills.
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
