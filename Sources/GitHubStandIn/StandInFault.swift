/// A misbehaviour the server performs instead of its normal answer, queued per path with `injectFaults`.
package enum StandInFault: Sendable {
    /// `headers` replace same-named defaults or add new ones.
    case status(Int, body: String, headers: [String: String] = [:])
    case primaryRateLimitExhausted(resetAfterSeconds: Int)
    /// GraphQL's spent limit in the configured `graphQLRateLimitForm`.
    case graphQLRateLimited(resetAfterSeconds: Int)
    case secondaryRateLimit(retryAfterSeconds: Int?)
    /// 200 whose body is cut-off JSON but whose framing is correct.
    case malformedBody
    /// Declares the normal answer's full Content-Length, sends part of it, then closes.
    case truncatedBody
    case hang(seconds: Double)
    case closeWithoutResponse
    case redirect(to: String, status: Int = 301)
    /// The normal answer; it takes a queue slot, so a later fault can target the second matching request.
    case passThrough
}

package enum StandInServerError: Error, Equatable, CustomStringConvertible {
    case invalidConfiguration
    case socketFailure(operation: String, errno: Int32)

    package var description: String {
        switch self {
        case .invalidConfiguration: "invalid stand-in configuration"
        case .socketFailure(let operation, let code): "\(operation) failed with errno \(code)"
        }
    }
}
