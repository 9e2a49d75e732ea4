import Dispatch
import Foundation

/// The timers behind each attempt's deadline, one Dispatch timer per attempt, released once the attempt ends.
///
/// `Task.sleep` does not fit here. When a cancelled `Task.sleep` returns early, the runtime still holds its
/// Dispatch timer, and with it the sleeping task's memory, until the original deadline passes. Measured with
/// heaptrack: each finished request left about 1 KB behind (a task, a `dispatch_after` source, its
/// continuation) for the whole 30 s attempt timeout. At a few hundred requests a second that is tens of MB of
/// RSS, and glibc does not give back all of it afterwards. Here cancellation cancels the timer itself, and
/// `sleep` returns only once Dispatch has let the timer go.
package final class AttemptTimers: @unchecked Sendable {
    private let lock = NSLock()
    private var armedCount = 0
    private let queue = DispatchQueue(label: "gh-users.attempt-timers")

    package init() {}

    /// Timers started and not yet released. Zero whenever no `sleep` is running.
    package var armed: Int {
        lock.withLock { armedCount }
    }

    /// Returns when `duration` has passed or the calling task is cancelled, whichever comes first. Either
    /// way the timer is gone by the time it returns.
    package func sleep(for duration: Duration) async {
        let sleeper = Sleeper()
        let interval = Self.dispatchInterval(duration)
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let started = sleeper.start(continuation) { () -> any DispatchSourceTimer in
                    let timer = DispatchSource.makeTimerSource(queue: queue)
                    // Firing or cancelled, the timer ends by cancellation, and Dispatch runs the cancel handler
                    // only once it has disarmed the timer: the one place the sleeper is answered.
                    timer.setEventHandler { timer.cancel() }
                    timer.setCancelHandler { [self] in
                        lock.withLock { armedCount -= 1 }
                        sleeper.finish()
                    }
                    lock.withLock { armedCount += 1 }
                    timer.schedule(deadline: .now() + interval, leeway: .milliseconds(10))
                    timer.activate()
                    return timer
                }
                if !started { continuation.resume() }
            }
        } onCancel: {
            // `DispatchSourceTimer.cancel()` only marks the timer and never waits, so it is safe under the
            // task's status lock, unlike `URLSessionTask.cancel()`.
            sleeper.cancel()
        }
    }

    static func dispatchInterval(_ duration: Duration) -> DispatchTimeInterval {
        // A negative duration under a second comes as 0 seconds and negative attoseconds: compared whole.
        guard duration > .zero else { return .nanoseconds(0) }
        let (seconds, attoseconds) = duration.components
        // Past about 292 years the nanoseconds would overflow; no deadline is that long.
        guard seconds < Int64.max / 1_000_000_000 - 1 else { return .never }
        return .nanoseconds(Int(seconds * 1_000_000_000 + attoseconds / 1_000_000_000))
    }

    /// One sleep's state: its continuation and timer, and whether it was cancelled before it started.
    private final class Sleeper: @unchecked Sendable {
        private let lock = NSLock()
        private var continuation: CheckedContinuation<Void, Never>?
        private var timer: (any DispatchSourceTimer)?
        private var cancelled = false

        /// Starts the timer that `makeTimer` builds, unless the task was cancelled already (false). Under the
        /// lock, so that neither `cancel` nor the timer's own handlers can come between.
        func start(
            _ continuation: CheckedContinuation<Void, Never>, _ makeTimer: () -> any DispatchSourceTimer
        ) -> Bool {
            lock.withLock {
                guard !cancelled else { return false }
                self.continuation = continuation
                timer = makeTimer()
                return true
            }
        }

        func cancel() {
            let timer = lock.withLock { () -> (any DispatchSourceTimer)? in
                cancelled = true
                return self.timer
            }
            timer?.cancel()
        }

        /// From the timer's cancel handler. Dropping the timer here breaks the cycle through its handlers.
        func finish() {
            let continuation = lock.withLock { () -> CheckedContinuation<Void, Never>? in
                defer {
                    self.continuation = nil
                    timer = nil
                }
                return self.continuation
            }
            continuation?.resume()
        }
    }
}
