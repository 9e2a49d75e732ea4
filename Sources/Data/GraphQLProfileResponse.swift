import Domain
import Foundation
import Networking

/// A GraphQL answer to `GraphQLProfileQuery`: `data` holds `rateLimit` and one member per alias (null when
/// the lookup failed), `errors` says why, each error naming its alias in `path` or, when it is about the
/// whole query, naming none.
struct GraphQLProfileResponseDTO: Decodable {
    /// The server's numbers, bounded like headers are: a count that is no whole number from 0 to
    /// `RateLimit.largest` is unknown (nil), so no sum made of them can overflow and no bad one fails the batch.
    struct RateLimit: Decodable {
        /// Far above any real hourly limit (GitHub's largest is 15,000 points, an enterprise's `GITHUB_TOKEN`'s),
        /// and small enough that a run's total of them cannot reach `Int.max`.
        static let largest = 1 << 40

        let cost: Int?
        let remaining: Int?

        enum CodingKeys: String, CodingKey {
            case cost, remaining
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            cost = Self.bounded(try? container.decodeIfPresent(Int.self, forKey: .cost))
            remaining = Self.bounded(try? container.decodeIfPresent(Int.self, forKey: .remaining))
        }

        private static func bounded(_ number: Int??) -> Int? {
            guard case .some(.some(let value)) = number, (0...largest).contains(value) else { return nil }
            return value
        }
    }

    struct ErrorDTO: Decodable {
        let type: String?
        /// GitHub's newer machine-readable kind (`graphql_rate_limit`), beside `type`.
        let code: String?
        let message: String?
        /// Only the first element matters (the alias); later ones may be numbers, which are kept as text.
        let path: [PathElement]?
    }

    struct PathElement: Decodable {
        let text: String

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let name = try? container.decode(String.self) {
                text = name
            } else if let index = try? container.decode(Int.self) {
                text = String(index)
            } else {
                // A number no Int holds, or anything else: it names no alias of ours.
                text = ""
            }
        }
    }

    /// `data`: `rateLimit` and the aliases, whose members are decoded only when the key is one of ours.
    struct DataDTO: Decodable {
        let rateLimit: RateLimit?
        let owners: [String: GraphQLUserDTO?]

        struct Key: CodingKey {
            let stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Key.self)
            rateLimit = try? container.decodeIfPresent(RateLimit.self, forKey: Key(stringValue: "rateLimit"))
            var owners: [String: GraphQLUserDTO?] = [:]
            for key in container.allKeys where GraphQLProfileResponse.isAlias(key.stringValue) {
                // A member that does not decode (a count no Int64 holds) is that account's alone: REST answers it.
                owners[key.stringValue] = .some(try? container.decode(GraphQLUserDTO.self, forKey: key))
            }
            self.owners = owners
        }
    }

    let data: DataDTO?
    let errors: [ErrorDTO]?
}

/// Reads one batch's HTTP answer into lookups, or into the kind of failure that says what to do next. Every
/// byte of it is untrusted: whatever does not fit becomes a REST fallback, never a crash or a made-up profile.
enum GraphQLProfileResponse {
    static func isAlias(_ key: String) -> Bool {
        key.count > 1 && key.first == "a" && key.dropFirst().allSatisfy(\.isASCII) && Int(key.dropFirst()) != nil
    }

    /// The scopes GitHub names for a profile's `email` when it refused the query for that field alone
    /// (`GraphQLRefusal.emailScopes`); nil for any other answer. Only a 200 that names the field is decoded for it.
    static func emailRefusal(_ response: HTTPResponse) -> [String]? {
        guard response.status == 200, response.body.range(of: Foundation.Data("'email' field requires".utf8)) != nil,
            let dto = try? JSONDecoder().decode(GraphQLProfileResponseDTO.self, from: response.body)
        else { return nil }
        return GraphQLRefusal.emailScopes(among: dto.errors ?? [])
    }

    static func decode(_ response: HTTPResponse, logins: [Login], endpoint: String) throws(GraphQLBatchFailure)
        -> GraphQLBatch
    {
        let status = response.status
        if status == 502 || status == 504 {
            throw .tooLarge("\(endpoint) answered HTTP \(status)")
        }
        if let error = ErrorMapping.domainError(for: response, resource: "GraphQL API", method: "POST") {
            switch error {
            // A spent limit (403 or 429 with x-ratelimit-remaining: 0), a bad token, a 5xx that outlived the
            // client's retries: REST would meet them too, so the run stops as REST's would.
            case .rateLimited, .cancelled, .malformedResponse: throw .failed(error)
            case .unauthorized(let status, _, _, _) where status == 401: throw .failed(error)
            case .server(let status, _, _) where status >= 500: throw .failed(error)
            default: throw .unsupported("\(endpoint) answered HTTP \(status)")
            }
        }
        let dto: GraphQLProfileResponseDTO
        do {
            dto = try JSONDecoder().decode(GraphQLProfileResponseDTO.self, from: response.body)
        } catch {
            throw .unsupported("\(endpoint) answered with a body that is not a GraphQL response")
        }
        let errors = dto.errors ?? []
        if let limited = spentLimit(errors, response: response) { throw .failed(limited) }
        // Since 2025-09 GitHub answers an expensive query with partial data and a `RESOURCE_LIMITS_EXCEEDED`
        // error per lookup it nulled (changelog "GraphQL API resource limits"; the error shape recorded in
        // github-profile-3d-contrib issue #163). The nulled accounts exist: it is the node limit's case, a batch
        // too large, asked of GraphQL again in smaller batches, not one REST request each.
        if let limited = errors.first(where: { $0.type == "RESOURCE_LIMITS_EXCEEDED" }) {
            throw .tooLarge(limited.message ?? "Resource limits for this query exceeded.")
        }
        let aliases = Set(logins.indices.map(GraphQLProfileQuery.alias))
        // An error that names none of the aliases is about the query itself.
        if let whole = errors.first(where: { error in !aliases.contains(error.path?.first?.text ?? "") }) {
            let message = whole.message ?? whole.type ?? "an error"
            if isNodeLimit(whole) || isQueryTimeout(whole) { throw .tooLarge(message) }
            throw .unsupported(message)
        }
        guard let data = dto.data else {
            throw .unsupported("\(endpoint) answered with no data")
        }
        // An error on one of an alias's fields (`["a0", "name"]`) nulls that field: the profile GraphQL gave is
        // not whole, so REST answers that login, as for a member that does not decode.
        let erred = Set(errors.compactMap { $0.path?.first?.text })
        let lookups = logins.enumerated().map { index, login -> GraphQLLookup in
            let alias = GraphQLProfileQuery.alias(index)
            guard !erred.contains(alias), case .some(.some(let owner)) = data.owners[alias],
                let user = GraphQLUserRebuild.user(owner, asked: login)
            else { return .needsREST }
            return .found(user)
        }
        return GraphQLBatch(lookups: lookups, cost: data.rateLimit?.cost, remaining: data.rateLimit?.remaining)
    }

    /// The graphql bucket is spent, if `errors` say so: GitHub's `{"type":"RATE_LIMIT","code":"graphql_rate_limit"}`
    /// with status 200, or the older `RATE_LIMITED`. Every GraphQL answer gh-users reads is checked for it.
    /// The secondary limit, in GitHub's words, is that limit as REST's is (`ErrorMapping`), once the client has
    /// waited it out as often as `--retries` allows: back when `Retry-After` says, else unknown.
    static func spentLimit(_ errors: [GraphQLProfileResponseDTO.ErrorDTO], response: HTTPResponse) -> DomainError? {
        // Its words in an answer of errors alone, as the client's schedule reads one: with data, no limit.
        if let secondary = errors.first(where: { RateLimitInfo.namesTheSecondaryLimit($0.message ?? "") }),
            GraphQLTimeout.errorsOnlyMessages(response.body) != nil
        {
            return .rateLimited(
                resetAt: RateLimitInfo(response, now: Date()).retryAt.value,
                message: "GraphQL: " + (secondary.message ?? ""), resource: DomainError.secondaryLimit)
        }
        let limited = errors.first { error in
            error.type == "RATE_LIMIT" || error.type == "RATE_LIMITED" || error.code == "graphql_rate_limit"
        }
        guard let limited else { return nil }
        return .rateLimited(
            resetAt: RateLimitInfo(response, now: Date()).reset.value,
            message: "GraphQL: " + (limited.message ?? "API rate limit exceeded"), resource: "graphql")
    }

    /// Too much work for one query, which the same query asked smaller may not be: GitHub's resource limits,
    /// the node limit, or a query that ran out of time.
    static func isTooMuchWork(_ error: GraphQLProfileResponseDTO.ErrorDTO) -> Bool {
        error.type == "RESOURCE_LIMITS_EXCEEDED" || isNodeLimit(error) || isQueryTimeout(error)
    }

    /// A query that ran out of time, as GitHub answers it with status 200 (or 502) and `"data": null`: an error
    /// with no type and no path, "Something went wrong while executing your query. This may be the result of a
    /// timeout, or it could be a GitHub bug. Please include `…` when reporting this issue." (the bodies users
    /// recorded, in Tests/TestSupport/GraphQLTimeoutBodies.swift). A smaller query may pass, as after a 502.
    static func isQueryTimeout(_ error: GraphQLProfileResponseDTO.ErrorDTO) -> Bool {
        GraphQLTimeout.isTimeout(message: error.message, type: error.type, hasPath: error.path != nil)
    }

    /// GitHub's `MAX_NODE_LIMIT_EXCEEDED`, or its message ("… exceeds the maximum limit of 500,000").
    static func isNodeLimit(_ error: GraphQLProfileResponseDTO.ErrorDTO) -> Bool {
        if error.type == "MAX_NODE_LIMIT_EXCEEDED" { return true }
        let message = (error.message ?? "").lowercased()
        return message.contains("node") && message.contains("limit")
    }
}
