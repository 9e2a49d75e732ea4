import Domain
import Foundation

/// The one catalog of GitHub endpoints gh-users reads: each entry is a path, its query, what a 404 means and
/// how the body is decoded. Everything else names these values and never builds a URL.
package enum GitHubEndpoints {
    /// `GET /users?since=ID`, in id order.
    package static func users(since: Int64) -> ListResource<User> {
        ListResource(first: Resource(path: "/users", query: ["since=\(since)"], missing: "users", decode: accounts))
    }

    /// `GET /users/{username}/followers` or `/following`; without a login, the token's own (`GET /user/followers`).
    package static func relations(_ relation: UserRelation, of login: Login?) -> ListResource<User> {
        guard let login else {
            return ListResource(
                first: Resource(path: "/user/" + relation.rawValue, missing: "authenticated user", decode: accounts))
        }
        return ListResource(
            first: Resource(path: account(login, relation.rawValue), missing: "user '\(login.value)'", decode: accounts)
        )
    }

    /// A list of accounts a row names whole (`GET /user/blocks`).
    package static func accounts(_ endpoint: Endpoint) -> ListResource<User> {
        ListResource(first: Resource(path: endpoint.path(), missing: "authenticated user", decode: accounts))
    }

    /// `GET /users/{username}/following/{target_user}`: 204 when it follows, 404 when it does not (or when
    /// either account does not exist, which only a look at the accounts tells apart).
    package static func follows(_ follower: Login, _ followed: Login) -> Resource<Bool> {
        Resource(
            path: account(follower, "following") + "/" + URLEncoding.pathSegment(followed.value),
            missing: "follow of '\(followed.value)' by '\(follower.value)'", cacheable: false
        ) { _ throws(DomainError) in true }
    }

    /// A write to one account, from its row (`PUT /user/following/{username}`, `DELETE /user/blocks/{username}`).
    package static func action(_ endpoint: Endpoint, on login: Login) -> Action {
        let method: Action.Method
        switch endpoint.method {
        case .put: method = .put
        case .delete: method = .delete
        case .get, .post, .patch: preconditionFailure("\(endpoint) is not a write to one account")
        }
        return Action(
            method, path: endpoint.path(URLEncoding.pathSegment(login.value)), missing: "user '\(login.value)'")
    }

    /// `GET /users/{username}/repos`, sending only the parameters that were chosen.
    package static func repos(of login: Login, query: RepoQuery) -> ListResource<Repo> {
        var items: [String] = []
        if let kind = query.kind { items.append("type=\(kind.rawValue)") }
        if let sort = query.sort { items.append("sort=\(sort.rawValue)") }
        if let direction = query.direction { items.append("direction=\(direction.rawValue)") }
        return ListResource(
            first: Resource(
                path: account(login, "repos"),
                query: items,
                missing: "user '\(login.value)'",
                decode: ResponseDecoder.list(of: RepoDTO.self) { $0.toDomain(raw: $1) }
            )
        )
    }

    /// `GET /search/users?q=…`, with the query form-encoded so qualifiers such as `followers:>100` survive.
    /// `waitsOutSpentLimit`: a spent search limit is waited out (a split search's many queries).
    package static func searchUsers(_ query: UserSearchQuery, waitsOutSpentLimit: Bool = false) -> ListResource<User> {
        var items = ["q=" + URLEncoding.queryValue(query.text)]
        if let sort = query.sort { items.append("sort=\(sort.rawValue)") }
        if let order = query.order { items.append("order=\(order.rawValue)") }
        return ListResource(
            first: Resource(
                path: "/search/users", query: items, missing: "search results", waitsOutSpentLimit: waitsOutSpentLimit,
                decode: ResponseDecoder.search)
        )
    }

    /// Any list under an account whose records need no typed field (`/users/{username}/keys`,
    /// `/users/{username}/events/public`), in GitHub's default media type or the one `accept` names.
    package static func accountRecords(
        _ login: Login, _ segment: String, query: [String] = [], accept: String? = nil
    ) -> ListResource<Record> {
        ListResource(
            first: Resource(
                path: account(login, segment), query: query, missing: "user '\(login.value)'", accept: accept,
                decode: ResponseDecoder.records)
        )
    }

    /// `GET /user`: the token's own account, and the scopes GitHub says the token has.
    package static let authenticatedUser = Resource<AuthenticatedUser>(path: "/user", missing: "authenticated user") {
        body throws(DomainError) in
        let scopes = body.headers["x-oauth-scopes"].map {
            $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
        return AuthenticatedUser(user: try ResponseDecoder.user(body), scopes: scopes)
    }

    /// `GET /users/{username}`.
    package static func user(_ login: Login) -> Resource<User> {
        Resource(path: "/users/" + URLEncoding.pathSegment(login.value), missing: "user '\(login.value)'") {
            body throws(DomainError) in try ResponseDecoder.user(body)
        }
    }

    /// `GET /user/{id}`.
    package static func user(id: Int64) -> Resource<User> {
        Resource(path: "/user/\(id)", missing: "account with id \(id)") { body throws(DomainError) in
            try ResponseDecoder.user(body)
        }
    }

    /// `GET /rate_limit`, never cached: it costs no quota, and a stale answer would be worse than none.
    package static let rateLimit = Resource<RateLimitOverview>(
        path: "/rate_limit", missing: "rate limits", cacheable: false
    ) { body throws(DomainError) in try ResponseDecoder.rateLimits(body) }

    /// GitHub's GraphQL endpoint beside the REST root: `https://api.github.com/graphql`, and on an Enterprise
    /// Server `/api/graphql` where REST is at `/api/v3`.
    package static func graphQLURL(apiRoot: URL) -> URL {
        var root = apiRoot.absoluteString
        while root.hasSuffix("/") { root.removeLast() }
        if root.lowercased().hasSuffix("/api/v3") {
            return URL(string: String(root.dropLast(3)) + "/graphql")!
        }
        return URL(string: root + "/graphql")!
    }

    private static let accounts = ResponseDecoder.list(of: UserDTO.self) { $0.toDomain(raw: $1) }

    private static func account(_ login: Login, _ segment: String) -> String {
        "/users/" + URLEncoding.pathSegment(login.value) + "/" + segment
    }
}

/// Percent-encoding for the two places user text enters a URL.
package enum URLEncoding {
    /// Everything but RFC 3986 unreserved characters is encoded, so `/`, `..`, `?` and `#` cannot change the path.
    package static func pathSegment(_ segment: String) -> String {
        encode(segment, space: "%20", dot: "%2E")
    }

    /// application/x-www-form-urlencoded: unreserved characters stay, a space becomes `+`, everything else
    /// (`+`, `&`, `=`, `#`, `:`, `>`, quotes, non-ASCII) is percent-encoded.
    package static func queryValue(_ value: String) -> String {
        encode(value, space: "+", dot: ".")
    }

    /// In a path a lone "." or ".." would be resolved as a dot-segment; encoding the dot keeps it literal.
    private static func encode(_ text: String, space: String, dot: String) -> String {
        var result = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "~"):
                result.append(Character(Unicode.Scalar(byte)))
            case UInt8(ascii: "."):
                result += dot
            case UInt8(ascii: " "):
                result += space
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                result += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return result
    }
}
