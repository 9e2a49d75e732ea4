import Domain
import Foundation

extension StandInServer {
    /// Answers one request as GitHub does, in its order. A fault queued for the path answers first and costs
    /// nothing: it imitates GitHub's front end failing before GitHub looks at who is asking. Else the route answers
    /// and a read the caller already holds becomes a 304; then the caller's bucket is charged, nothing for a 304 to
    /// a token, as GitHub charges, and an empty bucket gets GitHub's 403 whatever the route said. A write it refuses so is
    /// not carried out: it is refused before its route runs.
    func reply(to recorded: RecordedRequest) -> StandInReply {
        ledger.noteArrival(of: recorded)
        let request = StandInRouteRequest(recorded, on: self, now: ledger.currentTime())
        if let fault = ledger.takeFault(forPath: request.path), let reply = faulted(request, fault) { return reply }
        let refusedWrite =
            !Endpoint.Method.get.accepts(request.method) && request.rateResource != .graphql
            && ledger.peek(request.rateResource, for: request.caller, now: request.now).remaining < 1
        var response =
            refusedWrite
            ? StandInErrorBody.primaryRateLimitExceeded(for: request)
            : request.route?.handler.respond(to: request) ?? StandInErrorBody.notFound()
        var cacheHeaders: [(String, String)] = []
        // A search and the rate limit are sent uncached, with no ETag (octokit.rb's `searches_users`, github3.py's
        // `GitHub_search_users` and PyGithub's `RateLimiting` recordings: `Cache-Control: no-cache`).
        let uncached = request.rateResource == .search || request.rateResource == .free
        if uncached, response.status == 200 { cacheHeaders = [("Cache-Control", "no-cache")] }
        // Any other 200 to a read gets an ETag of what is sent (body and `Link`, so a write changes it), and a 304
        // when `If-None-Match` already names it. Reads only: RFC 9110 allows a 304 only for GET and HEAD.
        if response.status == 200, !uncached, Endpoint.Method.get.accepts(request.method) {
            let etag = StandInETag.weakTag(for: response.body, link: response.header("Link"))
            cacheHeaders = [("Cache-Control", "private, max-age=60, s-maxage=60"), ("ETag", etag)]
            if StandInETag.matches(request.header("If-None-Match"), etag) {
                // A 304 repeats the metadata a cache would otherwise lose with the body.
                let kept = ["Link", "Last-Modified"].compactMap { name in response.header(name).map { (name, $0) } }
                cacheHeaders += kept
                response = StandInHTTPResponse(status: 304)
            }
        }
        var snapshot: RateLimitSnapshot
        if request.rateResource == .graphql {
            // The handler spent the query's points (or said the limit is spent); GitHub's 403 form of a spent
            // limit says none left, whatever few points remain.
            snapshot = ledger.peek(.graphql, for: request.caller, now: request.now)
            snapshot.remaining = response.status == 403 ? 0 : snapshot.remaining
        } else {
            // A 304 is free "if the request was made while correctly authorized with an Authorization header"
            // (GitHub's "Best practices for using the REST API"): an anonymous one is charged.
            let points = response.status == 304 && request.caller.token != nil ? 0 : 1
            let charge = ledger.charge(request.rateResource, for: request.caller, points: points, now: request.now)
            snapshot = charge.snapshot
            if !charge.allowed {
                response = StandInErrorBody.primaryRateLimitExceeded(for: request)
                cacheHeaders = []
            }
        }
        setStandardHeaders(on: &response, snapshot: snapshot, for: request, then: cacheHeaders)
        return .respond(response)
    }

    /// A queued fault's answer, with the standard headers where it has any; nil for `passThrough`.
    private func faulted(_ request: StandInRouteRequest, _ fault: StandInFault) -> StandInReply? {
        var snapshot = ledger.peek(request.rateResource, for: request.caller, now: request.now)
        let requestID = ledger.nextRequestID()
        var response = StandInHTTPResponse(status: 403)
        var headers: [String: String] = [:]
        switch fault {
        case .status(let status, let body, let extra):
            response = StandInHTTPResponse(status: status, body: Array(body.utf8))
            headers = extra
        case .primaryRateLimitExhausted(let resetAfterSeconds):
            (snapshot.remaining, snapshot.reset) = (0, request.now + resetAfterSeconds)
            response = StandInErrorBody.primaryRateLimitExceeded(for: request)
        case .graphQLRateLimited(let resetAfterSeconds):
            (snapshot.remaining, snapshot.reset) = (0, request.now + resetAfterSeconds)
            response = StandInGraphQLHandler.rateLimitExceeded(for: request)
        case .secondaryRateLimit(let retryAfterSeconds):
            response.body = StandInErrorBody.secondaryRateLimitExceeded(requestID: requestID)
            headers["Retry-After"] = retryAfterSeconds.map(String.init)
        case .redirect(let location, let status):
            response = StandInHTTPResponse(
                status: status, body: StandInErrorBody.redirect(status: status, location: location))
            headers["Location"] = location
        case .malformedBody:
            response = StandInHTTPResponse(status: 200, body: Array(#"[{"login": "broken","#.utf8))
        case .truncatedBody:
            // The normal answer's body, so the declared length is realistic; GitHub routes HEAD and GET alike.
            let asGET = StandInRouteRequest(request.request, matchedAs: "GET", on: self, now: request.now)
            response = asGET.route?.handler.respond(to: asGET) ?? StandInErrorBody.notFound()
        case .hang(let seconds):
            return .hang(seconds: seconds)
        case .closeWithoutResponse:
            return .close
        case .passThrough:
            return nil
        }
        let extra = headers.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        setStandardHeaders(on: &response, snapshot: snapshot, for: request, requestID: requestID, then: extra)
        if case .truncatedBody = fault { return .truncate(response) }
        if let until = waitAsked(by: response, fault: fault, now: request.now) {
            ledger.askToWait(forPath: request.path, until: until)
        }
        return .respond(response)
    }

    /// Until when (server time) a faulted answer tells its caller to wait: its `Retry-After` or the reset.
    private func waitAsked(by response: StandInHTTPResponse, fault: StandInFault, now: Int) -> Double? {
        switch fault {
        case .primaryRateLimitExhausted(let seconds), .graphQLRateLimited(let seconds):
            return Double(now + seconds)
        default:
            guard let retryAfter = response.header("Retry-After") else { return nil }
            if let seconds = Int(retryAfter) { return ledger.preciseTime() + Double(seconds) }
            let format = DateFormatter()
            format.locale = Locale(identifier: "en_US_POSIX")
            format.timeZone = TimeZone(identifier: "GMT")
            format.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
            return format.date(from: retryAfter).map { $0.timeIntervalSince1970 }
        }
    }

    /// The headers GitHub sends on every answer, the scopes only to a caller with a token; then `extra`, after the
    /// rate-limit headers as GitHub sends them, replacing same-named ones.
    private func setStandardHeaders(
        on response: inout StandInHTTPResponse, snapshot: RateLimitSnapshot, for request: StandInRouteRequest,
        requestID: String? = nil, then extra: [(String, String)]
    ) {
        response.setHeader("Server", "github.com")
        response.setHeader("Date", UTCTimestamp.httpDate(request.now))
        response.setHeader("Content-Type", "application/json; charset=utf-8")
        response.setHeader("Vary", "Accept, Authorization, Cookie, X-GitHub-OTP")
        // Every recorded answer (Tests/Recorded) names the media type it was rendered in.
        response.setHeader("X-GitHub-Media-Type", "github.v3; format=json")
        if let scopes = request.caller.scopes {
            response.setHeader("X-OAuth-Scopes", scopes.joined(separator: ", "))
            response.setHeader("X-Accepted-OAuth-Scopes", request.route?.acceptedScopes ?? "")
        }
        response.setHeader("x-github-api-version-selected", "2022-11-28")
        response.setHeader("x-ratelimit-limit", String(snapshot.limit))
        response.setHeader("x-ratelimit-remaining", String(snapshot.remaining))
        response.setHeader("x-ratelimit-reset", String(snapshot.reset))
        response.setHeader("x-ratelimit-used", String(snapshot.used))
        response.setHeader("x-ratelimit-resource", request.rateResource.headerName)
        response.setHeader("X-GitHub-Request-Id", requestID ?? ledger.nextRequestID())
        for (name, value) in extra { response.setHeader(name, value) }
    }
}
