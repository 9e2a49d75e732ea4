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
    /// What to wait on a secondary rate limit that gives no `Retry-After` (GitHub says: at least a minute).
    package var secondaryLimitWait: Duration
    /// The longest `Retry-After` honoured on a 5xx; longer ones fall back to backoff.
    package var maxServerRetryAfter: Duration
    /// Sleep until the primary rate limit resets instead of failing (`--wait-on-rate-limit`). It also lets the
    /// client sit out a `Retry-After` longer than `maximumWait`.
    package var waitOnPrimaryLimit: Bool
    /// One attempt's deadline, enforced by cancelling the attempt (URLSession rounds its own timeout down).
    package var attemptTimeout: Duration
    /// The longest rate-limit wait taken without `--wait-on-rate-limit` (`--max-wait`). A secondary limit
    /// asking for more is given back to the caller, which reports it like a spent primary limit: exit 5 and
    /// the time to come back, instead of a silent wait of hours.
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
    /// The primary limit is spent and `--wait-on-rate-limit` was given; `resetAt` is when it refills.
    case primaryRateLimit(resetAt: Date)
}

/// In words, for the `--verbose` line that announces a retry.
extension RetryReason: CustomStringConvertible {
    package var description: String {
        switch self {
        case .transport(let error): return error.description
        case .status(let status): return "HTTP \(status)"
        case .secondaryRateLimit: return "secondary rate limit"
        case .primaryRateLimit: return "rate limit spent"
        }
    }
}

/// What to do with one attempt's outcome.
package enum RetryDecision: Sendable, Equatable {
    /// Hand the outcome to the caller (a success, or a failure that retrying will not fix).
    case deliver
    case retry(after: Duration, reason: RetryReason)
}

/// The pure decision of whether and when to retry, so the schedule can be tested without sleeping.
package struct RetrySchedule: Sendable {
    package let policy: RetryPolicy

    package init(policy: RetryPolicy) {
        self.policy = policy
    }

    /// `retriesUsed` counts earlier transient and secondary-limit retries of this request; `random` is in [0, 1).
    /// `waitsOutSpentLimit` (the request's own) waits out a spent limit up to `maximumWait`.
    package func decide(
        _ outcome: Result<HTTPResponse, TransportError>,
        method: HTTPMethod,
        retriesUsed: Int,
        random: Double,
        now: Date,
        waitsOutSpentLimit: Bool = false
    ) -> RetryDecision {
        let decision = decideWait(
            outcome, method: method, retriesUsed: retriesUsed, random: random, now: now,
            waitsOutSpentLimit: waitsOutSpentLimit)
        guard method.isWrite, case .retry(let delay, let reason) = decision else { return decision }
        return .retry(after: max(delay, policy.writeSpacing), reason: reason)
    }

    private func decideWait(
        _ outcome: Result<HTTPResponse, TransportError>,
        method: HTTPMethod,
        retriesUsed: Int,
        random: Double,
        now: Date,
        waitsOutSpentLimit: Bool
    ) -> RetryDecision {
        switch outcome {
        case .failure(let error):
            guard method.isIdempotent, error.isTransient, retriesUsed < policy.maxRetries else { return .deliver }
            return .retry(after: backoff(retriesUsed: retriesUsed, random: random), reason: .transport(error))
        case .success(let response):
            return decide(
                response, method: method, retriesUsed: retriesUsed, random: random, now: now,
                waitsOutSpentLimit: waitsOutSpentLimit)
        }
    }

    private func decide(
        _ response: HTTPResponse,
        method: HTTPMethod,
        retriesUsed: Int,
        random: Double,
        now: Date,
        waitsOutSpentLimit: Bool
    ) -> RetryDecision {
        let limit = RateLimitInfo(response, now: now)
        if limit.isPrimaryLimitSpent(status: response.status) {
            // Waiting for a reset is not a retry storm: it does not spend the retry budget. A reset that is
            // missing or malformed is delivered, for Data to report.
            guard policy.waitOnPrimaryLimit || waitsOutSpentLimit, let reset = limit.reset.value else {
                return .deliver
            }
            // Bounded: the parser refuses resets past the year 9999, so this cannot overflow.
            let wait = Duration.milliseconds(Int64((max(0, reset.timeIntervalSince(now)) + 1) * 1000))
            // Without --wait-on-rate-limit, only as long as --max-wait allows.
            if !policy.waitOnPrimaryLimit, wait > policy.maximumWait { return .deliver }
            return .retry(after: wait, reason: .primaryRateLimit(resetAt: reset))
        }
        guard method.isIdempotent, retriesUsed < policy.maxRetries else { return .deliver }
        if limit.isSecondaryLimit(status: response.status, body: response.body) {
            let wait: Duration
            switch limit.retryAfter {
            case .valid(let retryAfter): wait = retryAfter
            case .absent: wait = policy.secondaryLimitWait
            // Not a wait anyone can take: Data reports the malformed header.
            case .malformed: return .deliver
            }
            // Hours of silent waiting are not what anyone expects without asking for them.
            if wait > policy.maximumWait, !policy.waitOnPrimaryLimit { return .deliver }
            return .retry(after: wait, reason: .secondaryRateLimit)
        }
        if [500, 502, 503, 504].contains(response.status) {
            var delay = backoff(retriesUsed: retriesUsed, random: random)
            // On a 5xx `Retry-After` is only a hint that stretches the backoff; a malformed one is ignored.
            if let retryAfter = limit.retryAfter.value, retryAfter <= policy.maxServerRetryAfter {
                delay = max(delay, retryAfter)
            }
            return .retry(after: delay, reason: .status(response.status))
        }
        return .deliver
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

    package init(_ response: HTTPResponse, now: Date) {
        remaining = HeaderValue.count(response.headers["x-ratelimit-remaining"], name: "x-ratelimit-remaining")
        reset = HeaderValue.epochTime(response.headers["x-ratelimit-reset"], name: "x-ratelimit-reset")
        retryAfter = HeaderValue.retryAfter(response.headers["retry-after"], now: now)
        switch retryAfter {
        case .absent: retryAt = .absent
        case .malformed(let reason): retryAt = .malformed(reason)
        case .valid(let wait): retryAt = .valid(now.addingTimeInterval(wait.inSeconds))
        }
    }

    /// 403 or 429 with `x-ratelimit-remaining: 0`.
    package func isPrimaryLimitSpent(status: Int) -> Bool {
        (status == 403 || status == 429) && remaining == .valid(0)
    }

    /// A 429, or a 403 that carries `Retry-After` or GitHub's secondary-rate-limit message.
    package func isSecondaryLimit(status: Int, body: Foundation.Data) -> Bool {
        if status == 429 { return true }
        guard status == 403 else { return false }
        if retryAfter != .absent { return true }
        let text = String(decoding: body.prefix(2048), as: UTF8.self).lowercased()
        return text.contains("secondary rate limit")
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
    package var isTransient: Bool {
        switch self {
        // An unreachable proxy is as passing as an unreachable server; a proxy that refuses the tunnel has
        // answered, by its policy.
        case .cannotConnect, .proxyUnreachable, .timedOut, .connectionLost, .truncatedBody: return true
        case .cancelled, .proxyRefused, .tls, .responseTooLarge, .redirectRefused, .other: return false
        }
    }
}
