import Foundation

/// Every failure the presentation layer can meet. The executable maps each case to a message and an exit
/// status in one place; nothing above Data ever sees an HTTP or transport type.
///
/// A failure that GitHub answered carries the answer's `x-github-request-id` (`requestID`), which GitHub
/// Support asks for; nil when the answer had none, or when no answer came.
package enum DomainError: Error, Sendable, Equatable {
    /// A login, id or other input that cannot be sent (exit 64).
    case invalidInput(String)
    /// The resource does not exist: REST's 404, or with `byGraphQL` GraphQL's null or `NOT_FOUND` (an answer of
    /// 200, which a message must not call a 404).
    case notFound(resource: String, requestID: String? = nil, byGraphQL: Bool = false)
    /// A missing, bad or insufficient token (401, a 403 that is not a rate limit or a repository's block, or a
    /// GraphQL answer whose errors refuse the token); `problem` is what the answer said about the token's scopes or
    /// single sign-on, if anything.
    case unauthorized(status: Int, message: String, problem: AccessProblem = .unstated, requestID: String? = nil)
    /// The command (`me`, `show --via graphql`: the message adds the program's name) needs a token and none
    /// was given; nothing was sent.
    case tokenRequired(command: String)
    /// The primary rate limit is spent; `resetAt` is when it refills, if GitHub said. `resource` is the bucket
    /// that is spent (`core`, `search`, `graphql`), `DomainError.secondaryLimit` for a secondary limit (which no
    /// token lifts), nil when GitHub did not say.
    case rateLimited(resetAt: Date?, message: String, resource: String? = nil, requestID: String? = nil)
    /// No answer: connection refused, DNS, timeout, connection lost; or an answer that is never read, a
    /// redirect to another server, which names its `requestID`. `advice` is what to check next, which the
    /// executable words in the terms of its command line.
    case network(String, advice: [NetworkAdvice] = [], requestID: String? = nil)
    /// GitHub answered with an error status that is none of the above.
    case server(status: Int, message: String, requestID: String? = nil)
    /// GitHub answered 2xx with a body that is not what the endpoint documents.
    case malformedResponse(endpoint: String, detail: String, requestID: String? = nil)
    /// `--offline` was asked for and the answer is not in the cache; `everCached` is false for what never goes
    /// into it (a write, a GraphQL query, `/rate_limit`, which is always asked live), `damaged` true when its
    /// entry is there but does not read (cut short, a byte changed, another format, larger than the cache writes).
    case notCached(resource: String, everCached: Bool = true, damaged: Bool = false)
    /// The cache could not be read or changed (`cache info`, `cache clear`); `remedy` is the way out, if any.
    case cacheUnavailable(String, remedy: CacheRemedy? = nil)
    /// The server refused the same work again and again, however small it was made (GraphQL batches refused
    /// in a row), or the work cannot be done for what it names (the contributions of an organization); the
    /// text says what was refused and what to do (exit 1).
    case refused(String)
    /// The work was cancelled (an interrupt).
    case cancelled
    /// The GraphQL API refused `batches` profile batches in a row, the last one of `accounts` accounts, for
    /// `reason`, however small they were made (exit 1).
    case graphQLBatchesRefused(batches: Int, accounts: Int, reason: String)
    /// The run stopped at one of its own bounds (a split search's query cap, a set operation's list bound);
    /// the text says which and why (exit 1).
    case boundReached(String)
}

/// What to check after a failure with no answer. Data says which applies; the executable says it in the terms
/// of its command line (the option or variable that sets what is to be checked).
package enum NetworkAdvice: Sendable, Equatable {
    /// The API root the run used (`apiRoot`) and the network; `timedOut` when an attempt ran out of time.
    case checkAPIRoot(URL, timedOut: Bool)
    /// The host a certificate was checked against: a proxy that inspects TLS must issue certificates for it.
    case checkHostName
    /// A copy of `endpoint`'s answer is in the cache, and the run may be made again from the cache alone.
    case cachedCopy(endpoint: String)
    /// A write (`method`) may have reached GitHub before its answer was lost; `check` is the command that
    /// shows whether it did, when there is one.
    case writeMayHaveArrived(method: String, check: String?)
}

/// The way out of a cache that is not fit to use, which the executable words.
package enum CacheRemedy: Sendable, Equatable {
    /// A folder that is not safe: remove it by hand, or use another folder.
    case removeOrMove
    /// A folder that is not a cache of this version: `cache clear` marks it again, or use another folder.
    case clearOrMove
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
    /// A 401 for a token whose expiry date (`github-authentication-token-expiration`) had passed.
    case expired(at: Date)
    /// Not the token's fault: since July 2026 GitHub lists a repository's stargazers and watchers only to its
    /// admins and collaborators (`repository`, as OWNER/REPO), whatever the token; `list` is which ("stargazers",
    /// "watchers").
    case withheld(repository: String, list: String)
    /// A team's 404 though its organization exists: GitHub tells a team that is not there from a secret one the
    /// token's account is not in to neither; `scope` is what listing it needs. `byGraphQL`: GraphQL's `NOT_FOUND`
    /// said so (`team-members --direct`), not a 404.
    case unseenTeam(TeamName, scope: String?, byGraphQL: Bool = false)
    /// A 404 under an owner that exists, to a token whose answer shows a scope GitHub accepts for the list: not
    /// its scopes, but its account's role or access.
    case hidden

    /// A token past its expiry date: it failed authentication, as a 401 did.
    package var isExpiry: Bool {
        if case .expired = self { true } else { false }
    }
}

extension DomainError {
    /// The `resource` of a secondary rate limit: GitHub's limit on requests at once or per minute, not a bucket
    /// a token enlarges.
    package static let secondaryLimit = "secondary"
    /// The `resource` of a secondary rate limit met by a write that is never sent twice (`PATCH /user`): no
    /// retry waited it out.
    package static let secondaryLimitOnceOnly = "secondary, once only"
    /// What a server error's `message` says of a write never sent twice that a gateway's 5xx may hide: to check,
    /// not to send it again at once.
    package static let mayHaveLanded = "may have reached GitHub all the same"
    /// How the `detail` of a malformed answer begins when the answer was a web page (the API URL is a web
    /// server's): no later request to the same URL can do better, so a run of writes stops at it.
    package static let webPageDetail = "the server answered a web page"

    /// GitHub refused the token itself (401 `Bad credentials`): every later request with it is refused alike, and
    /// GitHub answers an account that keeps sending bad credentials 403 "Maximum number of login attempts
    /// exceeded" for a while (octokit.rb's `TooManyLoginAttempts`), so a run of lookups stops at it. A 403 for
    /// single sign-on is one organization's, which the token may still be authorized for: not this.
    package var refusesToken: Bool {
        guard case .unauthorized(401, _, _, _) = self else { return false }
        return true
    }

    /// Whether this is the answer of a web page in place of GitHub's API (`webPageDetail`).
    package var isWebPage: Bool {
        if case .malformedResponse(_, let detail, _) = self { return detail.hasPrefix(Self.webPageDetail) }
        return false
    }

    /// The `x-github-request-id` of the answer this failure came from.
    package var requestID: String? {
        switch self {
        case .notFound(_, let id, _), .unauthorized(_, _, _, let id), .rateLimited(_, _, _, let id),
            .server(_, _, let id),
            .malformedResponse(_, _, let id), .network(_, _, let id):
            return id
        case .invalidInput, .tokenRequired, .notCached, .cacheUnavailable, .refused, .graphQLBatchesRefused,
            .boundReached, .cancelled:
            return nil
        }
    }

    /// The same failure, naming the answer it came from; a failure that already names one, or that no answer
    /// causes, is left as it is.
    package func answered(requestID: String?) -> DomainError {
        guard let requestID, self.requestID == nil else { return self }
        switch self {
        case .notFound(let resource, _, let graphQL):
            return .notFound(resource: resource, requestID: requestID, byGraphQL: graphQL)
        case .unauthorized(let status, let message, let problem, _):
            return .unauthorized(status: status, message: message, problem: problem, requestID: requestID)
        case .rateLimited(let resetAt, let message, let resource, _):
            return .rateLimited(resetAt: resetAt, message: message, resource: resource, requestID: requestID)
        case .server(let status, let message, _): return .server(status: status, message: message, requestID: requestID)
        case .malformedResponse(let endpoint, let detail, _):
            return .malformedResponse(endpoint: endpoint, detail: detail, requestID: requestID)
        case .invalidInput, .tokenRequired, .network, .notCached, .cacheUnavailable, .refused,
            .graphQLBatchesRefused, .boundReached, .cancelled:
            return self
        }
    }
}
