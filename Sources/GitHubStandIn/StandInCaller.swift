import Foundation

/// Who is asking, and which rate-limit buckets and limits that means.
struct StandInCaller: Sendable {
    var token: String?
    var bucket: String
    var coreLimit: Int
    var searchLimit: Int
    var graphQLLimit: Int
    /// The token's OAuth scopes (see `StandInTokens`); nil for anonymous callers.
    var scopes: [String]?

    init(token: String?, configuration: StandInConfiguration) {
        self.token = token
        scopes = token.map(StandInTokens.scopes(forToken:))
        bucket = token.map { "token " + $0 } ?? "anonymous"
        coreLimit = token == nil ? StandInConfiguration.anonymousRateLimit : configuration.rateLimit
        searchLimit = token == nil ? StandInConfiguration.anonymousSearchRateLimit : configuration.searchRateLimit
        graphQLLimit = configuration.graphQLRateLimit
    }

    /// Accepts `Bearer X` and `token X` (any case), as GitHub does; anything else is treated as an opaque token so
    /// that a restricted server rejects it.
    static func token(from authorization: String?) -> String? {
        guard let authorization = authorization?.trimmingCharacters(in: .whitespaces), !authorization.isEmpty else {
            return nil
        }
        let parts = authorization.split(separator: " ", maxSplits: 1)
        if parts.count == 2, ["bearer", "token"].contains(parts[0].lowercased()) {
            return parts[1].trimmingCharacters(in: .whitespaces)
        }
        return authorization
    }
}

/// Which rate limit a route spends; every route row names one (core unless it says otherwise).
enum StandInRateResource: Sendable {
    case core
    /// Its own per-minute bucket, as `GET /search/users` has.
    case search
    /// Spends nothing but reports the core figures in its headers, as `GET /rate_limit` does.
    case free
    /// The hourly `graphql` bucket, counted in points: the handler spends what the query costs.
    case graphql

    var headerName: String {
        switch self {
        case .search: return "search"
        case .graphql: return "graphql"
        case .core, .free: return "core"
        }
    }
}
