import Foundation

/// How the client rides through GitHub's ordinary failures. A `Sendable` value with one preset, after
/// async-http-client's configuration style.
package struct RetryPolicy: Sendable, Equatable {
    /// How many times one request may be tried again after a transient failure or a secondary rate limit.
    package var maxRetries: Int
    /// The first backoff ceiling; each retry doubles it, up to `maxDelay`. The actual wait is a random
    /// fraction of the ceiling ("full jitter"), so many clients never retry in step.
    package var baseDelay: Duration
    package var maxDelay: Duration
    /// What to wait on a rate limit that says neither when to come back nor when it resets: a secondary limit
    /// without `Retry-After`, or a spent primary limit without `x-ratelimit-reset`. GitHub's rate-limit page:
    /// "Otherwise, wait for at least one minute before retrying."
    package var secondaryLimitWait: Duration
    /// The longest `Retry-After` honoured on a 5xx; longer ones fall back to backoff.
    package var maxServerRetryAfter: Duration
    /// Sleep until the primary rate limit resets instead of failing (`--wait-on-rate-limit`), for at most
    /// `maximumWait`.
    package var waitOnPrimaryLimit: Bool
    /// One attempt's deadline, enforced by cancelling the attempt (URLSession rounds its own timeout down).
    package var attemptTimeout: Duration
    /// The longest any rate-limit wait may last (`--max-wait`): a primary reset, a secondary limit's
    /// `Retry-After` or its minute, a 5xx's `Retry-After`. A wait asking for more is never started: the answer
    /// is given back to the caller, which reports it as a rate limit with the time to come back (exit 5).
    package var maximumWait: Duration
    /// The least wait before a write is sent again: GitHub asks for writes one at a time, at least a second
    /// apart, and a retry is a write like any other.
    package var writeSpacing: Duration

    package static let defaultMaximumWait = Duration.seconds(15 * 60)

    package init(
        maxRetries: Int = 3,
        baseDelay: Duration = .milliseconds(250),
        maxDelay: Duration = .seconds(8),
        secondaryLimitWait: Duration = .seconds(60),
        maxServerRetryAfter: Duration = .seconds(60),
        waitOnPrimaryLimit: Bool = false,
        attemptTimeout: Duration = .seconds(30),
        maximumWait: Duration = RetryPolicy.defaultMaximumWait,
        writeSpacing: Duration = .seconds(1)
    ) {
        self.maxRetries = maxRetries
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
        self.secondaryLimitWait = secondaryLimitWait
        self.maxServerRetryAfter = maxServerRetryAfter
        self.waitOnPrimaryLimit = waitOnPrimaryLimit
        self.attemptTimeout = attemptTimeout
        self.maximumWait = maximumWait
        self.writeSpacing = writeSpacing
    }

    package static let standard = RetryPolicy()
}

/// Why the client is about to wait before trying a request again.
package enum RetryReason: Sendable, Equatable {
    case transport(TransportError)
    case status(Int)
    case secondaryRateLimit
    /// The primary limit is spent and is waited out; `resetAt` is when it refills, nil when GitHub did not say
    /// (the wait is then a minute, as GitHub advises). `bucket` is GitHub's `x-ratelimit-resource` (`search`,
    /// `core`), when it named one in plain lowercase words.
    case primaryRateLimit(resetAt: Date?, bucket: String? = nil)
    /// GitHub answered a list 202 Accepted: it is still computing it, and the list is asked for again.
    case computing
    /// A GraphQL list's page ran out of time (GitHub's 200 form of it, `GraphQLTimeout`), and is asked again.
    case queryTimedOut
}

/// In words, for the `--verbose` line that announces a retry.
extension RetryReason: CustomStringConvertible {
    package var description: String {
        switch self {
        case .transport(let error): return error.description
        case .status(let status): return "HTTP \(status)"
        case .secondaryRateLimit: return "secondary rate limit"
        case .primaryRateLimit: return "rate limit spent"
        case .computing: return "HTTP 202, still computing"
        case .queryTimedOut: return "GraphQL query ran out of time"
        }
    }
}

/// What to do with one attempt's outcome.
package enum RetryDecision: Sendable, Equatable {
    /// Hand the outcome to the caller (a success, or a failure that retrying will not fix).
    case deliver
    case retry(after: Duration, reason: RetryReason)
}

/// The pure decision of whether and when to retry, so the schedule can be tested without sleeping:
/// - a transient transport failure (refused, an unreachable proxy, a timeout, a lost connection, a cut-off
///   body) or a 500, 502, 503 or 504: retried after a random share of min(8 s, 0.25 s × 2^n), for an
///   idempotent method (or a POST that only reads), and a connection never made (refused, unreachable) for any
///   method, at most `maxRetries` times; a 5xx's `Retry-After`, up to 60 s, stretches the wait;
/// - a secondary limit (429, or 403 with `Retry-After` or GitHub's secondary-limit or abuse-detection message):
///   retried after `Retry-After` (at least a second), or 60 s, doubled for each earlier secondary-limit retry of
///   the request up to `maximumWait`, counting against `maxRetries`;
/// - a spent primary limit (403 or 429 with `x-ratelimit-remaining: 0`): delivered (Data makes it
///   `rateLimited`, exit 5), or with `waitOnPrimaryLimit` retried a second after the reset (60 s when none
///   came), not counting against `maxRetries` (the client caps these waits at 10);
/// - anything else is delivered. No wait longer than `maximumWait` (`--max-wait`) is started: the answer is
///   delivered instead. A write's retry waits at least `writeSpacing`.
package struct RetrySchedule: Sendable {
    package let policy: RetryPolicy

    package init(policy: RetryPolicy) {
        self.policy = policy
    }

    /// `retriesUsed` counts earlier transient and secondary-limit retries of this request, `secondaryRetries`
    /// the secondary-limit ones alone; `random` is in [0, 1). `repeatableQuery` (`HTTPRequest.repeatableQuery`)
    /// retries a POST that only reads.
    package func decide(
        _ outcome: Result<HTTPResponse, TransportError>,
        method: HTTPMethod,
        retriesUsed: Int,
        secondaryRetries: Int = 0,
        random: Double,
        now: Date,
        repeatableQuery: QueryRepeat = .never
    ) -> RetryDecision {
        let decision = decideWait(
            outcome, method: method, retriesUsed: retriesUsed, secondaryRetries: secondaryRetries, random: random,
            now: now, repeatableQuery: repeatableQuery)
        guard method.isWrite, case .retry(let delay, let reason) = decision else { return decision }
        return .retry(after: max(delay, policy.writeSpacing), reason: reason)
    }

    private func decideWait(
        _ outcome: Result<HTTPResponse, TransportError>,
        method: HTTPMethod,
        retriesUsed: Int,
        secondaryRetries: Int,
        random: Double,
        now: Date,
        repeatableQuery: QueryRepeat
    ) -> RetryDecision {
        let repeatable = method.isIdempotent || repeatableQuery != .never
        switch outcome {
        case .failure(let error):
            // A connection never made sent nothing, so even a write that is never sent twice may be sent again.
            // (libcurl resends a request whose kept-alive connection closed unanswered on a new one, and a refusal
            // there reads so too; the one PATCH, `me edit`'s, is its run's first request: no connection is reused.)
            guard repeatable || !error.mayHaveReachedServer, error.isTransient, retriesUsed < policy.maxRetries
            else { return .deliver }
            return .retry(after: backoff(retriesUsed: retriesUsed, random: random), reason: .transport(error))
        case .success(let response):
            // A query that ran out of time is asked again smaller, by the caller, not again as it was.
            if repeatableQuery == .smallerOnTimeout, !method.isIdempotent, [502, 504].contains(response.status) {
                return .deliver
            }
            // A list's page cannot be asked smaller: its timeout in GitHub's 200 form is retried as its 504 is.
            if repeatableQuery == .asIs, response.status == 200, retriesUsed < policy.maxRetries,
                GraphQLTimeout.isTimeoutAnswer(response.body)
            {
                return .retry(after: backoff(retriesUsed: retriesUsed, random: random), reason: .queryTimedOut)
            }
            return decide(
                response, repeatable: repeatable, retriesUsed: retriesUsed, secondaryRetries: secondaryRetries,
                random: random, now: now)
        }
    }

    private func decide(
        _ response: HTTPResponse,
        repeatable: Bool,
        retriesUsed: Int,
        secondaryRetries: Int,
        random: Double,
        now: Date
    ) -> RetryDecision {
        let limit = RateLimitInfo(response, now: now)
        if limit.isPrimaryLimitSpent(status: response.status) {
            // Waiting for a reset is not a retry storm: it does not spend the retry budget.
            return policy.waitOnPrimaryLimit ? spentLimitWait(response, limit: limit, now: now) : .deliver
        }
        guard repeatable, retriesUsed < policy.maxRetries else { return .deliver }
        if limit.isSecondaryLimit(status: response.status, body: response.body) {
            let given: Duration
            switch limit.retryAfter {
            case .valid(let retryAfter): given = retryAfter
            case .absent: given = policy.secondaryLimitWait
            // Not a wait anyone can take: Data reports the malformed header.
            case .malformed: return .deliver
            }
            // --max-wait bounds every wait, --wait-on-rate-limit or not: a limit that asks for longer is reported.
            if given > policy.maximumWait { return .deliver }
            // GitHub: "If your request continues to fail due to a secondary rate limit, wait for an exponentially
            // increasing amount of time between retries." Each secondary-limit retry of the request doubles the
            // wait, from at least a second (`Retry-After: 0` again and again sent 11 requests in 0.4 s:
            // helper-297), up to --max-wait: a doubling past it is waited at it, since GitHub asked for less.
            let wait = min(max(given, .seconds(1)) * (1 << min(secondaryRetries, 20)), policy.maximumWait)
            return .retry(after: wait, reason: .secondaryRateLimit)
        }
        if [500, 502, 503, 504].contains(response.status) {
            var delay = backoff(retriesUsed: retriesUsed, random: random)
            // On a 5xx `Retry-After` is only a hint that stretches the backoff; a malformed one is ignored.
            if let retryAfter = limit.retryAfter.value,
                retryAfter <= min(policy.maxServerRetryAfter, policy.maximumWait)
            {
                delay = max(delay, retryAfter)
            }
            return .retry(after: delay, reason: .status(response.status))
        }
        return .deliver
    }

    /// How long to sit out the spent primary limit `response` reports: until the reset and a second, or
    /// `secondaryLimitWait` (GitHub's minute) when GitHub did not say when or named a reset past by more than
    /// `resetGrace` (this clock is ahead of GitHub's: asking again each second would be asking while limited,
    /// which GitHub's docs warn may get an integration banned). `deliver` when the answer is no spent limit, its
    /// reset is malformed (for Data to report), or the wait is longer than `maximumWait`.
    package func spentLimitWait(_ response: HTTPResponse, now: Date) -> RetryDecision {
        let limit = RateLimitInfo(response, now: now)
        guard limit.isPrimaryLimitSpent(status: response.status) else { return .deliver }
        return spentLimitWait(response, limit: limit, now: now)
    }

    private func spentLimitWait(_ response: HTTPResponse, limit: RateLimitInfo, now: Date) -> RetryDecision {
        if case .malformed = limit.reset { return .deliver }
        let wait = Self.primaryLimitWait(resetAt: limit.reset.value, now: now, minute: policy.secondaryLimitWait)
        // --max-wait bounds every wait: a longer one is not started, and the caller reports when to retry.
        if wait > policy.maximumWait { return .deliver }
        return .retry(
            after: wait, reason: .primaryRateLimit(resetAt: limit.reset.value, bucket: Self.bucket(of: response)))
    }

    /// How far behind this clock a reset may be and still be GitHub's whole second and the answer's way here,
    /// waited out by a second: further behind is a clock ahead of GitHub's, waited out by a minute. Without it,
    /// a reset a second away that passed while the answer was read (a loaded machine) was a minute's wait.
    package static let resetGrace: TimeInterval = 2

    /// How long the client sits out a spent primary limit that resets at `resetAt`: to the reset and a second, or
    /// `minute` (GitHub's) where it named none or one past by more than `resetGrace`. One rule for the retry
    /// schedule, GraphQL's waits and the words that say what was waited.
    package static func primaryLimitWait(resetAt: Date?, now: Date, minute: Duration) -> Duration {
        // Bounded: the parser refuses resets past the year 9999, so this cannot overflow.
        guard let resetAt, resetAt.timeIntervalSince(now) > -resetGrace else { return minute }
        return .milliseconds(Int64((max(0, resetAt.timeIntervalSince(now)) + 1) * 1000))
    }

    /// The rate-limit bucket GitHub says the answer counted against; nil when absent, or not a short lowercase
    /// name, so no server text reaches stderr unchecked.
    static func bucket(of response: HTTPResponse) -> String? {
        guard let name = response.headers["x-ratelimit-resource"], (1...40).contains(name.count),
            name.allSatisfy({ ("a"..."z").contains($0) || $0 == "_" })
        else { return nil }
        return name
    }

    /// Full jitter: a random share of min(maxDelay, baseDelay × 2^retriesUsed).
    package func backoff(retriesUsed: Int, random: Double) -> Duration {
        let ceiling = min(policy.maxDelay, policy.baseDelay * (1 << min(retriesUsed, 30)))
        let fraction = min(max(random, 0), 1)
        return ceiling * fraction
    }
}

/// GitHub's rate-limit signals in one response, each parsed with bounds (`HeaderValue`). The one home of the
/// rules "the primary limit is spent" and "this is a secondary limit", which the retry schedule and Data's
/// error mapping both ask.
package struct RateLimitInfo: Sendable, Equatable {
    package let remaining: HeaderField<Int64>
    package let reset: HeaderField<Date>
    /// How long `Retry-After` asks to wait, counted from the `now` it was read at.
    package let retryAfter: HeaderField<Duration>
    /// When `Retry-After` says to come back: `now` plus the wait.
    package let retryAt: HeaderField<Date>

    /// `reset` and a `Retry-After` date are GitHub's times: where the answer's `Date` shows GitHub's clock more
    /// than `RetrySchedule.resetGrace` from `now`, they are moved by the difference, so a wait is as long as
    /// GitHub means on a clock behind or ahead of it (20 minutes behind made a reset 2 s away "in 20m 2s",
    /// refused past `--max-wait`), and `reset` is a time on this clock.
    package init(_ response: HTTPResponse, now: Date) {
        let gitHubNow = response.headers["date"].flatMap { HTTPDate.parse($0, now: now) }
        let local = { (time: Date) in Self.onThisClock(time, gitHubNow: gitHubNow, now: now) }
        remaining = HeaderValue.count(response.headers["x-ratelimit-remaining"], name: "x-ratelimit-remaining")
        switch HeaderValue.epochTime(response.headers["x-ratelimit-reset"], name: "x-ratelimit-reset") {
        case .valid(let time): reset = .valid(local(time))
        case let other: reset = other
        }
        // A date's wait is measured from GitHub's clock where its time is moved onto this one.
        let retryDate = response.headers["retry-after"].flatMap { HTTPDate.parse($0, now: now) }
        retryAfter = HeaderValue.retryAfter(
            response.headers["retry-after"], now: retryDate.map { now - local($0).timeIntervalSince($0) } ?? now)
        switch retryAfter {
        case .absent: retryAt = .absent
        case .malformed(let reason): retryAt = .malformed(reason)
        case .valid(let wait): retryAt = .valid(now.addingTimeInterval(wait.inSeconds))
        }
    }

    /// A time GitHub gave (a reset, a `Retry-After` date) as a time of this clock: moved by how far `now` is from
    /// GitHub's clock when it answered (`gitHubNow`, its `Date`), where that is more than
    /// `RetrySchedule.resetGrace` (the answer's way here) and the time lies within GitHub's hour of its own clock
    /// (a `Date` of 1970 or 9999 is no clock to go by), or passed by its own clock within a day: read as sent, a
    /// reset GitHub says has passed was hours away on a clock behind GitHub's (helper-319: "in 1h 59m", exit 5,
    /// where GitHub advises a minute). The waits' rule, and `rate-limit`'s table's.
    package static func onThisClock(_ time: Date, gitHubNow: Date?, now: Date) -> Date {
        let grace = RetrySchedule.resetGrace
        guard let gitHubNow, abs(now.timeIntervalSince(gitHubNow)) > grace,
            (-86_400...(3_600 + grace)).contains(time.timeIntervalSince(gitHubNow))
        else { return time }
        return time.addingTimeInterval(now.timeIntervalSince(gitHubNow))
    }

    /// 403 or 429 with `x-ratelimit-remaining: 0`.
    package func isPrimaryLimitSpent(status: Int) -> Bool {
        (status == 403 || status == 429) && remaining == .valid(0)
    }

    /// A 429, or a 403 that carries `Retry-After` or GitHub's secondary-rate-limit message, in its words since
    /// 2021 or before ("You have triggered an abuse detection mechanism", often with a blank `Retry-After`:
    /// octokit/plugin-throttling.js treats it as this limit; inaka/erlang-github#27 and hub4j/github-api#289
    /// recorded it). It was an authentication failure, exit 4, not waited (helper-297).
    /// GraphQL's is "200 or 403" (GitHub's "Rate limits and node limits for the GraphQL API"): a 200 whose body
    /// is errors alone, one of them in those words (it was "GitHub answered HTTP 200", exit 1, or for profiles
    /// a REST request per account while limited; helper-297).
    package func isSecondaryLimit(status: Int, body: Foundation.Data) -> Bool {
        if status == 429 { return true }
        if status == 200 {
            return GraphQLTimeout.errorsOnlyMessages(body)?.contains(where: Self.namesTheSecondaryLimit) ?? false
        }
        guard status == 403 else { return false }
        if retryAfter != .absent { return true }
        return Self.namesTheSecondaryLimit(String(decoding: body.prefix(2048), as: UTF8.self))
    }

    /// GitHub's words for the secondary limit, today's and before 2021's.
    package static func namesTheSecondaryLimit(_ message: String) -> Bool {
        let text = message.lowercased()
        return text.contains("secondary rate limit") || text.contains("abuse detection")
    }
}

extension HTTPMethod {
    /// Retrying these cannot repeat a side effect.
    package var isIdempotent: Bool {
        switch self {
        case .get, .head, .put, .delete: return true
        case .post, .patch: return false
        }
    }

    /// A change to an account (follow, unfollow): sent at least `writeSpacing` apart, and never re-sent to
    /// another URL on a redirect. POST here is GraphQL's query, a read.
    package var isWrite: Bool {
        switch self {
        case .put, .delete, .patch: return true
        case .get, .head, .post: return false
        }
    }
}

extension TransportError {
    /// No whole answer came: no connection, a timeout, a dropped or short answer. Another attempt may get
    /// one, so these are retried, and after the retries a cached copy is better than nothing. Everything else
    /// is an answer in its own right (a certificate that fails its check, a body over the cap), which neither
    /// a retry nor the cache may paper over.
    /// The request may have reached the server before the answer was lost (a timeout, a dropped connection, a
    /// short body): a write may have been made. A connection never made sent nothing.
    package var mayHaveReachedServer: Bool {
        switch self {
        case .timedOut, .connectionLost, .truncatedBody: return true
        default: return false
        }
    }

    package var isTransient: Bool {
        switch self {
        // An unreachable proxy is as passing as an unreachable server; a proxy that refuses the tunnel has
        // answered, by its policy.
        case .cannotConnect, .proxyUnreachable, .timedOut, .connectionLost, .truncatedBody: return true
        case .cancelled, .proxyRefused, .proxyUnusable, .tls, .responseTooLarge, .malformedHeaders, .redirectRefused,
            .redirectToAnotherOrigin, .other:
            return false
        }
    }
}
