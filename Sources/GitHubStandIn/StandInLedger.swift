import Domain
import Foundation

/// Who sent a request: their token (nil: anonymous), whose OAuth scopes `StandInTokens` gives.
struct StandInCaller: Sendable {
    let token: String?

    /// `Bearer X` or `token X` (any case), as GitHub accepts; anything else is an opaque token.
    init(authorization: String?) {
        let authorization = authorization?.trimmingCharacters(in: .whitespaces) ?? ""
        let parts = authorization.split(separator: " ", maxSplits: 1)
        if parts.count == 2, ["bearer", "token"].contains(parts[0].lowercased()) {
            token = parts[1].trimmingCharacters(in: .whitespaces)
        } else {
            token = authorization.isEmpty ? nil : authorization
        }
    }

    init(token: String?) { self.token = token }

    /// Nil for anonymous callers.
    var scopes: [String]? { token.map(StandInTokens.scopes(forToken:)) }
}

/// A bucket, named as `x-ratelimit-resource` names it; the endpoint table's `Endpoint.RateLimit`, and GraphQL's.
enum StandInRateResource: String, Sendable {
    case core
    case search
    /// Spends nothing but reports the core figures in its headers, as `GET /rate_limit` does.
    case free
    /// Counted in points: the handler spends what the query costs.
    case graphql

    init(_ rateLimit: Endpoint.RateLimit) { self = Self(rawValue: rateLimit.rawValue) ?? .core }

    var headerName: String { self == .free ? "core" : rawValue }
}

struct RateLimitSnapshot: Equatable {
    var limit: Int
    var remaining: Int
    var reset: Int

    var used: Int { limit - remaining }
}

/// What every connection shares: the request journal, queued faults and rate-limit buckets, under one lock.
final class StandInLedger: @unchecked Sendable {
    private let lock = NSLock()
    private var journal: [RecordedRequest] = []
    private var faultQueues: [String: ArraySlice<StandInFault>] = [:]
    /// What each bucket spent of its window, and when the window ends: requests under `core` and `search`, points
    /// under `graphql`. As on GitHub, the hourly buckets share one fixed window, all refilling when it ends, and a
    /// search bucket's one-minute window opens with its first search after the last one ended.
    private var windows: [String: (reset: Int, used: Int)] = [:]
    private var windowReset: Int
    private var requestSerial = 0
    private let startedAt: Int
    private var clockOffset = 0
    private var recording = true
    /// For each path a fault told to wait: the server time before which a request for it came too soon.
    private var waitsAsked: [String: Double] = [:]
    private var earlyCount = 0

    private let configuration: StandInConfiguration

    init(now: Int, configuration: StandInConfiguration) {
        startedAt = now
        windowReset = now + 3_600
        self.configuration = configuration
    }

    var isRecording: Bool {
        get { lock.withLock { recording } }
        set { lock.withLock { recording = newValue } }
    }

    var recordedRequests: [RecordedRequest] { lock.withLock { journal } }

    func clearRecordedRequests() { lock.withLock { journal.removeAll() } }

    func askToWait(forPath path: String, until: Double) {
        lock.withLock { waitsAsked[path] = max(waitsAsked[path] ?? until, until) }
    }

    /// Journals `request` while recording, and counts it if a fault asked its path to wait longer.
    func noteArrival(of request: RecordedRequest) {
        let now = preciseTime()
        lock.withLock {
            if recording { journal.append(request) }
            if let until = waitsAsked[request.path], now < until { earlyCount += 1 }
        }
    }

    var requestsTooEarly: Int { lock.withLock { earlyCount } }

    func preciseTime() -> Double { lock.withLock { Date().timeIntervalSince1970 + Double(clockOffset) } }

    func enqueue(_ faults: [StandInFault], forPath path: String) {
        lock.withLock { faultQueues[path, default: []].append(contentsOf: faults) }
    }

    func takeFault(forPath path: String) -> StandInFault? { lock.withLock { faultQueues[path]?.popFirst() } }

    /// The caller's standing in `resource`'s bucket, spending nothing (`free` shows core's).
    func peek(_ resource: StandInRateResource, for caller: StandInCaller, now: Int) -> RateLimitSnapshot {
        lock.withLock { snapshot(resource, caller, now: now) }
    }

    /// Spends `points` (0 for a 304; a query's cost for `graphql`) when that many, and at least one, are left;
    /// otherwise spends nothing and is refused. `free` spends nothing.
    func charge(_ resource: StandInRateResource, for caller: StandInCaller, points: Int, now: Int)
        -> (snapshot: RateLimitSnapshot, allowed: Bool)
    {
        lock.withLock {
            let before = snapshot(resource, caller, now: now)
            guard resource != .free else { return (before, true) }
            guard before.remaining >= max(1, points) else { return (before, false) }
            if points > 0 {
                let key = resource.rawValue + " " + (caller.token ?? "")
                let used = windows[key].map { $0.reset == before.reset ? $0.used : 0 } ?? 0
                windows[key] = (before.reset, used + points)
            }
            return (snapshot(resource, caller, now: now), true)
        }
    }

    /// Under the lock. Anonymous callers get GitHub's 60 an hour and 10 searches a minute, tokens the configured.
    private func snapshot(_ resource: StandInRateResource, _ caller: StandInCaller, now: Int) -> RateLimitSnapshot {
        let anonymous = caller.token == nil
        let limit =
            switch resource {
            case .core, .free: anonymous ? 60 : configuration.rateLimit
            case .search: anonymous ? 10 : configuration.searchRateLimit
            case .graphql: configuration.graphQLRateLimit
            }
        while windowReset <= now { windowReset += 3_600 }
        guard let window = windows[resource.headerName + " " + (caller.token ?? "")], now < window.reset else {
            let reset = resource == .search ? now + configuration.searchWindowSeconds : windowReset
            return RateLimitSnapshot(limit: limit, remaining: limit, reset: reset)
        }
        return RateLimitSnapshot(limit: limit, remaining: limit - min(limit, window.used), reset: window.reset)
    }

    func currentTime() -> Int { Int(preciseTime()) }

    func advanceClock(by seconds: Int) { lock.withLock { clockOffset += max(0, seconds) } }

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
