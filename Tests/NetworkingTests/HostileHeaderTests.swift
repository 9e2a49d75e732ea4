import Foundation
import TestSupport
import Testing

@testable import Networking

/// The instant `RecordingClock` reports.
private let clockNow = Date(timeIntervalSince1970: 1_700_000_000)
private let usersURL = URL(string: "https://api.github.com/users")!

private func response(_ status: Int, _ headers: [(String, String)] = [], body: String = "") -> HTTPResponse {
    HTTPResponse(
        status: status,
        headers: HTTPHeaders(headers.map { (name: $0.0, value: $0.1) }),
        body: Data(body.utf8),
        url: usersURL
    )
}

/// Every number from the network is read with bounds; what falls outside is `malformed`, never a crash later.
struct HeaderValueTests {
    @Test(arguments: ["0", "42", " 7 ", "2147483648"])
    func readsDeltaSecondsWithinRFCBounds(text: String) throws {
        let value = try #require(HeaderValue.integer(text, in: 0...HeaderValue.maximumDeltaSeconds))
        #expect(value == Int64(text.trimmingCharacters(in: .whitespaces)))
    }

    @Test(arguments: [
        "", "nan", "NaN", "inf", "-1", "+5", "1e19", "1e308", "1.5", "0x10", "9223372036854775807",
        "99999999999999999999999", "2147483649", "１２",
    ])
    func refusesEverythingElse(text: String) {
        #expect(HeaderValue.integer(text, in: 0...HeaderValue.maximumDeltaSeconds) == nil)
    }

    /// A counter past Int32 (`x-ratelimit-remaining: 3000000000`) is no count GitHub sends: malformed, not a
    /// number that then reads as a refusal (helper-339's M7-4).
    @Test(arguments: ["3000000000", "2147483648"])
    func aCounterPastInt32IsMalformed(text: String) {
        guard case .malformed = HeaderValue.count(text, name: "x-ratelimit-remaining") else {
            Issue.record("\(text) was taken as a count")
            return
        }
        #expect(HeaderValue.count("2147483647", name: "x-ratelimit-remaining") == .valid(2_147_483_647))
    }

    @Test(arguments: ["nan", "1e19", "1e308", "-1", "253402300800", "soon"])
    func aResetOutOfRangeIsMalformedAndSaysWhy(text: String) {
        guard case .malformed(let reason) = HeaderValue.epochTime(text, name: "x-ratelimit-reset") else {
            Issue.record("\(text) was accepted as a reset time")
            return
        }
        #expect(reason.hasPrefix("x-ratelimit-reset '\(text)' is not a time"))
    }

    @Test func aResetInRangeIsADate() {
        #expect(HeaderValue.epochTime("1700000060", name: "r") == .valid(clockNow.addingTimeInterval(60)))
        #expect(HeaderValue.epochTime("253402300799", name: "r").value != nil)
        #expect(HeaderValue.epochTime(nil, name: "r") == .absent)
    }

    @Test func theServersTextIsQuotedShort() {
        let long = String(repeating: "9", count: 500)
        guard case .malformed(let reason) = HeaderValue.retryAfter(long, now: clockNow) else {
            Issue.record("500 nines were accepted")
            return
        }
        #expect(reason.count < 150)
    }

    @Test func retryAfterInSecondsOrAsAnHTTPDate() {
        #expect(HeaderValue.retryAfter("120", now: clockNow) == .valid(.seconds(120)))
        // 1700000000 is Tue, 14 Nov 2023 22:13:20 GMT.
        #expect(HeaderValue.retryAfter("Tue, 14 Nov 2023 22:13:50 GMT", now: clockNow) == .valid(.seconds(30)))
        #expect(HeaderValue.retryAfter("Tuesday, 14-Nov-23 22:14:20 GMT", now: clockNow) == .valid(.seconds(60)))
        #expect(HeaderValue.retryAfter("Tue Nov 14 22:13:25 2023", now: clockNow) == .valid(.seconds(5)))
        // A date already past asks for no wait at all.
        #expect(HeaderValue.retryAfter("Sun, 06 Nov 1994 08:49:37 GMT", now: clockNow) == .valid(.zero))
        #expect(HeaderValue.retryAfter(nil, now: clockNow) == .absent)
    }

    @Test(arguments: [
        "9223372036854775807", "-1", "1.5", "Tue, 14 Nov 2023 22:13:50 PST", "Tue, 31 Nov 2023 22:13:50 GMT",
        "Tue, 14 Nov 2023 24:00:00 GMT", "Tue, 14 Nov 10000 22:13:50 GMT", "Fri, 29 Feb 2023 00:00:00 GMT", "tomorrow",
    ])
    func aRetryAfterThatIsNeitherFormIsMalformed(text: String) {
        guard case .malformed(let reason) = HeaderValue.retryAfter(text, now: clockNow) else {
            Issue.record("\(text) was accepted as Retry-After")
            return
        }
        #expect(reason.hasPrefix("Retry-After '"))
    }

    @Test func httpDatesOfEveryFormAgree() throws {
        let imf = try #require(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT"))
        #expect(imf.timeIntervalSince1970 == 784_111_777)
        #expect(HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT", now: clockNow) == imf)
        #expect(HTTPDate.parse("Sun Nov  6 08:49:37 1994") == imf)
        #expect(HTTPDate.parse("Thu, 29 Feb 2024 12:00:00 GMT") != nil)
        #expect(HTTPDate.parse("Fri, 31 Dec 9999 23:59:59 GMT")?.timeIntervalSince1970 == 253_402_300_799)
    }

    /// Every month's date at its instant (Python's `calendar.timegm`): February's were never checked, and a
    /// February read 367 days early went unseen (helper-339's M7-1: every `Date` header of the month, so an
    /// expired token read as refused and the clock's correction stopped).
    @Test func everyMonthsDateIsItsInstant() throws {
        let names = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        let instants: [TimeInterval] = [
            1_800_007_200, 1_802_685_600, 1_805_104_800, 1_807_783_200, 1_810_375_200, 1_813_053_600,
            1_815_645_600, 1_818_324_000, 1_821_002_400, 1_823_594_400, 1_826_272_800, 1_828_864_800,
        ]
        for (name, instant) in zip(names, instants) {
            #expect(HTTPDate.parse("Mon, 15 \(name) 2027 10:00:00 GMT")?.timeIntervalSince1970 == instant, "\(name)")
        }
        #expect(HTTPDate.parse("Thu, 29 Feb 2024 12:00:00 GMT")?.timeIntervalSince1970 == 1_709_208_000)
        #expect(HTTPDate.parse("Tue, 29 Feb 2000 00:00:00 GMT")?.timeIntervalSince1970 == 951_782_400)
    }

    /// The grammar's edges (helper-339's M7-14 to M7-18): RFC 850's longest day name (33 characters), a leap
    /// second, a two-digit year in the next calendar year (across New Year, not a century ago); no day 00, and a
    /// year of four digits only.
    @Test func theGrammarsEdgesAreReadAsItSays() throws {
        #expect(
            HTTPDate.parse("Wednesday, 09-Nov-94 08:49:37 GMT", now: clockNow)?.timeIntervalSince1970 == 784_370_977)
        #expect(HTTPDate.parse("Mon, 15 Feb 2027 10:00:60 GMT")?.timeIntervalSince1970 == 1_802_685_660)
        #expect(HTTPDate.parse("Sunday, 07-Jan-24 08:00:00 GMT", now: clockNow)?.timeIntervalSince1970 == 1_704_614_400)
        #expect(HTTPDate.parse("Sun, 00 Nov 1994 08:49:37 GMT") == nil)
        #expect(HTTPDate.parse("Sun, 06 Nov 01994 08:49:37 GMT") == nil)
    }
}

struct RateLimitInfoTests {
    @Test func malformedFieldsAreKeptApartFromAbsentOnes() {
        let info = RateLimitInfo(
            response(403, [("x-ratelimit-remaining", "zero"), ("x-ratelimit-reset", "nan"), ("Retry-After", "x")]),
            now: clockNow)
        if case .malformed = info.remaining {} else { Issue.record("remaining") }
        if case .malformed = info.reset {} else { Issue.record("reset") }
        if case .malformed = info.retryAfter {} else { Issue.record("retryAfter") }
        #expect(!info.isPrimaryLimitSpent(status: 403))
        // A malformed Retry-After is still a Retry-After: the 403 is a secondary limit, not a permission problem.
        #expect(info.isSecondaryLimit(status: 403, body: Data()))
    }
}

/// The schedule never converts an unbounded value, and never sits out hours without being asked to.
struct HostileRetryScheduleTests {
    private func decide(_ response: HTTPResponse, policy: RetryPolicy = RetryPolicy()) -> RetryDecision {
        RetrySchedule(policy: policy).decide(
            .success(response), method: .get, retriesUsed: 0, random: 0.5, now: clockNow)
    }

    @Test(arguments: ["nan", "1e19", "1e308", "-5"])
    func aSpentLimitWithAResetOutOfRangeIsDeliveredEvenWhenAskedToWait(reset: String) {
        let spent = response(403, [("x-ratelimit-remaining", "0"), ("x-ratelimit-reset", reset)])
        #expect(decide(spent, policy: RetryPolicy(waitOnPrimaryLimit: true)) == .deliver)
    }

    @Test func aRetryAfterOutOfRangeIsDeliveredNotWaited() {
        let hostile = response(429, [("Retry-After", "9223372036854775807")])
        #expect(decide(hostile) == .deliver)
        #expect(decide(hostile, policy: RetryPolicy(waitOnPrimaryLimit: true)) == .deliver)
    }

    @Test func aWaitPastTheMaximumIsGivenBackEvenWhenAskedToWait() {
        let long = response(429, [("Retry-After", "999999")])
        #expect(decide(long) == .deliver)
        #expect(decide(long, policy: RetryPolicy(waitOnPrimaryLimit: true)) == .deliver)
        // The default ceiling is 15 minutes: at it the wait is taken, past it not.
        #expect(RetryPolicy().maximumWait == .seconds(900))
        #expect(
            decide(response(429, [("Retry-After", "900")])) == .retry(after: .seconds(900), reason: .secondaryRateLimit)
        )
        #expect(decide(response(403, [("Retry-After", "901")])) == .deliver)
        // --max-wait moves the ceiling.
        #expect(
            decide(response(429, [("Retry-After", "61")]), policy: RetryPolicy(maximumWait: .seconds(60))) == .deliver)
    }

    @Test func anHTTPDateRetryAfterIsWaitedToTheDate() {
        let dated = response(429, [("Retry-After", "Tue, 14 Nov 2023 22:13:27 GMT")])
        #expect(decide(dated) == .retry(after: .seconds(7), reason: .secondaryRateLimit))
        let fiveHundred = response(503, [("Retry-After", "Tue, 14 Nov 2023 22:13:22 GMT")])
        #expect(
            decide(fiveHundred, policy: RetryPolicy(baseDelay: .milliseconds(100)))
                == .retry(after: .seconds(2), reason: .status(503)))
    }

    /// helper-268: resets and Retry-After dates are GitHub's times, and were read against this clock alone: 20
    /// minutes behind, a reset 2 s away was a wait of 20m 2s, refused past `--max-wait` (exit 5); 10 minutes
    /// ahead, one 30 s away was passed, so waited a minute. GitHub's `Date` tells its clock.
    @Test func aClockBehindOrAheadOfGitHubsWaitsWhatGitHubMeans() {
        let policy = RetryPolicy(waitOnPrimaryLimit: true)
        // This clock: 22:13:20.
        func spent(gitHubNow: String, reset: Int) -> HTTPResponse {
            response(
                403,
                [
                    ("Date", "Tue, 14 Nov 2023 \(gitHubNow) GMT"), ("x-ratelimit-remaining", "0"),
                    ("x-ratelimit-reset", String(reset)),
                ])
        }
        let behind = spent(gitHubNow: "22:33:20", reset: 1_700_001_202)
        #expect(
            decide(behind, policy: policy)
                == .retry(after: .seconds(3), reason: .primaryRateLimit(resetAt: clockNow.addingTimeInterval(2))))
        #expect(RateLimitInfo(behind, now: clockNow).reset == .valid(clockNow.addingTimeInterval(2)))
        let ahead = spent(gitHubNow: "22:03:20", reset: 1_699_999_430)
        #expect(
            decide(ahead, policy: policy)
                == .retry(after: .seconds(31), reason: .primaryRateLimit(resetAt: clockNow.addingTimeInterval(30))))
        // A second apart is the answer's way here: the reset is read as sent.
        let near = spent(gitHubNow: "22:13:21", reset: 1_700_000_030)
        #expect(RateLimitInfo(near, now: clockNow).reset == .valid(clockNow.addingTimeInterval(30)))
        let dated = response(
            429, [("Date", "Tue, 14 Nov 2023 22:33:20 GMT"), ("Retry-After", "Tue, 14 Nov 2023 22:33:27 GMT")])
        #expect(decide(dated) == .retry(after: .seconds(7), reason: .secondaryRateLimit))
        // A reset GitHub's own clock has passed is moved too, two hours behind: it was "in 1h 59m" (helper-319).
        let passed = response(
            403,
            [
                ("Date", "Wed, 15 Nov 2023 00:13:20 GMT"), ("x-ratelimit-remaining", "0"),
                ("x-ratelimit-reset", "1700007170"),
            ])
        #expect(RateLimitInfo(passed, now: clockNow).reset == .valid(clockNow.addingTimeInterval(-30)))
        let waited = decide(passed, policy: policy)
        #expect(waited == .retry(after: .seconds(60), reason: .primaryRateLimit(resetAt: clockNow - 30)), "\(waited)")
        // A Date no reset of GitHub's hour can follow (1970, 9999) is no clock: the reset is read as sent.
        for absurd in ["Thu, 01 Jan 1970 00:00:00 GMT", "Fri, 31 Dec 9999 23:59:59 GMT"] {
            let info = RateLimitInfo(
                response(403, [("Date", absurd), ("x-ratelimit-remaining", "0"), ("x-ratelimit-reset", "1700000060")]),
                now: clockNow)
            #expect(info.reset == .valid(clockNow.addingTimeInterval(60)), "\(absurd)")
        }
    }

    @Test func aMalformedRetryAfterOnAFiveHundredOnlyLosesTheHint() {
        let hostile = response(503, [("Retry-After", "1e308")])
        #expect(
            decide(hostile, policy: RetryPolicy(baseDelay: .milliseconds(100)))
                == .retry(after: .milliseconds(50), reason: .status(503)))
    }

    @Test(arguments: [
        TransportError.tls(.untrustedCertificate, host: "h", detail: "d"), .tls(.nameMismatch, host: "h", detail: "d"),
        .tls(.handshake, host: "h", detail: "d"), .responseTooLarge(limit: 10), .redirectRefused("file:///etc/passwd"),
        .redirectToAnotherOrigin("https://elsewhere.example"), .malformedHeaders("a header line is over 100 KiB"),
    ])
    func failuresThatAreAnswersAreNeitherRetriedNorTransient(error: TransportError) {
        #expect(!error.isTransient)
        let decision = RetrySchedule(policy: RetryPolicy()).decide(
            .failure(error), method: .get, retriesUsed: 0, random: 0.5, now: clockNow)
        #expect(decision == .deliver)
    }
}

/// The loop with a recording clock: what it sleeps, and what it hands back.
struct HostileRetryLoopTests {
    private func client(_ stub: StubTransport, clock: RetryClock, policy: RetryPolicy = RetryPolicy()) -> HTTPClient {
        HTTPClient(
            configuration: HTTPClientConfiguration(baseURL: URL(string: "https://api.github.com")!, userAgent: "t"),
            transport: stub.transport,
            logger: .disabled,
            retryPolicy: policy,
            clock: clock
        )
    }

    @Test func aRetryAfterOfElevenDaysIsHandedBackAtOnce() async throws {
        let stub = StubTransport()
        stub.stub(usersURL.absoluteString, status: 429, headers: [("Retry-After", "999999")])
        let recorder = RecordingClock()
        let result = try await client(stub, clock: recorder.clock).get(usersURL)
        #expect(result.status == 429)
        #expect(recorder.sleeps.isEmpty)
        #expect(stub.received.count == 1)
    }

    @Test func withWaitOnRateLimitAWaitPastMaxWaitIsNotStarted() async throws {
        let stub = StubTransport()
        stub.stub(usersURL.absoluteString, status: 429, headers: [("Retry-After", "999999")])
        let recorder = RecordingClock()
        let policy = RetryPolicy(waitOnPrimaryLimit: true, maximumWait: .seconds(3660))
        #expect(try await client(stub, clock: recorder.clock, policy: policy).get(usersURL).status == 429)
        #expect(recorder.sleeps.isEmpty)
    }

    @Test func aHostileResetNeverReachesTheClock() async throws {
        let stub = StubTransport()
        stub.stub(
            usersURL.absoluteString, status: 403,
            headers: [("x-ratelimit-remaining", "0"), ("x-ratelimit-reset", "1e308")])
        let recorder = RecordingClock()
        let policy = RetryPolicy(waitOnPrimaryLimit: true)
        #expect(try await client(stub, clock: recorder.clock, policy: policy).get(usersURL).status == 403)
        #expect(recorder.sleeps.isEmpty)
    }
}
