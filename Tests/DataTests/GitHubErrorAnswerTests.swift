import Foundation
import Networking
import TestSupport
import Testing

@testable import Data
@testable import Domain

private let searchURL = "https://api.github.com/search/users?q=repo:nobody/nothing&per_page=30"

private func answer(_ status: Int, body: String, headers: [(String, String)] = []) -> HTTPResponse {
    HTTPResponse(
        status: status, headers: HTTPHeaders(headers.map { (name: $0.0, value: $0.1) }), body: Data(body.utf8),
        url: URL(string: searchURL)!)
}

private func message(_ status: Int, body: String) -> String? {
    guard case .server(_, let message, _) = ErrorMapping.domainError(for: answer(status, body: body), resource: "x")
    else { return nil }
    return message
}

/// GitHub's 422 gives its reason in `errors`, in each of the shapes its answers have: the bodies below are
/// GitHub's own (a search refused for a `repo:` it cannot see, as PyGithub and go-github users quote it; a
/// label refused by field and code, as gh's tests record it; the `validation-error-simple` schema's strings).
struct ValidationReasonTests {
    /// Before: "Validation Failed" alone.
    @Test func aSearchRefusalSaysWhy() {
        let body =
            #"{"message":"Validation Failed","errors":[{"message":"The listed users and repositories cannot be "#
            + #"searched either because the resources do not exist or you do not have permission to view them.","#
            + #""resource":"Search","field":"q","code":"invalid"}],"documentation_url":"https://docs.github.com/v3/search/"}"#
        #expect(
            message(422, body: body)
                == "Validation Failed: The listed users and repositories cannot be searched either because the "
                + "resources do not exist or you do not have permission to view them.")
    }

    @Test func anEntryWithoutAMessageNamesTheFieldAndWhatIsWrong() {
        #expect(
            message(
                422,
                body:
                    #"{"message":"Validation Failed","errors":[{"resource":"Label","code":"invalid","field":"color"}]}"#
            )
                == "Validation Failed: Label.color is invalid")
        #expect(
            message(
                422,
                body: #"{"message":"Validation Failed","errors":[{"resource":"Search","field":"q","code":"missing"}]}"#)
                == "Validation Failed: Search.q does not exist")
        #expect(
            message(
                422,
                body:
                    #"{"message":"Validation Failed","errors":[{"resource":"Issue","field":"title","code":"missing_field"},"#
                    + #"{"resource":"Label","field":"name","code":"already_exists"},{"code":"custom","message":"  "}]}"#
            )
                == "Validation Failed: Issue.title is missing; Label.name already exists; a field: custom")
    }

    @Test func theSimpleFormsStringsAreTheReasons() {
        #expect(
            message(422, body: #"{"message":"Validation Failed","errors":["Visibility is not allowed"]}"#)
                == "Validation Failed: Visibility is not allowed")
    }

    @Test func reasonsAreBoundedInNumberAndLength() throws {
        let long = String(repeating: "x", count: 5_000)
        let entries = (0..<50).map { _ in #"{"message":"\#(long)"}"# }.joined(separator: ",")
        let text = try #require(message(422, body: #"{"message":"Validation Failed","errors":[\#(entries)]}"#))
        #expect(text.count < 700)
        #expect(text.hasPrefix("Validation Failed: xxx"))
        #expect(text.hasSuffix("…; and 47 more"))
        // Past what one object may be, the body is not read (reading costs many times its bytes): no message.
        let huge = #"{"message":"Validation Failed","x":""# + String(repeating: "x", count: 1 << 20) + #""}"#
        #expect(message(422, body: huge) != "Validation Failed")
        #expect(message(422, body: String(huge.prefix(30)) + "}") == "Validation Failed")
    }

    /// Issue 26.5: `errors` may be one string. The body of GitHub's 400 for an `X-GitHub-Api-Version` it does not
    /// support, as GitHub wrote it (2026, `curl -H "X-GitHub-Api-Version: 1999-01-01"`, quoted in a public
    /// project's notes; the same sentence for "v3" in expipiplus1/update-nix-fetchgit#79, 2023; GitHub's docs,
    /// "API versions": "If you specify an API version that is no longer supported, you will receive a 400
    /// error"). Before: "Bad Request" alone, which says nothing of the version.
    @Test func aStringErrorsIsPrintedWhole() {
        let sentence =
            #"The version you specified in the "X-GitHub-API-Version" request header, "1999-01-01", is not a "#
            + #"supported version. The following versions are currently supported: "2026-03-10" (most recent) "#
            + #"and "2022-11-28"."#
        let escaped = sentence.replacingOccurrences(of: "\"", with: "\\\"")
        let body =
            #"{"message":"Bad Request","errors":"\#(escaped)","documentation_url":"https://docs.github.com/rest","#
            + #""status":"400"}"#
        #expect(message(400, body: body) == "Bad Request: " + sentence)
        #expect(
            message(422, body: #"{"message":"Validation Failed","errors":"nope"}"#) == "Validation Failed: nope")
    }

    /// An `errors` of any other shape costs nothing: the message is still GitHub's.
    @Test(arguments: [
        #"{"message":"Validation Failed","errors":[1,null,{}]}"#,
        #"{"message":"Validation Failed","errors":[{"code":7}]}"#, #"{"message":"Validation Failed","errors":7}"#,
    ])
    func oddErrorsLeaveTheMessage(body: String) {
        #expect(message(422, body: body) == "Validation Failed")
    }

    @Test func reasonsWithoutAMessageStandAlone() {
        #expect(message(422, body: #"{"errors":["first","second"]}"#) == "first; second")
    }
}

/// Every failure GitHub answered names its `x-github-request-id`, which GitHub Support asks for.
struct RequestIDMappingTests {
    private let id = [("X-GitHub-Request-Id", "CB8A:3A5F:1D2E3F4:1E3C5D6:65A1B2C3")]

    @Test(arguments: [404, 401, 403, 422, 500])
    func aStatusFailureCarriesIt(status: Int) throws {
        let error = try #require(
            ErrorMapping.domainError(for: answer(status, body: #"{"message":"m"}"#, headers: id), resource: "x"))
        #expect(error.requestID == "CB8A:3A5F:1D2E3F4:1E3C5D6:65A1B2C3")
    }

    @Test func aSpentLimitCarriesIt() throws {
        let error = try #require(
            ErrorMapping.domainError(
                for: answer(
                    403, body: #"{"message":"API rate limit exceeded"}"#,
                    headers: id + [("x-ratelimit-remaining", "0"), ("x-ratelimit-reset", "1700000000")]),
                resource: "x"))
        guard case .rateLimited(_, _, _, let requestID) = error else {
            Issue.record("got \(error)")
            return
        }
        #expect(requestID == "CB8A:3A5F:1D2E3F4:1E3C5D6:65A1B2C3")
    }

    @Test func aLongIDIsCut() throws {
        let error = try #require(
            ErrorMapping.domainError(
                for: answer(500, body: "", headers: [("x-github-request-id", String(repeating: "A", count: 10_000))]),
                resource: "x"))
        #expect(error.requestID?.count == ErrorMapping.maximumRequestIDLength)
    }

    @Test func noHeaderNoID() throws {
        let error = try #require(ErrorMapping.domainError(for: answer(500, body: ""), resource: "x"))
        #expect(error.requestID == nil)
    }

    /// A 200 whose body is not what the endpoint documents came from GitHub too.
    @Test func aMalformedBodyCarriesIt() async throws {
        let stub = StubTransport()
        stub.stub("https://api.github.com/users/octocat", headers: id, body: "[not json")
        let repository = GitHubRepository(
            client: HTTPClient(
                configuration: HTTPClientConfiguration(
                    baseURL: URL(string: "https://api.github.com")!, userAgent: "gh-users/test"),
                transport: stub.transport, logger: .disabled, retryPolicy: RetryPolicy(maxRetries: 0)))
        do {
            _ = try await repository.user(login: try Login(validating: "octocat"))
            Issue.record("no failure")
        } catch {
            guard case .malformedResponse(_, _, let requestID) = error else {
                Issue.record("got \(error)")
                return
            }
            #expect(requestID == "CB8A:3A5F:1D2E3F4:1E3C5D6:65A1B2C3")
        }
    }
}

/// A 403's `X-Accepted-GitHub-Permissions` (GitHub's changelog of 2023-08-10: sets of permissions, any one set
/// enough, separated by `;`) is named in its message; `allows_permissionless_access=true` marks an endpoint that
/// needs none, and is no permission to ask for.
struct AcceptedPermissionsTests {
    private func forbidden(_ header: String) -> String? {
        let response = answer(
            403, body: #"{"message":"Resource not accessible"}"#,
            headers: [
                ("X-Accepted-GitHub-Permissions", header)
            ])
        guard case .unauthorized(_, let message, _, _) = ErrorMapping.domainError(for: response, resource: "x")
        else { return nil }
        return message
    }

    @Test func theSetsAreNamedAndTheMarkLeftOut() {
        #expect(
            forbidden("repository_projects=write; organization_projects=admin")
                == "Resource not accessible (a fine-grained token needs these permissions, any one set of them: "
                + "repository_projects=write; organization_projects=admin)")
        // A set of the mark alone needs nothing, so no permission is named beside it.
        #expect(forbidden("allows_permissionless_access=true; followers=write") == "Resource not accessible")
        #expect(
            forbidden("followers=write, allows_permissionless_access=true")
                == "Resource not accessible (a fine-grained token needs these permissions, any one set of them: "
                + "followers=write)")
        #expect(forbidden("allows_permissionless_access=true") == "Resource not accessible")
        #expect(forbidden(" ; ") == "Resource not accessible")
    }
}

/// A repository GitHub has blocked answers 451 (a DMCA takedown: the body gh4a#651 quotes from GitHub) or 403 (its
/// terms: the body caarlos0/fork-cleaner#99 quotes), with a `block` naming the reason and the notice. No token lifts
/// that: GitHub's answer (exit 1) with its reason and notice, never a refusal of the token (before: exit 4 for the
/// 403, and the reason and notice lost; helper-325).
struct BlockedRepositoryTests {
    static let dmca =
        #"{"message":"Repository access blocked","block":{"reason":"dmca","created_at":"2017-07-19T22:34:13Z","#
        + #""html_url":"https://github.com/github/dmca/blob/master/2017/2017-07-17-SiCKRAGE.md"}}"#
    static let terms =
        #"{"message":"Repository access blocked","block":{"reason":"tos","created_at":"2021-06-08T01:02:15Z","#
        + #""html_url":"https://github.com/tos"}}"#
    static let repository = "https://api.github.com/repos/sickrage/sickrage/stargazers?per_page=30"

    static func mapped(
        _ status: Int, _ body: String, at url: String = repository, headers: [(String, String)] = []
    ) -> DomainError? {
        let response = HTTPResponse(
            status: status, headers: HTTPHeaders(headers.map { (name: $0.0, value: $0.1) }), body: Data(body.utf8),
            url: URL(string: url)!)
        return ErrorMapping.domainError(for: response, resource: "x")
    }

    @Test func aTakedownSaysItsReasonAndNotice() {
        guard case .server(451, let message, _)? = Self.mapped(451, Self.dmca) else {
            Issue.record("not a server answer")
            return
        }
        #expect(
            message
                == "Repository access blocked (dmca: https://github.com/github/dmca/blob/master/2017/"
                + "2017-07-17-SiCKRAGE.md); GitHub blocks this repository for everyone, and no token lifts that")
    }

    @Test func aBlock403IsNoRefusalOfTheToken() {
        let error = Self.mapped(403, Self.terms, at: "https://ghe.example/api/v3/repositories/42")
        guard case .server(403, let message, _)? = error else {
            Issue.record("\(String(describing: error))")
            return
        }
        #expect(message.hasPrefix("Repository access blocked (tos: https://github.com/tos); GitHub blocks"))
    }

    /// A `block` elsewhere is not one (helper-326): a 403 without a block, a block without a reason in words, one
    /// beside single sign-on's header (authorizing the token lifts that), or one at a path that is no
    /// repository's, is still the token's refusal (exit 4).
    @Test(arguments: [
        (#"{"message":"Forbidden"}"#, repository, false),
        (#"{"message":"Resource protected by organization SAML enforcement","block":{}}"#, repository, false),
        (#"{"message":"x","block":{"reason":["dmca"]}}"#, repository, false),
        (#"{"message":"x","block":{"reason":""}}"#, repository, false),
        (dmca, repository, true),
        (dmca, "https://api.github.com/users/octocat", false),
        (dmca, "https://api.github.com/orgs/acme/members", false),
    ])
    func onlyARepositorysBlockIsOne(body: String, url: String, sso: Bool) {
        let headers =
            sso ? [("X-GitHub-SSO", "required; url=https://github.com/orgs/acme/sso?authorization_request=1")] : []
        let error = Self.mapped(403, body, at: url, headers: headers)
        guard case .unauthorized(403, _, _, _)? = error else {
            Issue.record("\(String(describing: error))")
            return
        }
    }

    /// A status with no readable body says what it means in RFC 9110's words, where it said "unexpected status"
    /// (helper-326): a bare 451, a captive portal's 511.
    @Test(arguments: [
        (451, "Unavailable For Legal Reasons"), (405, "Method Not Allowed"), (414, "URI Too Long"),
        (511, "Network Authentication Required: a network on the way (a captive portal) asks for a login"),
        (599, "unexpected status"),
    ])
    func aStatusWithoutABodySaysWhatItMeans(status: Int, phrase: String) {
        guard case .server(status, let message, _)? = Self.mapped(status, "<html>portal</html>") else {
            Issue.record("not a server answer")
            return
        }
        #expect(message == phrase)
    }

    /// A reason of 40 characters is said whole; one of 41 is cut to 39 and "…" (mutation round 10, M10-506,
    /// M10-510).
    @Test func aReasonIsSaidWholeUpToFortyCharacters() {
        for (reason, said) in [
            (String(repeating: "r", count: 40), String(repeating: "r", count: 40)),
            (String(repeating: "r", count: 41), String(repeating: "r", count: 39) + "…"),
        ] {
            let body = #"{"message":"Repository access blocked","block":{"reason":""# + reason + #""}}"#
            guard case .server(451, let message, _)? = Self.mapped(451, body) else {
                Issue.record("not a server answer")
                continue
            }
            #expect(message.hasPrefix("Repository access blocked (" + said + "); GitHub blocks"), "\(message)")
        }
    }
}

/// A retried answer's `Retry-After`: a wait of none is not asked for, and an HTTP-date's fraction of a second
/// is rounded up (mutation round 10, M10-507, M10-509).
struct RetriedAnswerTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    static func said(retryAfter: String, now: Date) -> String {
        var response = HTTPResponse(
            status: 503, headers: HTTPHeaders([(name: "Retry-After", value: retryAfter)]),
            url: URL(string: "https://api.github.com/users/octocat")!)
        response.attempts = 4
        return ErrorMapping.retried(response, limit: RateLimitInfo(response, now: now))
    }

    @Test func aRetryAfterOfZeroAsksForNothing() {
        #expect(!Self.said(retryAfter: "0", now: Self.now).contains("asks for"))
        #expect(Self.said(retryAfter: "1", now: Self.now).contains("; GitHub asks for 1 s before another"))
    }

    @Test func anHTTPDatesFractionOfASecondIsRoundedUp() {
        let said = Self.said(retryAfter: "Fri, 15 Jan 2027 08:00:00 GMT", now: Self.now.addingTimeInterval(-29.2))
        #expect(said.hasSuffix("; GitHub asks for 30 s before another (Retry-After)"), "\(said)")
    }
}
