import AtomicLogger
import Foundation
import TestSupport
import Testing

@testable import Networking

private let usersURL = URL(string: "https://api.github.com/users?since=0")!

/// Issue 19, items 8 and 9: a spent limit without a reset waits GitHub's minute, and `--max-wait` bounds every
/// wait, with `--wait-on-rate-limit` or without. The clock records the waits instead of taking them.
struct RateLimitWaitTests {
    private func client(_ stub: StubTransport, _ clock: RetryClock, _ policy: RetryPolicy, logger: Logger = .disabled)
        -> HTTPClient
    {
        HTTPClient(
            configuration: HTTPClientConfiguration(baseURL: URL(string: "https://api.github.com")!, userAgent: "t"),
            transport: stub.transport, logger: logger, retryPolicy: policy, clock: clock)
    }

    private let spentWithoutReset: [(String, String)] = [("x-ratelimit-remaining", "0"), ("x-ratelimit-limit", "60")]

    @Test func aSpentLimitWithoutAResetWaitsAMinuteAndRetriesWhenAskedTo() async throws {
        let stub = StubTransport()
        stub.stub(usersURL.absoluteString, status: 403, headers: spentWithoutReset, body: #"{"message":"x"}"#)
        stub.stub(usersURL.absoluteString, status: 200)
        let recorder = RecordingClock()
        let policy = RetryPolicy(maxRetries: 0, waitOnPrimaryLimit: true, maximumWait: .seconds(3660))
        let answer = try await client(stub, recorder.clock, policy).get(usersURL)
        #expect(answer.status == 200)
        #expect(recorder.sleeps.map(\.0) == [.seconds(60)])
        #expect(recorder.sleeps.map(\.1) == [.primaryRateLimit(resetAt: nil)])
        #expect(stub.unusedStubs.isEmpty)
    }

    @Test func aSpentLimitWithoutAResetIsDeliveredWithoutTheFlagOrPastMaxWait() async throws {
        for policy in [
            RetryPolicy(), RetryPolicy(waitOnPrimaryLimit: true, maximumWait: .seconds(5)),
            RetryPolicy(waitOnPrimaryLimit: true, maximumWait: .seconds(59)),
        ] {
            let stub = StubTransport()
            stub.stub(usersURL.absoluteString, status: 403, headers: spentWithoutReset)
            let recorder = RecordingClock()
            #expect(try await client(stub, recorder.clock, policy).get(usersURL).status == 403)
            #expect(recorder.sleeps.isEmpty, "\(policy)")
            #expect(stub.received.count == 1)
        }
    }

    /// Before: `--wait-on-rate-limit --max-wait 5` sat out a secondary limit's `Retry-After: 60` in full.
    @Test func maxWaitBoundsASecondaryLimitsRetryAfterWithWaitOnRateLimit() async throws {
        let stub = StubTransport()
        stub.stub(usersURL.absoluteString, status: 403, headers: [("Retry-After", "60")])
        let recorder = RecordingClock()
        let policy = RetryPolicy(waitOnPrimaryLimit: true, maximumWait: .seconds(5))
        #expect(try await client(stub, recorder.clock, policy).get(usersURL).status == 403)
        #expect(recorder.sleeps.isEmpty)
        #expect(stub.received.count == 1)
    }

    @Test func maxWaitBoundsAPrimaryResetWithWaitOnRateLimit() {
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        let spent = HTTPResponse(
            status: 403,
            headers: HTTPHeaders([("x-ratelimit-remaining", "0"), ("x-ratelimit-reset", "1700000600")]),
            url: usersURL)
        func decide(_ seconds: Int64) -> RetryDecision {
            RetrySchedule(policy: RetryPolicy(waitOnPrimaryLimit: true, maximumWait: .seconds(seconds))).decide(
                .success(spent), method: .get, retriesUsed: 0, random: 0.5, now: now)
        }
        #expect(decide(600) == .deliver)
        #expect(
            decide(601)
                == .retry(after: .seconds(601), reason: .primaryRateLimit(resetAt: now.addingTimeInterval(600))))
    }

    /// A reset already past while GitHub still says the limit is spent (a clock ahead of GitHub's) waits GitHub's
    /// minute, as when it names no reset: before, it asked again every second while limited.
    @Test func aResetAlreadyPastWaitsAMinuteNotASecond() {
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        let spent = HTTPResponse(
            status: 403,
            headers: HTTPHeaders([("x-ratelimit-remaining", "0"), ("x-ratelimit-reset", "1699999995")]),
            url: usersURL)
        let decision = RetrySchedule(policy: RetryPolicy(waitOnPrimaryLimit: true)).decide(
            .success(spent), method: .get, retriesUsed: 0, random: 0.5, now: now)
        #expect(
            decision == .retry(after: .seconds(60), reason: .primaryRateLimit(resetAt: now.addingTimeInterval(-5))))
    }

    /// A reset a second away that passed while the answer was read (GitHub's whole seconds, a loaded machine) is
    /// waited out by a second, not a minute: the end-to-end test of it was killed at 60 s under load.
    @Test func aResetJustPastIsWaitedOutByASecond() {
        let now = Date(timeIntervalSince1970: 1_700_000_000.5)
        let spent = HTTPResponse(
            status: 403,
            headers: HTTPHeaders([("x-ratelimit-remaining", "0"), ("x-ratelimit-reset", "1699999999")]),
            url: usersURL)
        let decision = RetrySchedule(policy: RetryPolicy(waitOnPrimaryLimit: true)).decide(
            .success(spent), method: .get, retriesUsed: 0, random: 0.5, now: now)
        #expect(
            decision == .retry(after: .seconds(1), reason: .primaryRateLimit(resetAt: now.addingTimeInterval(-1.5))))
    }

    @Test func maxWaitBoundsAServerErrorsRetryAfter() {
        let answer = HTTPResponse(status: 503, headers: HTTPHeaders([("Retry-After", "30")]), url: usersURL)
        func decide(_ policy: RetryPolicy) -> RetryDecision {
            RetrySchedule(policy: policy).decide(
                .success(answer), method: .get, retriesUsed: 0, random: 0.5, now: Date())
        }
        #expect(decide(RetryPolicy()) == .retry(after: .seconds(30), reason: .status(503)))
        #expect(
            decide(RetryPolicy(maximumWait: .seconds(5))) == .retry(after: .milliseconds(125), reason: .status(503)))
    }

    @Test func aBodyReportedLimitIsNotWaitedPastMaxWait() async throws {
        let recorder = RecordingClock()
        let stub = StubTransport()
        let reset = Date(timeIntervalSince1970: 1_700_000_000 + 600)
        let bounded = client(stub, recorder.clock, RetryPolicy(waitOnPrimaryLimit: true, maximumWait: .seconds(60)))
        #expect(try await bounded.waitForRateLimitReset(reset) == false)
        let roomy = client(stub, recorder.clock, RetryPolicy(waitOnPrimaryLimit: true, maximumWait: .seconds(3660)))
        #expect(try await roomy.waitForRateLimitReset(reset) == true)
        #expect(recorder.sleeps.map(\.0) == [.seconds(601)])
    }
}

/// Issue 20.19: `--verbose` (info) says one line for each request: method, path, status, and a cache answer.
struct VerboseRequestLogTests {
    /// Sends one GET for each status, logging at `level`, and gives back what was logged.
    private func log(_ statuses: [Int], level: LogLevel) async throws -> [InMemoryLogHandler.Entry] {
        let stub = StubTransport()
        for status in statuses { stub.stub(usersURL.absoluteString, status: status) }
        let handler = InMemoryLogHandler()
        let client = HTTPClient(
            configuration: HTTPClientConfiguration(baseURL: URL(string: "https://api.github.com")!, userAgent: "t"),
            transport: stub.transport, logger: Logger(label: "t", level: level, handler: handler),
            clock: RecordingClock().clock, headersSent: { $0.headers })
        for _ in statuses { _ = try await client.get(usersURL) }
        return handler.entries
    }

    @Test func eachRequestIsOneInfoLineWithItsStatusAndTheCachesPart() async throws {
        let entries = try await log([200, 304], level: .info)
        #expect(
            entries.map(\.message) == [
                "GET /users?since=0: 200", "GET /users?since=0: 304, unchanged: the cached copy answers",
            ])
        #expect(entries.allSatisfy { $0.level == .info })
    }

    @Test func theDebugTraceStandsInForTheInfoLine() async throws {
        let entries = try await log([200], level: .debug)
        #expect(!entries.isEmpty)
        #expect(entries.allSatisfy { $0.level == .debug })
    }
}
