/// The body GitHub sent, handed to a resource's decoder together with what the response said about paging.
package struct ResourceBody: Sendable {
    package let bytes: [UInt8]
    /// Where the response says the next page is (`Link: rel="next"`), if anywhere.
    package let next: PageCursor?
    /// A label for messages ("GET /users/octocat").
    package let label: String
    /// The response's headers, by lower-cased name (`x-oauth-scopes`).
    package let headers: [String: String]

    package init(bytes: [UInt8], next: PageCursor?, label: String, headers: [String: String] = [:]) {
        self.bytes = bytes
        self.next = next
        self.label = label
        self.headers = headers
    }
}

/// One GitHub resource, described well enough to fetch it: an API path, its query, what a 404 means, and how
/// to turn the body into a value. Data's endpoint catalog is the only place that builds these, so paths and
/// DTOs stay in Data while everything above names resources without seeing a URL or an HTTP type.
package struct Resource<Value: Sendable>: Sendable {
    /// The path under the API root, already percent-encoded (`/users/octocat/followers`).
    package let path: String
    /// `name=value` pairs, already encoded, in the order they are sent.
    package let query: [String]
    /// What a 404 lacks, in words ("user 'octocat'").
    package let missing: String
    /// The media type to ask for, when GitHub's default (`application/vnd.github+json`) is not the one.
    package let accept: String?
    /// False for answers that must always be live (`/rate_limit`); they are neither stored nor revalidated.
    package let cacheable: Bool
    /// A spent rate limit is waited out (up to `--max-wait`) instead of ending the run, even without
    /// `--wait-on-rate-limit`: a split search spends its per-minute limit by design.
    package let waitsOutSpentLimit: Bool
    package let decode: @Sendable (ResourceBody) throws(DomainError) -> Value

    package init(
        path: String,
        query: [String] = [],
        missing: String,
        accept: String? = nil,
        cacheable: Bool = true,
        waitsOutSpentLimit: Bool = false,
        decode: @escaping @Sendable (ResourceBody) throws(DomainError) -> Value
    ) {
        self.path = path
        self.query = query
        self.missing = missing
        self.accept = accept
        self.cacheable = cacheable
        self.waitsOutSpentLimit = waitsOutSpentLimit
        self.decode = decode
    }

    /// `path?query`, as fakes and messages key it.
    package var target: String {
        query.isEmpty ? path : path + "?" + query.joined(separator: "&")
    }

    /// The same resource with one more query item (`per_page=100`).
    package func adding(_ item: String) -> Resource<Value> {
        Resource(
            path: path, query: query + [item], missing: missing, accept: accept, cacheable: cacheable,
            waitsOutSpentLimit: waitsOutSpentLimit, decode: decode)
    }
}

/// A list GitHub serves page by page: its first page, and how to read every later one (the `Link` URLs).
package struct ListResource<Item: Sendable>: Sendable {
    package let first: Resource<Page<Item>>

    package init(first: Resource<Page<Item>>) {
        self.first = first
    }

    /// The first page with `per_page` set.
    package func firstPage(perPage: Int) -> Resource<Page<Item>> {
        first.adding("per_page=\(perPage)")
    }
}

/// Reads any resource from GitHub. Implementations throw only `DomainError`; Data's is the only live one.
package protocol ResourceRepository: Sendable {
    func fetch<Value: Sendable>(_ resource: Resource<Value>) async throws(DomainError) -> Value
    /// The page a `Link` URL points at, decoded as the list's pages are.
    func page<Item: Sendable>(_ list: ListResource<Item>, at cursor: PageCursor) async throws(DomainError) -> Page<Item>
}

extension ResourceRepository {
    package func firstPage<Item: Sendable>(_ list: ListResource<Item>, perPage: Int) async throws(DomainError)
        -> Page<Item>
    {
        try await fetch(list.firstPage(perPage: perPage))
    }
}

/// Any record GitHub lists that gh-users needs no typed field of: keys, orgs, gists, events. Its columns are
/// read from the JSON by key.
package struct Record: Sendable, Equatable {
    /// GitHub's `id`, when the record has a numeric one; used to never write a record twice.
    package let id: Int64?
    package let raw: RawJSON

    package init(id: Int64?, raw: RawJSON) {
        self.id = id
        self.raw = raw
    }
}

/// A change to make on GitHub (`PUT /user/following/octocat`): sent once, never cached, answered by a status.
package struct Action: Sendable, Equatable {
    package enum Method: String, Sendable {
        case put = "PUT"
        case delete = "DELETE"
    }

    package let method: Method
    /// The path under the API root, already percent-encoded.
    package let path: String
    /// What a 404 lacks, in words ("user 'octocat'").
    package let missing: String

    package init(_ method: Method, path: String, missing: String) {
        self.method = method
        self.path = path
        self.missing = missing
    }
}

/// Changes on GitHub. Implementations throw only `DomainError`.
package protocol ActionRepository: Sendable {
    func perform(_ action: Action) async throws(DomainError)
    /// The request an action would send, as `METHOD URL`, for a dry run.
    func describe(_ action: Action) -> String
}
