import Foundation

/// What a wait reads: the wall clock, for the times GitHub names (a reset at 14:05), and the time elapsed, for
/// how much of a wait is left. Elapsed time is `ContinuousClock`'s, which on Linux is CLOCK_BOOTTIME: a wall
/// clock set an hour on or back (NTP, a person) neither ends a wait early nor stretches it past `--max-wait`,
/// and a suspended laptop's sleep counts, so a wait whose end passed during it ends on resume (helper-308: a
/// countdown measured on the wall clock ended at once after a jump of an hour, and asked a spent limit again).
package struct WaitTimes: Sendable {
    package var now: @Sendable () -> Date
    /// Since an arbitrary origin; only differences mean anything.
    package var elapsed: @Sendable () -> Duration

    package init(now: @escaping @Sendable () -> Date, elapsed: @escaping @Sendable () -> Duration) {
        self.now = now
        self.elapsed = elapsed
    }

    /// A test's clock, which moves its wall clock itself: elapsed time is read off it.
    package static func following(_ now: @escaping @Sendable () -> Date) -> WaitTimes {
        WaitTimes(now: now, elapsed: { .seconds(now().timeIntervalSince1970) })
    }

    private static let origin = ContinuousClock.now

    package static let live = WaitTimes(now: { Date() }, elapsed: { ContinuousClock.now - origin })
}
