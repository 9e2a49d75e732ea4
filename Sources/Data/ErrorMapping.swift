import Domain
import Foundation
import Networking

/// The one translation of HTTP outcomes into `DomainError`, so nothing above Data sees an HTTP type: 404 is
/// `notFound`, 401 and a 403 that is not a rate limit `unauthorized`, a 403 or 429 with a spent limit
/// `rateLimited` (with the reset), other failing statuses `server`, and a 2xx that does not decode
/// `malformedResponse`. A failure with no answer carries what was tried and what to check next.
enum ErrorMapping {
    /// `endpoint` names the request ("GET /users?since=0&per_page=30") for failures that are about its answer.
    /// A failure with no answer says what was tried, and advises what to check: the API URL (`apiRoot`) and the
    /// network, or the proxy, and the cache when `cachedCopy` says it holds this very request. The executable
    /// words the advice in the terms of its command line.
    static func domainError(for failure: RequestFailure, endpoint: String, apiRoot: URL, cachedCopy: Bool)
        -> DomainError
    {
        let error = failure.error
        switch error {
        case .cancelled:
            return .cancelled
        case .responseTooLarge(let limit):
            return .malformedResponse(
                endpoint: endpoint,
                detail: "the body is larger than the \(TransportError.byteCount(limit)) limit, so it was not read to "
                    + "its end (GH_USERS_MAX_RESPONSE_BYTES raises the limit)")
        default: break
        }
        var text = describe(error)
        var advice: [NetworkAdvice] = []
        if case .tls(.nameMismatch, _, _) = error { advice.append(.checkHostName) }
        if error.isTransient {
            text = text.replacingFirstLine { $0 + ", after " + attempts(failure.attempts, over: failure.elapsed) }
            if case .proxyUnreachable = error {
                text += "\n" + proxyEnvironmentHint
            } else {
                advice.append(.checkAPIRoot(apiRoot, timedOut: error == .timedOut))
            }
        }
        if cachedCopy { advice.append(.cachedCopy(endpoint: endpoint)) }
        return .network(text, advice: advice, requestID: requestID(error.requestID))
    }

    /// "4 attempts over 3.1 s".
    static func attempts(_ attempts: Int, over elapsed: Duration) -> String {
        (attempts == 1 ? "1 attempt" : "\(attempts) attempts") + " over " + String(format: "%.1f s", elapsed.inSeconds)
    }

    /// Where libcurl takes a proxy from, and how to go around it.
    private static let proxyEnvironmentHint =
        "The proxy comes from HTTPS_PROXY, https_proxy or ALL_PROXY (http_proxy for an http URL): "
        + "check it, or list the API's host in NO_PROXY to go around it."

    /// One line for the common failures (the warning that a cached copy answered instead is one line); a
    /// failure that is an answer in its own right (TLS, a proxy's refusal) adds lines that say what to check.
    /// Text that came from the network (libcurl quotes the certificate's names) is kept to one line by
    /// `TransportError.description`, so the only line breaks are our own; ErrorPresenter sanitises each line.
    static func describe(_ error: TransportError) -> String {
        switch error {
        case .tls(.untrustedCertificate, _, let detail)
        where detail.contains("expired") || detail.contains("not yet valid"):
            // A certificate outside its dates is no CA missing from the store: the server's, or an old CA bundle's.
            return error.description + "\nCheck this machine's date and time, and that its CA certificates are up to "
                + "date (Debian, Ubuntu: the ca-certificates package); if both are, the server's certificate needs "
                + "renewing by whoever runs it."
        case .tls(let failure, _, _): return hint(failure).map { error.description + "\n" + $0 } ?? error.description
        case .proxyRefused(_, let status): return error.description + "\n" + proxyRefusalHint(status)
        case .proxyUnusable: return error.description + "\n" + proxyEnvironmentHint
        default: return error.description
        }
    }

    /// swift-corelibs-foundation gives libcurl the first CA bundle it finds and no way to add another:
    /// SSL_CERT_FILE, SSL_CERT_DIR, CURL_CA_BUNDLE and OpenSSL's configuration are not read for it (measured, see
    /// docs/NETWORK.md's "Corporate networks"), so the system store is the one way to trust a company's CA.
    /// A name that does not match is `NetworkAdvice.checkHostName` instead, which the executable words.
    private static func hint(_ failure: TLSFailure) -> String? {
        switch failure {
        case .nameMismatch:
            return nil
        case .untrustedCertificate:
            return "If a corporate proxy or a private certificate authority signs it, add that CA to the system store "
                + "(Debian, Ubuntu: copy it to /usr/local/share/ca-certificates/ and run update-ca-certificates; "
                + "Fedora, RHEL: to /etc/pki/ca-trust/source/anchors/ and run update-ca-trust).\n"
                + "SSL_CERT_FILE, SSL_CERT_DIR and CURL_CA_BUNDLE are not read: see 'gh-users help environment'."
        case .handshake:
            return "Check that the API URL is https on a port that speaks TLS, and whether a proxy in between "
                + "intercepts TLS."
        }
    }

    private static func proxyRefusalHint(_ status: Int) -> String {
        if status == 407 {
            return "The proxy wants credentials: give them in its URL, as https_proxy=http://USER:PASSWORD@HOST:PORT."
        }
        return "The proxy's policy keeps that host out: ask whoever runs it, or list the host in NO_PROXY if it "
            + "can be reached directly."
    }

    /// nil for a success status. `now` dates a `Retry-After` given in seconds. The failure names the answer's
    /// request id, and a malformed answer the request by `method` (a GraphQL POST, a write) and URL.
    static func domainError(for response: HTTPResponse, resource: String, method: String = "GET", now: Date = Date())
        -> DomainError?
    {
        statusError(for: response, resource: resource, endpoint: label(response.url, method: method), now: now)?
            .answered(requestID: requestID(response))
    }

    /// A GraphQL answer's failure status, if any. A 404 is the endpoint's, never a name's (GitHub answers an
    /// unknown login, organization or team with null in a 200): the server has no GraphQL API there, which is a
    /// failure (exit 1), not "no such thing" (exit 3). `show --via graphql` maps the status itself, to fall back.
    static func graphQLError(for response: HTTPResponse, endpoint: String) -> DomainError? {
        guard let error = domainError(for: response, resource: "GraphQL API", method: "POST") else { return nil }
        guard case .notFound(_, let requestID, _) = error else { return error }
        // A web page at `/graphql`, not `/api/graphql`: an Enterprise host given without `/api/v3`, as for REST.
        let path = response.url.path
        if path.hasSuffix("/graphql"), !path.hasSuffix("/api/graphql") {
            if let page = ResponseDecoder.webPage(response, endpoint: endpoint) { return page }
        }
        return .server(
            status: 404, message: "\(endpoint) was not found: this server has no GraphQL API", requestID: requestID)
    }

    /// A 404 from a row of the token's own account that needs a scope (`GET /user/emails`, `PATCH /user`) cannot
    /// mean the account is missing: GitHub answers so when the token lacks the scope, so it is a refusal that
    /// names the row's scope (exit 4), as a 403 that names it is. So is a 404 from a row under an organization or
    /// a repository that needs a scope (`GET /orgs/{org}/outside_collaborators`): GitHub hides from a token
    /// without the scope or the role what it may not see, so the refusal names what is needed; unless the answer
    /// shows the token holding a scope GitHub accepts there (`holdsScope`), where it is the account's role.
    ///
    /// A 403 of `GET /repos/{owner}/{repo}/contributors` that says the list is too large is no question of the
    /// token: GitHub does not list them through the API at all (exit 1), and the message says so in one line.
    ///
    /// `GET /orgs/{org}/members` with a 2FA filter (`url`'s query) is for the organization's owners: GitHub's 422
    /// or 403 to anyone else is a refusal (exit 4) that says so in one line.
    static func ownResourceRefusal(
        _ error: DomainError, endpoint: Endpoint, url: URL? = nil, holdsScope: Bool = false
    ) -> DomainError {
        if endpoint == .members, let url, url.query?.contains("filter=2fa_") == true {
            let owners = "the 2FA filters are for the organization's owners only"
            switch error {
            case .server(422, let message, let requestID):
                // GitHub Enterprise Server's reference lists `2fa_disabled` alone (3.3 to 3.16): its 422 may be
                // about the value, not the role (helper-336).
                let host = OriginPolicy.bareHost(url.host ?? "")
                let unknown =
                    url.query?.contains("filter=2fa_insecure") == true && !OriginPolicy.isGitHubCom(host)
                    && !OriginPolicy.isTenancy(host) && !OriginPolicy.isLoopback(host: host)
                let also =
                    unknown
                    ? "; or this Enterprise Server does not know 2fa_insecure, which its reference does not list" : ""
                return .unauthorized(status: 422, message: "\(owners)\(also) (\(message))", requestID: requestID)
            case .unauthorized(403, let message, _, let requestID):
                return .unauthorized(status: 403, message: "\(owners) (\(message))", requestID: requestID)
            default: break
            }
        }
        if case .unauthorized(403, let message, _, _) = error, endpoint == .contributors,
            message.lowercased().contains("too large")
        {
            return .refused(
                "GitHub does not list this repository's contributors: its history or contributor list is too "
                    + "large to list through the API (HTTP 403)")
        }
        guard case .notFound(_, let requestID, _) = error else { return error }
        let ownAccount = endpoint.parameters.isEmpty && (endpoint.path == "/user" || endpoint.path.hasPrefix("/user/"))
        let underOwner = endpoint.path.hasPrefix("/orgs/") || endpoint.path.hasPrefix("/repos/")
        guard let scope = endpoint.scope, ownAccount || underOwner else {
            return endpoint.parameters.isEmpty ? unserved(endpoint, url: url, requestID: requestID) : error
        }
        // helper-357: a recorded 404 names the scopes, as a write's does; one the token holds is no scope refusal.
        let problem: AccessProblem = underOwner && holdsScope ? .hidden : .scope(accepted: scope)
        return .unauthorized(status: 404, message: "Not Found", problem: problem, requestID: requestID)
    }

    /// `x-github-request-id`, the id GitHub Support asks for, kept to a length an id can have: it is the
    /// server's text, so the presenter still sanitises it.
    static func requestID(_ response: HTTPResponse) -> String? {
        requestID(response.headers["x-github-request-id"])
    }

    /// A request id as a header gave it, trimmed and cut to `maximumRequestIDLength`; nil when empty.
    static func requestID(_ header: String?) -> String? {
        guard let value = header?.trimmingCharacters(in: .whitespaces), !value.isEmpty
        else { return nil }
        return value.count > maximumRequestIDLength ? value.prefix(maximumRequestIDLength - 1) + "…" : value
    }

    static let maximumRequestIDLength = 64

    private static func statusError(for response: HTTPResponse, resource: String, endpoint: String, now: Date)
        -> DomainError?
    {
        let status = response.status
        if (200..<300).contains(status) { return nil }
        let message = githubMessage(response) ?? ErrorMapping.reasonPhrase(status)
        let limit = RateLimitInfo(response, now: now)
        if status == 403 || status == 429, case .malformed(let reason) = limit.remaining {
            return .malformedResponse(endpoint: endpoint, detail: reason)
        }
        if limit.isPrimaryLimitSpent(status: status) {
            let resource = rateLimitResource(response)
            switch limit.reset {
            case .malformed(let reason): return .malformedResponse(endpoint: endpoint, detail: reason)
            case .valid(let reset): return .rateLimited(resetAt: reset, message: message, resource: resource)
            case .absent: return .rateLimited(resetAt: nil, message: message, resource: resource)
            }
        }
        // The client hands a secondary limit back when its retries are spent or the wait it asks for is
        // longer than --max-wait: either way it is a rate limit, reported with the time to come back.
        if limit.isSecondaryLimit(status: status, body: response.body) {
            switch limit.retryAt {
            case .malformed(let reason): return .malformedResponse(endpoint: endpoint, detail: reason)
            case .valid(let retryAt):
                return .rateLimited(resetAt: retryAt, message: message, resource: DomainError.secondaryLimit)
            case .absent: return .rateLimited(resetAt: nil, message: message, resource: DomainError.secondaryLimit)
            }
        }
        if let notice = serverNotice(response, message: message) { return notice }
        switch status {
        case 404:
            return .notFound(resource: resource)
        case 401:
            return .unauthorized(status: status, message: message, problem: TokenExpiry.problem(response))
        case 403:
            return .unauthorized(
                status: status, message: message + acceptedPermissions(response),
                problem: accessProblem(response, message: message))
        default:
            return .server(status: status, message: message + retried(response, limit: limit))
        }
    }

    /// The bucket a spent limit belongs to: GitHub names it in `x-ratelimit-resource`; a server that does not
    /// (an older Enterprise) still spends the search bucket on `/search/`.
    private static func rateLimitResource(_ response: HTTPResponse) -> String? {
        if let named = response.headers["x-ratelimit-resource"]?.trimmingCharacters(in: .whitespaces).lowercased(),
            !named.isEmpty
        {
            return named
        }
        return response.url.path.hasPrefix("/search/") ? "search" : nil
    }

    /// What a fine-grained token or a GitHub App would need, as `X-Accepted-GitHub-Permissions` names it (sets of
    /// permissions, any one set enough, separated by `;`: GitHub's changelog of 2023-08-10), for a 403's message;
    /// empty where the header is absent or names none. `allows_permissionless_access=true` is no permission but
    /// GitHub's mark of an endpoint that needs none: as a set of its own it means no permission is needed, and
    /// nothing is named. Cut to a length a list of permissions has: it is the server's text.
    static func acceptedPermissions(_ response: HTTPResponse) -> String {
        let permissionless = "allows_permissionless_access=true"
        let sets = (response.headers["x-accepted-github-permissions"] ?? "").split(separator: ";").map { set in
            set.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }.filter { !$0.isEmpty }
        guard !sets.contains([permissionless]) else { return "" }
        let named = sets.map { $0.filter { $0 != permissionless }.joined(separator: ", ") }.filter { !$0.isEmpty }
        guard !named.isEmpty else { return "" }
        return " (a fine-grained token needs these permissions, any one set of them: "
            + "\(named.joined(separator: "; ").prefix(200)))"
    }

    /// Whether the answer shows the token holding a scope the endpoint accepts: GitHub names both on a classic
    /// token's answers, its 404s too (github3.py's `GitHub_is_blocking` cassette, 2021: `X-OAuth-Scopes: admin:org,
    /// repo, user` and `X-Accepted-OAuth-Scopes: user` on a 404 for an account not blocked). False where either
    /// is missing (a fine-grained token's answers name no scopes).
    static func tokenHoldsAcceptedScope(_ response: HTTPResponse) -> Bool {
        let accepted = scopeList(response.headers["x-accepted-oauth-scopes"])
        guard !accepted.isEmpty, let granted = response.headers["x-oauth-scopes"].map(scopeList) else { return false }
        return !Set(accepted).isDisjoint(with: granted)
    }

    /// Whether a 403 is about the token's scopes or single sign-on. Only then does the message talk of scopes:
    /// most 403s are not (no User-Agent, an abuse block, "Resource not accessible by …").
    static func accessProblem(_ response: HTTPResponse, message: String) -> AccessProblem {
        if response.headers["x-github-sso"] != nil { return .singleSignOn(url: singleSignOnURL(response)) }
        if isAboutSingleSignOn(message) { return .singleSignOn(url: nil) }
        let lowered = message.lowercased()
        let accepted = scopeList(response.headers["x-accepted-oauth-scopes"])
        // GitHub names what the endpoint accepts and what the token has: a token with none of them lacks a scope.
        if let granted = response.headers["x-oauth-scopes"].map(scopeList), !accepted.isEmpty,
            Set(accepted).isDisjoint(with: granted)
        {
            return .scope(accepted: accepted.joined(separator: ", "))
        }
        if lowered.contains("scope") {
            return .scope(accepted: accepted.isEmpty ? nil : accepted.joined(separator: ", "))
        }
        return .unstated
    }

    /// Where `X-GitHub-SSO` says the token is authorized for the organization (`url=…`), if it does: GraphQL's
    /// answers give the header without one (`partial-results; organizations=…`).
    static func singleSignOnURL(_ response: HTTPResponse) -> String? {
        response.headers["x-github-sso"]?.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            .first { $0.hasPrefix("url=") }.map { String($0.dropFirst(4)) }
    }

    /// GitHub's refusal for an organization's SAML single sign-on, over REST and GraphQL alike: "Resource protected
    /// by organization SAML enforcement. You must grant your Personal Access token access to this organization."
    static func isAboutSingleSignOn(_ message: String) -> Bool {
        let lowered = message.lowercased()
        return lowered.contains("saml") || lowered.contains("single sign-on")
    }

    private static func scopeList(_ text: String?) -> [String] {
        (text ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    static let maximumLinkBytes = 8 << 10

    /// A `Link` URL, followed only when it is http(s) on the API's own origin (`OriginPolicy`), under its path: a
    /// next page from another server would be mixed into the output as GitHub's. Its scheme is written in lower case, as
    /// URLSession asks (`HTTP://` is the same URL, RFC 3986, and failed as "unsupported URL").
    /// A link that is an absolute path (`</api/v3/users?since=2>`, as a rewriting proxy may send: RFC 8288 allows
    /// a relative reference) is on the page's origin, which is the API's: it is read against the API root.
    /// A link longer than `maximumLinkBytes` (GitHub's are under a few hundred bytes; a search's, under 2 KiB) is
    /// refused: swift-corelibs-foundation keeps a copy of every URL it is asked for (docs/PERFORMANCE.md), so a
    /// server's 40 KB links grew a run by 40 KB a page however little gh-users kept of them.
    static func nextPageURL(_ text: String, apiRoot: URL, endpoint: String) throws(DomainError) -> URL {
        guard text.utf8.count <= maximumLinkBytes else {
            throw .malformedResponse(
                endpoint: endpoint,
                detail: "the next-page link is \(text.utf8.count) bytes long, more than the \(maximumLinkBytes / 1024) "
                    + "KiB followed (GitHub's are far shorter), so paging stopped there")
        }
        let absolute = text.hasPrefix("/") && !text.hasPrefix("//") ? OriginPolicy.origin(apiRoot) + text : text
        var components = URLComponents(string: absolute)
        let scheme = components?.scheme?.lowercased()
        components?.scheme = scheme
        guard let url = components?.url, ["http", "https"].contains(url.scheme ?? "") else {
            throw .malformedResponse(endpoint: endpoint, detail: "the next-page link is not a URL")
        }
        guard OriginPolicy.mayFollowLink(url, apiRoot: apiRoot) else {
            throw .malformedResponse(
                endpoint: endpoint,
                detail:
                    "the next-page link leads to another server (\(OriginPolicy.origin(url))), so paging stopped there; "
                    + "if that is this server's own name (an Enterprise Server writes its links with the host name "
                    + "it was set up with), give the API URL with that name")
        }
        // Outside the API's path (a server behind a proxy under `/ghe` links `/api/v3/…`), a 404 said as no owner.
        switch OriginPolicy.linkPath(url, apiRoot: apiRoot) {
        case .under: return url
        case .hidden(let path):
            throw .malformedResponse(
                endpoint: endpoint,
                detail: "the next-page link's path (\(path)) hides a dot segment, a slash or a byte that is not "
                    + "UTF-8 in an escape, which a proxy may read as another path, so paging stopped there")
        case .outside:
            throw .malformedResponse(
                endpoint: endpoint,
                detail: "the next-page link leaves the API URL's path (\(apiRoot.path)) for \(url.path), so paging "
                    + "stopped there; a proxy that serves the API under another path than the server's own links "
                    + "name cannot be paged through")
        }
    }

    /// GitHub's `message`, and the reasons a 422 gives in `errors` after it ("Validation Failed: The listed users
    /// and repositories cannot be searched …"), or the one sentence `errors` is in some answers ("Bad Request: The
    /// version you specified in the \"X-GitHub-API-Version\" request header …"): at most `maximumReasons` of them,
    /// each cut to `maximumReasonLength` characters (a lone one may have the room of all of them), so one answer
    /// cannot fill the terminal. The presenter sanitises the whole.
    static func githubMessage(_ response: HTTPResponse) -> String? {
        // An error body past what one object may be is read as none: reading it costs many times its bytes.
        guard response.body.count <= ResponseDecoder.maximumObjectBytes,
            let dto = try? JSONDecoder().decode(GitHubErrorDTO.self, from: response.body)
        else { return nil }
        let message = dto.message.flatMap { $0.isEmpty ? nil : $0 }
        let reasons = dto.errors.compactMap(\.reason)
        guard !reasons.isEmpty else { return message }
        let length = reasons.count == 1 ? maximumReasons * maximumReasonLength : maximumReasonLength
        var shown = reasons.prefix(maximumReasons).map { reason in
            reason.count > length ? reason.prefix(length - 1) + "…" : reason
        }
        if reasons.count > maximumReasons { shown.append("and \(reasons.count - maximumReasons) more") }
        return (message.map { $0 + ": " } ?? "") + shown.joined(separator: "; ")
    }

    static let maximumReasons = 3
    static let maximumReasonLength = 200

    /// "GET /users?since=0&per_page=30": how messages name a request.
    static func label(_ url: URL, method: String = "GET") -> String {
        method + " " + url.path + (url.query.map { "?" + $0 } ?? "")
    }
}

extension String {
    /// The same text with its first line changed.
    fileprivate func replacingFirstLine(_ change: (String) -> String) -> String {
        guard let end = firstIndex(of: "\n") else { return change(self) }
        return change(String(self[..<end])) + self[end...]
    }
}
