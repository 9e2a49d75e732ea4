import Foundation

/// Every failure the presentation layer can meet. The executable maps each case to a message and an exit
/// status in one place; nothing above Data ever sees an HTTP or transport type.
package enum DomainError: Error, Sendable, Equatable {
    /// A login, id or other input that cannot be sent (exit 64).
    case invalidInput(String)
    /// The resource does not exist (HTTP 404).
    case notFound(resource: String)
    /// A missing, bad or insufficient token (401, or a 403 that is not a rate limit); `problem` is what the
    /// answer said about the token's scopes or single sign-on, if anything.
    case unauthorized(status: Int, message: String, problem: AccessProblem = .unstated)
    /// The command (`me`, `show --via graphql`: the message adds the program's name) needs a token and none
    /// was given; nothing was sent.
    case tokenRequired(command: String)
    /// The primary rate limit is spent; `resetAt` is when it refills, if GitHub said. `resource` is the bucket
    /// that is spent (`core`, `search`, `graphql`), nil for a secondary limit or when GitHub did not say.
    case rateLimited(resetAt: Date?, message: String, resource: String? = nil)
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
    /// The server refused the same work again and again, however small it was made (GraphQL batches refused
    /// in a row); the text says what was refused and what to do (exit 1).
    case refused(String)
    /// The work was cancelled (an interrupt).
    case cancelled
}

/// What a 403 said about the token itself. Most 403s say nothing of the kind (a request without a User-Agent,
/// an abuse block, "Resource not accessible by …"), and their message is then all there is to tell.
package enum AccessProblem: Sendable, Equatable {
    case unstated
    /// The token has none of the scopes the endpoint accepts (`accepted`, from `X-Accepted-OAuth-Scopes`), or
    /// GitHub's message says a scope is missing.
    case scope(accepted: String?)
    /// An organization's SAML single sign-on wants the token authorized (`X-GitHub-SSO`), at `url` if given.
    case singleSignOn(url: String?)
}
