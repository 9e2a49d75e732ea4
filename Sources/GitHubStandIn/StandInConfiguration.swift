/// Knobs for a stand-in server instance.
package struct StandInConfiguration: Sendable {
    /// How many accounts the population holds.
    package var userCount: Int
    /// Delay before every response, applied per request on the connection's own thread so that concurrent
    /// connections overlap their latency the way real network round trips do.
    package var latencyMilliseconds: Int
    /// Requests per hour granted to each token; anonymous callers always get GitHub's 60.
    package var rateLimit: Int
    /// 0 picks a free port.
    package var port: Int
    /// `GET /search/users` requests per minute granted to each token, counted apart from `rateLimit`; anonymous
    /// callers always get GitHub's 10.
    package var searchRateLimit: Int
    /// Points per hour of the `graphql` bucket granted to each token; GraphQL refuses anonymous callers.
    package var graphQLRateLimit: Int
    /// The most `repositoryOwner` lookups one GraphQL query may hold; more is GitHub's node-limit error.
    package var graphQLNodeLimit: Int
    /// How a spent `graphql` bucket is answered: each form GitHub has been seen to send.
    package var graphQLRateLimitForm: StandInGraphQLRateLimitForm
    /// How long one search window lasts: GitHub's is a minute; tests shorten it so a spent search limit can be
    /// waited out in seconds.
    package var searchWindowSeconds: Int
    /// How many accounts (from ordinal `StandInPopulation.sameSecondFirstOrdinal` on) were all created in the
    /// same second, so a search can hold more than 1,000 results that no `created:` range can tell apart.
    package var sameSecondAccounts: Int
    /// Where `Link` URLs point when clients reach the server through another address (a TLS proxy in front of
    /// it, as `Scripts/bench --network` puts one): `https://api.bench.test`; nil for the server's own.
    package var publicBaseURL: String?
    /// Whether the world holds `StandInWorld.benchOrganization` beside its own (`--access-bench`).
    package var accessBench = false

    package init(
        userCount: Int = 1000, latencyMilliseconds: Int = 0, rateLimit: Int = 5000,
        port: Int = 0, searchRateLimit: Int = 30, graphQLRateLimit: Int = 5000, graphQLNodeLimit: Int = 100,
        searchWindowSeconds: Int = 60, sameSecondAccounts: Int = 0,
        graphQLRateLimitForm: StandInGraphQLRateLimitForm = .rateLimit
    ) {
        self.graphQLRateLimitForm = graphQLRateLimitForm
        self.graphQLRateLimit = graphQLRateLimit
        self.graphQLNodeLimit = graphQLNodeLimit
        self.userCount = userCount
        self.latencyMilliseconds = latencyMilliseconds
        self.rateLimit = rateLimit
        self.port = port
        self.searchRateLimit = searchRateLimit
        self.searchWindowSeconds = searchWindowSeconds
        self.sameSecondAccounts = sameSecondAccounts
    }

    /// GitHub's limit for unauthenticated REST calls.
    package static let anonymousRateLimit = 60
    /// GitHub's per-minute limit for unauthenticated search calls.
    package static let anonymousSearchRateLimit = 10
}

/// The answers GitHub gives a query when the `graphql` bucket has too few points left for it.
package enum StandInGraphQLRateLimitForm: String, Sendable, CaseIterable {
    /// Today's: status 200, `{"errors":[{"type":"RATE_LIMIT","code":"graphql_rate_limit","message":…}]}`.
    case rateLimit
    /// Older servers': status 200, an error of type `RATE_LIMITED`.
    case rateLimited
    /// Status 403 with `x-ratelimit-remaining: 0` and `x-ratelimit-resource: graphql`, as REST's spent limit.
    case forbidden
}
