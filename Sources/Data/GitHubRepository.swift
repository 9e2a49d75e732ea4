import AtomicCore
import AtomicLogger
import Domain
import Foundation
import JSONBytes
import Networking

/// Reads any resource of the endpoint catalog from GitHub's REST API: through the conditional cache, with the
/// one status mapping, and with the resource's own decoder. It also answers `show`'s profile lookups and the
/// GraphQL queries (profiles in batches, contribution calendars, stargazers).
package struct GitHubRepository: ResourceRepository, UsersRepository, GraphQLProfilesRepository, ContributionsRepository
{
    private let fetcher: ConditionalFetcher
    private let client: HTTPClient
    /// The API root every request goes under (`--api-url`, `GH_HOST`): a `--changes` snapshot records it.
    package let apiRoot: URL
    let logger: Logger
    /// A run that spends a per-minute limit by design: see `waitingOutPerMinuteLimits()`.
    private var waitsOutPerMinuteLimits = false
    /// What the run's profile queries ask (`email` when the run writes it, until the token's scopes are found not
    /// to allow it).
    let profileFields: ProfileQueryFields

    /// `asksProfileEmail` false is a run that writes no profile's email: its GraphQL profile queries leave the
    /// field out, so a token without the scope GitHub asks for it is never refused, nor warned.
    package init(
        client: HTTPClient,
        cache: CacheSettings = .disabled,
        logger: Logger = .disabled,
        asksProfileEmail: Bool = true,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        fetcher = ConditionalFetcher(client: client, settings: cache, logger: logger, now: now)
        profileFields = ProfileQueryFields(asksEmail: asksProfileEmail)
        self.client = client
        self.logger = logger
        apiRoot = client.configuration.baseURL
    }

    package func fetch<Value: Sendable>(_ resource: Resource<Value>, nextPage: NextPageListener?)
        async throws(DomainError) -> Value
    {
        try await fetch(resource, at: url(resource.target), nextPage: nextPage)
    }

    /// The first answer this run took from the cache without the network confirming it (`--offline`, or the
    /// network down), if any: shared by every copy of this repository.
    package var unconfirmedCopy: UnconfirmedCopy? { fetcher.unconfirmed.first }

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

    /// The request an action would send, as `METHOD URL`, for a dry run.
    package func describe(_ action: Action) -> String {
        action.method.rawValue + " " + url(of: action)
    }

    /// The URL a write is sent to.
    package func url(of action: Action) -> String { url(action.path).absoluteString }

    /// Writes go straight to GitHub, past the cache: GitHub asks for `Content-Length: 0` on a PUT without a body.
    @discardableResult
    package func perform(_ action: Action) async throws(DomainError) -> ResourceBody {
        // A write is never answered from the cache, so --offline has nothing to offer it: it is never sent.
        guard fetcher.settings.mode != .offline else { throw .notCached(resource: describe(action), everCached: false) }
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
            // Interrupted while a write was under way (not in a wait between attempts): it may have been made.
            // An error, so that no --log-level hides it.
            if error.error == .cancelled, !error.cancelledBetweenAttempts, let check = action.lostAnswerCheck {
                logger.error(
                    "the \(action.method.rawValue) was interrupted before GitHub's answer came, and may have reached "
                        + "GitHub: check with \(check) before sending it again")
            }
            guard error.error.mayHaveReachedServer, case .network(let text, let advice, let id) = mapped else {
                throw mapped
            }
            // A PATCH is never sent twice, and an idempotent PUT or DELETE has had its retries, so whether it was
            // made is for the user to look at.
            let arrived = NetworkAdvice.writeMayHaveArrived(
                method: action.method.rawValue, check: action.lostAnswerCheck)
            throw .network(text, advice: advice + [arrived], requestID: id)
        }
        // GitHub's OpenAPI description lists 304 Not modified for follow and unfollow (operations.json) and
        // `PATCH /user`; block and unblock are taken the same way: nothing needed changing. It is no redirect.
        if response.status == 304 {
            return ResourceBody(
                bytes: [], next: nil, label: describe(action), headers: Self.headers(response), status: 304)
        }
        if (300..<400).contains(response.status) {
            // The transport does not follow a write's redirect: sent again to the Location, it could follow or
            // unfollow another account, or carry the token to another host.
            let target = Self.redirectTarget(response)
            throw .server(
                status: response.status,
                message: "the \(action.method.rawValue) was redirected\(target); a write is never sent anywhere "
                    + "but where it was asked, so gh-users did not follow the redirect",
                requestID: ErrorMapping.requestID(response))
        }
        // A web server's 404 page: the API URL is wrong, not the token's scope (a write's 404 is read as that).
        // A success that is a page stays the "probably made" below: the write may have reached something.
        if response.status == 404, let page = ResponseDecoder.webPage(response, endpoint: describe(action)) {
            throw page.answered(requestID: ErrorMapping.requestID(response))
        }
        // A 404 to a token that holds a scope the write accepts is no scope refusal, which a write's 404 is
        // otherwise read as (GitHub hides what a token may not reach behind 404): it is about the account.
        if response.status == 404, ErrorMapping.tokenHoldsAcceptedScope(response) {
            throw .server(
                status: 404,
                message: "Not Found, though the token has a scope GitHub accepts for the \(action.method.rawValue)",
                requestID: ErrorMapping.requestID(response))
        }
        if let error = ErrorMapping.domainError(
            for: response, resource: action.missing, method: action.method.rawValue)
        {
            // A write that is never sent twice met a secondary limit that no retry waited out.
            if case .rateLimited(let lifts, let message, DomainError.secondaryLimit?, let id) = error,
                !Self.method(action.method).isIdempotent
            {
                throw .rateLimited(
                    resetAt: lifts, message: message, resource: DomainError.secondaryLimitOnceOnly, requestID: id)
            }
            // A server error may come after the change was made (a gateway that lost the answer: 502, 504), and a
            // write with a check (a PATCH, never sent twice) says so, as it does for an answer lost on the way.
            if case .server(let status, let message, let id) = error, status >= 500, let check = action.lostAnswerCheck
            {
                throw .server(
                    status: status,
                    message: message + "; the \(action.method.rawValue) \(DomainError.mayHaveLanded): check "
                        + "with \(check) before sending it again",
                    requestID: id)
            }
            throw ErrorMapping.ownResourceRefusal(error, endpoint: action.endpoint)
        }
        do {
            try ResponseDecoder.refuseMalformed(response.body, endpoint: describe(action))
        } catch {
            throw Self.probablyMade(error, status: response.status, check: action.lostAnswerCheck)
                .answered(requestID: ErrorMapping.requestID(response))
        }
        return ResourceBody(
            bytes: [UInt8](response.body), next: nil, label: describe(action), headers: Self.headers(response),
            status: response.status)
    }

    /// A success whose body is no answer (broken JSON, or JSON of another shape) most likely made the change: the
    /// failure says so, and names `check`, the command that shows whether it was made.
    package static func probablyMade(_ error: DomainError, status: Int, check: String?) -> DomainError {
        guard let check, case .malformedResponse(let endpoint, let detail, let requestID) = error else { return error }
        return .malformedResponse(
            endpoint: endpoint,
            detail: detail + "; GitHub answered \(status), so the change was probably made: check with \(check)",
            requestID: requestID)
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
        do throws(DomainError) {
            return try await fetch(list.first, at: url, nextPage: nextPage)
        } catch {
            throw .onALaterPage(error)
        }
    }

    package func user(login: Login) async throws(DomainError) -> User {
        try await fetch(GitHubEndpoints.user(login))
    }

    package func user(id: Int64) async throws(DomainError) -> User {
        try await fetch(GitHubEndpoints.user(id: id))
    }

    /// One GraphQL query: a POST past the cache (GraphQL answers carry no validators), retried through network
    /// failures and 5xx as a GET is, since a query changes nothing. A spent `graphql` limit that `decode` reports
    /// is waited out here when `--wait-on-rate-limit` says so, as the client does for REST. A batch's 502 or 504
    /// (a query that ran out of time) goes to `decode`, to be asked smaller; a list's page (`repeating: .asIs`),
    /// which cannot be, is sent again as a GET would be.
    func graphQL<Value>(
        _ body: [UInt8], repeating: QueryRepeat = .smallerOnTimeout,
        decode: (HTTPResponse, String) throws(GraphQLBatchFailure) -> Value
    ) async throws(GraphQLBatchFailure) -> Value {
        let url = GitHubEndpoints.graphQLURL(apiRoot: apiRoot)
        let endpoint = "POST " + url.path
        // GraphQL answers are never cached (they carry no validators), so --offline can answer none of them.
        guard fetcher.settings.mode != .offline else {
            throw .failed(.notCached(resource: endpoint, everCached: false))
        }
        var request = client.makeJSONPost(url, body: Foundation.Data(body))
        request.repeatableQuery = repeating
        var waits = 0
        while true {
            let response: HTTPResponse
            do {
                response = try await client.sendReportingAttempts(request)
                // An answer: the network is up again for the cache's GETs too (`UnconfirmedCopies.networkDown`).
                fetcher.unconfirmed.answered()
            } catch {
                throw .failed(
                    ErrorMapping.domainError(for: error, endpoint: endpoint, apiRoot: apiRoot, cachedCopy: false))
            }
            let requestID = ErrorMapping.requestID(response)
            // A 304 is no redirect (it said "the POST was redirected" with no Location: helper-291): the reader's
            // unexpected status, as a GET's.
            if (300..<400).contains(response.status), response.status != 304 {
                // Not followed by the transport: re-sent, the query went without its body (a 400 that misled).
                let target = Self.redirectTarget(response)
                throw .failed(
                    .server(
                        status: response.status,
                        message: "the POST was redirected\(target); a GraphQL query is sent only where it was "
                            + "asked, so gh-users did not follow the redirect",
                        requestID: requestID))
            }
            do throws(DomainError) {
                // An error status is the reader's to map (a proxy's 502 page, a 401 retried or refused).
                let whole = (200..<300).contains(response.status)
                try ResponseDecoder.refuseOversized(response.body.count, endpoint: endpoint)
                if whole { try ResponseDecoder.refuseUnlessObject(response, endpoint: endpoint) }
                try ResponseDecoder.refuseMalformed(response.body, endpoint: endpoint, whole: whole)
                // Whichever reader decodes the answer (a batch of profiles, a page of a list, the access map's).
                if whole { try ResponseDecoder.refuseRepeatedKey([UInt8](response.body), endpoint: endpoint) }
            } catch {
                throw .failed(error.answered(requestID: requestID))
            }
            do {
                return try decode(response, endpoint)
            } catch .failed(.rateLimited(let resetAt, let message, let resource, _))
                where (200..<300).contains(response.status) && resource != DomainError.secondaryLimit
            {
                // GraphQL's spent limit in a 200, which the client cannot see. One it answered by status (a 403
                // or 429) it has waited out or retried already, within --retries and its ten waits.
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

    /// " to LOCATION" for a redirect's message, a password in it masked; empty without a `Location`.
    private static func redirectTarget(_ response: HTTPResponse) -> String {
        response.headers["Location"].map { " to \(URLUserInfo.masked(in: $0))" } ?? ""
    }

    private func fetch<Value: Sendable>(_ resource: Resource<Value>, at url: URL, nextPage: NextPageListener? = nil)
        async throws(DomainError) -> Value
    {
        let label = ErrorMapping.label(url)
        let onHead = nextPage.map { listener in
            HeadObserver.nextPage { url, bytes in listener(NextPageNotice(url: url, bodyBytes: bytes)) }
        }
        let fetched = try await answer(resource, at: url, label: label, onHead: onHead)
        var response = fetched.response
        if let page = ResponseDecoder.webPage(response, endpoint: label) {
            throw page.answered(requestID: ErrorMapping.requestID(response))
        }
        if let error = ErrorMapping.domainError(for: response, resource: resource.missing) {
            throw ErrorMapping.ownResourceRefusal(
                error, endpoint: resource.endpoint, url: url,
                holdsScope: ErrorMapping.tokenHoldsAcceptedScope(response))
        }
        let next = LinkHeader(response.headers["Link"]).next.map(PageCursor.init(url:))
        do {
            try ResponseDecoder.refuseMalformed(response.body, endpoint: label)
            // The body is decoded from its bytes alone: the answer's own copy goes first, so a page up to the
            // body cap is not held twice while its entities are made (issue 38).
            let bytes = [UInt8](response.body)
            response.body = Foundation.Data()
            // The pieces the body arrived in were freed on the transport's threads, whose allocator arenas the
            // decoding thread does not reuse: a big body's are handed back before its entities are made.
            if bytes.count > ResponseDecoder.oneByOneBytes { FreedMemory.giveBack() }
            let value = try resource.decode(
                ResourceBody(
                    bytes: bytes, next: next, label: label, headers: Self.headers(response),
                    status: response.status, answeredPath: response.url.path == url.path ? nil : response.url.path))
            // Kept only now, decoded: a 200 that is no JSON, or not what the endpoint documents (`{"message":…}`
            // where a list belongs), never replaces the good copy.
            if let keeper = fetched.keeper {
                response.body = Foundation.Data(bytes)
                keeper.keepIfWellFormed(response)
            }
            fetcher.sayWithheld(response)
            return fetched.marked(value, paging: resource.endpoint.paging)
        } catch {
            throw error.answered(requestID: ErrorMapping.requestID(response))
        }
    }

    /// The resource's answer through the cache. In a run that waits out per-minute limits, a spent limit of an
    /// endpoint whose row says it refills within a minute is sat out and the request asked again, at most
    /// `HTTPClient.maximumPrimaryLimitWaits` times, as the client waits under `--wait-on-rate-limit`. A list's
    /// page answered 202 Accepted is never data (GitHub is still computing it): it is asked for again after each
    /// of `HTTPClient.computingWaits`, and after the last the run ends saying to run it again later.
    private func answer<Value: Sendable>(
        _ resource: Resource<Value>, at url: URL, label: String, onHead: HeadObserver?
    ) async throws(DomainError) -> ConditionalFetcher.Fetched {
        var waits = 0
        var computing = HTTPClient.computingWaits.makeIterator()
        while true {
            let fetched = try await fetcher.get(
                url, endpoint: label, cacheable: resource.cacheable, revalidates: !resource.asksFresh,
                fallsBack: !resource.asksLive, accept: resource.accept, onHead: onHead)
            let response = fetched.response
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
            else { return fetched }
            waits += 1
            do {
                guard try await client.waitOutSpentLimit(response) else { return fetched }
            } catch {
                throw .cancelled
            }
        }
    }
}
