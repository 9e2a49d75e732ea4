import AtomicLogger
import Foundation
import TestSupport
import Testing

@testable import Networking

/// Each attempt's deadline used to be a `Task.sleep`, whose timer (and the sleeping task's memory) outlived a
/// cancelled sleep until the deadline: about 1 KB per request for 30 s, tens of MB of RSS on a fast crawl.
/// These pin the replacement's promise: once a sleep has returned, its timer is gone.
struct AttemptTimersTests {
    private let url = URL(string: "https://api.github.com/users")!

    /// A deadline under a second is that long, not none: `--timeout 0.5` is allowed, and a sleep of 0 s timed every
    /// attempt out at once (mutation round 9's M9-94 went unseen). A negative one is none.
    @Test func aDeadlineUnderASecondKeepsItsLength() {
        #expect(AttemptTimers.dispatchInterval(.milliseconds(300)) == .nanoseconds(300_000_000))
        #expect(AttemptTimers.dispatchInterval(.seconds(2)) == .nanoseconds(2_000_000_000))
        #expect(AttemptTimers.dispatchInterval(.zero) == .nanoseconds(0))
        #expect(AttemptTimers.dispatchInterval(.milliseconds(-300)) == .nanoseconds(0))
    }

    @Test func aCancelledSleepReleasesItsTimerBeforeItReturns() async {
        let timers = AttemptTimers()
        for _ in 0..<200 {
            let sleep = Task { await timers.sleep(for: .seconds(3600)) }
            sleep.cancel()
            await sleep.value
        }
        #expect(timers.armed == 0)
    }

    /// Armed, a sleep waits: it has not returned after the other tasks have had their turns, and returns once
    /// cancelled.
    @Test func aSleepCancelledOnceArmedReleasesItsTimer() async {
        let timers = AttemptTimers()
        let returned = Flag()
        let sleep = Task {
            await timers.sleep(for: .seconds(3600))
            returned.set()
        }
        while timers.armed == 0 { await Task.yield() }
        for _ in 0..<50 { await Task.yield() }
        #expect(timers.armed == 1)
        #expect(!returned.isSet)
        sleep.cancel()
        await sleep.value
        #expect(returned.isSet)
        #expect(timers.armed == 0)
    }

    /// Not cancelled, a sleep returns when its timer fires, with the timer released. (That it waits until then is
    /// the test above's: it is still asleep after every other task had its turn.)
    @Test func aSleepThatRunsItsCourseReleasesItsTimer() async {
        let timers = AttemptTimers()
        await timers.sleep(for: .milliseconds(20))
        #expect(timers.armed == 0)
    }

    @Test func aSleepInACancelledTaskReturnsAtOnce() async {
        let timers = AttemptTimers()
        let sleep = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            await timers.sleep(for: .seconds(3600))
        }
        await sleep.value
        #expect(timers.armed == 0)
    }

    /// The leak as it was: every finished request left its deadline armed for the attempt timeout.
    @Test func noDeadlineStaysArmedAfterTheRequestsEnd() async throws {
        let stub = StubTransport()
        for _ in 0..<300 { stub.stub(url.absoluteString) }
        let client = HTTPClient(
            configuration: HTTPClientConfiguration(baseURL: URL(string: "https://api.github.com")!, userAgent: "t"),
            transport: stub.transport,
            logger: .disabled,
            retryPolicy: RetryPolicy(attemptTimeout: .seconds(3600))
        )
        for _ in 0..<300 {
            #expect(try await client.get(url).status == 200)
        }
        #expect(client.armedAttemptTimers == 0)
        #expect(stub.unusedStubs.isEmpty)
    }

    @Test func aRequestCancelledMidFlightLeavesNoDeadlineArmed() async {
        let client = HTTPClient(
            configuration: HTTPClientConfiguration(baseURL: URL(string: "https://api.github.com")!, userAgent: "t"),
            transport: { request in
                try await Task.sleep(for: .seconds(3600))
                return HTTPResponse(status: 200, url: request.url)
            },
            logger: .disabled,
            retryPolicy: RetryPolicy(attemptTimeout: .seconds(3600))
        )
        let request = Task { try await client.get(url) }
        while client.armedAttemptTimers == 0 { await Task.yield() }
        request.cancel()
        _ = await request.result
        #expect(client.armedAttemptTimers == 0)
    }
}

/// Set once, read from any task.
private final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}
