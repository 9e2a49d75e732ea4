import Domain
import Foundation
import JSONBytes

/// The one catalog of GitHub resources gh-users reads and writes: each is built from its row of the endpoint
/// table (`Endpoint`), which gives the path, the query keys, the media type and the rate limit, and adds what a
/// 404 means and how the body is decoded. Everything else names these values or a row, and never builds a URL.
package enum GitHubEndpoints {
    /// `GET /users?since=ID`, in id order.
    package static func users(since: Int64) -> ListResource<User> {
        ListResource(
            first: Resource(.listUsers, query: query(["since": "\(since)"]), missing: "users", decode: accounts)
        )
    }

    /// `GET /users/{username}/followers` or `/following`; without a login, the token's own (`GET /user/followers`).
    package static func relations(_ relation: UserRelation, of login: Login?) -> ListResource<User> {
        guard let login else {
            let endpoint: Endpoint = relation == .followers ? .ownFollowers : .ownFollowing
            return ListResource(first: Resource(endpoint, missing: "authenticated user", decode: accounts))
        }
        let endpoint: Endpoint = relation == .followers ? .followers : .following
        return ListResource(
            first: Resource(endpoint, segment(login), missing: "user '\(login.value)'", decode: accounts))
    }

    /// A list of accounts a row names whole (`GET /user/blocks`).
    package static func accounts(_ endpoint: Endpoint) -> ListResource<User> {
        ListResource(first: Resource(endpoint, missing: "authenticated user", decode: accounts))
    }

    /// The accounts listed under an organization, a repository or a team (`GET /repos/{owner}/{repo}/assignees`),
    /// with the filters GitHub documents for the row (`affiliation=outside`), sent in the row's order.
    package static func accounts(
        _ endpoint: Endpoint, under owner: ListOwner, filters: [String: String] = [:]
    ) -> ListResource<User> {
        list(endpoint, under: owner, filters: filters, decode: accounts)
    }

    /// An organization's members (`GET /orgs/{org}/members`). GitHub's early docs redirect (302) a caller who is not
    /// a member to the public members, a list without filters (GitHub Enterprise Server 3.1's still do; today's list
    /// 200 and 422), which says so only by where the answer came from: a filtered list answered from there is
    /// refused (exit 4) rather than taken for the filtered one, and an unfiltered one is the public members, which
    /// its page says (`Page.answeredPath`).
    package static func members(under owner: ListOwner, filters: [String: String]) -> ListResource<User> {
        list(.members, under: owner, filters: filters) { body throws(DomainError) in
            var page = try accounts(body)
            guard let path = body.answeredPath, path.hasSuffix("/public_members") else { return page }
            guard filters.isEmpty else {
                let given = filters.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
                throw .unauthorized(
                    status: 302,
                    message: "GitHub answered with the public members (\(path)), where it sends a token that is not a "
                        + "member of \(owner), and they have no filters: \(given.joined(separator: ", ")) needs a "
                        + "member's token (read:org)")
            }
            page.answeredPath = path
            return page
        }
    }

    /// The records listed under an organization or a repository that need no typed field (`GET
    /// /repos/{owner}/{repo}/forks`); `204 No Content` (an empty repository's contributors) is an empty list.
    package static func records(
        _ endpoint: Endpoint, under owner: ListOwner, filters: [String: String] = [:]
    ) -> ListResource<Record> {
        list(endpoint, under: owner, filters: filters, decode: ResponseDecoder.records)
    }

    private static func list<Item: Sendable>(
        _ endpoint: Endpoint, under owner: ListOwner, filters: [String: String],
        decode: @escaping @Sendable (ResourceBody) throws(DomainError) -> Page<Item>
    ) -> ListResource<Item> {
        ListResource(
            first: Resource(
                endpoint, segments: owner.segments, query: query(filters, of: endpoint), missing: owner.name,
                decode: decode),
            owner: self.owner(owner), team: owner.team)
    }

    /// A list of the token's own account whose records need no typed field (`GET /user/emails`).
    package static func ownRecords(_ endpoint: Endpoint) -> ListResource<Record> {
        ListResource(first: Resource(endpoint, missing: "authenticated user", decode: ResponseDecoder.records))
    }

    /// The repositories an account watches (`GET /users/{username}/subscriptions`, which GitHub retired in July
    /// 2026), or without a login the token's own (`GET /user/subscriptions`, which it still lists).
    package static func watched(by login: Login?) -> ListResource<Record> {
        guard let login else { return ownRecords(.ownSubscriptions) }
        return records(.subscriptions, of: login)
    }

    /// `GET /users/{username}/following/{target_user}`: 204 when it follows, 404 when it does not (or when
    /// either account does not exist, which only a look at the accounts tells apart). Any other success status
    /// is no answer GitHub documents (a 200 `{"following": false}` would otherwise read as yes).
    package static func follows(_ follower: Login, _ followed: Login) -> Resource<Bool> {
        Resource(
            .checkFollowing, segment(follower), segment(followed),
            missing: "follow of '\(followed.value)' by '\(follower.value)'"
        ) { body throws(DomainError) in
            try statusOnly(body, documented: "only 204 (follows) or 404 (does not follow) is an answer")
            return true
        }
    }

    /// A row whose answer is its status alone (`shape: .status`: a check, a follow, a block): GitHub documents
    /// 204 for yes, so another success status says nothing that can be trusted, and is a malformed answer;
    /// `documented` says what GitHub's answers are ("only 204 says it was done").
    package static func statusOnly(_ body: ResourceBody, documented: String) throws(DomainError) {
        guard body.status == 204 else {
            throw .malformedResponse(
                endpoint: body.label, detail: "GitHub answered HTTP \(body.status), where \(documented)")
        }
    }

    /// A write to one account, from its row (`PUT /user/following/{username}`, `DELETE /user/blocks/{username}`).
    package static func action(_ endpoint: Endpoint, on login: Login) -> Action {
        precondition(
            endpoint.method.isWrite && endpoint.parameters.count == 1, "\(endpoint) is not a write to one account")
        return Action(endpoint, segment(login), missing: "user '\(login.value)'")
    }

    /// `PATCH /user` with the profile fields to change, by GitHub's names; its answer decodes as
    /// `authenticatedUser`'s does.
    package static func updateAuthenticatedUser(_ fields: [JSONValue.Member]) -> Action {
        Action(.updateAuthenticatedUser, body: JSONValue.object(fields).bytes, missing: "authenticated user")
    }

    /// `GET /users/{username}/repos`, sending only the parameters that were chosen.
    package static func repos(of login: Login, query choice: RepoQuery) -> ListResource<Repo> {
        ListResource(
            first: Resource(
                .repos, segment(login),
                query: query(
                    [
                        "type": choice.kind?.rawValue, "sort": choice.sort?.rawValue,
                        "direction": choice.direction?.rawValue,
                    ]),
                missing: "user '\(login.value)'",
                decode: ResponseDecoder.list(of: RepoDTO.self) { $0.toDomain(raw: $1) }
            )
        )
    }

    /// `GET /search/users?q=…`, with the query form-encoded so qualifiers such as `followers:>100` survive.
    package static func searchUsers(_ search: UserSearchQuery) -> ListResource<User> {
        ListResource(
            first: Resource(
                .searchUsers,
                query: query(
                    ["q": search.text, "sort": search.sort?.rawValue, "order": search.order?.rawValue]),
                missing: "search results", decode: ResponseDecoder.search)
        )
    }

    /// Any list under an account whose records need no typed field (`.keys`, `.publicEvents`, `.starred`): the
    /// row gives the path, the query keys `parameters` may use (nil values are left out) and the media type.
    package static func records(
        _ endpoint: Endpoint, of login: Login, query parameters: KeyValuePairs<String, String?> = [:]
    ) -> ListResource<Record> {
        ListResource(
            first: Resource(
                endpoint, segment(login), query: query(parameters),
                missing: missing(login, in: endpoint),
                decode: ResponseDecoder.records)
        )
    }

    /// `GET /user`: the token's own account, and the scopes GitHub says the token has: only words a scope can be,
    /// since the header is the server's to fill (a proxy's echo of the request, say).
    package static let authenticatedUser = Resource<AuthenticatedUser>(
        .authenticatedUser, missing: "authenticated user"
    ) { body throws(DomainError) in
        let scopes = body.headers["x-oauth-scopes"].map {
            $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                .filter(GraphQLRefusal.isScopeName)
        }
        return AuthenticatedUser(user: try ResponseDecoder.user(body), scopes: scopes)
    }

    /// `GET /user` for `me`, which shows the token's scopes: asked fresh (`Resource.fresh()`), since GitHub's 304s
    /// carry no `X-OAuth-Scopes` and the stored ones may be stale (a classic token's scopes can be edited).
    package static let authenticatedUserWithScopes = authenticatedUser.fresh()

    /// `GET /users/{username}/hovercard`, about `subject` (`repository`, `1300192`) when one is named: GitHub's
    /// object as sent, once its `contexts` are found to be what GitHub documents.
    package static func hovercard(of login: Login, subject: (type: String, id: String)?) -> Resource<Record> {
        Resource(
            .hovercard, segment(login), query: query(["subject_type": subject?.type, "subject_id": subject?.id]),
            missing: "user '\(login.value)'", decode: ResponseDecoder.hovercard)
    }

    /// `GET /users/{username}`.
    package static func user(_ login: Login) -> Resource<User> {
        Resource(.user, segment(login), missing: "user '\(login.value)'") { body throws(DomainError) in
            try ResponseDecoder.user(body)
        }
    }

    /// `GET /user/{account_id}`: the account with that id, which GitHub never answers with another (helper-367:
    /// a server that did was shown as the account asked for).
    package static func user(id: Int64) -> Resource<User> {
        Resource(.userByID, "\(id)", missing: "account with id \(id)") { body throws(DomainError) in
            let user = try ResponseDecoder.user(body)
            guard user.id == id else {
                throw .malformedResponse(endpoint: body.label, detail: "the answer is the account with id \(user.id)")
            }
            return user
        }
    }

    /// `GET /rate_limit`, never cached (its row is free): it costs no quota, and a stale answer would be worse
    /// than none.
    package static let rateLimit = Resource<RateLimitOverview>(.rateLimitStatus, missing: "rate limits") {
        body throws(DomainError) in try ResponseDecoder.rateLimits(body)
    }

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

    /// What a 404 means for a row under one owner: `organization 'github'` under `{org}`, else `user 'mona'`.
    private static func missing(_ owner: Login, in endpoint: Endpoint) -> String {
        (endpoint.parameters == ["org"] ? "organization" : "user") + " '\(owner.value)'"
    }

    /// A login as one path segment.
    private static func segment(_ login: Login) -> String {
        URLEncoding.pathSegment(login.value)
    }

    /// `key=value` items, form-encoded, for the parameters that have a value. `Resource` refuses a key the row
    /// does not allow, so no feature can send what GitHub does not document for the endpoint.
    private static func query(_ parameters: KeyValuePairs<String, String?>) -> [String] {
        parameters.compactMap { key, value in value.map { key + "=" + URLEncoding.queryValue($0) } }
    }

    /// The filters given, in the order the row lists its query keys.
    private static func query(_ filters: [String: String], of endpoint: Endpoint) -> [String] {
        endpoint.query.compactMap { key in filters[key].map { key + "=" + URLEncoding.queryValue($0) } }
    }
}

// Star history (issue 28): the stars a repository gained a week, and how many it has now.
extension GitHubEndpoints {
    /// The most stars one day may count: far above any repository's, and low enough that no sum of 100 pages
    /// of them overflows. A count past it is no answer GitHub's schema gives.
    package static let maximumStarsADay = 1_000_000_000

    /// `GET /repos/{owner}/{repo}/stargazers/count`: `{"count": N}`; a 404 is a repository that does not exist.
    package static func starCount(of repository: RepositoryName) -> Resource<Int> {
        Resource(
            .starCount, segment(repository.owner), URLEncoding.pathSegment(repository.name),
            missing: "repository '\(repository)'"
        ) { body throws(DomainError) in
            try ResponseDecoder.refuseOversizedObject(body)
            // Foundation keeps a repeated key's first value, jq the last (helper-320: `{"count":12,"count":99999}`).
            try ResponseDecoder.refuseRepeatedKey(Array(body.bytes), endpoint: body.label)
            guard let dto = try? JSONDecoder().decode(StarCountDTO.self, from: Foundation.Data(body.bytes)),
                dto.count >= 0
            else {
                throw .malformedResponse(
                    endpoint: body.label, detail: "the answer is not {\"count\": N} with N a whole number, 0 or more")
            }
            return dto.count
        }
    }

    /// `GET /repos/{owner}/{repo}/stargazers/history`: the weeks, newest first, page by page. A week that is not
    /// what GitHub's schema allows (seven counts, none negative, from a Sunday at midnight UTC) makes the page a
    /// malformed answer that names the endpoint and the week.
    package static func starHistory(of repository: RepositoryName) -> ListResource<StarWeek> {
        ListResource(
            first: Resource(
                .starHistory, segment(repository.owner), URLEncoding.pathSegment(repository.name),
                missing: "repository '\(repository)'", decode: starWeeks))
    }

    @Sendable private static func starWeeks(_ body: ResourceBody) throws(DomainError) -> Page<StarWeek> {
        if body.noContent { return .noContent }
        // Each week by its number, as a list's items are (helper-322); a body that is no list is the decoder's.
        for (index, range) in ((try? JSONText.arrayElements(body.bytes)) ?? []).enumerated() {
            try ResponseDecoder.refuseRepeatedKey(Array(body.bytes[range]), endpoint: body.label, item: index + 1)
        }
        let dtos: [StarWeekDTO]
        do {
            dtos = try JSONDecoder().decode([StarWeekDTO].self, from: Foundation.Data(body.bytes))
        } catch {
            throw .malformedResponse(
                endpoint: body.label, detail: "the answer is not a list of weeks {\"week\", \"total\", \"days\"}")
        }
        var weeks: [StarWeek] = []
        for (index, dto) in dtos.enumerated() {
            guard dto.total >= 0, dto.days.allSatisfy({ $0 <= maximumStarsADay }),
                let week = StarWeek(startSeconds: dto.week, days: dto.days)
            else {
                throw .malformedResponse(
                    endpoint: body.label,
                    detail: "week \(index + 1) (\"week\": \(dto.week)) is not seven counts of stars, from a Sunday "
                        + "at midnight UTC")
            }
            weeks.append(week)
        }
        return Page(items: weeks, next: body.next)
    }
}

private struct StarCountDTO: Decodable {
    let count: Int
}

private struct StarWeekDTO: Decodable {
    let week: Int64
    let total: Int
    let days: [Int]
}

/// Percent-encoding for the two places user text enters a URL.
package enum URLEncoding {
    /// Everything but RFC 3986 unreserved characters is encoded, so `/`, `?` and `#` cannot change the path; so
    /// are the dots of a lone `.` or `..`, which would be resolved as a dot-segment. Any other dot stays, as
    /// every client sends it (github3.py's, octokit.rb's and PyGithub's recordings of `github3.py`, `octokit.rb`)
    /// and RFC 3986 asks (2.3: `%2E` is for no URI producer to make): before, `github3%2Epy` was sent, which only
    /// a server that decodes it finds (a review's find).
    package static func pathSegment(_ segment: String) -> String {
        encode(segment, space: "%20", dot: segment == "." || segment == ".." ? "%2E" : ".")
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
