/// The body GitHub sent, handed to a resource's decoder together with what the response said about paging.
package struct ResourceBody: Sendable {
    package let bytes: [UInt8]
    /// Where the response says the next page is (`Link: rel="next"`), if anywhere.
    package let next: PageCursor?
    /// A label for messages ("GET /users/octocat").
    package let label: String
    /// The response's headers, by lower-cased name (`x-oauth-scopes`).
    package let headers: [String: String]
    /// The success status it came with: an answer that is its status alone (`204 No Content`) is told from
    /// another 2xx by it.
    package let status: Int
    /// The answer was `204 No Content`: there is no body to read.
    package var noContent: Bool { status == 204 }
    /// The path that answered, when a redirect within the origin took the request elsewhere (GitHub sends a
    /// non-member's `/orgs/{org}/members` to `/orgs/{org}/public_members`); nil when the path asked answered.
    package var answeredPath: String?

    package init(
        bytes: [UInt8], next: PageCursor?, label: String, headers: [String: String] = [:], status: Int = 200,
        answeredPath: String? = nil
    ) {
        self.bytes = bytes
        self.next = next
        self.label = label
        self.headers = headers
        self.status = status
        self.answeredPath = answeredPath
    }
}

/// One GitHub resource, described well enough to fetch it: the endpoint row it is an instance of, its path and
/// query, what a 404 means, and how to turn the body into a value. Data's endpoint catalog is the only place
/// that builds these, so paths and DTOs stay in Data while everything above names resources without seeing a
/// URL or an HTTP type.
package struct Resource<Value: Sendable>: Sendable {
    /// The operation this is one request of: it decides the path's shape, the query keys that may be sent, the
    /// media type, whether the answer is cached and which rate limit is spent.
    package let endpoint: Endpoint
    /// The path under the API root, already percent-encoded (`/users/octocat/followers`).
    package let path: String
    /// `name=value` pairs, already encoded, in the order they are sent.
    package let query: [String]
    /// What a 404 lacks, in words ("user 'octocat'").
    package let missing: String
    package let decode: @Sendable (ResourceBody) throws(DomainError) -> Value
    /// Asked without the cache's validators, so the answer is a 200 however old the cached copy (`fresh()`).
    package private(set) var asksFresh = false
    /// Asked fresh, and never answered from the cached copy, not even when GitHub cannot be reached (`live()`).
    package private(set) var asksLive = false

    /// `segments` fill the row's path placeholders in order, already percent-encoded; every query key must be
    /// one the row allows.
    package init(
        _ endpoint: Endpoint,
        _ segments: String...,
        query: [String] = [],
        missing: String,
        decode: @escaping @Sendable (ResourceBody) throws(DomainError) -> Value
    ) {
        self.init(endpoint, path: endpoint.path(segments), query: query, missing: missing, decode: decode)
    }

    /// The same, for segments held in an array (a repository's owner and name).
    package init(
        _ endpoint: Endpoint,
        segments: [String],
        query: [String] = [],
        missing: String,
        decode: @escaping @Sendable (ResourceBody) throws(DomainError) -> Value
    ) {
        self.init(endpoint, path: endpoint.path(segments), query: query, missing: missing, decode: decode)
    }

    private init(
        _ endpoint: Endpoint,
        path: String,
        query: [String],
        missing: String,
        decode: @escaping @Sendable (ResourceBody) throws(DomainError) -> Value
    ) {
        for item in query {
            let key = String(item.prefix { $0 != "=" })
            precondition(endpoint.accepts(queryKey: key), "\(endpoint) takes no query key '\(key)'")
        }
        self.endpoint = endpoint
        self.path = path
        self.query = query
        self.missing = missing
        self.decode = decode
    }

    /// The media type to ask for, when GitHub's default (`application/vnd.github+json`) is not the one.
    package var accept: String? { endpoint.mediaType }

    /// False for answers that must always be live (`/rate_limit`) or have no body; they are neither stored nor
    /// revalidated.
    package var cacheable: Bool { endpoint.isCacheable }

    /// `path?query`, as fakes and messages key it.
    package var target: String {
        query.isEmpty ? path : path + "?" + query.joined(separator: "&")
    }

    /// The same resource with one more query item (`per_page=100`).
    package func adding(_ item: String) -> Resource<Value> {
        var added = Resource(endpoint, path: path, query: query + [item], missing: missing, decode: decode)
        (added.asksFresh, added.asksLive) = (asksFresh, asksLive)
        return added
    }

    /// The same resource asked without the cached copy's validators: for what only a 200 carries, such as the
    /// token's scopes (`X-OAuth-Scopes`), which GitHub's 304s leave out, so that a 304 would show the scopes the
    /// token had when the copy was stored. The answer is still stored, for `--offline`.
    package func fresh() -> Resource<Value> {
        var fresh = self
        fresh.asksFresh = true
        return fresh
    }

    /// The same resource asked fresh, its failure a failure: for what a write has just changed, where the copy
    /// from before it would show the old values as the new (`me edit`'s profile after GitHub's 204).
    package func live() -> Resource<Value> {
        var live = fresh()
        live.asksLive = true
        return live
    }

    /// The same request, its value turned into another (the profile part of `GET /user`'s answer).
    package func map<Other: Sendable>(_ transform: @escaping @Sendable (Value) -> Other) -> Resource<Other> {
        let decode = self.decode
        var mapped = Resource<Other>(endpoint, path: path, query: query, missing: missing) {
            body throws(DomainError) in
            transform(try decode(body))
        }
        (mapped.asksFresh, mapped.asksLive) = (asksFresh, asksLive)
        return mapped
    }
}

/// A list GitHub serves page by page: its first page, and how to read every later one (the `Link` URLs).
package struct ListResource<Item: Sendable>: Sendable {
    package let first: Resource<Page<Item>>
    /// For a list under an organization, a team or a repository: the owner itself, asked for when the first page
    /// is a 404 (`firstPage(_:perPage:)`).
    package let owner: Resource<Record>?
    /// For a team's list: the team, whose 404 under an organization that exists is no team the token can see.
    package let team: TeamName?

    package init(first: Resource<Page<Item>>, owner: Resource<Record>? = nil, team: TeamName? = nil) {
        precondition(first.endpoint.paging != .single, "\(first.endpoint) is not a list")
        self.first = first
        self.owner = owner
        self.team = team
    }

    /// The first page with `per_page` set.
    package func firstPage(perPage: Int) -> Resource<Page<Item>> {
        first.adding("per_page=\(perPage)")
    }
}

/// What an answer's head says of the next page before its body is read and decoded (GitHub sends `Link` in the
/// head): its URL, as the head gave it, and the length of the body this head announces (nil when it announces
/// none, or a compressed one), so that a paging loop can ask fewer pages ahead when pages are big. A head that
/// announced no length is told again as its body grows, with what has arrived so far as `bodyBytes`: a chunked
/// body is then known to be big before it ends (issue 38).
package struct NextPageNotice: Sendable, Equatable {
    package let url: String
    package let bodyBytes: Int?

    package init(url: String, bodyBytes: Int? = nil) {
        self.url = url
        self.bodyBytes = bodyBytes
    }
}

/// Told a page's `NextPageNotice` as soon as its head arrives, once per attempt, on the transport's queue.
package typealias NextPageListener = @Sendable (NextPageNotice) -> Void

/// Reads any resource from GitHub. Implementations throw only `DomainError`; Data's is the live one, and the
/// list view model's tests hold pages in memory.
package protocol ResourceRepository: Sendable {
    /// `resource`; a list's page tells `nextPage` of the page after it as soon as its head arrives, if given.
    func fetch<Value: Sendable>(_ resource: Resource<Value>, nextPage: NextPageListener?) async throws(DomainError)
        -> Value
    /// The page a `Link` URL points at, decoded as the list's pages are; `nextPage` as for `fetch`.
    func page<Item: Sendable>(_ list: ListResource<Item>, at cursor: PageCursor, nextPage: NextPageListener?)
        async throws(DomainError) -> Page<Item>
    /// This repository for a run that spends a per-minute limit by design (a split search's many queries): when
    /// the limit of an endpoint whose row says it refills within a minute is spent, the wait is sat out, as far
    /// as `--max-wait` allows, and the request asked again, instead of ending the run.
    func waitingOutPerMinuteLimits() -> any ResourceRepository
}

extension ResourceRepository {
    package func fetch<Value: Sendable>(_ resource: Resource<Value>) async throws(DomainError) -> Value {
        try await fetch(resource, nextPage: nil)
    }

    package func page<Item: Sendable>(_ list: ListResource<Item>, at cursor: PageCursor) async throws(DomainError)
        -> Page<Item>
    {
        try await page(list, at: cursor, nextPage: nil)
    }

    /// The list's first page. GitHub answers 404 alike for an owner that does not exist and for a list the token
    /// may not see (`members nosuchorg`, `collaborators owner/private-repo`), so a 404 of a list under an owner
    /// asks for the owner once (`ListResource.owner`, see `ownerAnswer(to:of:)`). `nextPage` as for `fetch`.
    package func firstPage<Item: Sendable>(
        _ list: ListResource<Item>, perPage: Int, nextPage: NextPageListener? = nil
    ) async throws(DomainError) -> Page<Item> {
        do {
            return try await fetch(list.firstPage(perPage: perPage), nextPage: nextPage)
        } catch {
            guard let owner = list.owner else { throw error }
            throw await ownerAnswer(to: error, of: owner, team: list.team)
        }
    }

    /// The one rule for a 404 under an owner: its lookup (`GET /orgs/{org}`, `GET /repos/{owner}/{repo}`) is a 404
    /// too, and the owner does not exist (exit 3, naming it); it answers, and the list is withheld from this
    /// token, a refusal that names the scope the list's row needs, if any (exit 4). A `team`'s list, whose lookup
    /// is its organization's, may be a team that is not there as well: the refusal says so (`.unseenTeam`). Any
    /// other failure of the list is its own, and so is one of the lookup, but under GraphQL's `NOT_FOUND`, which
    /// says nothing of the token: there the lookup's. `scope` is the list's, for a 404 that names none.
    package func ownerAnswer(
        to error: DomainError, of owner: Resource<Record>, team: TeamName? = nil, scope listScope: String? = nil
    ) async -> DomainError {
        let requestID: String?
        let scope: String?
        var byGraphQL = false
        var hidden = false
        switch error {
        case .notFound(_, let id, let graphQL): (requestID, scope, byGraphQL) = (id, listScope, graphQL)
        case .unauthorized(404, _, .scope(let accepted), let id): (requestID, scope) = (id, accepted)
        case .unauthorized(404, _, .hidden, let id): (requestID, scope, hidden) = (id, nil, true)
        default: return error
        }
        do throws(DomainError) {
            _ = try await fetch(owner)
        } catch let lookup {
            if case .notFound = lookup { return lookup }
            // GraphQL's not-found says nothing of the token: what stopped the lookup (a spent limit, a server
            // error) is the answer, not a team that is not there.
            return byGraphQL ? lookup : error
        }
        return .unauthorized(
            status: 404, message: "Not Found, though \(owner.missing) exists",
            problem: team.map { .unseenTeam($0, scope: scope, byGraphQL: byGraphQL) }
                ?? (hidden ? .hidden : .scope(accepted: scope)),
            requestID: requestID)
    }
}

extension ResourceRepository {
    /// A 404 from an endpoint that answers everyone who may read its owner (a public repository's star count):
    /// if the owner answers too, the server does not serve the endpoint (an Enterprise Server older than it), which
    /// is a failure (exit 1) and not an owner that does not exist (exit 3, kept when the lookup is a 404 too).
    package func unservedAnswer(to error: DomainError, of owner: Resource<Record>, asked: String) async -> DomainError {
        guard case .notFound = error else { return error }
        do throws(DomainError) {
            _ = try await fetch(owner)
        } catch {
            return error
        }
        return .refused(
            "\(asked) answered 404 though \(owner.missing) exists: this server does not serve it (an Enterprise Server "
                + "older than the endpoint, say)")
    }
}

/// Any record GitHub lists that gh-users needs no typed field of: keys, orgs, gists, events. Its columns are
/// read from the JSON by key.
package struct Record: Sendable, Equatable {
    /// GitHub's `id` when it is a number, or a digest of it when it is a string (a gist's; `ResponseDecoder.recordID`);
    /// used to never write a record twice.
    package let id: Int64?
    package let raw: RawJSON

    package init(id: Int64?, raw: RawJSON) {
        self.id = id
        self.raw = raw
    }
}

/// A change to make on GitHub (`PUT /user/following/octocat`, `PATCH /user`): sent once, never cached, answered
/// by a status, and by a body when the operation has one (`PATCH /user`'s profile as it now is).
package struct Action: Sendable, Equatable {
    /// The write operation this is one request of; its row names the scope a token needs.
    package let endpoint: Endpoint
    /// The path under the API root, already percent-encoded.
    package let path: String
    /// What a 404 lacks, in words ("user 'octocat'").
    package let missing: String
    /// The JSON the write sends (`PATCH /user`'s fields); nil sends none.
    package let body: [UInt8]?
    /// The command that shows whether the write was made ("gh-users me"), for when it was sent and its answer
    /// was lost; nil says only to check before sending it again.
    package var lostAnswerCheck: String?

    /// `segments` fill the row's path placeholders in order, already percent-encoded.
    package init(_ endpoint: Endpoint, _ segments: String..., body: [UInt8]? = nil, missing: String) {
        precondition(endpoint.method.isWrite, "\(endpoint) is not a write")
        self.endpoint = endpoint
        self.path = endpoint.path(segments)
        self.body = body
        self.missing = missing
    }

    package var method: Endpoint.Method { endpoint.method }

    /// The OAuth scope the token needs for it (`user:follow`), for the exit-4 hint.
    package var scope: String? { endpoint.scope }
}
