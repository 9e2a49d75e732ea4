import Domain
import Foundation

struct StandInCaller: Sendable {
    var token: String?
    var bucket: String
    var coreLimit: Int
    var searchLimit: Int
    var graphQLLimit: Int
    /// Nil for anonymous callers.
    var scopes: [String]?

    init(token: String?, configuration: StandInConfiguration) {
        self.token = token
        scopes = token.map(StandInTokens.scopes(forToken:))
        bucket = token.map { "token " + $0 } ?? "anonymous"
        coreLimit = token == nil ? StandInConfiguration.anonymousRateLimit : configuration.rateLimit
        searchLimit = token == nil ? StandInConfiguration.anonymousSearchRateLimit : configuration.searchRateLimit
        graphQLLimit = configuration.graphQLRateLimit
    }

    /// `Bearer X` or `token X` (any case), as GitHub accepts; anything else is an opaque token.
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

/// A bucket, named as `x-ratelimit-resource` names it; the endpoint table's `Endpoint.RateLimit`, and GraphQL's.
enum StandInRateResource: String, Sendable {
    case core
    case search
    /// Spends nothing but reports the core figures in its headers, as `GET /rate_limit` does.
    case free
    /// Counted in points: the handler spends what the query costs.
    case graphql

    init(_ rateLimit: Endpoint.RateLimit) { self = Self(rawValue: rateLimit.rawValue) ?? .core }

    var headerName: String { self == .free ? "core" : rawValue }
}
