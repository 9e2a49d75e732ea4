import AtomicCore
import Foundation

/// A time before which nothing starts (`HTTPClient`'s pause after a secondary limit), shared by every copy. Kept
/// as elapsed time (`RetryClock.elapsed`), not the wall clock: set back an hour, the wall clock had every later
/// request wait up to an hour more, past `--max-wait`; set on, it let them go out during the limit (helper-308).
final class PauseUntil: @unchecked Sendable {
    private let lock = NSLock()
    private var end: Duration?

    /// Puts the end at `time`, where that is later than it is.
    func extend(to time: Duration) { lock.withLock { end = max(end ?? time, time) } }

    /// How long is left at `time`; nil when nothing is.
    func left(at time: Duration) -> Duration? {
        lock.withLock { end.map { $0 - time } }.flatMap { left in
            left > .zero ? .milliseconds(Int64((left.inSeconds * 1000).rounded(.up))) : nil
        }
    }
}
