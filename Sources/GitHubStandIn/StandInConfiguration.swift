package struct StandInConfiguration: Sendable {
    package var userCount: Int
    /// Before every response, on the connection's own thread, so connections overlap it as round trips do.
    package var latencyMilliseconds: Int
    /// Requests per hour granted to each token; anonymous callers always get GitHub's 60.
    package var rateLimit: Int
    package var port: Int
    /// Per minute; anonymous callers always get GitHub's 10.
    package var searchRateLimit: Int
    package var graphQLRateLimit: Int
    /// The most `repositoryOwner` lookups one GraphQL query may hold; more is GitHub's node-limit error.
    package var graphQLNodeLimit: Int
    package var graphQLRateLimitForm: StandInGraphQLRateLimitForm
    /// GitHub's is a minute; tests shorten it.
    package var searchWindowSeconds: Int
    /// Accounts (from `StandInPopulation.sameSecondFirstOrdinal` on) created in one second, so a search can hold
    /// more than 1,000 results no `created:` range tells apart.
    package var sameSecondAccounts: Int
    /// Where `Link` URLs point behind a proxy (`Scripts/bench --network`); nil for the server's own address.
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
}

/// The answers GitHub has been seen to give a query the `graphql` bucket has too few points left for.
package enum StandInGraphQLRateLimitForm: String, Sendable, CaseIterable {
    /// Today's: status 200, `{"errors":[{"type":"RATE_LIMIT","code":"graphql_rate_limit","message":…}]}`.
    case rateLimit
    /// Older servers': status 200, an error of type `RATE_LIMITED`.
    case rateLimited
    /// Status 403 with `x-ratelimit-remaining: 0` and `x-ratelimit-resource: graphql`, as REST's spent limit.
    case forbidden
}
