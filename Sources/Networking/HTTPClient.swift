import AtomicCore
import AtomicLogger
import Foundation

/// What every request needs to know. Presets keep the defaults in one place.
package struct HTTPClientConfiguration: Sendable {
    /// The API root, e.g. `https://api.github.com`. The token goes only to this origin.
    package var baseURL: URL
    package var userAgent: String
    package var token: String?
    package var apiVersion: String

    /// The REST API version this gh-users is written for, sent as `X-GitHub-Api-Version` (GitHub supports it
    /// until 2028-03-10, its docs' "API versions").
    package static let supportedAPIVersion = "2022-11-28"

    package init(
        baseURL: URL, userAgent: String, token: String? = nil,
        apiVersion: String = HTTPClientConfiguration.supportedAPIVersion
    ) {
        self.baseURL = baseURL
        self.userAgent = userAgent
        self.token = token
        self.apiVersion = apiVersion
    }
}

/// Sends requests through a transport with GitHub's required headers, retrying what is worth retrying.
/// It is the only place a token is attached, and it attaches it only to the configured origin, so a `Link`
/// URL that points elsewhere never carries it.
///
/// `send` is a loop around one attempt. Each attempt races the transport against an `AttemptTimers` deadline
/// (`--timeout`), so a hung connection is cancelled on time whatever URLSession's own rounding does; the
/// outcome goes to `RetrySchedule.decide`, and the wait it asks for to the injected `RetryClock`.
/// `sendReportingAttempts` also says how many attempts were made over how long, for the message.
package struct HTTPClient: Sendable {
    package let configuration: HTTPClientConfiguration
    private let transport: HTTPTransport
    private let logger: Logger
    private let schedule: RetrySchedule
    private let clock: RetryClock
    private let headersSent: @Sendable (HTTPRequest) -> HTTPHeaders
    /// The attempts' deadlines (not `Task.sleep`, which keeps a finished attempt's memory until its deadline).
    private let attemptTimers = AttemptTimers()
    /// Whether this run has said that GitHub is retiring the API version it asks for: said once, not per request.
    private let retirementNotice = OnceFlag()
    /// Until when no request starts, after a secondary limit: shared by the requests in flight together.
    private let secondaryLimitPause = PauseUntil()

    /// Attempt deadlines still armed: zero whenever no request is in flight.
    package var armedAttemptTimers: Int { attemptTimers.armed }

    /// Waits for a primary-limit reset are not bounded by `--retries`, but a server that never resets must
    /// not keep the client forever.
    package static let maximumPrimaryLimitWaits = 10

    /// `headersSent` tells the debug trace which header fields really go out for a request; by default the
    /// live transport's answer, since a stub sends nothing anyone reads.
    package init(
        configuration: HTTPClientConfiguration,
        transport: @escaping HTTPTransport,
        logger: Logger,
        retryPolicy: RetryPolicy = .standard,
        clock: RetryClock = .live,
        headersSent: @escaping @Sendable (HTTPRequest) -> HTTPHeaders = URLSessionTransport.headersSent(for:)
    ) {
        self.configuration = configuration
        self.transport = transport
        self.logger = logger
        self.schedule = RetrySchedule(policy: retryPolicy)
        self.clock = clock
        self.headersSent = headersSent
    }

    package func get(_ url: URL) async throws(TransportError) -> HTTPResponse {
        try await send(makeRequest(.get, url))
    }

    /// A POST of a JSON document (a GraphQL query), with the headers every request carries.
    package func makeJSONPost(_ url: URL, body: Foundation.Data) -> HTTPRequest {
        var request = makeRequest(.post, url)
        request.headers.set("Content-Type", "application/json")
        request.body = body
        return request
    }

    /// The waits before asking again for a list GitHub answered 202 Accepted (its statistics endpoints do while
    /// they compute): growing, 31 s in all, and bounded, so a list that never comes ends the run.
    package static let computingWaits: [Duration] = [1, 2, 4, 8, 16].map { .seconds($0) }

    /// Sits out one of `computingWaits` through the injected clock, which announces it.
    package func waitWhileComputing(_ wait: Duration) async throws(TransportError) {
        do {
            try await clock.sleep(wait, .computing)
        } catch {
            throw .cancelled
        }
    }

    /// Sits out a spent rate limit that the answer's body reported rather than its status (GraphQL's
    /// `RATE_LIMITED` comes with status 200), as `--wait-on-rate-limit` asks and through the same clock, so the
    /// wait is announced and counted down like any other. Until a second after `resetAt`; a minute where
    /// GitHub named no reset, or one more than `resetGrace` past, as for REST (`spentLimitWait`): asking again each
    /// second would be asking while limited. false: the policy does not wait, or the wait is longer than
    /// `--max-wait` allows, and the caller reports the limit.
    package func waitForRateLimitReset(_ resetAt: Date?, bucket: String? = nil) async throws(TransportError) -> Bool {
        guard schedule.policy.waitOnPrimaryLimit else { return false }
        let now = clock.now()
        let wait = RetrySchedule.primaryLimitWait(
            resetAt: resetAt, now: now, minute: schedule.policy.secondaryLimitWait)
        guard wait <= schedule.policy.maximumWait else { return false }
        do {
            try await clock.sleep(wait, .primaryRateLimit(resetAt: resetAt, bucket: bucket))
        } catch {
            throw .cancelled
        }
        return true
    }

    /// Sits out the spent primary limit `response` reports, whatever `--wait-on-rate-limit` says, for a caller
    /// that spends a per-minute limit by design (a split search), through the same clock, so the wait is
    /// announced and counted down. false: the answer is no spent limit, its reset is malformed, the wait is
    /// longer than `--max-wait` allows, or the policy waits on its own and `send` has already waited all it would.
    package func waitOutSpentLimit(_ response: HTTPResponse) async throws(TransportError) -> Bool {
        guard !schedule.policy.waitOnPrimaryLimit,
            case .retry(let wait, let reason) = schedule.spentLimitWait(response, now: clock.now())
        else { return false }
        do {
            try await clock.sleep(wait, reason)
        } catch {
            throw .cancelled
        }
        return true
    }

    package func makeRequest(_ method: HTTPMethod, _ url: URL) -> HTTPRequest {
        var headers = HTTPHeaders()
        headers.set("User-Agent", configuration.userAgent)
        headers.set("Accept", "application/vnd.github+json")
        headers.set("X-GitHub-Api-Version", configuration.apiVersion)
        // Named here rather than left to libcurl, whose own list depends on how it was built (`deflate, gzip,
        // br, zstd` on Debian 12): the request is the same everywhere and the trace can show it. libcurl still
        // inflates what comes back.
        headers.set("Accept-Encoding", "gzip, deflate")
        if let token = configuration.token, OriginPolicy.mayReceiveToken(url, apiRoot: configuration.baseURL) {
            headers.set("Authorization", "Bearer \(token)")
        }
        return HTTPRequest(method: method, url: url, headers: headers)
    }

    /// Sends `request`, retrying transient failures, 5xx and secondary rate limits up to the policy's budget,
    /// and waiting out a spent primary limit when the policy says so. What is left is the caller's to judge.
    package func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        do {
            return try await sendReportingAttempts(request)
        } catch {
            throw error.error
        }
    }

    /// `send`, and when no answer came, how many attempts were made over how long, for the message.
    package func sendReportingAttempts(_ request: HTTPRequest) async throws(RequestFailure) -> HTTPResponse {
        var retriesUsed = 0
        var primaryWaits = 0
        var attempts = 0
        var ownPauseEnd: Duration?
        var secondaryRetries = 0
        // The loop's own clock, so a test's recorded waits count as time passed.
        let started = clock.now()
        func elapsed() -> Duration {
            .milliseconds(Int64(max(0, clock.now().timeIntervalSince(started)) * 1000))
        }
        func failure(_ error: TransportError) -> RequestFailure {
            RequestFailure(error, attempts: attempts, elapsed: elapsed())
        }
        func cancelledBetweenAttempts() -> RequestFailure {
            var cancelled = failure(.cancelled)
            cancelled.cancelledBetweenAttempts = true
            return cancelled
        }
        while true {
            if Task.isCancelled { throw cancelledBetweenAttempts() }
            // GitHub asks to "stop making requests temporarily" on a secondary limit: another request's limit
            // holds this one too, where 15 more lookups went out during a 3 s wait (helper-297).
            // From the end of this request's own wait, which the clock of a test may not show as passed.
            if let rest = secondaryLimitPause.left(at: max(clock.elapsed(), ownPauseEnd ?? .zero)) {
                do {
                    try await clock.sleep(rest, .secondaryRateLimit)
                } catch {
                    throw cancelledBetweenAttempts()
                }
            }
            attempts += 1
            let outcome = await attempt(request)
            let decision = schedule.decide(
                outcome,
                method: request.method,
                retriesUsed: retriesUsed,
                secondaryRetries: secondaryRetries,
                random: clock.random(),
                now: clock.now(),
                repeatableQuery: request.repeatableQuery
            )
            guard case .retry(let delay, let reason) = decision else {
                if case .success(var response) = outcome {
                    logAnswer(request, response, attempts: attempts)
                    noticeRetirement(response)
                    response.attempts = attempts
                    response.elapsed = elapsed()
                    return response
                }
                return try outcome.mapError(failure).get()
            }
            if case .transport = reason, let limit = request.transportRetries, retriesUsed >= limit {
                return try outcome.mapError(failure).get()
            }
            if case .secondaryRateLimit = reason {
                let end = clock.elapsed() + delay
                secondaryRetries += 1
                ownPauseEnd = end
                secondaryLimitPause.extend(to: end)
            }
            if case .primaryRateLimit = reason {
                primaryWaits += 1
                if primaryWaits > HTTPClient.maximumPrimaryLimitWaits { return try outcome.mapError(failure).get() }
            } else {
                retriesUsed += 1
                logger.info(
                    Self.traceText("\(request.method.rawValue) \(request.url.absoluteString): \(reason); ")
                        + "retry \(retriesUsed) of \(schedule.policy.maxRetries) in \(describe(delay))"
                )
            }
            do {
                try await clock.sleep(delay, reason)
            } catch {
                throw cancelledBetweenAttempts()
            }
        }
    }

    /// One try with a true deadline: the transport races a timer, and the loser is cancelled.
    private func attempt(_ request: HTTPRequest) async -> Result<HTTPResponse, TransportError> {
        let started = ContinuousClock.now
        traceRequest(request)
        let transport = self.transport
        let timeout = schedule.policy.attemptTimeout
        let timers = attemptTimers
        let outcome = await withTaskGroup(of: Result<HTTPResponse, TransportError>?.self) { group in
            group.addTask {
                do {
                    return .success(try await transport(request))
                } catch let error as TransportError {
                    return .failure(error)
                } catch is CancellationError {
                    return .failure(.cancelled)
                } catch {
                    return .failure(.other(String(describing: error)))
                }
            }
            group.addTask {
                await timers.sleep(for: timeout)
                return Task.isCancelled ? nil : .failure(.timedOut)
            }
            var first: Result<HTTPResponse, TransportError>?
            for await result in group {
                if let result {
                    first = result
                    break
                }
            }
            group.cancelAll()
            return first ?? .failure(.cancelled)
        }
        .flatMap { response -> Result<HTTPResponse, TransportError> in
            // An answer from another origin is never read, whichever transport followed the redirect: it
            // would pass for GitHub's (the live transport does not follow one at all).
            guard OriginPolicy.sameOrigin(response.url, request.url) else {
                return .failure(.redirectToAnotherOrigin(OriginPolicy.origin(response.url)))
            }
            return .success(response)
        }
        let elapsed = Int((ContinuousClock.now - started).inSeconds * 1000)
        guard logger.isEnabled(.debug) else { return outcome }
        let line = Self.traceText("\(request.method.rawValue) \(request.url.absoluteString)")
        switch outcome {
        case .success(let response):
            var text = "← \(response.status) \(line) in \(elapsed) ms"
            if response.url != request.url {
                // The answer came from elsewhere on the same origin: say so.
                text += "\n    redirected to \(Self.traceText(response.url.absoluteString))"
            }
            // The limits and the request id stay on the response's own line; every header follows it.
            logger.debug(text, metadata: rateLimitMetadata(response.headers))
            var headers = "  response headers:"
            for field in response.headers {
                let value = Self.isSecretHeader(field.name) ? "***" : field.value
                headers += "\n    \(Self.traceText(field.name)): \(Self.traceText(value))"
            }
            logger.debug(headers)
        case .failure(let error):
            logger.debug("✗ \(line): \(Self.traceText(error.description)) after \(elapsed) ms")
        }
        return outcome
    }

    /// A response header whose value is a credential (a session cookie, an authorization): the debug trace
    /// names it and hides its value.
    static func isSecretHeader(_ name: String) -> Bool {
        let lowered = name.lowercased()
        return ["authorization", "cookie", "token", "secret", "password", "api-key"].contains {
            lowered.contains($0)
        }
    }

    /// One warning a run, on the first answer that says the API version asked for is being retired
    /// (`Deprecation`, `Sunset`, a `rel="deprecation"` link) or that another version answered
    /// (`x-github-api-version-selected`): GitHub's docs, "API versions".
    private func noticeRetirement(_ response: HTTPResponse) {
        guard let signs = APIVersionRetirement.signs(in: response.headers, asked: configuration.apiVersion),
            retirementNotice.setOnce()
        else { return }
        logger.warning(
            Self.traceText(
                "GitHub's answer says the API version this gh-users asks for (\(configuration.apiVersion)) is "
                    + "being retired (\(signs)): upgrade gh-users"))
    }

    /// `--verbose`'s line for each request: what was asked, what came back, and whether the cache answered (a
    /// 304 to the `If-None-Match` the cache sent). `--debug`'s trace says all of this and more, so it stands in.
    private func logAnswer(_ request: HTTPRequest, _ response: HTTPResponse, attempts: Int) {
        guard logger.isEnabled(.info), !logger.isEnabled(.debug) else { return }
        let url = request.url
        var line = "\(request.method.rawValue) \(url.path)\(url.query.map { "?" + $0 } ?? ""): \(response.status)"
        if response.status == 304 {
            // A read's 304 confirms its cached copy; a write's says there was nothing to change.
            line += request.method.isWrite ? ", nothing to change" : ", unchanged: the cached copy answers"
        }
        if attempts > 1 { line += " (attempt \(attempts))" }
        logger.info(Self.traceText(line))
    }

    /// The request line and the header fields that really go out (`headersSent`: what the transport keeps
    /// and adds), with the Authorization value masked whatever else redaction catches. Every value is
    /// sanitised: an ETag or Link URL sent back is the server's text.
    private func traceRequest(_ request: HTTPRequest) {
        guard logger.isEnabled(.debug) else { return }
        var lines = ["→ " + Self.traceText("\(request.method.rawValue) \(request.url.absoluteString)")]
        for field in headersSent(request) {
            let value = field.name.lowercased() == "authorization" ? Self.maskCredentials(field.value) : field.value
            lines.append("    \(Self.traceText(field.name)): \(Self.traceText(value))")
        }
        logger.debug(lines.joined(separator: "\n"))
    }

    /// Server text bound for stderr: control characters and escape sequences (an OSC 52 clipboard write, a
    /// screen clear) are shown, never performed.
    /// Text from the network made safe for a terminal (no escape sequences, no control characters).
    /// A URL's user name and password are never traced (a server's `Location` may hold them).
    package static func traceText(_ text: String) -> String {
        TerminalSanitizer.sanitize(URLUserInfo.masked(in: text))
    }

    static func maskCredentials(_ value: String) -> String {
        guard let space = value.firstIndex(of: " ") else { return "***" }
        return value[..<space] + " ***"
    }

    private func describe(_ duration: Duration) -> String {
        String(format: "%.1fs", duration.inSeconds)
    }

    private func rateLimitMetadata(_ headers: HTTPHeaders) -> [String: String] {
        var metadata: [String: String] = [:]
        // The request id is what GitHub Support asks for, so the trace carries it beside the limits.
        for name in [
            "x-ratelimit-remaining", "x-ratelimit-limit", "x-ratelimit-reset", "retry-after", "x-github-request-id",
        ] {
            if let value = headers[name] { metadata[name] = Self.traceText(value) }
        }
        return metadata
    }
}
