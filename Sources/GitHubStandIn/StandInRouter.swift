import Foundation

/// Turns one parsed request into a reply: faults first, then credentials, rate limit, routing and revalidation.
struct StandInRouter: Sendable {
    let population: StandInPopulation
    let configuration: StandInConfiguration
    let baseURL: String
    let ledger: StandInLedger
    /// Paging through search results repeats the same query once per page; scanning 100,000 accounts each time
    /// would dominate the cost.
    let searchCache = StandInSearchCache()

    static let notFoundBody =
        #"{"message":"Not Found","documentation_url":"https://docs.github.com/rest","status":"404"}"#
    static let userNotFoundBody =
        #"{"message":"Not Found","documentation_url":"https://docs.github.com/rest/users/users#get-a-user","status":"404"}"#
    static let repositoriesNotFoundBody =
        #"{"message":"Not Found","documentation_url":"https://docs.github.com/rest/repos/repos#list-repositories-for-a-user","status":"404"}"#
    static let followersNotFoundBody =
        #"{"message":"Not Found","documentation_url":"https://docs.github.com/rest/users/followers#list-followers-of-a-user","status":"404"}"#
    static let followingNotFoundBody =
        #"{"message":"Not Found","documentation_url":"https://docs.github.com/rest/users/followers#list-the-people-a-user-follows","status":"404"}"#
    static let badCredentialsBody =
        #"{"message":"Bad credentials","documentation_url":"https://docs.github.com/rest","status":"401"}"#
    static let searchQueryMissingBody =
        #"{"message":"Validation Failed","errors":[{"resource":"Search","field":"q","code":"missing"}],"documentation_url":"https://docs.github.com/v3/search","status":"422"}"#
    static let searchWindowExceededBody =
        #"{"message":"Only the first 1000 search results are available","documentation_url":"https://docs.github.com/v3/search/","status":"422"}"#
    static let malformedBody = #"[{"login": "broken","#
    static let firstPageLink = #"<https://api.github.com/users{?since}>; rel="first""#
    static let defaultPerPage = StandInPageRequest.defaultPerPage
    static let maximumPerPage = StandInPageRequest.maximumPerPage
    /// GitHub's search only ever serves the first 1,000 results of a query.
    static let searchResultWindow = 1_000

    /// Which rate limit a path spends.
    enum RateResource {
        case core
        /// `GET /search/users`: its own per-minute bucket.
        case search
        /// `GET /rate_limit`: spends nothing but reports the core figures in its headers.
        case free

        init(path: String) {
            if path == "/search/users" {
                self = .search
            } else if path == "/rate_limit" {
                self = .free
            } else {
                self = .core
            }
        }

        var headerName: String { self == .search ? "search" : "core" }
    }

    /// Who is asking, and which buckets and limits that means.
    struct Caller {
        var token: String?
        var bucket: String
        var coreLimit: Int
        var searchLimit: Int

        init(authorization: String?, configuration: StandInConfiguration) {
            token = StandInRouter.token(from: authorization)
            bucket = token.map { "token " + $0 } ?? "anonymous"
            coreLimit = token == nil ? StandInConfiguration.anonymousRateLimit : configuration.rateLimit
            searchLimit =
                token == nil ? StandInConfiguration.anonymousSearchRateLimit : configuration.searchRateLimit
        }
    }

    func reply(to request: ParsedHTTPRequest, now: Int = Int(Date().timeIntervalSince1970)) -> StandInReply {
        let (path, query) = RequestTargetDecoding.split(request.target)
        ledger.record(
            RecordedRequest(
                method: request.method, target: request.target, path: path, query: query, headers: request.headers,
                body: request.body))
        let caller = Caller(authorization: request.header("Authorization"), configuration: configuration)

        if let fault = ledger.takeFault(forPath: path), !fault.isPassThrough {
            let resource = RateResource(path: path)
            let snapshot =
                resource == .search
                ? ledger.peekSearch(bucket: caller.bucket, limit: caller.searchLimit, now: now)
                : ledger.peek(bucket: caller.bucket, limit: caller.coreLimit, now: now)
            return faultReply(
                fault, request: request, path: path, query: query, caller: caller, snapshot: snapshot,
                resource: resource, now: now)
        }
        return normalReply(to: request, path: path, query: query, caller: caller, now: now)
    }

    private func normalReply(
        to request: ParsedHTTPRequest, path: String, query: [String: String], caller: Caller, now: Int
    ) -> StandInReply {
        let closeAfterwards = request.wantsConnectionClosed
        if let token = caller.token, let validTokens = configuration.validTokens, !validTokens.contains(token) {
            let snapshot = ledger.peek(
                bucket: "anonymous", limit: StandInConfiguration.anonymousRateLimit, now: now)
            var response = StandInHTTPResponse(status: 401, json: Self.badCredentialsBody)
            addStandardHeaders(to: &response, snapshot: snapshot, now: now)
            return .respond(response, closeAfterwards: closeAfterwards)
        }

        var response = route(
            method: request.method, path: path, query: query, target: request.target, caller: caller, now: now)
        var etag: String?
        var revalidated = false
        if response.status == 200 {
            let tag = StandInETag.weakTag(for: response.body)
            etag = tag
            revalidated = StandInETag.matches(request.header("If-None-Match"), tag)
        }
        let resource = RateResource(path: path)
        let charge: RateLimitCharge
        switch resource {
        case .core:
            charge = ledger.charge(bucket: caller.bucket, limit: caller.coreLimit, now: now, exempt: revalidated)
        case .search:
            charge = ledger.chargeSearch(
                bucket: caller.bucket, limit: caller.searchLimit, now: now, exempt: revalidated)
        case .free:
            // GitHub documents that checking the rate limit does not count against it, even when exhausted.
            charge = RateLimitCharge(
                snapshot: ledger.peek(bucket: caller.bucket, limit: caller.coreLimit, now: now), allowed: true)
        }
        guard charge.allowed else {
            var limited = StandInHTTPResponse(status: 403, json: primaryLimitBody(token: caller.token))
            addStandardHeaders(to: &limited, snapshot: charge.snapshot, now: now, resource: resource)
            return .respond(limited, closeAfterwards: closeAfterwards)
        }
        if revalidated, let etag {
            var notModified = StandInHTTPResponse(status: 304)
            addStandardHeaders(to: &notModified, snapshot: charge.snapshot, now: now, resource: resource)
            addCacheHeaders(to: &notModified, etag: etag)
            for name in ["Link", "Last-Modified"] {
                if let value = response.header(name) {
                    notModified.setHeader(name, value)
                }
            }
            return .respond(notModified, closeAfterwards: closeAfterwards)
        }
        addStandardHeaders(to: &response, snapshot: charge.snapshot, now: now, resource: resource)
        if let etag {
            addCacheHeaders(to: &response, etag: etag)
        }
        return .respond(response, closeAfterwards: closeAfterwards)
    }

    /// The normal answer for a path, before rate-limit and cache headers.
    ///
    /// `target` (the raw request-target) is only read by paged routes, to repeat the query in `Link` URLs;
    /// `caller` and `now` only by `GET /rate_limit`.
    func route(
        method: String, path: String, query: [String: String], target: String = "",
        caller: Caller? = nil, now: Int = 0
    ) -> StandInHTTPResponse {
        guard method == "GET" || method == "HEAD" else {
            return StandInHTTPResponse(status: 404, json: Self.notFoundBody)
        }
        // GET /users first: it is the benchmarked path and must not pay for the other comparisons.
        if path == "/users" {
            return listUsers(query: query)
        }
        if path.hasPrefix("/users/") {
            return accountRoute(path.dropFirst("/users/".count), byID: false, query: query, target: target)
        }
        if path.hasPrefix("/user/") {
            return accountRoute(path.dropFirst("/user/".count), byID: true, query: query, target: target)
        }
        if path == "/search/users" {
            return searchUsers(query: query, target: target)
        }
        if path == "/rate_limit" {
            let asker = caller ?? Caller(authorization: nil, configuration: configuration)
            return rateLimitStatus(caller: asker, now: now)
        }
        return StandInHTTPResponse(status: 404, json: Self.notFoundBody)
    }

    /// `{login}` or `{id}`, optionally followed by `/repos`, `/followers` or `/following`.
    private func accountRoute(
        _ rest: Substring, byID: Bool, query: [String: String], target: String
    ) -> StandInHTTPResponse {
        let account: Substring
        let subresource: Substring?
        if let slash = rest.firstIndex(of: "/") {
            account = rest[..<slash]
            subresource = rest[rest.index(after: slash)...]
        } else {
            account = rest
            subresource = nil
        }
        let missingBody: String
        switch subresource {
        case nil:
            missingBody = Self.userNotFoundBody
        case "repos"?:
            missingBody = Self.repositoriesNotFoundBody
        case "followers"?:
            missingBody = Self.followersNotFoundBody
        case "following"?:
            missingBody = Self.followingNotFoundBody
        default:
            return StandInHTTPResponse(status: 404, json: Self.notFoundBody)
        }
        guard !account.isEmpty else {
            return StandInHTTPResponse(status: 404, json: Self.notFoundBody)
        }
        let found: StandInUser?
        if byID {
            // A non-numeric id is no route at all on GitHub, hence the generic body.
            guard let id = Int(account) else {
                return StandInHTTPResponse(status: 404, json: Self.notFoundBody)
            }
            found = population.user(id: id)
        } else {
            found = population.user(login: String(account))
        }
        guard let user = found else {
            return StandInHTTPResponse(status: 404, json: missingBody)
        }
        switch subresource {
        case "repos"?:
            return listRepositories(of: user, query: query, target: target)
        case "followers"?:
            return listRelated(.followers, of: user, query: query, target: target)
        case "following"?:
            return listRelated(.following, of: user, query: query, target: target)
        default:
            var response = StandInHTTPResponse(status: 200, body: user.publicUserJSONBytes())
            response.setHeader(
                "Last-Modified", UTCTimestamp.httpDate(StandInProfileNumbers(ordinal: user.ordinal).updatedAt))
            return response
        }
    }

    /// Non-integer or non-positive `per_page` and non-integer `since` fall back to the defaults (30 and 0) rather
    /// than failing, and `per_page` above 100 is capped, which is what GitHub does.
    private func listUsers(query: [String: String]) -> StandInHTTPResponse {
        let since = query["since"].flatMap { Int($0) } ?? 0
        let requestedPerPage = query["per_page"].flatMap { Int($0) }
        let perPage = min(Self.maximumPerPage, requestedPerPage.flatMap { $0 > 0 ? $0 : nil } ?? Self.defaultPerPage)
        let page = population.listPage(since: since, perPage: perPage)
        var response = StandInHTTPResponse(status: 200, body: population.listPageJSON(since: since, perPage: perPage))
        var links: [String] = []
        if let last = page.last, population.hasUsers(withIDAbove: last.id) {
            // GitHub echoes per_page in the next link only when the caller sent it.
            let perPageItem = requestedPerPage == nil ? "" : "per_page=\(perPage)&"
            links.append("<\(baseURL)/users?\(perPageItem)since=\(last.id)>; rel=\"next\"")
        }
        links.append(Self.firstPageLink)
        response.setHeader("Link", links.joined(separator: ", "))
        return response
    }

    /// `type` other than member/all means owner, unknown `sort` means full_name, and `direction` other than
    /// asc/desc means the sort's default, all as GitHub ignores values it does not know.
    private func listRepositories(of user: StandInUser, query: [String: String], target: String)
        -> StandInHTTPResponse
    {
        let type = query["type"].flatMap { StandInRepositoryType(rawValue: $0) } ?? .owner
        let sort = query["sort"].flatMap { StandInRepositorySort(rawValue: $0) } ?? .fullName
        let ascending: Bool
        switch query["direction"] {
        case "asc"?:
            ascending = true
        case "desc"?:
            ascending = false
        default:
            ascending = sort.ascendingByDefault
        }
        let paging = StandInPageRequest(query: query)
        let repositories = population.repositories(of: user, type: type, sort: sort, ascending: ascending)
        let range = paging.range(inCount: repositories.count)
        var writer = JSONByteWriter(reservingCapacity: 2 + range.count * 6_500)
        writer.raw("[")
        for position in range {
            if position > range.lowerBound {
                writer.raw(",")
            }
            repositories[position].write(into: &writer)
        }
        writer.raw("]")
        var response = StandInHTTPResponse(status: 200, body: writer.bytes)
        setPageLink(
            on: &response, paging: paging, path: "/user/\(user.id)/repos", target: target,
            lastPage: paging.pageCount(forCount: repositories.count))
        return response
    }

    private func listRelated(
        _ relation: StandInFollowRelation, of user: StandInUser, query: [String: String], target: String
    ) -> StandInHTTPResponse {
        let paging = StandInPageRequest(query: query)
        let count = population.relationCount(relation, of: user)
        let members = population.relatedUsers(relation, of: user, positions: paging.range(inCount: count))
        var writer = JSONByteWriter(reservingCapacity: 2 + members.count * 1_000)
        writer.raw("[")
        for (position, member) in members.enumerated() {
            if position > 0 {
                writer.raw(",")
            }
            member.writeSimpleUser(into: &writer)
        }
        writer.raw("]")
        var response = StandInHTTPResponse(status: 200, body: writer.bytes)
        let name = relation == .followers ? "followers" : "following"
        setPageLink(
            on: &response, paging: paging, path: "/user/\(user.id)/\(name)", target: target,
            lastPage: paging.pageCount(forCount: count))
        return response
    }

    /// Validation comes first (missing `q`), then the 1,000-result window, then the query itself, so the
    /// cheap refusals never scan the population.
    private func searchUsers(query: [String: String], target: String) -> StandInHTTPResponse {
        guard let text = query["q"], text.contains(where: { !$0.isWhitespace }) else {
            return StandInHTTPResponse(status: 422, json: Self.searchQueryMissingBody)
        }
        let paging = StandInPageRequest(query: query)
        let (skipped, overflow) = (paging.page - 1).multipliedReportingOverflow(by: paging.perPage)
        guard !overflow, skipped < Self.searchResultWindow else {
            return StandInHTTPResponse(status: 422, json: Self.searchWindowExceededBody)
        }
        let sort = query["sort"].flatMap { StandInUserSearchSort(rawValue: $0) }
        // `order` only means something with `sort`; best match has one fixed order.
        let ascending = sort != nil && query["order"] == "asc"
        let key = "\(sort?.rawValue ?? "")\u{0}\(ascending)\u{0}\(text)"
        let positions = searchCache.positions(forKey: key) {
            population.searchPositions(StandInUserSearchQuery(text), sort: sort, ascending: ascending)
        }
        let visible = min(positions.count, Self.searchResultWindow)
        let range = paging.range(inCount: visible)
        var writer = JSONByteWriter(reservingCapacity: 64 + range.count * 1_000)
        writer.raw("{\"total_count\":")
        writer.integer(positions.count)
        writer.raw(",\"incomplete_results\":false,\"items\":[")
        for position in range {
            if position > range.lowerBound {
                writer.raw(",")
            }
            population.users[positions[position]].writeSimpleUserFields(into: &writer, closing: false)
            // Search scores are relevance floats; with no text ranking every hit scores the same.
            writer.raw(",\"score\":1.0}")
        }
        writer.raw("]}")
        var response = StandInHTTPResponse(status: 200, body: writer.bytes)
        setPageLink(
            on: &response, paging: paging, path: "/search/users", target: target,
            lastPage: paging.pageCount(forCount: visible))
        return response
    }

    /// Shaped like GitHub's `rate-limit-overview` example: core and search are the caller's live buckets, the
    /// other resources report full static allowances (hourly ones reset with core, per-minute ones with search).
    private func rateLimitStatus(caller: Caller, now: Int) -> StandInHTTPResponse {
        let core = ledger.peek(bucket: caller.bucket, limit: caller.coreLimit, now: now)
        let search = ledger.peekSearch(bucket: caller.bucket, limit: caller.searchLimit, now: now)
        let anonymous = caller.token == nil
        let others: [(name: StaticString, limit: Int, perMinute: Bool)] = [
            // GraphQL refuses anonymous callers outright, which GitHub reports as a limit of 0.
            ("graphql", anonymous ? 0 : 5_000, false),
            ("integration_manifest", 5_000, false),
            ("source_import", 100, true),
            ("actions_runner_registration", 10_000, false),
            ("scim", 15_000, false),
            ("dependency_snapshots", 100, true),
            ("code_search", 10, true),
            ("code_scanning_autofix", 10, true),
        ]
        var writer = JSONByteWriter(reservingCapacity: 1_400)
        writer.raw("{\"resources\":{\"core\":")
        Self.writeRateEntry(core, into: &writer)
        writer.raw(",\"search\":")
        Self.writeRateEntry(search, into: &writer)
        for other in others {
            writer.raw(",\"")
            writer.raw(other.name)
            writer.raw("\":")
            let reset = other.perMinute ? search.reset : core.reset
            Self.writeRateEntry(
                RateLimitSnapshot(limit: other.limit, remaining: other.limit, reset: reset), into: &writer)
        }
        writer.raw("},\"rate\":")
        Self.writeRateEntry(core, into: &writer)
        writer.raw("}")
        return StandInHTTPResponse(status: 200, body: writer.bytes)
    }

    /// Key order of the fixture: limit, used, remaining, reset.
    private static func writeRateEntry(_ snapshot: RateLimitSnapshot, into writer: inout JSONByteWriter) {
        writer.raw("{\"limit\":")
        writer.integer(snapshot.limit)
        writer.raw(",\"used\":")
        writer.integer(snapshot.used)
        writer.raw(",\"remaining\":")
        writer.integer(snapshot.remaining)
        writer.raw(",\"reset\":")
        writer.integer(snapshot.reset)
        writer.raw("}")
    }

    private func setPageLink(
        on response: inout StandInHTTPResponse, paging: StandInPageRequest, path: String, target: String,
        lastPage: Int
    ) {
        if let link = paging.linkHeader(baseURL: baseURL, path: path, target: target, lastPage: lastPage) {
            response.setHeader("Link", link)
        }
    }

    private func faultReply(
        _ fault: StandInFault, request: ParsedHTTPRequest, path: String, query: [String: String], caller: Caller,
        snapshot: RateLimitSnapshot, resource: RateResource, now: Int
    ) -> StandInReply {
        let closeAfterwards = request.wantsConnectionClosed
        switch fault {
        case .status(let status, let body, let headers):
            var response = StandInHTTPResponse(status: status, json: body)
            addStandardHeaders(to: &response, snapshot: snapshot, now: now, resource: resource)
            for (name, value) in headers.sorted(by: { $0.key < $1.key }) {
                response.setHeader(name, value)
            }
            return .respond(response, closeAfterwards: closeAfterwards)
        case .primaryRateLimitExhausted(let resetAfterSeconds):
            let exhausted = RateLimitSnapshot(limit: snapshot.limit, remaining: 0, reset: now + resetAfterSeconds)
            var response = StandInHTTPResponse(status: 403, json: primaryLimitBody(token: caller.token))
            addStandardHeaders(to: &response, snapshot: exhausted, now: now, resource: resource)
            return .respond(response, closeAfterwards: closeAfterwards)
        case .secondaryRateLimit(let retryAfterSeconds):
            var response = StandInHTTPResponse(status: 403, json: "")
            addStandardHeaders(to: &response, snapshot: snapshot, now: now, resource: resource)
            let requestID = response.header("X-GitHub-Request-Id") ?? ""
            response.body = Array(
                ("{\"message\":\"You have exceeded a secondary rate limit. Please wait a few minutes before you try "
                    + "again. If you reach out to GitHub Support for help, please include the request ID \(requestID)."
                    + "\",\"documentation_url\":\"https://docs.github.com/free-pro-team@latest/rest/overview/"
                    + "rate-limits-for-the-rest-api#about-secondary-rate-limits\",\"status\":\"403\"}").utf8)
            if let retryAfterSeconds {
                response.setHeader("Retry-After", String(retryAfterSeconds))
            }
            return .respond(response, closeAfterwards: closeAfterwards)
        case .malformedBody:
            var response = StandInHTTPResponse(status: 200, json: Self.malformedBody)
            addStandardHeaders(to: &response, snapshot: snapshot, now: now, resource: resource)
            return .respond(response, closeAfterwards: closeAfterwards)
        case .truncatedBody:
            var response = route(
                method: "GET", path: path, query: query, target: request.target, caller: caller, now: now)
            addStandardHeaders(to: &response, snapshot: snapshot, now: now, resource: resource)
            return .truncate(response)
        case .hang(let seconds):
            return .hang(seconds: seconds)
        case .closeWithoutResponse:
            return .close
        case .passThrough:
            // reply(to:) never hands pass-through here; answering normally keeps the switch total regardless.
            return normalReply(to: request, path: path, query: query, caller: caller, now: now)
        case .redirect(let location, let status):
            var body = JSONByteWriter(reservingCapacity: 200)
            body.raw("{\"message\":")
            body.string(StandInHTTPResponse.reasonPhrase(for: status))
            body.raw(",\"url\":")
            body.string(location)
            body.raw(",\"documentation_url\":\"https://docs.github.com/v3/#http-redirects\"}")
            var response = StandInHTTPResponse(status: status, body: body.bytes)
            addStandardHeaders(to: &response, snapshot: snapshot, now: now, resource: resource)
            response.setHeader("Location", location)
            return .respond(response, closeAfterwards: closeAfterwards)
        }
    }

    /// GitHub names the user for tokens and the address for anonymous callers.
    private func primaryLimitBody(token: String?) -> String {
        let subject: String
        if token == nil {
            subject =
                "127.0.0.1. (But here's the good news: Authenticated requests get a higher rate limit. "
                + "Check out the documentation for more details.)"
        } else {
            subject = "user ID 1."
        }
        return "{\"message\":\"API rate limit exceeded for \(subject)\",\"documentation_url\":"
            + "\"https://docs.github.com/rest/overview/resources-in-the-rest-api#rate-limiting\",\"status\":\"403\"}"
    }

    private func addStandardHeaders(
        to response: inout StandInHTTPResponse, snapshot: RateLimitSnapshot, now: Int,
        resource: RateResource = .core
    ) {
        response.setHeader("Server", "github.com")
        response.setHeader("Date", UTCTimestamp.httpDate(now))
        response.setHeader("Content-Type", "application/json; charset=utf-8")
        response.setHeader("Vary", "Accept, Authorization, Cookie, X-GitHub-OTP")
        response.setHeader("x-github-api-version-selected", "2022-11-28")
        response.setHeader("x-ratelimit-limit", String(snapshot.limit))
        response.setHeader("x-ratelimit-remaining", String(snapshot.remaining))
        response.setHeader("x-ratelimit-reset", String(snapshot.reset))
        response.setHeader("x-ratelimit-used", String(snapshot.used))
        response.setHeader("x-ratelimit-resource", resource.headerName)
        response.setHeader("X-GitHub-Request-Id", ledger.nextRequestID())
    }

    private func addCacheHeaders(to response: inout StandInHTTPResponse, etag: String) {
        response.setHeader("Cache-Control", "private, max-age=60, s-maxage=60")
        response.setHeader("ETag", etag)
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

extension StandInFault {
    var isPassThrough: Bool {
        if case .passThrough = self {
            return true
        }
        return false
    }
}

/// Entity tags for response bodies.
enum StandInETag {
    /// Weak because the same representation may be sent with different framing; 64 bits is plenty for a test server.
    static func weakTag(for body: [UInt8]) -> String {
        let hash = digest(body)
        let hex = String(hash, radix: 16)
        return "W/\"" + String(repeating: "0", count: 16 - hex.count) + hex + "\""
    }

    /// Weak comparison per RFC 9110: `W/` prefixes are ignored, and `*` matches anything.
    static func matches(_ ifNoneMatch: String?, _ tag: String) -> Bool {
        guard let ifNoneMatch else {
            return false
        }
        let wanted = opaque(tag)
        for candidate in ifNoneMatch.split(separator: ",") {
            let trimmed = candidate.trimmingCharacters(in: .whitespaces)
            if trimmed == "*" || opaque(trimmed) == wanted {
                return true
            }
        }
        return false
    }

    private static func opaque(_ tag: String) -> String {
        tag.hasPrefix("W/") ? String(tag.dropFirst(2)) : tag
    }

    /// Eight bytes per step keeps hashing a 90 KB page cheap compared with a byte-wise FNV loop.
    static func digest(_ bytes: [UInt8]) -> UInt64 {
        var state: UInt64 = 0xCBF2_9CE4_8422_2325 ^ UInt64(bytes.count)
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset + 8 <= raw.count {
                let word = raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                state = (state ^ word) &* 0x9E37_79B9_7F4A_7C15
                state ^= state >> 29
                offset += 8
            }
            while offset < raw.count {
                state = (state ^ UInt64(raw[offset])) &* 0x0000_0100_0000_01B3
                offset += 1
            }
        }
        state ^= state >> 33
        state = state &* 0xFF51_AFD7_ED55_8CCD
        state ^= state >> 33
        return state
    }
}

/// The ordered matches of recent search queries, keyed by query text, sort and order.
///
/// Bounded so a client sending endless distinct queries cannot grow memory: the oldest entry goes first.
final class StandInSearchCache: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [String: [Int]] = [:]
    private var insertionOrder: [String] = []
    static let capacity = 16

    func positions(forKey key: String, compute: () -> [Int]) -> [Int] {
        lock.lock()
        if let hit = entries[key] {
            lock.unlock()
            return hit
        }
        lock.unlock()
        // Computed outside the lock so one slow scan does not stall other connections' lookups.
        let computed = compute()
        lock.lock()
        defer { lock.unlock() }
        if entries[key] == nil {
            entries[key] = computed
            insertionOrder.append(key)
            if insertionOrder.count > Self.capacity {
                entries[insertionOrder.removeFirst()] = nil
            }
        }
        return computed
    }
}
