import AtomicCore
import Foundation
import Networking

/// The retry loop's sleep, as a person sees it: a rate-limit wait is announced on stderr with its reason
/// and length, and on a terminal a countdown runs until it ends and is then erased. Part of the composition
/// root: it is handed to the HTTP client as its `RetryClock.sleep`.
struct WaitAnnouncer: Sendable {
    let io: IOStreams
    /// The wall clock for the reset's time of day; elapsed time for what is left of the countdown.
    let times: WaitTimes
    var pause: @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }

    /// The waits being announced now, shared by every copy of this announcer: requests in flight together
    /// that meet one spent limit wait together, and it is said and counted down once, not once each.
    let announcing = WaitsAnnounced()

    func sleep(_ duration: Duration, reason: RetryReason) async throws {
        let seconds = duration.inSeconds
        let line: String
        var limit = "the rate limit"
        switch reason {
        case .secondaryRateLimit:
            line =
                "gh-users: GitHub's secondary rate limit: waiting \(DurationText.describe(seconds: seconds)) before "
                + "retrying\n"
        case .primaryRateLimit(let resetAt?, let bucket)
        where resetAt.timeIntervalSince(times.now()) <= -RetrySchedule.resetGrace:
            // The reset is past by more than a late answer's grace, as the wait took it (`primaryLimitWait`), and
            // GitHub still says spent. Past by GitHub's clock too (`onThisClock`): no clock is blamed.
            let local = ErrorPresenter.localTime(resetAt, now: times.now())
            limit = Self.limitName(bucket)
            line =
                "gh-users: \(limit) is still spent after its reset at \(local); waiting "
                + "\(DurationText.describe(seconds: seconds)) before retrying\n"
        case .primaryRateLimit(let resetAt?, let bucket):
            let local = ErrorPresenter.localTime(resetAt, now: times.now())
            limit = Self.limitName(bucket)
            line =
                "gh-users: \(limit) is spent; waiting \(DurationText.describe(seconds: seconds)) for its reset at "
                + "\(local)\n"
        case .primaryRateLimit(nil, let bucket):
            limit = Self.limitName(bucket)
            line =
                "gh-users: \(limit) is spent and GitHub gave no reset time; waiting "
                + "\(DurationText.describe(seconds: seconds)) before retrying, as GitHub advises\n"
        case .computing:
            say("gh-users: GitHub is computing the list; asking again in \(DurationText.describe(seconds: seconds))\n")
            try await pause(duration)
            return
        case .transport, .status, .queryTimedOut:
            // On a terminal, the progress line says so until the next page redraws it: a request that hangs again
            // held it still for up to two minutes, the retries said only under --verbose (helper-311).
            if io.stderrIsTTY { io.noteOnStatusLine("retrying (\(TerminalSanitizer.sanitize(reason.description)))") }
            try await pause(duration)
            return
        }
        // Another request already says this limit's wait: this one waits as long, silently.
        let key = (reason.isSecondary ? "secondary " : "") + limit
        guard announcing.begin(key) else {
            try await pause(duration)
            return
        }
        defer { announcing.end(key) }
        say(line)
        guard io.stderrIsTTY, seconds >= 2 else {
            try await pause(duration)
            return
        }
        try await countdown(seconds: seconds, limit: limit)
    }

    /// A line about the wait, on a line of its own: a terminal's progress line ("Fetched 1 page · 100 accounts")
    /// is cleared first, where the line was written onto its end.
    private func say(_ line: String) {
        if io.stderrIsTTY { io.drawStatusLine("") }
        io.writeErr(line)
    }

    /// "the search rate limit" for a bucket other than the core one, whose limit is "the rate limit".
    static func limitName(_ bucket: String?) -> String {
        guard let bucket, bucket != "core" else { return "the rate limit" }
        return "the \(bucket.replacingOccurrences(of: "_", with: " ")) rate limit"
    }

    /// On elapsed time, not the wall clock: a clock set on an hour ended the wait at once and asked the spent
    /// limit again; set back, it counted an hour more, past `--max-wait` (helper-308).
    private func countdown(seconds: Double, limit: String) async throws {
        let end = times.elapsed() + .seconds(seconds)
        defer { io.drawStatusLine("") }
        while true {
            let left = (end - times.elapsed()).inSeconds
            if left <= 0 { return }
            io.drawStatusLine("Waiting for \(limit): \(DurationText.describe(seconds: left)) left")
            // Rounded up: under a millisecond left, a pause of 0 redrew "1s left" in a tight loop.
            try await pause(.milliseconds(max(1, Int64((min(1, left) * 1000).rounded(.up)))))
        }
    }
}

/// The limits whose wait a request is saying now (`WaitAnnouncer.announcing`).
final class WaitsAnnounced: @unchecked Sendable {
    private let lock = NSLock()
    private var keys: Set<String> = []

    /// True for the first to wait on `key`, who announces it; false while it is announced already.
    func begin(_ key: String) -> Bool { lock.withLock { keys.insert(key).inserted } }

    func end(_ key: String) { _ = lock.withLock { keys.remove(key) } }
}

extension RetryReason {
    fileprivate var isSecondary: Bool {
        if case .secondaryRateLimit = self { return true }
        return false
    }
}
