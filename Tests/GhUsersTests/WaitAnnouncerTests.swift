import AtomicCore
import Foundation
import Networking
import Testing

@testable import gh_users

/// A clock that moves only when the announcer pauses, so a countdown runs without real time passing.
private final class ManualClock: @unchecked Sendable {
    private let lock = NSLock()
    private var current = Date(timeIntervalSince1970: 1_800_000_000)
    private(set) var pauses: [Duration] = []

    var now: Date { lock.withLock { current } }

    func pause(_ duration: Duration) {
        lock.withLock {
            pauses.append(duration)
            current += Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        }
    }
}

struct WaitAnnouncerTests {
    private func announcer(tty: Bool) -> (WaitAnnouncer, ManualClock, CapturedOutput) {
        let (io, _, err) = IOStreams.test(stderrTTY: tty)
        let clock = ManualClock()
        return (WaitAnnouncer(io: io, times: .following { clock.now }, pause: { clock.pause($0) }), clock, err)
    }

    /// A retry after a network failure or a 5xx notes itself on the progress line, which the next page redraws
    /// (helper-311: the line stood still through the retries, which only --verbose said). With no status line
    /// drawn, nothing is written: a profile may be on the terminal's last row.
    @Test func aRetryNotesItselfOnTheProgressLineOnly() async throws {
        let (announcer, clock, err) = announcer(tty: true)
        try await announcer.sleep(.milliseconds(300), reason: .transport(.timedOut))
        #expect(err.text.isEmpty, "\(err.text)")
        let progress = ProgressLine(io: announcer.io, noun: "accounts")
        progress.show("Fetched 2 pages · 60 accounts")
        try await announcer.sleep(.milliseconds(300), reason: .status(502))
        try await announcer.sleep(.milliseconds(300), reason: .transport(.timedOut))
        #expect(
            err.text.hasSuffix(
                "\r\u{1B}[2KFetched 2 pages · 60 accounts · retrying (HTTP 502)"
                    + "\r\u{1B}[2KFetched 2 pages · 60 accounts · retrying (\(TransportError.timedOut))"),
            "\(err.text)")
        #expect(clock.pauses == [.milliseconds(300), .milliseconds(300), .milliseconds(300)])
        progress.clear()
        try await announcer.sleep(.milliseconds(300), reason: .status(502))
        #expect(err.text.hasSuffix("\r\u{1B}[2K"), "\(err.text)")
        // Not on a pipe or a log file.
        let (quiet, _, log) = self.announcer(tty: false)
        try await quiet.sleep(.milliseconds(300), reason: .status(502))
        #expect(log.text.isEmpty)
    }

    /// Stress: drawings, erasures and retries' notes from many tasks at once. A note is read and drawn under the
    /// status line's lock, so every note repeats the line last drawn, and none follows an erasure.
    @Test func notesFromManyTasksNeverFollowAnErasure() async {
        let (io, _, err) = IOStreams.test(stderrTTY: true, width: 200)
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    for round in 0..<300 {
                        switch (task + round) % 3 {
                        case 0: io.drawStatusLine("Fetched \(round) pages")
                        case 1: io.noteOnStatusLine("retrying (HTTP 502)")
                        default: io.drawStatusLine("")
                        }
                    }
                }
            }
        }
        var drawn = ""
        var notes = 0
        for line in err.text.components(separatedBy: "\r\u{1B}[2K").dropFirst() {
            if line.hasSuffix(" · retrying (HTTP 502)") {
                notes += 1
                #expect(!drawn.isEmpty && line == drawn + " · retrying (HTTP 502)", "\(line) after '\(drawn)'")
            } else {
                drawn = line
            }
        }
        #expect(notes > 0)
    }

    @Test func aRateLimitWaitOnATerminalCountsDownAndErasesItself() async throws {
        let (announcer, clock, err) = announcer(tty: true)
        try await announcer.sleep(.seconds(3), reason: .secondaryRateLimit)
        let text = err.text
        // A progress line is cleared first: the message was written onto its end.
        #expect(text.hasPrefix("\r\u{1B}[2Kgh-users: GitHub's secondary rate limit: waiting 3s before retrying\n"))
        #expect(text.contains("Waiting for the rate limit: 3s left"))
        #expect(text.contains("Waiting for the rate limit: 1s left"))
        #expect(text.hasSuffix("\r\u{1B}[2K"))
        #expect(clock.pauses == [.seconds(1), .seconds(1), .seconds(1)])
    }

    /// A wall clock set an hour on or back during the countdown neither ends it nor stretches it: it counts
    /// elapsed time (helper-308: set on, it ended at once and asked the spent limit again; set back, it ran an
    /// hour more, past --max-wait).
    @Test(arguments: [3600.0, -3600.0])
    func aWallClockSetOnOrBackDuringTheCountdownChangesNothing(by jump: Double) async throws {
        let (io, _, err) = IOStreams.test(stderrTTY: true)
        let clock = ManualClock()
        let times = WaitTimes(
            now: { clock.now + (clock.pauses.isEmpty ? 0 : jump) },
            elapsed: { .seconds(clock.now.timeIntervalSince1970) })
        // Past three pauses the wait is over; a stretched one ends here, not an hour on.
        let pause: @Sendable (Duration) async throws -> Void = { duration in
            clock.pause(duration)
            if clock.pauses.count >= 10 { throw CancellationError() }
        }
        try? await WaitAnnouncer(io: io, times: times, pause: pause).sleep(.seconds(3), reason: .secondaryRateLimit)
        #expect(clock.pauses == [.seconds(1), .seconds(1), .seconds(1)], "\(clock.pauses)")
        #expect(err.text.contains("Waiting for the rate limit: 2s left"))
    }

    /// The countdown wrapped on a narrow pane, as the progress line did, and left a stale copy each second.
    @Test func theCountdownFitsANarrowTerminal() async throws {
        var (io, _, err) = IOStreams.test(stderrTTY: true, width: 20)
        io.stderrWidth = 20
        let clock = ManualClock()
        let announcer = WaitAnnouncer(io: io, times: .following { clock.now }, pause: { clock.pause($0) })
        try await announcer.sleep(.seconds(2), reason: .secondaryRateLimit)
        let drawings =
            err.text.split(separator: "\n").last.map(String.init)?.split(separator: "\r\u{1B}[2K")
            .map(String.init).filter { !$0.isEmpty } ?? []
        #expect(drawings.count == 2, "\(err.text)")
        #expect(drawings.allSatisfy { DisplayWidth.of($0) <= 19 && $0.hasPrefix("Waiting for") }, "\(drawings)")
    }

    /// Under a millisecond left, the pause is still one: a pause of 0 redrew the countdown in a tight loop.
    @Test func theLastPauseIsNeverZero() async throws {
        let (io, _, _) = IOStreams.test(stderrTTY: true)
        let clock = ManualClock()
        // A pause of 0 moves this clock nowhere: the tenth pause ends the wait, where it would have spun forever.
        let pause: @Sendable (Duration) async throws -> Void = { duration in
            clock.pause(duration)
            if clock.pauses.count >= 10 { throw CancellationError() }
        }
        let announcer = WaitAnnouncer(io: io, times: .following { clock.now }, pause: pause)
        try? await announcer.sleep(.milliseconds(2_000) + .microseconds(300), reason: .secondaryRateLimit)
        #expect(clock.pauses.allSatisfy { $0 >= .milliseconds(1) }, "\(clock.pauses)")
        #expect(clock.pauses.count == 3, "\(clock.pauses)")
    }

    /// Requests in flight together that meet one spent limit wait together: while one says the wait (and counts
    /// it down), another waits as long without a word (before: up to four identical lines and countdowns).
    @Test func aWaitAlreadySaidIsNotSaidAgain() async throws {
        let (announcer, clock, err) = announcer(tty: false)
        let reset = clock.now.addingTimeInterval(30)
        #expect(announcer.announcing.begin("the graphql rate limit"))
        try await announcer.sleep(.seconds(30), reason: .primaryRateLimit(resetAt: reset, bucket: "graphql"))
        #expect(err.text.isEmpty, "\(err.text)")
        #expect(clock.pauses == [.seconds(30)])
        // Another limit's wait is its own; and once the first wait ends, the next is said again.
        try await announcer.sleep(.seconds(3), reason: .secondaryRateLimit)
        #expect(err.text == "gh-users: GitHub's secondary rate limit: waiting 3s before retrying\n")
        announcer.announcing.end("the graphql rate limit")
        let later = clock.now.addingTimeInterval(30)
        try await announcer.sleep(.seconds(30), reason: .primaryRateLimit(resetAt: later, bucket: "graphql"))
        #expect(
            err.text.hasSuffix(
                "gh-users: the graphql rate limit is spent; waiting 30s for its reset at "
                    + LocalTime.text(later) + "\n"), "\(err.text)")
    }

    /// A secondary limit's wait is its own, beside a core limit's being said (mutation round 9's M9-66: keyed by
    /// the limit's name alone, it waited in silence).
    @Test func aSecondaryWaitBesideACoreWaitIsSaid() async throws {
        let (announcer, clock, err) = announcer(tty: false)
        #expect(announcer.announcing.begin("the rate limit"))
        try await announcer.sleep(.seconds(3), reason: .secondaryRateLimit)
        #expect(err.text == "gh-users: GitHub's secondary rate limit: waiting 3s before retrying\n", "\(err.text)")
        #expect(clock.pauses == [.seconds(3)])
    }

    /// A wait under 2 s is said and waited in one pause, with no countdown drawn (M9-67: "1s left" flashed).
    @Test func aWaitUnderTwoSecondsHasNoCountdown() async throws {
        let (announcer, clock, err) = announcer(tty: true)
        try await announcer.sleep(.milliseconds(1500), reason: .secondaryRateLimit)
        #expect(!err.text.contains("Waiting for"), "\(err.text)")
        #expect(clock.pauses == [.milliseconds(1500)])
    }

    /// A reset past by exactly `resetGrace` is past it: the limit is still spent (M9-64).
    @Test func aResetPastByTheGraceIsStillSpent() async throws {
        let (announcer, clock, err) = announcer(tty: false)
        let reset = clock.now.addingTimeInterval(-RetrySchedule.resetGrace)
        try await announcer.sleep(.seconds(60), reason: .primaryRateLimit(resetAt: reset))
        #expect(err.text.hasPrefix("gh-users: the rate limit is still spent after its reset at "), "\(err.text)")
    }

    @Test func offATerminalThereIsOneLineAndNoCountdown() async throws {
        let (announcer, clock, err) = announcer(tty: false)
        let reset = clock.now.addingTimeInterval(125)
        try await announcer.sleep(.seconds(126), reason: .primaryRateLimit(resetAt: reset))
        #expect(err.text.hasPrefix("gh-users: the rate limit is spent; waiting 2m 6s for its reset at "))
        #expect(err.text.split(separator: "\n").count == 1)
        #expect(!err.text.contains("\u{1B}"))
        #expect(clock.pauses == [.seconds(126)])
    }

    /// A reset on another day is said with its date, as the errors say it (helper-268: "waiting 2d 0h for its
    /// reset at 3:00:31 AM UTC").
    @Test func aResetOnAnotherDayIsSaidWithItsDate() async throws {
        let (announcer, clock, err) = announcer(tty: false)
        let reset = clock.now.addingTimeInterval(2 * 86_400)
        try await announcer.sleep(.seconds(2 * 86_400 + 1), reason: .primaryRateLimit(resetAt: reset))
        #expect(
            err.text
                == "gh-users: the rate limit is spent; waiting 2d 0h for its reset at "
                + LocalTime.text(reset, date: true) + "\n", "\(err.text)")
    }

    /// A reset already past is no reset to wait for: the line says so.
    @Test func aResetAlreadyPastSaysTheLimitIsStillSpent() async throws {
        let (announcer, clock, err) = announcer(tty: false)
        try await announcer.sleep(.seconds(60), reason: .primaryRateLimit(resetAt: clock.now.addingTimeInterval(-5)))
        #expect(err.text.hasPrefix("gh-users: the rate limit is still spent after its reset at "), "\(err.text)")
        // No clock is blamed: a reset is moved onto this clock by GitHub's Date, so it passed by GitHub's too.
        #expect(err.text.hasSuffix("; waiting 1m 0s before retrying\n") && !err.text.contains("clock"), "\(err.text)")
    }

    /// A reset that passed while the answer was read, within `resetGrace`, is waited out by a second as a reset
    /// (`primaryLimitWait`), and said as one: the clock is not blamed for a late read (a review's find).
    @Test func aResetJustPassedIsAResetNotAClockAhead() async throws {
        let (announcer, clock, err) = announcer(tty: false)
        let reset = clock.now.addingTimeInterval(-1.5)
        try await announcer.sleep(.seconds(1), reason: .primaryRateLimit(resetAt: reset))
        #expect(
            err.text
                == "gh-users: the rate limit is spent; waiting 1s for its reset at "
                + LocalTime.text(reset) + "\n")
    }

    @Test func aSearchWaitNamesTheSearchBucketInItsLineAndItsCountdown() async throws {
        let (announcer, clock, err) = announcer(tty: true)
        let reset = clock.now.addingTimeInterval(2)
        try await announcer.sleep(.seconds(3), reason: .primaryRateLimit(resetAt: reset, bucket: "search"))
        #expect(err.text.hasPrefix("\r\u{1B}[2Kgh-users: the search rate limit is spent; waiting 3s for its reset at "))
        #expect(err.text.contains("Waiting for the search rate limit: 3s left"))
        #expect(!err.text.contains("the rate limit"))
    }

    @Test func theCoreBucketOrNoneIsTheRateLimit() {
        #expect(WaitAnnouncer.limitName(nil) == "the rate limit")
        #expect(WaitAnnouncer.limitName("core") == "the rate limit")
        #expect(WaitAnnouncer.limitName("code_search") == "the code search rate limit")
    }

    @Test func backoffBetweenRetriesIsSilent() async throws {
        let (announcer, clock, err) = announcer(tty: true)
        try await announcer.sleep(.milliseconds(300), reason: .status(502))
        #expect(err.text.isEmpty)
        #expect(clock.pauses == [.milliseconds(300)])
    }
}
