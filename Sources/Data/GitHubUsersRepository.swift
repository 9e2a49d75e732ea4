import AtomicCore
import AtomicLogger
import Domain
import Foundation
import Networking

/// What every GitHub repository shares: the endpoint URLs, conditional fetching, and status mapping.
struct GitHubAPI: Sendable {
    let fetcher: ConditionalFetcher
    let endpoint: UsersEndpoint

    init(client: HTTPClient, cache: CacheSettings, logger: Logger, now: @escaping @Sendable () -> Date) {
        fetcher = ConditionalFetcher(client: client, settings: cache, logger: logger, now: now)
        endpoint = UsersEndpoint(apiRoot: client.configuration.baseURL)
    }

    /// `label` names the request in messages ("GET /users/octocat"); `resource` names what a 404 lacks.
    func fetch(_ url: URL, label: String, resource: String, cacheable: Bool = true) async throws(DomainError)
        -> HTTPResponse
    {
        let response = try await fetcher.get(url, endpoint: label, cacheable: cacheable)
        if let error = ErrorMapping.domainError(for: response, resource: resource) {
            throw error
        }
        return response
    }

    /// A `Link` URL, refused unless it is http(s) on the API's origin.
    func url(of cursor: PageCursor, label: String) throws(DomainError) -> URL {
        try ErrorMapping.nextPageURL(cursor.url, apiRoot: endpoint.apiRoot, endpoint: label)
    }

    static func label(_ url: URL) -> String {
        "GET " + url.path + (url.query.map { "?" + $0 } ?? "")
    }

    static func next(_ response: HTTPResponse) -> PageCursor? {
        LinkHeader(response.headers["Link"]).next.map(PageCursor.init(url:))
    }
}

/// `UsersRepository` over GitHub's REST API.
package struct GitHubUsersRepository: UsersRepository {
    private let api: GitHubAPI

    package init(
        client: HTTPClient,
        cache: CacheSettings = .disabled,
        logger: Logger = .disabled,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        api = GitHubAPI(client: client, cache: cache, logger: logger, now: now)
    }

    package func listUsers(since: Int64, perPage: Int) async throws(DomainError) -> UserPage {
        try await page(at: api.endpoint.list(since: since, perPage: perPage), resource: "users")
    }

    package func users(at cursor: PageCursor) async throws(DomainError) -> UserPage {
        try await page(at: api.url(of: cursor, label: "GET /users"), resource: "users")
    }

    package func user(login: Login) async throws(DomainError) -> User {
        let label = "GET /users/\(login.value)"
        let response = try await api.fetch(api.endpoint.user(login), label: label, resource: "user '\(login.value)'")
        return try ResponseDecoder.user(from: response.body, endpoint: label)
    }

    package func user(id: Int64) async throws(DomainError) -> User {
        let label = "GET /user/\(id)"
        let response = try await api.fetch(
            api.endpoint.user(id: id), label: label, resource: "the account with id \(id)")
        return try ResponseDecoder.user(from: response.body, endpoint: label)
    }

    package func relations(_ relation: UserRelation, of login: Login, perPage: Int) async throws(DomainError)
        -> UserPage
    {
        try await page(
            at: api.endpoint.relations(relation, of: login, perPage: perPage), resource: "user '\(login.value)'")
    }

    private func page(at url: URL, resource: String) async throws(DomainError) -> UserPage {
        let label = GitHubAPI.label(url)
        let response = try await api.fetch(url, label: label, resource: resource)
        let users = try ResponseDecoder.items(from: response.body, endpoint: label, as: UserDTO.self) {
            $0.toDomain(raw: $1)
        }
        return UserPage(users: users, next: GitHubAPI.next(response))
    }
}

/// `ReposRepository` over `GET /users/{username}/repos`.
package struct GitHubReposRepository: ReposRepository {
    private let api: GitHubAPI

    package init(
        client: HTTPClient,
        cache: CacheSettings = .disabled,
        logger: Logger = .disabled,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        api = GitHubAPI(client: client, cache: cache, logger: logger, now: now)
    }

    package func repos(of login: Login, query: RepoQuery, perPage: Int) async throws(DomainError) -> Page<Repo> {
        try await page(
            at: api.endpoint.repos(of: login, query: query, perPage: perPage), resource: "user '\(login.value)'")
    }

    package func repos(at cursor: PageCursor) async throws(DomainError) -> Page<Repo> {
        try await page(at: api.url(of: cursor, label: "GET /users/{username}/repos"), resource: "repositories")
    }

    private func page(at url: URL, resource: String) async throws(DomainError) -> Page<Repo> {
        let label = GitHubAPI.label(url)
        let response = try await api.fetch(url, label: label, resource: resource)
        let repos = try ResponseDecoder.items(from: response.body, endpoint: label, as: RepoDTO.self) {
            $0.toDomain(raw: $1)
        }
        return Page(items: repos, next: GitHubAPI.next(response))
    }
}

/// `SearchRepository` over `GET /search/users`.
package struct GitHubSearchRepository: SearchRepository {
    private let api: GitHubAPI

    package init(
        client: HTTPClient,
        cache: CacheSettings = .disabled,
        logger: Logger = .disabled,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        api = GitHubAPI(client: client, cache: cache, logger: logger, now: now)
    }

    package func searchUsers(_ query: UserSearchQuery, perPage: Int) async throws(DomainError) -> Page<User> {
        try await page(at: api.endpoint.searchUsers(query, perPage: perPage))
    }

    package func searchUsers(at cursor: PageCursor) async throws(DomainError) -> Page<User> {
        try await page(at: api.url(of: cursor, label: "GET /search/users"))
    }

    private func page(at url: URL) async throws(DomainError) -> Page<User> {
        let label = "GET /search/users"
        let response = try await api.fetch(url, label: label, resource: "search results")
        return try ResponseDecoder.search(from: response.body, endpoint: label, next: GitHubAPI.next(response))
    }
}

/// `RateLimitRepository` over `GET /rate_limit`, which is never cached: it costs no quota, and a stale answer
/// would be worse than none.
package struct GitHubRateLimitRepository: RateLimitRepository {
    private let api: GitHubAPI

    package init(client: HTTPClient, logger: Logger = .disabled) {
        api = GitHubAPI(client: client, cache: .disabled, logger: logger, now: { Date() })
    }

    package func rateLimits() async throws(DomainError) -> RateLimitOverview {
        let label = "GET /rate_limit"
        let response = try await api.fetch(
            api.endpoint.rateLimit(), label: label, resource: "rate limits", cacheable: false)
        return try ResponseDecoder.rateLimits(from: response.body, endpoint: label)
    }
}

/// Decodes bodies into entities, keeping each object's exact bytes for JSON output.
enum ResponseDecoder {
    /// Decodes a JSON array into entities, each keeping its element's exact bytes.
    static func items<DTO: Decodable, Entity>(
        from body: Foundation.Data,
        endpoint: String,
        as type: DTO.Type,
        map: (DTO, RawJSON) -> Entity
    ) throws(DomainError) -> [Entity] {
        try items(bytes: [UInt8](body), endpoint: endpoint, as: type, map: map)
    }

    private static func items<DTO: Decodable, Entity>(
        bytes: [UInt8],
        endpoint: String,
        as type: DTO.Type,
        map: (DTO, RawJSON) -> Entity
    ) throws(DomainError) -> [Entity] {
        let dtos: [DTO]
        do {
            dtos = try JSONDecoder().decode([DTO].self, from: Foundation.Data(bytes))
        } catch {
            throw .malformedResponse(endpoint: endpoint, detail: describe(error))
        }
        let ranges: [Range<Int>]
        do {
            ranges = try JSONText.arrayElements(bytes)
        } catch {
            throw .malformedResponse(endpoint: endpoint, detail: error.reason)
        }
        guard ranges.count == dtos.count else {
            throw .malformedResponse(endpoint: endpoint, detail: "the array could not be split into its elements")
        }
        return zip(dtos, ranges).map { dto, range in map(dto, RawJSON(bytes: Array(bytes[range]))) }
    }

    /// A search envelope: its items keep their exact bytes, `score` included.
    static func search(from body: Foundation.Data, endpoint: String, next: PageCursor?) throws(DomainError) -> Page<
        User
    > {
        let envelope: UserSearchDTO
        do {
            envelope = try JSONDecoder().decode(UserSearchDTO.self, from: body)
        } catch {
            throw .malformedResponse(endpoint: endpoint, detail: describe(error))
        }
        let bytes = [UInt8](body)
        let members: [String: Range<Int>]
        do {
            members = try JSONText.objectMembers(bytes)
        } catch {
            throw .malformedResponse(endpoint: endpoint, detail: error.reason)
        }
        guard let itemsRange = members["items"] else {
            throw .malformedResponse(endpoint: endpoint, detail: "a required field 'items' is missing")
        }
        let users = try items(bytes: Array(bytes[itemsRange]), endpoint: endpoint, as: UserDTO.self) {
            $0.toDomain(raw: $1)
        }
        guard users.count == envelope.items.count else {
            throw .malformedResponse(endpoint: endpoint, detail: "the items could not be split")
        }
        return Page(
            items: users,
            next: next,
            totalCount: envelope.totalCount,
            incompleteResults: envelope.incompleteResults ?? false
        )
    }

    /// The buckets in a stable order: core, search, then the rest by name.
    static func rateLimits(from body: Foundation.Data, endpoint: String) throws(DomainError) -> RateLimitOverview {
        let dto: RateLimitDTO
        do {
            dto = try JSONDecoder().decode(RateLimitDTO.self, from: body)
        } catch {
            throw .malformedResponse(endpoint: endpoint, detail: describe(error))
        }
        let first = ["core", "search"]
        let names = dto.resources.keys.sorted { lhs, rhs in
            let left = first.firstIndex(of: lhs) ?? first.count
            let right = first.firstIndex(of: rhs) ?? first.count
            return left == right ? lhs < rhs : left < right
        }
        let buckets = names.compactMap { name -> RateLimitBucket? in
            guard let bucket = dto.resources[name] else { return nil }
            return RateLimitBucket(
                resource: name,
                limit: bucket.limit,
                remaining: bucket.remaining,
                used: bucket.used ?? max(0, bucket.limit - bucket.remaining),
                resetAt: Date(timeIntervalSince1970: TimeInterval(bucket.reset))
            )
        }
        var raw: [UInt8] = []
        JSONText.compact(body, into: &raw)
        return RateLimitOverview(buckets: buckets, raw: RawJSON(bytes: raw))
    }

    static func user(from body: Foundation.Data, endpoint: String) throws(DomainError) -> User {
        do {
            let dto = try JSONDecoder().decode(UserDTO.self, from: body)
            var raw: [UInt8] = []
            JSONText.compact(body, into: &raw)
            return dto.toDomain(raw: RawJSON(bytes: raw))
        } catch {
            throw .malformedResponse(endpoint: endpoint, detail: describe(error))
        }
    }

    private static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, _):
            return "a required field '\(key.stringValue)' is missing"
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            return "a field has the wrong type" + (path.isEmpty ? "" : " at '\(path)'")
        case DecodingError.dataCorrupted:
            return "the body is not valid JSON"
        default:
            return "the body could not be read"
        }
    }
}
