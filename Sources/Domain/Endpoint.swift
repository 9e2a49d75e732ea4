/// One GitHub REST operation gh-users calls, as GitHub documents it: the single source of truth for its method,
/// path, query keys, media type, what it answers with, how it pages, the scope a token needs and which rate
/// limit it spends. The client builds requests from these rows and the stand-in serves from them; a test pins
/// every row's method and path to GitHub's own list of operations, so sharing them costs no independence.
package struct Endpoint: Sendable, Hashable, CustomStringConvertible {
    package enum Method: String, Sendable, Hashable, CaseIterable {
        case get = "GET"
        case post = "POST"
        case put = "PUT"
        case patch = "PATCH"
        case delete = "DELETE"

        /// Whether the request changes something on GitHub: never retried quickly, never redirected.
        package var isWrite: Bool { self != .get }
    }

    /// What a successful answer holds.
    package enum Shape: Sendable, Hashable {
        /// One account object (`GET /users/{username}`).
        case account
        /// An array of account objects (followers, `/users`).
        case accounts
        /// An array of objects read by key (keys, gists, events, repositories), each shaped as `Item` says.
        case records(Item)
        /// `{"total_count", "incomplete_results", "items": […]}`.
        case searchResults
        /// `GET /rate_limit`'s overview.
        case rateLimits
        /// `{"contexts": [{"message", "octicon"}]}`: what an account's hovercard says about it.
        case hovercard
        /// No body: the status is the answer (204 yes or done, 404 no).
        case status
        /// `[{"week", "total", "days"}]`, newest week first: the stars a repository gained a week, each week
        /// from its Sunday with a count for each of its seven days (`/stargazers/history`).
        case starWeeks
        /// One repository object (`GET /repos/{owner}/{repo}`).
        case repository
        /// One organization object (`GET /orgs/{org}`).
        case organization
        /// `{"count": N}`: how many there are now (`/stargazers/count`).
        case count
    }

    /// What each record of a `.records` list is, as GitHub shapes it: rows whose items are alike (an account's
    /// repositories and the ones it watches) are served by the stand-in from one record generator.
    package enum Item: String, Sendable, Hashable, CaseIterable {
        case repository
        /// `{"starred_at", "repo"}` in the star media type, else a repository.
        case starredRepository
        /// `{"starred_at", "user"}` in the star media type: who starred a repository, and when.
        case stargazer
        case publicKey
        case signingKey
        case gpgKey
        case socialAccount
        case organization
        case gist
        case event
        /// `{"email", "verified", "primary", "visibility"}`: one of the token's own addresses.
        case email
    }

    /// How a list is paged.
    package enum Paging: Sendable, Hashable {
        /// Not a list.
        case single
        /// `Link: rel="next"` URLs, to the end.
        case link
        /// `Link` URLs that carry `since=ID`, the last id seen: a crawl can resume from any id (`GET /users`).
        case since
        /// `Link` URLs, but GitHub serves at most this many items and answers 422 past them (events, search).
        case capped(at: Int)
    }

    /// Which of GitHub's rate limits a request spends, and so how a spent one is waited for.
    package enum RateLimit: String, Sendable, Hashable {
        /// The hourly core limit (60 without a token, 5,000 with one).
        case core
        /// The search limit: 10 a minute without a token, 30 with one. Its reset is never more than a minute
        /// away, so a run that asks many queries (a split search) waits it out instead of stopping.
        case search
        /// Costs nothing and is answered even when every limit is spent (`GET /rate_limit`).
        case free

        /// Whether a spent limit refills within a minute, so that a run asking many queries by design waits
        /// it out rather than stopping; the hourly core limit does not.
        package var refillsWithinAMinute: Bool { self == .search }
    }

    /// GitHub's operation id (`users/list-public-keys-for-user`), as its OpenAPI description names it.
    package let operationID: String
    package let method: Method
    /// The path template as GitHub documents it (`/users/{username}/keys`).
    package let path: String
    /// The query keys gh-users may send besides `per_page` and `page`, in the order they are sent.
    package let query: [String]
    /// The media type to ask for when GitHub's default (`application/vnd.github+json`) is not the one.
    package let mediaType: String?
    package let shape: Shape
    package let paging: Paging
    /// The OAuth scope the token needs (`user:follow`), named in the exit-4 hint; nil when none is needed.
    package let scope: String?
    /// Whether the operation needs a token at all: the authenticated user's own resources do.
    package let needsToken: Bool
    package let rateLimit: RateLimit
    /// GitHub's documentation page for the operation.
    package let docs: String

    package init(
        _ operationID: String,
        _ method: Method,
        _ path: String,
        query: [String] = [],
        mediaType: String? = nil,
        shape: Shape,
        paging: Paging = .single,
        scope: String? = nil,
        needsToken: Bool = false,
        rateLimit: RateLimit = .core,
        docs: String
    ) {
        self.operationID = operationID
        self.method = method
        self.path = path
        self.query = query
        self.mediaType = mediaType
        self.shape = shape
        self.paging = paging
        self.scope = scope
        self.needsToken = needsToken || scope != nil
        self.rateLimit = rateLimit
        self.docs = docs
    }

    /// `GET /users/{username}/keys`, as messages and tests name the row.
    package var description: String { method.rawValue + " " + path }

    /// The `{name}` placeholders of the path, in order (`["username", "target_user"]`).
    package var parameters: [String] {
        path.split(separator: "/").compactMap { piece in
            piece.hasPrefix("{") && piece.hasSuffix("}") ? String(piece.dropFirst().dropLast()) : nil
        }
    }

    /// The path with each placeholder replaced, in order, by a segment the caller has already percent-encoded.
    package func path(_ segments: String...) -> String {
        path(segments)
    }

    /// `path(_:)` for segments in an array.
    package func path(_ segments: [String]) -> String {
        precondition(segments.count == parameters.count, "\(self) takes \(parameters.count) path segments")
        var remaining = segments[...]
        return path.split(separator: "/", omittingEmptySubsequences: false).map { piece in
            guard piece.hasPrefix("{"), piece.hasSuffix("}"), let segment = remaining.popFirst() else {
                return String(piece)
            }
            return segment
        }.joined(separator: "/")
    }

    /// Whether a query key may be sent to this endpoint: its own keys, `per_page` on any list, and `page` on a
    /// list paged by page number (`GET /users` pages by `since` and documents no `page`).
    package func accepts(queryKey key: String) -> Bool {
        switch key {
        case "per_page": return query.contains(key) || paging != .single
        case "page": return query.contains(key) || (paging != .single && paging != .since)
        default: return query.contains(key)
        }
    }

    /// The most items GitHub serves of this list (300 events, 1,000 search results); nil when it serves all.
    package var itemCap: Int? {
        guard case .capped(let cap) = paging else { return nil }
        return cap
    }

    /// Whether an answer may be kept and revalidated: a read that costs a limit and has a body. `GET /rate_limit`
    /// is free and must be live, a write is never repeated from a copy, and a status answer has nothing to keep.
    package var isCacheable: Bool {
        !method.isWrite && rateLimit != .free && shape != .status
    }
}
