import Foundation

/// Every failure the presentation layer can meet. The executable maps each case to a message and an exit
/// status in one place; nothing above Data ever sees an HTTP or transport type.
package enum DomainError: Error, Sendable, Equatable {
    /// A login, id or other input that cannot be sent (exit 64).
    case invalidInput(String)
    /// The resource does not exist (HTTP 404).
    case notFound(resource: String)
    /// A missing, bad or insufficient token (401, or a 403 that is not a rate limit).
    case unauthorized(status: Int, message: String)
    /// The command reads the token's own account (`gh-users me`) and no token was given; nothing was sent.
    case tokenRequired(command: String)
    /// The primary rate limit is spent; `resetAt` is when it refills, if GitHub said.
    case rateLimited(resetAt: Date?, message: String)
    /// No answer: connection refused, DNS, timeout, connection lost.
    case network(String)
    /// GitHub answered with an error status that is none of the above.
    case server(status: Int, message: String)
    /// GitHub answered 2xx with a body that is not what the endpoint documents.
    case malformedResponse(endpoint: String, detail: String)
    /// `--offline` was asked for and the answer is not in the cache.
    case notCached(resource: String)
    /// The cache could not be read or changed (`cache info`, `cache clear`).
    case cacheUnavailable(String)
    /// The work was cancelled (an interrupt).
    case cancelled
    /// The run stopped at one of its own bounds (a split search's query cap, a set operation's list bound);
    /// the text says which and why (exit 1).
    case boundReached(String)
}
