import Foundation

/// Time, chance and sleep for the retry loop, injected so tests run the schedule without waiting.
/// `sleep` receives the reason too, so the presentation layer can say why it waits (and count down).
package struct RetryClock: Sendable {
    package var now: @Sendable () -> Date
    package var random: @Sendable () -> Double
    package var sleep: @Sendable (Duration, RetryReason) async throws -> Void
    /// How much of the shared pause after a secondary limit is left (`WaitTimes.elapsed`).
    package var elapsed: @Sendable () -> Duration

    /// Without `elapsed`, it is read off `now`, as a test's clock moves it.
    package init(
        now: @escaping @Sendable () -> Date,
        random: @escaping @Sendable () -> Double,
        sleep: @escaping @Sendable (Duration, RetryReason) async throws -> Void,
        elapsed: (@Sendable () -> Duration)? = nil
    ) {
        self.now = now
        self.random = random
        self.sleep = sleep
        self.elapsed = elapsed ?? WaitTimes.following(now).elapsed
    }

    package static let live = RetryClock(
        now: { Date() },
        random: { Double.random(in: 0..<1) },
        sleep: { duration, _ in try await Task.sleep(for: duration) },
        elapsed: WaitTimes.live.elapsed
    )
}
