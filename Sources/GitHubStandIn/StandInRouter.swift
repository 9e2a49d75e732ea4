import Foundation

/// Turns one parsed request into a reply: faults first, then credentials, rate limit, routing and revalidation.
struct StandInRouter: Sendable {
    let population: StandInPopulation
    let configuration: StandInConfiguration
    let baseURL: String
    let ledger: StandInLedger

    static let notFoundBody =
        #"{"message":"Not Found","documentation_url":"https://docs.github.com/rest","status":"404"}"#
    static let userNotFoundBody =
        #"{"message":"Not Found","documentation_url":"https://docs.github.com/rest/users/users#get-a-user","status":"404"}"#
    static let badCredentialsBody =
        #"{"message":"Bad credentials","documentation_url":"https://docs.github.com/rest","status":"401"}"#
    static let malformedBody = #"[{"login": "broken","#
    static let firstPageLink = #"<https://api.github.com/users{?since}>; rel="first""#
    static let defaultPerPage = 30
    static let maximumPerPage = 100

    func reply(to request: ParsedHTTPRequest, now: Int = Int(Date().timeIntervalSince1970)) -> StandInReply {
        let (path, query) = RequestTargetDecoding.split(request.target)
        ledger.record(
            RecordedRequest(
                method: request.method, target: request.target, path: path, query: query, headers: request.headers,
                body: request.body))
        let token = Self.token(from: request.header("Authorization"))
        let bucket = token.map { "token " + $0 } ?? "anonymous"
        let limit = token == nil ? StandInConfiguration.anonymousRateLimit : configuration.rateLimit

        if let fault = ledger.takeFault(forPath: path), !fault.isPassThrough {
            let snapshot = ledger.peek(bucket: bucket, limit: limit, now: now)
            return faultReply(fault, request: request, path: path, query: query, snapshot: snapshot, now: now)
        }
        return normalReply(to: request, path: path, query: query, now: now)
    }

    private func normalReply(
        to request: ParsedHTTPRequest, path: String, query: [String: String], now: Int
    ) -> StandInReply {
        let closeAfterwards = request.wantsConnectionClosed
        let token = Self.token(from: request.header("Authorization"))
        let bucket = token.map { "token " + $0 } ?? "anonymous"
        let limit = token == nil ? StandInConfiguration.anonymousRateLimit : configuration.rateLimit
        if let token, let validTokens = configuration.validTokens, !validTokens.contains(token) {
            let snapshot = ledger.peek(
                bucket: "anonymous", limit: StandInConfiguration.anonymousRateLimit, now: now)
            var response = StandInHTTPResponse(status: 401, json: Self.badCredentialsBody)
            addStandardHeaders(to: &response, snapshot: snapshot, now: now)
            return .respond(response, closeAfterwards: closeAfterwards)
        }

        var response = route(method: request.method, path: path, query: query)
        var etag: String?
        var revalidated = false
        if response.status == 200 {
            let tag = StandInETag.weakTag(for: response.body)
            etag = tag
            revalidated = StandInETag.matches(request.header("If-None-Match"), tag)
        }
        let charge = ledger.charge(bucket: bucket, limit: limit, now: now, exempt: revalidated)
        guard charge.allowed else {
            var limited = StandInHTTPResponse(status: 403, json: primaryLimitBody(token: token))
            addStandardHeaders(to: &limited, snapshot: charge.snapshot, now: now)
            return .respond(limited, closeAfterwards: closeAfterwards)
        }
        if revalidated, let etag {
            var notModified = StandInHTTPResponse(status: 304)
            addStandardHeaders(to: &notModified, snapshot: charge.snapshot, now: now)
            addCacheHeaders(to: &notModified, etag: etag)
            if let link = response.header("Link") {
                notModified.setHeader("Link", link)
            }
            return .respond(notModified, closeAfterwards: closeAfterwards)
        }
        addStandardHeaders(to: &response, snapshot: charge.snapshot, now: now)
        if let etag {
            addCacheHeaders(to: &response, etag: etag)
        }
        return .respond(response, closeAfterwards: closeAfterwards)
    }

    /// The normal answer for a path, before rate-limit and cache headers.
    func route(method: String, path: String, query: [String: String]) -> StandInHTTPResponse {
        guard method == "GET" || method == "HEAD" else {
            return StandInHTTPResponse(status: 404, json: Self.notFoundBody)
        }
        if path == "/users" {
            return listUsers(query: query)
        }
        if path.hasPrefix("/users/") {
            let login = path.dropFirst("/users/".count)
            guard !login.isEmpty, !login.contains("/") else {
                return StandInHTTPResponse(status: 404, json: Self.notFoundBody)
            }
            guard let user = population.user(login: String(login)) else {
                return StandInHTTPResponse(status: 404, json: Self.userNotFoundBody)
            }
            return StandInHTTPResponse(status: 200, body: user.publicUserJSONBytes())
        }
        return StandInHTTPResponse(status: 404, json: Self.notFoundBody)
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

    private func faultReply(
        _ fault: StandInFault, request: ParsedHTTPRequest, path: String, query: [String: String],
        snapshot: RateLimitSnapshot, now: Int
    ) -> StandInReply {
        let closeAfterwards = request.wantsConnectionClosed
        switch fault {
        case .status(let status, let body, let headers):
            var response = StandInHTTPResponse(status: status, json: body)
            addStandardHeaders(to: &response, snapshot: snapshot, now: now)
            for (name, value) in headers.sorted(by: { $0.key < $1.key }) {
                response.setHeader(name, value)
            }
            return .respond(response, closeAfterwards: closeAfterwards)
        case .primaryRateLimitExhausted(let resetAfterSeconds):
            let exhausted = RateLimitSnapshot(limit: snapshot.limit, remaining: 0, reset: now + resetAfterSeconds)
            let token = Self.token(from: request.header("Authorization"))
            var response = StandInHTTPResponse(status: 403, json: primaryLimitBody(token: token))
            addStandardHeaders(to: &response, snapshot: exhausted, now: now)
            return .respond(response, closeAfterwards: closeAfterwards)
        case .secondaryRateLimit(let retryAfterSeconds):
            var response = StandInHTTPResponse(status: 403, json: "")
            addStandardHeaders(to: &response, snapshot: snapshot, now: now)
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
            addStandardHeaders(to: &response, snapshot: snapshot, now: now)
            return .respond(response, closeAfterwards: closeAfterwards)
        case .truncatedBody:
            var response = route(method: "GET", path: path, query: query)
            addStandardHeaders(to: &response, snapshot: snapshot, now: now)
            return .truncate(response)
        case .hang(let seconds):
            return .hang(seconds: seconds)
        case .closeWithoutResponse:
            return .close
        case .passThrough:
            // reply(to:) never hands pass-through here; answering normally keeps the switch total regardless.
            return normalReply(to: request, path: path, query: query, now: now)
        case .redirect(let location, let status):
            var body = JSONByteWriter(reservingCapacity: 200)
            body.raw("{\"message\":")
            body.string(StandInHTTPResponse.reasonPhrase(for: status))
            body.raw(",\"url\":")
            body.string(location)
            body.raw(",\"documentation_url\":\"https://docs.github.com/v3/#http-redirects\"}")
            var response = StandInHTTPResponse(status: status, body: body.bytes)
            addStandardHeaders(to: &response, snapshot: snapshot, now: now)
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

    private func addStandardHeaders(to response: inout StandInHTTPResponse, snapshot: RateLimitSnapshot, now: Int) {
        response.setHeader("Server", "github.com")
        response.setHeader("Date", UTCTimestamp.httpDate(now))
        response.setHeader("Content-Type", "application/json; charset=utf-8")
        response.setHeader("Vary", "Accept, Authorization, Cookie, X-GitHub-OTP")
        response.setHeader("x-github-api-version-selected", "2022-11-28")
        response.setHeader("x-ratelimit-limit", String(snapshot.limit))
        response.setHeader("x-ratelimit-remaining", String(snapshot.remaining))
        response.setHeader("x-ratelimit-reset", String(snapshot.reset))
        response.setHeader("x-ratelimit-used", String(snapshot.used))
        response.setHeader("x-ratelimit-resource", "core")
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
