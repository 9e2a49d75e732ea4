import Domain
import Foundation

/// Turns one parsed request into a reply by its stages, each of which may answer alone: faults → rate limit →
/// route → conditional. The rate-limit stage wraps the two after it because GitHub charges nothing for a 304.
struct StandInPipeline: Sendable {
    let context: StandInContext
    var routes = StandInRouteTable.gitHub()

    var ledger: StandInLedger { context.ledger }

    func reply(to parsed: ParsedHTTPRequest, now: Int, receivedAt: ContinuousClock.Instant = .now) -> StandInReply {
        let request = StandInRequest(parsed, configuration: context.configuration, routes: routes, now: now)
        ledger.record(
            RecordedRequest(
                method: request.method, target: request.target, path: request.path, query: request.query,
                headers: request.headers, body: request.body, receivedAt: receivedAt))
        ledger.noteArrival(forPath: request.path)
        if let faulted = injectedFault(request) {
            return faulted
        }
        return chargingRateLimit(request) {
            revalidated(request, routed(request, match: request.match))
        }
    }

    /// Stage 2: an empty bucket gets GitHub's 403 whatever the inner stages said.
    func chargingRateLimit(_ request: StandInRequest, inner: () -> StandInAnswer) -> StandInReply {
        let answer = inner()
        let caller = request.caller
        let resource = request.match.rateResource
        let charge: RateLimitCharge
        if resource == .graphql {
            // The handler spent the query's points (or said the limit is spent); GitHub's 403 form of a spent
            // limit says none left, whatever few points remain.
            var snapshot = ledger.peek(resource, for: caller, now: request.now)
            if answer.response.status == 403 {
                snapshot = RateLimitSnapshot(limit: snapshot.limit, remaining: 0, reset: snapshot.reset)
            }
            charge = RateLimitCharge(snapshot: snapshot, allowed: true)
        } else {
            charge = ledger.charge(resource, for: caller, points: answer.isRevalidation ? 0 : 1, now: request.now)
        }
        guard charge.allowed else {
            var limited = StandInErrorBody.primaryRateLimitExceeded(token: caller.token)
            setStandardHeaders(
                on: &limited, snapshot: charge.snapshot, now: request.now, resource: resource,
                scopes: request.scopeHeaders)
            return .respond(limited, closeAfterwards: request.closeAfterwards)
        }
        var response = answer.response
        setStandardHeaders(
            on: &response, snapshot: charge.snapshot, now: request.now, resource: resource, scopes: request.scopeHeaders
        )
        for header in answer.cacheHeaders {
            response.setHeader(header.name, header.value)
        }
        return .respond(response, closeAfterwards: request.closeAfterwards)
    }

    /// Stage 3. `match` is a parameter because the truncated-body fault routes a request as `GET`.
    func routed(_ request: StandInRequest, match: StandInRouteMatch) -> StandInHTTPResponse {
        guard let route = match.route else {
            return StandInErrorBody.notFound()
        }
        return route.handler.respond(
            to: StandInRouteRequest(
                request: request, parameters: match.parameters, context: context, documentation: route.documentation))
    }

    /// Stage 4: a 200 to a read gets an ETag of what is sent (body and `Link`), so a write changes it; a 304 when
    /// `If-None-Match` already names it. Reads only: RFC 9110 allows a 304 only for GET and HEAD.
    func revalidated(_ request: StandInRequest, _ response: StandInHTTPResponse) -> StandInAnswer {
        guard response.status == 200, Endpoint.Method.get.accepts(request.method) else {
            return StandInAnswer(response: response, isRevalidation: false, cacheHeaders: [])
        }
        let etag = StandInETag.weakTag(for: response.body, link: response.header("Link"))
        var cacheHeaders = [
            (name: "Cache-Control", value: "private, max-age=60, s-maxage=60"), (name: "ETag", value: etag),
        ]
        guard StandInETag.matches(request.header("If-None-Match"), etag) else {
            return StandInAnswer(response: response, isRevalidation: false, cacheHeaders: cacheHeaders)
        }
        // A 304 repeats the metadata a cache would otherwise lose with the body.
        for name in ["Link", "Last-Modified"] {
            if let value = response.header(name) {
                cacheHeaders.append((name: name, value: value))
            }
        }
        return StandInAnswer(
            response: StandInHTTPResponse(status: 304), isRevalidation: true, cacheHeaders: cacheHeaders)
    }

    /// The headers GitHub sends on every answer; `scopes` is nil for anonymous requests.
    func setStandardHeaders(
        on response: inout StandInHTTPResponse, snapshot: RateLimitSnapshot, now: Int, resource: StandInRateResource,
        scopes: (granted: String, accepted: String)?
    ) {
        response.setHeader("Server", "github.com")
        response.setHeader("Date", UTCTimestamp.httpDate(now))
        response.setHeader("Content-Type", "application/json; charset=utf-8")
        response.setHeader("Vary", "Accept, Authorization, Cookie, X-GitHub-OTP")
        // Every recorded answer (Tests/Recorded) names the media type it was rendered in.
        response.setHeader("X-GitHub-Media-Type", "github.v3; format=json")
        if let scopes {
            response.setHeader("X-OAuth-Scopes", scopes.granted)
            response.setHeader("X-Accepted-OAuth-Scopes", scopes.accepted)
        }
        response.setHeader("x-github-api-version-selected", "2022-11-28")
        response.setHeader("x-ratelimit-limit", String(snapshot.limit))
        response.setHeader("x-ratelimit-remaining", String(snapshot.remaining))
        response.setHeader("x-ratelimit-reset", String(snapshot.reset))
        response.setHeader("x-ratelimit-used", String(snapshot.used))
        response.setHeader("x-ratelimit-resource", resource.headerName)
        response.setHeader("X-GitHub-Request-Id", ledger.nextRequestID())
    }
}

struct StandInRequest {
    let method: String
    let target: String
    let path: String
    let query: [String: String]
    let headers: [(name: String, value: String)]
    let body: [UInt8]
    let caller: StandInCaller
    let match: StandInRouteMatch
    let now: Int
    let closeAfterwards: Bool

    init(_ parsed: ParsedHTTPRequest, configuration: StandInConfiguration, routes: StandInRouteTable, now: Int) {
        method = parsed.method
        target = parsed.target
        (path, query) = RequestTargetDecoding.split(parsed.target)
        headers = parsed.headers
        body = parsed.body
        caller = StandInCaller(
            token: StandInCaller.token(from: parsed.header("Authorization")), configuration: configuration)
        match = routes.match(method: parsed.method, path: path)
        self.now = now
        closeAfterwards = parsed.wantsConnectionClosed
    }

    func header(_ name: String) -> String? { headerValue(name, in: headers) }

    /// `X-OAuth-Scopes` and `X-Accepted-OAuth-Scopes`; nil for anonymous requests.
    var scopeHeaders: (granted: String, accepted: String)? {
        caller.scopes.map { ($0.joined(separator: ", "), match.route?.acceptedScopes ?? "") }
    }
}

struct StandInAnswer {
    var response: StandInHTTPResponse
    var isRevalidation: Bool
    /// Sent after the rate-limit headers, as GitHub does.
    var cacheHeaders: [(name: String, value: String)]
}
