import Foundation
import Networking
import TestSupport
import Testing

@testable import Data
@testable import Domain

private let now = Date(timeIntervalSince1970: 1_700_000_000)
private let usersURL = "https://api.github.com/users?since=0&per_page=2"
private let page = #"[{"login":"a","id":1},{"login":"b","id":2}]"#

private func response(_ status: Int, _ headers: [(String, String)], body: String = #"{"message":"m"}"#)
    -> HTTPResponse
{
    HTTPResponse(
        status: status,
        headers: HTTPHeaders(headers.map { (name: $0.0, value: $0.1) }),
        body: Data(body.utf8),
        url: URL(string: usersURL)!
    )
}

/// Rate-limit answers with values no server means: malformed (exit 1, with a message), never a crash, and
/// a wait too long to take is a rate limit with its time (exit 5).
struct HostileStatusMappingTests {
    private func map(_ response: HTTPResponse) -> DomainError? {
        ErrorMapping.domainError(for: response, resource: "users", now: now)
    }

    @Test(arguments: ["nan", "1e19", "1e308", "-1"])
    func aSpentLimitWithAResetOutOfRangeIsMalformed(reset: String) {
        let error = map(response(403, [("x-ratelimit-remaining", "0"), ("x-ratelimit-reset", reset)]))
        guard case .malformedResponse(let endpoint, let detail, _) = error else {
            Issue.record("got \(String(describing: error))")
            return
        }
        #expect(endpoint == "GET /users?since=0&per_page=2")
        #expect(detail.contains("x-ratelimit-reset '\(reset)'"))
    }

    @Test func aRemainingCountThatIsNotOneIsMalformed() {
        let error = map(response(429, [("x-ratelimit-remaining", "\u{1B}[2J")]))
        guard case .malformedResponse(_, let detail, _) = error else {
            Issue.record("got \(String(describing: error))")
            return
        }
        #expect(detail.hasPrefix("x-ratelimit-remaining '"))
    }

    @Test func aRetryAfterOutOfRangeIsMalformed() {
        let error = map(response(429, [("Retry-After", "9223372036854775807")]))
        guard case .malformedResponse(_, let detail, _) = error else {
            Issue.record("got \(String(describing: error))")
            return
        }
        #expect(detail.hasPrefix("Retry-After '9223372036854775807' is neither"))
    }

    /// The malformed answer names the request as it was sent: a GraphQL query is a POST, a write its method.
    @Test func aMalformedAnswerNamesTheRequestsMethod() {
        var graphQL = response(429, [("Retry-After", "soon")])
        graphQL.url = URL(string: "https://api.github.com/graphql")!
        #expect(
            ErrorMapping.graphQLError(for: graphQL, endpoint: "POST /graphql")
                == .malformedResponse(
                    endpoint: "POST /graphql",
                    detail: "Retry-After 'soon' is neither a number of seconds up to 2147483648 nor an HTTP date"))
        let write = ErrorMapping.domainError(
            for: response(403, [("x-ratelimit-remaining", "x")]), resource: "user", method: "PUT", now: now)
        guard case .malformedResponse(let endpoint, _, _) = write else {
            Issue.record("got \(String(describing: write))")
            return
        }
        #expect(endpoint == "PUT /users?since=0&per_page=2")
    }

    /// A secondary limit is marked so (`DomainError.secondaryLimit`): no token lifts it (issue 26.7).
    @Test func aSecondaryLimitHandedBackIsARateLimitWithItsTime() {
        let secondaryLimit = DomainError.secondaryLimit
        #expect(
            map(response(429, [("Retry-After", "999999")], body: #"{"message":"slow down"}"#))
                == .rateLimited(
                    resetAt: now.addingTimeInterval(999_999), message: "slow down", resource: secondaryLimit))
        #expect(
            map(response(403, [("Retry-After", "Tue, 14 Nov 2023 23:13:20 GMT")]))
                == .rateLimited(resetAt: now.addingTimeInterval(3600), message: "m", resource: secondaryLimit))
        // Before, a 403 secondary limit that outlasted the retries read as "authentication failed" (exit 4).
        let secondary = #"{"message":"You have exceeded a secondary rate limit."}"#
        #expect(
            map(response(403, [], body: secondary))
                == .rateLimited(
                    resetAt: nil, message: "You have exceeded a secondary rate limit.", resource: secondaryLimit))
    }

    @Test func thePrimaryLimitRuleIsTheClientsOwn() {
        let reset = String(Int(now.timeIntervalSince1970) + 60)
        #expect(
            map(response(403, [("x-ratelimit-remaining", " 0 "), ("x-ratelimit-reset", reset)]))
                == .rateLimited(resetAt: now.addingTimeInterval(60), message: "m"))
        #expect(map(response(403, [("x-ratelimit-remaining", "12")])) == .unauthorized(status: 403, message: "m"))
    }
}

/// Next-page links stay on the API's origin.
struct NextPageLinkTests {
    private let root = URL(string: "https://api.github.com")!

    @Test func aLinkToAnotherServerIsRefusedNamingIt() {
        #expect(
            throws: DomainError.malformedResponse(
                endpoint: "GET /users",
                detail: "the next-page link leads to another server (https://evil.example), so paging stopped there; "
                    + "if that is this server's own name (an Enterprise Server writes its links with the host name it "
                    + "was set up with), give the API URL with that name")
        ) {
            try ErrorMapping.nextPageURL("https://evil.example/users?since=5", apiRoot: root, endpoint: "GET /users")
        }
    }

    /// A scheme is the same in any case (RFC 3986); URLSession refused `HTTPS://` as an unsupported URL, a
    /// network error, where a redirect written so was followed.
    @Test func aLinkWithAnUpperCaseSchemeIsFollowedInLowerCase() throws {
        let link = "HTTPS://api.github.com/users?since=5&per_page=100"
        let url = try ErrorMapping.nextPageURL(link, apiRoot: root, endpoint: "GET /users")
        #expect(url.absoluteString == "https://api.github.com/users?since=5&per_page=100")
    }

    /// A link that is an absolute path, as a proxy that rewrites links may send (RFC 8288 allows a relative
    /// reference), is on the API's origin; before, it stopped the list as "not a URL". A network-path reference
    /// (`//host/…`) names another server and is still refused.
    @Test func aLinkThatIsAnAbsolutePathIsOnTheAPIsOrigin() throws {
        let enterprise = URL(string: "https://ghe.example:8443/api/v3")!
        let url = try ErrorMapping.nextPageURL("/api/v3/users?since=2", apiRoot: enterprise, endpoint: "GET /users")
        #expect(url.absoluteString == "https://ghe.example:8443/api/v3/users?since=2")
        #expect(throws: DomainError.self) {
            try ErrorMapping.nextPageURL("//evil.example/users", apiRoot: enterprise, endpoint: "GET /users")
        }
    }

    /// A link on the API's origin outside its path, as a server behind a proxy under `/ghe` writes them, stops the
    /// list naming both paths: followed with the token, it was a 404 said as a missing owner or scope. Under the
    /// path, or for a root with none (github.com's), a link is followed.
    @Test func aLinkOutsideTheAPIsPathIsRefused() throws {
        let proxied = URL(string: "https://ghe.example/ghe/api/v3/")!
        #expect(
            throws: DomainError.malformedResponse(
                endpoint: "GET /users",
                detail: "the next-page link leaves the API URL's path (/ghe/api/v3) for /api/v3/users, so paging "
                    + "stopped there; a proxy that serves the API under another path than the server's own links "
                    + "name cannot be paged through")
        ) {
            try ErrorMapping.nextPageURL(
                "https://ghe.example/api/v3/users?since=2", apiRoot: proxied, endpoint: "GET /users")
        }
        let under = try ErrorMapping.nextPageURL("/ghe/api/v3/users?since=2", apiRoot: proxied, endpoint: "GET /users")
        #expect(under.absoluteString == "https://ghe.example/ghe/api/v3/users?since=2")
        // `..` that leaves the path is outside it; `.` that stays is not. A slash, dot or backslash escaped, which a
        // proxy may decode (nginx does), is taken as leaving: `%2F..%2F` passed as one segment.
        // `%C3` alone is no UTF-8: Foundation read no path (""), and the link was said as leaving "for ," (helper-282).
        let notUTF8 = URL(string: "https://ghe.example/ghe/api/v3/%C3/x")!
        #expect(OriginPolicy.linkPath(notUTF8, apiRoot: proxied) == .hidden("/ghe/api/v3/%C3/x"))
        let escaped = [
            "/ghe/api/v3/%C3/x",
            "/ghe/api/v3%2F..%2F..%2Fapi/v3/users", "/ghe/api/v3/%2e%2e/%2E%2E/api/v3/users", "/ghe/api/v3/..%5C..%5Cx",
        ]
        for outside in ["/ghe/api/v3x/users", "/ghe/api/v3/../../../api/v3/users?since=1"] + escaped {
            #expect(throws: DomainError.self) {
                try ErrorMapping.nextPageURL(outside, apiRoot: proxied, endpoint: "GET /users")
            }
        }
        #expect(
            try ErrorMapping.nextPageURL("/./ghe/api/v3/users", apiRoot: proxied, endpoint: "GET /users").path != "")
        // An escaped dot in a name is no dot segment (helper-281: it was refused as leaving, naming a path inside).
        let named = "/ghe/api/v3/repos/o/r%2Ex/contributors?page=2"
        #expect(
            try ErrorMapping.nextPageURL(named, apiRoot: proxied, endpoint: "GET /x").path.hasSuffix(
                "/r.x/contributors"))
        #expect(
            throws: DomainError.malformedResponse(
                endpoint: "GET /users",
                detail: "the next-page link's path (/ghe/api/v3/%2e%2e/%2E%2E/api/v3/users) hides a dot segment, a "
                    + "slash or a byte that is not UTF-8 in an escape, which a proxy may read as another path, so "
                    + "paging stopped there")
        ) {
            try ErrorMapping.nextPageURL(escaped[2], apiRoot: proxied, endpoint: "GET /users")
        }
        // A root written with doubled slashes or in capitals is the same path to a proxy that merges them (nginx).
        for written in ["https://ghe.example//api/v3", "https://ghe.example/api//v3", "https://ghe.example/API/V3"] {
            let link = "https://ghe.example/api/v3/users?since=2"
            let url = try ErrorMapping.nextPageURL(link, apiRoot: URL(string: written)!, endpoint: "GET /users")
            #expect(url.path == "/api/v3/users")
        }
        let anywhere = try ErrorMapping.nextPageURL(
            "/organizations/1/members?page=2", apiRoot: root, endpoint: "GET /x")
        #expect(anywhere.absoluteString == "https://api.github.com/organizations/1/members?page=2")
    }

    /// Foundation keeps a copy of every URL asked for: a link past 8 KiB stops the list, where a review's server
    /// of 40 KB links grew a run 40 KB a page. One of 8 KiB is followed.
    @Test func aLinkLongerThanAnyGitHubSendsIsRefused() throws {
        let base = "https://api.github.com/users?since=5&pad="
        let longest = base + String(repeating: "a", count: 8192 - base.utf8.count)
        #expect(try ErrorMapping.nextPageURL(longest, apiRoot: root, endpoint: "GET /users").absoluteString == longest)
        #expect(
            throws: DomainError.malformedResponse(
                endpoint: "GET /users",
                detail: "the next-page link is 8193 bytes long, more than the 8 KiB followed (GitHub's are far "
                    + "shorter), so paging stopped there")
        ) {
            try ErrorMapping.nextPageURL(longest + "a", apiRoot: root, endpoint: "GET /users")
        }
    }

    @Test(arguments: ["file:///etc/passwd", "not a url", "ftp://api.github.com/users", "FILE:///etc/passwd"])
    func aLinkThatIsNotHTTPIsRefused(link: String) {
        #expect(
            throws: DomainError.malformedResponse(endpoint: "GET /users", detail: "the next-page link is not a URL")
        ) {
            try ErrorMapping.nextPageURL(link, apiRoot: root, endpoint: "GET /users")
        }
    }

    @Test func theRepositoryStopsBeforeRequestingAnotherOrigin() async throws {
        let stub = StubTransport()
        let repository = GitHubRepository(
            client: HTTPClient(
                configuration: HTTPClientConfiguration(baseURL: root, userAgent: "t"),
                transport: stub.transport,
                logger: .disabled,
                retryPolicy: RetryPolicy(maxRetries: 0)
            )
        )
        await #expect(throws: DomainError.self) {
            try await repository.page(
                GitHubEndpoints.users(since: 0), at: PageCursor(url: "https://evil.example/users?since=5"))
        }
        #expect(stub.received.isEmpty)
    }
}

/// A certificate that fails its check, or a body over the cap, is an answer: named, not retried, and never
/// replaced by the cached copy, which a connection that merely failed may fall back to.
struct AnswersThatAreNotOutagesTests {
    private func temporaryDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("gh-users-hostile-\(UUID().uuidString)")
    }

    private func repository(_ stub: StubTransport, cache: DiskResponseCache) -> GitHubRepository {
        GitHubRepository(
            client: HTTPClient(
                configuration: HTTPClientConfiguration(baseURL: URL(string: "https://api.github.com")!, userAgent: "t"),
                transport: stub.transport,
                logger: .disabled,
                // The real budget: a certificate failure must not spend it.
                retryPolicy: RetryPolicy(maxRetries: 3),
                clock: RetryClock(now: { now }, random: { 0 }, sleep: { _, _ in })
            ),
            cache: CacheSettings(store: cache, mode: .readWrite),
            now: { now }
        )
    }

    @Test func aCertificateFailureIsNamedAndNeverAnsweredFromTheCache() async throws {
        let cache = DiskResponseCache(directory: temporaryDirectory(), limitBytes: 1_000_000)
        defer { try? FileManager.default.removeItem(at: cache.directory) }
        let stub = StubTransport()
        stub.stub(usersURL, headers: [("ETag", "W/\"v1\"")], body: page)
        stub.fail(
            usersURL,
            with: .tls(
                .untrustedCertificate, host: "api.github.com",
                detail: "SSL certificate problem: self-signed certificate"))
        _ = try await repository(stub, cache: cache).firstPage(GitHubEndpoints.users(since: 0), perPage: 2)
        do {
            _ = try await repository(stub, cache: cache).firstPage(GitHubEndpoints.users(since: 0), perPage: 2)
            Issue.record("the cached copy answered for a server that failed its certificate check")
        } catch {
            guard case .network(let detail, _, _) = error else {
                Issue.record("got \(error)")
                return
            }
            #expect(
                detail.hasPrefix(
                    "the TLS certificate of api.github.com is not trusted (SSL certificate problem: self-signed certificate)\n"
                ))
            #expect(detail.contains("update-ca-certificates"))
        }
        #expect(stub.received.count == 2)
    }

    @Test func aBodyOverTheCapIsMalformedNamingTheLimitAndTheSetting() async throws {
        let cache = DiskResponseCache(directory: temporaryDirectory(), limitBytes: 1_000_000)
        defer { try? FileManager.default.removeItem(at: cache.directory) }
        let stub = StubTransport()
        stub.stub(usersURL, headers: [("ETag", "W/\"v1\"")], body: page)
        stub.fail(usersURL, with: .responseTooLarge(limit: 64 << 20))
        _ = try await repository(stub, cache: cache).firstPage(GitHubEndpoints.users(since: 0), perPage: 2)
        await #expect(
            throws: DomainError.malformedResponse(
                endpoint: "GET /users?since=0&per_page=2",
                detail: "the body is larger than the 64 MiB limit, so it was not read to its end "
                    + "(GH_USERS_MAX_RESPONSE_BYTES raises the limit)")
        ) {
            try await repository(stub, cache: cache).firstPage(GitHubEndpoints.users(since: 0), perPage: 2)
        }
    }

    @Test func aNewlineFromTheNetworkCannotAddALine() {
        let text = ErrorMapping.describe(
            .tls(.untrustedCertificate, host: "h", detail: "SSL: certificate subject name 'a\r\nFAKE: b' is odd"))
        // Two line breaks of our own, before each line of the hint; the server's is a space. (ErrorPresenter cleans
        // each line.)
        #expect(text.split(separator: "\n").count == 3)
        #expect(
            text.hasPrefix("the TLS certificate of h is not trusted (SSL: certificate subject name 'a FAKE: b'"))
    }
}

/// An API URL that is an Enterprise host's web root (`https://HOST` without `/api/v3`) is answered by its web
/// server in HTML, which GitHub's REST API never sends: a read says to check the API URL, not that the account
/// does not exist (a 404 read as exit 3) or that the body is no JSON.
struct WebPageAnswerTests {
    private static let detail =
        "not GitHub's API: check the API URL (--api-url or GH_USERS_API_URL); GitHub Enterprise Server's is "
        + "https://HOST/api/v3, and a ghe.com one's https://api.TENANT.ghe.com, which GH_HOST=HOST sets"

    @Test func aWebServersNotFoundIsNoMissingAccount() {
        let page = response(404, [("Content-Type", "Text/HTML; charset=utf-8")], body: "<html>Not Found</html>")
        #expect(
            ResponseDecoder.webPage(page, endpoint: "GET /users")
                == .malformedResponse(
                    endpoint: "GET /users", detail: "the server answered a web page (HTTP 404), " + Self.detail))
        // GitHub's own 404, and a proxy's HTML for a status with its own handling (a 502 retried, a 429 waited).
        #expect(ResponseDecoder.webPage(response(404, [("Content-Type", "application/json")]), endpoint: "x") == nil)
        for status in [403, 429, 502] {
            let proxy = response(status, [("Content-Type", "text/html")], body: "<html>busy</html>")
            #expect(ResponseDecoder.webPage(proxy, endpoint: "x") == nil)
        }
    }

    /// A 404 that is no JSON at all, whatever its type says (Go's `404 page not found` in text/plain), is a web
    /// server's too (helper-287: it was said as no such account, exit 3); GitHub's own are JSON, or empty (a
    /// `follows` check's "no").
    @Test func aNotFoundThatIsNoJSONIsNoMissingAccount() {
        let plain = response(404, [("Content-Type", "text/plain; charset=utf-8")], body: "404 page not found\n")
        #expect(
            ResponseDecoder.webPage(plain, endpoint: "GET /users/octocat")
                == .malformedResponse(
                    endpoint: "GET /users/octocat",
                    detail: "the server answered a web page (HTTP 404), " + Self.detail))
        let github = #"{"message":"Not Found","documentation_url":"https://docs.github.com/rest","status":"404"}"#
        #expect(ResponseDecoder.webPage(response(404, [], body: github), endpoint: "x") == nil)
        let empty = response(404, [("Content-Type", "text/plain")], body: "")
        #expect(ResponseDecoder.webPage(empty, endpoint: "x") == nil)
    }

    @Test(arguments: ["<!DOCTYPE html><html>", "\n  <html><body>Sign in</body></html>"])
    func aWebPageThatSucceededIsNamedSo(body: String) {
        #expect(
            ResponseDecoder.webPage(response(200, [], body: body), endpoint: "GET /users")
                == .malformedResponse(
                    endpoint: "GET /users", detail: "the server answered a web page (HTTP 200), " + Self.detail))
        #expect(ResponseDecoder.webPage(response(200, [], body: page), endpoint: "GET /users") == nil)
    }
}

/// GitHub's 422 to a 2FA filter on `GET /orgs/{org}/members` is its refusal of a non-owner; an Enterprise Server,
/// whose reference lists `2fa_disabled` alone, may answer `2fa_insecure` so for the value (helper-336: an owner
/// was told only that the filters are for owners).
struct TwoFactorFilterRefusalTests {
    private func refusal(_ url: String) -> String {
        let refused = ErrorMapping.ownResourceRefusal(
            .server(status: 422, message: "Validation Failed"), endpoint: .members, url: URL(string: url))
        guard case .unauthorized(422, let message, _, _) = refused else { return "not a refusal: \(refused)" }
        return message
    }

    @Test func anEnterpriseServersRefusalOfTheInsecureFilterMaySayItDoesNotKnowIt() {
        let owners = "the 2FA filters are for the organization's owners only"
        let unknown = "; or this Enterprise Server does not know 2fa_insecure, which its reference does not list"
        #expect(
            refusal("https://ghe.example.com/api/v3/orgs/acme/members?filter=2fa_insecure&per_page=30")
                == owners + unknown + " (Validation Failed)")
        for url in [
            "https://api.github.com/orgs/acme/members?filter=2fa_insecure&per_page=30",
            "https://api.acme.ghe.com/orgs/acme/members?filter=2fa_insecure&per_page=30",
            // github.com however written, and a server on this machine (helper-338: all were given the note).
            "https://api.github.com./orgs/acme/members?filter=2fa_insecure&per_page=30",
            "https://github.com/api/v3/orgs/acme/members?filter=2fa_insecure&per_page=30",
            "https://api.acme.ghe.com./orgs/acme/members?filter=2fa_insecure&per_page=30",
            "http://127.0.0.1:8080/orgs/acme/members?filter=2fa_insecure&per_page=30",
            "https://ghe.example.com/api/v3/orgs/acme/members?filter=2fa_disabled&per_page=30",
        ] {
            #expect(refusal(url) == owners + " (Validation Failed)", "\(url)")
        }
    }
}
