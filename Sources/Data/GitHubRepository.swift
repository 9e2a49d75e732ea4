import AtomicCore
import AtomicLogger
import Domain
import Foundation
import JSONBytes
import Networking

/// Reads any resource of the endpoint catalog from GitHub's REST API: through the conditional cache, with the
/// one status mapping, and with the resource's own decoder. It also answers `show`'s profile lookups and the
/// GraphQL queries (profiles in batches, contribution calendars, stargazers).
package struct GitHubRepository: ResourceRepository, UsersRepository, ActionRepository, GraphQLProfilesRepository,
    ContributionsRepository, StargazersRepository
{
    private let fetcher: ConditionalFetcher
    private let client: HTTPClient
    private let apiRoot: URL
    private let logger: Logger
    /// A run that spends a per-minute limit by design: see `waitingOutPerMinuteLimits()`.
    private var waitsOutPerMinuteLimits = false

    package init(
        client: HTTPClient,
        cache: CacheSettings = .disabled,
        logger: Logger = .disabled,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        fetcher = ConditionalFetcher(client: client, settings: cache, logger: logger, now: now)
        self.client = client
        self.logger = logger
        apiRoot = client.configuration.baseURL
    }

    package func fetch<Value: Sendable>(_ resource: Resource<Value>, nextPage: NextPageListener?)
        async throws(DomainError) -> Value
    {
        try await fetch(resource, at: url(resource.target), nextPage: nextPage)
    }

    package func waitingOutPerMinuteLimits() -> any ResourceRepository {
        var repository = self
        repository.waitsOutPerMinuteLimits = true
        return repository
    }

    /// The root was a valid URL and the catalog's additions are ASCII-safe, so this cannot fail.
    private func url(_ target: String) -> URL {
        var root = apiRoot.absoluteString
        while root.hasSuffix("/") { root.removeLast() }
        return URL(string: root + target)!
    }

    package func describe(_ action: Action) -> String {
        action.method.rawValue + " " + url(action.path).absoluteString
    }

    /// Writes go straight to GitHub, past the cache: GitHub asks for `Content-Length: 0` on a PUT without a body.
    @discardableResult
    package func perform(_ action: Action) async throws(DomainError) -> ResourceBody {
        // A write is never answered from the cache, so --offline has nothing to offer it: it is never sent.
        guard fetcher.settings.mode != .offline else { throw .notCached(resource: describe(action)) }
        var request = client.makeRequest(Self.method(action.method), url(action.path))
        if let body = action.body {
            request.headers.set("Content-Type", "application/json")
            request.body = Foundation.Data(body)
        } else if action.method == .put {
            request.headers.set("Content-Length", "0")
        }
        let response: HTTPResponse
        do {
            response = try await client.sendReportingAttempts(request)
        } catch {
            let mapped = ErrorMapping.domainError(
                for: error, endpoint: describe(action), apiRoot: apiRoot, cachedCopy: false)
            guard error.error.mayHaveReachedServer, case .network(let text, let advice, let id) = mapped else {
                throw mapped
            }
            // A write is never sent twice, so whether it was made is for the user to look at.
            let arrived = NetworkAdvice.writeMayHaveArrived(
                method: action.method.rawValue, check: action.lostAnswerCheck)
            throw .network(text, advice: advice + [arrived], requestID: id)
        }
        if (300..<400).contains(response.status) {
            // The transport does not follow a write's redirect: sent again to the Location, it could follow or
            // unfollow another account, or carry the token to another host.
            let target = response.headers["Location"].map { " to \($0)" } ?? ""
            throw .server(
                status: response.status,
                message: "the \(action.method.rawValue) was redirected\(target); a write is never sent anywhere "
                    + "but where it was asked, so it was not followed",
                requestID: ErrorMapping.requestID(response))
        }
        if let error = ErrorMapping.domainError(for: response, resource: action.missing) {
            throw ErrorMapping.ownResourceRefusal(error, endpoint: action.endpoint)
        }
        do {
            try ResponseDecoder.refuseDeepNesting(response.body, endpoint: describe(action))
        } catch {
            throw error.answered(requestID: ErrorMapping.requestID(response))
        }
        return ResourceBody(
            bytes: [UInt8](response.body), next: nil, label: describe(action), headers: Self.headers(response),
            status: response.status)
    }

    /// The answer's headers by lower-cased name, as a decoder reads them.
    private static func headers(_ response: HTTPResponse) -> [String: String] {
        var headers: [String: String] = [:]
        for field in response.headers.fields { headers[field.name.lowercased()] = field.value }
        return headers
    }

    private static func method(_ method: Endpoint.Method) -> HTTPMethod {
        switch method {
        case .get: return .get
        case .post: return .post
        case .put: return .put
        case .patch: return .patch
        case .delete: return .delete
        }
    }

    package func page<Item: Sendable>(_ list: ListResource<Item>, at cursor: PageCursor, nextPage: NextPageListener?)
        async throws(DomainError) -> Page<Item>
    {
        let url = try ErrorMapping.nextPageURL(cursor.url, apiRoot: apiRoot, endpoint: "GET " + list.first.path)
        return try await fetch(list.first, at: url, nextPage: nextPage)
    }

    package func user(login: Login) async throws(DomainError) -> User {
        try await fetch(GitHubEndpoints.user(login))
    }

    package func user(id: Int64) async throws(DomainError) -> User {
        try await fetch(GitHubEndpoints.user(id: id))
    }

    /// One batch of GraphQL lookups (`graphQL(_:decode:)`). A refusal of the query itself is said once.
    package func profiles(_ logins: [Login]) async throws(GraphQLBatchFailure) -> GraphQLBatch {
        do {
            let batch = try await graphQL(GraphQLProfileQuery.body(for: logins)) {
                response, endpoint throws(GraphQLBatchFailure) in
                try GraphQLProfileResponse.decode(response, logins: logins, endpoint: endpoint)
            }
            logger.debug(
                "GraphQL batch of \(logins.count): cost \(batch.cost.map { $0 == 1 ? "1 point" : "\($0) points" } ?? "unknown"), "
                    + "\(batch.remaining.map(String.init) ?? "unknown") remaining")
            return batch
        } catch {
            if case .unsupported(let reason) = error {
                // Said once: the run asks GraphQL nothing more after this.
                logger.warning(
                    "the GraphQL API refused the profile query, so the rest of the run fetches profiles from "
                        + "REST, one request each (the debug log says why)")
                logger.debug("GraphQL refusal: \(HTTPClient.traceText(reason))")
            }
            throw error
        }
    }

    /// One GraphQL query: a POST past the cache (GraphQL answers carry no validators), retried through network
    /// failures and 5xx as a GET is, since a query changes nothing. A spent `graphql` limit that `decode` reports
    /// is waited out here when `--wait-on-rate-limit` says so, as the client does for REST.
    func graphQL<Value>(
        _ body: [UInt8], decode: (HTTPResponse, String) throws(GraphQLBatchFailure) -> Value
    ) async throws(GraphQLBatchFailure) -> Value {
        let url = GitHubEndpoints.graphQLURL(apiRoot: apiRoot)
        let endpoint = "POST " + url.path
        // GraphQL answers are never cached (they carry no validators), so --offline can answer none of them.
        guard fetcher.settings.mode != .offline else { throw .failed(.notCached(resource: endpoint)) }
        var request = client.makeJSONPost(url, body: Foundation.Data(body))
        request.isRepeatableQuery = true
        var waits = 0
        while true {
            let response: HTTPResponse
            do {
                response = try await client.sendReportingAttempts(request)
            } catch {
                throw .failed(
                    ErrorMapping.domainError(for: error, endpoint: endpoint, apiRoot: apiRoot, cachedCopy: false))
            }
            let requestID = ErrorMapping.requestID(response)
            do {
                try ResponseDecoder.refuseDeepNesting(response.body, endpoint: endpoint)
            } catch {
                throw .failed(error.answered(requestID: requestID))
            }
            do {
                return try decode(response, endpoint)
            } catch .failed(.rateLimited(let resetAt?, let message, let resource, _)) {
                waits += 1
                guard waits <= HTTPClient.maximumPrimaryLimitWaits else {
                    throw .failed(
                        .rateLimited(resetAt: resetAt, message: message, resource: resource, requestID: requestID))
                }
                let waited: Bool
                do {
                    waited = try await client.waitForRateLimitReset(resetAt, bucket: resource ?? "graphql")
                } catch {
                    throw .failed(.cancelled)
                }
                if !waited {
                    throw .failed(
                        .rateLimited(resetAt: resetAt, message: message, resource: resource, requestID: requestID))
                }
            } catch .failed(let failure) {
                // The failure names the answer it came from, as a REST failure does.
                throw .failed(failure.answered(requestID: requestID))
            } catch {
                throw error
            }
        }
    }

    private func fetch<Value: Sendable>(_ resource: Resource<Value>, at url: URL, nextPage: NextPageListener? = nil)
        async throws(DomainError) -> Value
    {
        let label = ErrorMapping.label(url)
        let onHead = nextPage.map { listener in
            HeadObserver.nextPage { url, bytes in listener(NextPageNotice(url: url, bodyBytes: bytes)) }
        }
        var response = try await answer(resource, at: url, label: label, onHead: onHead)
        if let error = ErrorMapping.domainError(for: response, resource: resource.missing) {
            throw ErrorMapping.ownResourceRefusal(error, endpoint: resource.endpoint, url: url)
        }
        let next = LinkHeader(response.headers["Link"]).next.map(PageCursor.init(url:))
        do {
            try ResponseDecoder.refuseDeepNesting(response.body, endpoint: label)
            // The body is decoded from its bytes alone: the answer's own copy goes first, so a page up to the
            // body cap is not held twice while its entities are made (issue 38).
            let bytes = [UInt8](response.body)
            response.body = Foundation.Data()
            // The pieces the body arrived in were freed on the transport's threads, whose allocator arenas the
            // decoding thread does not reuse: a big body's are handed back before its entities are made.
            if bytes.count > ResponseDecoder.oneByOneBytes { FreedMemory.giveBack() }
            return try resource.decode(
                ResourceBody(
                    bytes: bytes, next: next, label: label, headers: Self.headers(response),
                    status: response.status, answeredPath: response.url.path == url.path ? nil : response.url.path))
        } catch {
            throw error.answered(requestID: ErrorMapping.requestID(response))
        }
    }

    /// The resource's answer through the cache. In a run that waits out per-minute limits, a spent limit of an
    /// endpoint whose row says it refills within a minute is sat out and the request asked again, at most
    /// `HTTPClient.maximumPrimaryLimitWaits` times, as the client waits under `--wait-on-rate-limit`. A list's
    /// page answered 202 Accepted is never data (GitHub is still computing it): it is asked for again after each
    /// of `HTTPClient.computingWaits`, and after the last the run ends saying to run it again later.
    private func answer<Value: Sendable>(_ resource: Resource<Value>, at url: URL, label: String, onHead: HeadObserver?)
        async throws(DomainError) -> HTTPResponse
    {
        var waits = 0
        var computing = HTTPClient.computingWaits.makeIterator()
        while true {
            let response = try await fetcher.get(
                url, endpoint: label, cacheable: resource.cacheable, accept: resource.accept, onHead: onHead)
            if response.status == 202, resource.endpoint.paging != .single {
                guard let wait = computing.next() else {
                    let total = Int(HTTPClient.computingWaits.reduce(.zero, +).inSeconds)
                    throw .refused(
                        "GitHub is still computing \(label) (HTTP 202, asked \(HTTPClient.computingWaits.count + 1) "
                            + "times over \(total)s); run the command again later")
                }
                do {
                    try await client.waitWhileComputing(wait)
                } catch {
                    throw .cancelled
                }
                continue
            }
            guard waitsOutPerMinuteLimits, resource.endpoint.rateLimit.refillsWithinAMinute,
                waits < HTTPClient.maximumPrimaryLimitWaits
            else { return response }
            waits += 1
            do {
                guard try await client.waitOutSpentLimit(response) else { return response }
            } catch {
                throw .cancelled
            }
        }
    }
}

/// Decodes bodies into entities, keeping each object's exact bytes for JSON output. A list answered
/// `204 No Content` is an empty page that says so (`Page.noContent`), never a malformed body.
enum ResponseDecoder {
    /// Every answer, before it is read: one nested deeper than `JSONText.maximumDepth` is no object GitHub
    /// has, and indented it would print the square of its depth, so it is refused as malformed, whatever reads it.
    static func refuseDeepNesting(_ body: some Collection<UInt8>, endpoint: String) throws(DomainError) {
        guard JSONText.nests(body, deeperThan: JSONText.maximumDepth) else { return }
        throw .malformedResponse(
            endpoint: endpoint,
            detail: "the answer nests objects or arrays more than \(JSONText.maximumDepth) levels deep, "
                + "where GitHub's are a few levels deep")
    }

    /// A page that is a JSON array of `DTO`s, each entity keeping its element's exact bytes.
    static func list<DTO: Decodable & Sendable, Entity: Sendable>(
        of type: DTO.Type,
        map: @escaping @Sendable (DTO, RawJSON) -> Entity
    ) -> @Sendable (ResourceBody) throws(DomainError) -> Page<Entity> {
        { body throws(DomainError) in
            if body.noContent { return .noContent }
            var page = Page(
                items: try items(bytes: body.bytes, endpoint: body.label, as: DTO.self, map: map), next: body.next)
            page.bodyBytes = body.bytes.count
            return page
        }
    }

    /// A page of records that need no typed field: each element's bytes, and its numeric `id` when it has one.
    @Sendable static func records(_ body: ResourceBody) throws(DomainError) -> Page<Record> {
        if body.noContent { return .noContent }
        let elements = try elements(body.bytes, endpoint: body.label)
        // Every record is an object, as every account of a list is: a null, a number or an array is no record.
        for (index, range) in elements.enumerated() where body.bytes[range.lowerBound] != UInt8(ascii: "{") {
            throw .malformedResponse(
                endpoint: body.label, detail: "item \(index + 1) is \(kind(of: body.bytes[range])), not an object")
        }
        let records = elements.map { range -> Record in
            let raw = Array(body.bytes[range])
            return Record(id: Int64(JSONText.text(of: "id", in: raw)), raw: RawJSON(bytes: raw))
        }
        var page = Page(items: records, next: body.next)
        page.bodyBytes = body.bytes.count
        return page
    }

    /// A body past this size is decoded one element at a time. Decoded whole, JSONDecoder's view of every element
    /// and every DTO exist at once beside the entities, and the body cap is per page: four 63 MB pages of
    /// GitHub's collaborators peaked at 546-675 MiB decoded whole, 427-453 MiB one by one (issue 38,
    /// docs/PERFORMANCE.md). GitHub's pages (about 130 KB) are decoded whole, as fast as before.
    static let oneByOneBytes = 4 << 20

    static func items<DTO: Decodable, Entity>(
        bytes: [UInt8],
        endpoint: String,
        as type: DTO.Type,
        oneByOneFrom threshold: Int = oneByOneBytes,
        map: (DTO, RawJSON) -> Entity
    ) throws(DomainError) -> [Entity] {
        if bytes.count > threshold { return try itemsOneByOne(bytes: bytes, endpoint: endpoint, as: type, map: map) }
        let dtos: [DTO]
        do {
            dtos = try JSONDecoder().decode([DTO].self, from: Foundation.Data(bytes))
        } catch {
            throw .malformedResponse(endpoint: endpoint, detail: describe(error, in: bytes))
        }
        let ranges = try elements(bytes, endpoint: endpoint)
        guard ranges.count == dtos.count else {
            throw .malformedResponse(endpoint: endpoint, detail: "the array could not be split into its elements")
        }
        return zip(dtos, ranges).map { dto, range in map(dto, RawJSON(bytes: Array(bytes[range]))) }
    }

    /// `items`, each element decoded and mapped before the next, so only one DTO exists at a time.
    private static func itemsOneByOne<DTO: Decodable, Entity>(
        bytes: [UInt8], endpoint: String, as type: DTO.Type, map: (DTO, RawJSON) -> Entity
    ) throws(DomainError) -> [Entity] {
        let ranges = try elements(bytes, endpoint: endpoint)
        let decoder = JSONDecoder()
        var entities: [Entity] = []
        entities.reserveCapacity(ranges.count)
        for (index, range) in ranges.enumerated() {
            let raw = Array(bytes[range])
            let dto: DTO
            do {
                dto = try decoder.decode(DTO.self, from: Foundation.Data(raw))
            } catch {
                throw .malformedResponse(endpoint: endpoint, detail: "item \(index + 1): " + describe(error, in: raw))
            }
            entities.append(map(dto, RawJSON(bytes: raw)))
        }
        return entities
    }

    private static func elements(_ bytes: [UInt8], endpoint: String) throws(DomainError) -> [Range<Int>] {
        do {
            return try JSONText.arrayElements(bytes)
        } catch {
            throw .malformedResponse(endpoint: endpoint, detail: error.reason)
        }
    }

    /// A search envelope: its items keep their exact bytes, `score` included.
    @Sendable static func search(_ body: ResourceBody) throws(DomainError) -> Page<User> {
        if body.noContent { return .noContent }
        let endpoint = body.label
        let envelope: UserSearchDTO
        do {
            envelope = try JSONDecoder().decode(UserSearchDTO.self, from: Foundation.Data(body.bytes))
        } catch {
            throw .malformedResponse(endpoint: endpoint, detail: describe(error, in: body.bytes))
        }
        let bytes = body.bytes
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
        var page = Page(
            items: users,
            next: body.next,
            totalCount: envelope.totalCount,
            incompleteResults: envelope.incompleteResults ?? false
        )
        page.bodyBytes = bytes.count
        return page
    }

    /// The buckets in a stable order: core, search, then the rest by name.
    static func rateLimits(_ body: ResourceBody) throws(DomainError) -> RateLimitOverview {
        let dto: RateLimitDTO
        do {
            dto = try JSONDecoder().decode(RateLimitDTO.self, from: Foundation.Data(body.bytes))
        } catch {
            throw .malformedResponse(endpoint: body.label, detail: describe(error, in: body.bytes))
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
        JSONText.compact(body.bytes, into: &raw)
        return RateLimitOverview(buckets: buckets, raw: RawJSON(bytes: raw))
    }

    /// `{"contexts": [{"message", "octicon"}]}`, kept as sent (compacted) once it is found to be that shape.
    @Sendable static func hovercard(_ body: ResourceBody) throws(DomainError) -> Record {
        do {
            _ = try JSONDecoder().decode(HovercardDTO.self, from: Foundation.Data(body.bytes))
        } catch {
            throw .malformedResponse(endpoint: body.label, detail: describe(error, in: body.bytes))
        }
        var raw: [UInt8] = []
        JSONText.compact(body.bytes, into: &raw)
        return Record(id: nil, raw: RawJSON(bytes: raw))
    }

    static func user(_ body: ResourceBody) throws(DomainError) -> User {
        do {
            let dto = try JSONDecoder().decode(UserDTO.self, from: Foundation.Data(body.bytes))
            var raw: [UInt8] = []
            JSONText.compact(body.bytes, into: &raw)
            return dto.toDomain(raw: RawJSON(bytes: raw))
        } catch {
            throw .malformedResponse(endpoint: body.label, detail: describe(error, in: body.bytes))
        }
    }

    /// What a JSON value is, in words: "null", "a number", "an array".
    private static func kind(of value: ArraySlice<UInt8>) -> String {
        switch value.first {
        case UInt8(ascii: "n"): return "null"
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return "a boolean"
        case UInt8(ascii: "\""): return "a string"
        case UInt8(ascii: "["): return "an array"
        default: return "a number"
        }
    }

    /// The counts and ids GitHub sends as whole numbers, by key: what a number that does not fit was.
    private static let wholeNumberKeys = ["id", "public_repos", "public_gists", "followers", "following"]

    /// A decoding error in words. Foundation on Linux calls a count of 1.5 "not valid JSON" with no key, so when
    /// the body is valid JSON, the first count that is not a whole number is named, in the object or its items.
    private static func describe(_ error: any Error, in bytes: [UInt8]) -> String {
        guard case DecodingError.dataCorrupted = error,
            (try? JSONSerialization.jsonObject(with: Foundation.Data(bytes), options: .fragmentsAllowed)) != nil
        else { return describe(error) }
        var objects = [bytes]
        if let items = JSONText.value(at: ["items"], in: bytes) { objects.append(items) }
        objects += objects.flatMap { array in
            ((try? JSONText.arrayElements(array)) ?? []).map { Array(array[$0]) }
        }
        for object in objects {
            guard let members = try? JSONText.objectMembers(object) else { continue }
            for key in wholeNumberKeys {
                guard let range = members[key], object[range.lowerBound] != UInt8(ascii: "n") else { continue }
                let value = String(decoding: object[range].prefix(40), as: UTF8.self)
                if Int64(value) == nil { return "\(key) is \(value), not a whole number" }
            }
        }
        return "a value does not fit its field"
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

/// The shape `GET /users/{username}/hovercard` documents; only checked, the bytes are what is kept.
private struct HovercardDTO: Decodable {
    struct Context: Decodable {
        let message: String
        let octicon: String
    }

    let contexts: [Context]
}
