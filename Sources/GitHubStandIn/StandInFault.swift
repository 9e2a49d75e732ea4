/// A misbehaviour the server performs instead of its normal answer, queued per path with `injectFaults`.
package enum StandInFault: Sendable {
    /// Any status with a literal body; `headers` replace same-named defaults (case-insensitively) or add new ones.
    case status(Int, body: String, headers: [String: String] = [:])
    /// 403 with `x-ratelimit-remaining: 0`, `x-ratelimit-reset` `resetAfterSeconds` from now and GitHub's
    /// "API rate limit exceeded" message.
    case primaryRateLimitExhausted(resetAfterSeconds: Int)
    /// GraphQL's spent limit in the configured `graphQLRateLimitForm` (status 200 with a `RATE_LIMIT` error and no
    /// `data`, by default), `x-ratelimit-remaining: 0` and `x-ratelimit-reset` `resetAfterSeconds` from now.
    case graphQLRateLimited(resetAfterSeconds: Int)
    /// 403 with GitHub's secondary-limit message, plus `Retry-After` when given.
    case secondaryRateLimit(retryAfterSeconds: Int?)
    /// 200 whose body is cut-off JSON (`[{"login": "broken",`) but whose framing is correct.
    case malformedBody
    /// Declares the full Content-Length of the normal answer, sends only part of the body, then closes.
    case truncatedBody
    /// Reads the request, sends nothing for `seconds`, then closes.
    case hang(seconds: Double)
    /// Closes the connection as soon as the request has been read.
    case closeWithoutResponse
    /// Redirect to an absolute URL via `Location`.
    case redirect(to: String, status: Int = 301)
    /// Serves the normal answer (rate limit, ETag and all); it only takes a queue slot, so a later fault in the same
    /// queue can target the second or third matching request.
    case passThrough
}

/// Why a stand-in server could not be configured or start listening.
package enum StandInServerError: Error, Equatable, CustomStringConvertible {
    /// A negative count, limit or latency, a search window under a second, or a port outside 0...65535.
    case invalidConfiguration
    case socketFailure(operation: String, errno: Int32)

    package var description: String {
        switch self {
        case .invalidConfiguration: "invalid stand-in configuration"
        case .socketFailure(let operation, let code): "\(operation) failed with errno \(code)"
        }
    }
}
