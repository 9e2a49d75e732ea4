import Foundation

/// A time before which nothing starts (`HTTPClient`'s pause after a secondary limit), shared by every copy.
final class PauseUntil: @unchecked Sendable {
    private let lock = NSLock()
    private var end: Date?

    /// Puts the end at `time`, where that is later than it is.
    func extend(to time: Date) { lock.withLock { end = max(end ?? time, time) } }

    /// How long is left at `now`; nil when nothing is.
    func left(now: Date) -> Duration? {
        lock.withLock { end.map { $0.timeIntervalSince(now) } }.flatMap { left in
            left > 0 ? .milliseconds(Int64((left * 1000).rounded(.up))) : nil
        }
    }
}
