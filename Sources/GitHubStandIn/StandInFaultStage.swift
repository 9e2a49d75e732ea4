import Foundation

extension StandInPipeline {
    /// Stage 1: a fault queued for the path answers instead. Faults cost nothing: they imitate GitHub's front end
    /// failing before GitHub looks at who is asking.
    func injectedFault(_ request: StandInRequest) -> StandInReply? {
        guard let fault = ledger.takeFault(forPath: request.path) else { return nil }
        let caller = request.caller
        let resource = request.match.rateResource
        let snapshot = ledger.peek(resource, for: caller, now: request.now)
        let now = request.now
        var response: StandInHTTPResponse
        var shown = snapshot
        switch fault {
        case .status(let status, let body, _):
            response = StandInHTTPResponse(status: status, body: Array(body.utf8))
        case .primaryRateLimitExhausted(let resetAfterSeconds):
            shown = RateLimitSnapshot(limit: snapshot.limit, remaining: 0, reset: now + resetAfterSeconds)
            response = StandInErrorBody.primaryRateLimitExceeded(token: caller.token)
        case .graphQLRateLimited(let resetAfterSeconds):
            shown = RateLimitSnapshot(limit: snapshot.limit, remaining: 0, reset: now + resetAfterSeconds)
            response = StandInGraphQLHandler.rateLimitExceeded(context.configuration.graphQLRateLimitForm, userID: 1)
        case .secondaryRateLimit, .redirect:
            response = StandInHTTPResponse(status: 403)
        case .malformedBody:
            response = StandInHTTPResponse(status: 200, body: Array(#"[{"login": "broken","#.utf8))
        case .truncatedBody:
            // The normal answer's body, so the declared length is realistic; GitHub routes HEAD and GET alike.
            response = routed(request, match: routes.match(method: "GET", path: request.path))
        case .hang(let seconds):
            return .hang(seconds: seconds)
        case .closeWithoutResponse:
            return .close
        case .passThrough:
            return nil
        }
        setStandardHeaders(on: &response, snapshot: shown, now: now, resource: resource, scopes: request.scopeHeaders)
        switch fault {
        case .status(_, _, let headers):
            for (name, value) in headers.sorted(by: { $0.key < $1.key }) {
                response.setHeader(name, value)
            }
        case .secondaryRateLimit(let retryAfterSeconds):
            response.body = StandInErrorBody.secondaryRateLimitExceeded(
                requestID: response.header("X-GitHub-Request-Id") ?? "")
            if let retryAfterSeconds {
                response.setHeader("Retry-After", String(retryAfterSeconds))
            }
        case .redirect(let location, let status):
            response.status = status
            response.body = StandInErrorBody.redirect(status: status, location: location)
            response.setHeader("Location", location)
        case .truncatedBody:
            return .truncate(response)
        default:
            break
        }
        if let until = waitAsked(by: response, fault: fault, now: now) {
            ledger.askToWait(forPath: request.path, until: until)
        }
        return .respond(response, closeAfterwards: request.closeAfterwards)
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
}
