import AtomicLogger
import Foundation
import Networking
import TestSupport
import Testing

@testable import Data
@testable import Domain

private func login(_ text: String) -> Login { try! Login(validating: text) }

/// octocat as GitHub's GraphQL API answers the profile fragment.
private let octocatOwner = """
    {"__typename":"User","login":"octocat","databaseId":583231,"id":"MDQ6VXNlcjU4MzIzMQ==","name":"The Octocat",
    "company":"@github","location":"San Francisco","bio":null,"twitterUsername":null,
    "websiteUrl":"https://github.blog","email":"","isHireable":false,"isSiteAdmin":false,
    "createdAt":"2011-01-25T18:44:36Z","updatedAt":"2025-01-02T03:04:05Z","url":"https://github.com/octocat",
    "avatarUrl":"https://avatars.githubusercontent.com/u/583231?u=abc&v=4","followers":{"totalCount":20},
    "following":{"totalCount":9},"repositories":{"totalCount":8},"gists":{"totalCount":8}}
    """

private func rebuilt(_ owner: String = octocatOwner, asked: String = "octocat") throws -> [String: Any] {
    let dto = try JSONDecoder().decode(GraphQLUserDTO.self, from: Data(owner.utf8))
    let user = try #require(GraphQLUserRebuild.user(dto, asked: login(asked)))
    return try #require(try JSONSerialization.jsonObject(with: Data(user.raw.bytes)) as? [String: Any])
}

private func response(_ body: String, status: Int = 200, headers: [(String, String)] = []) -> HTTPResponse {
    HTTPResponse(
        status: status, headers: HTTPHeaders(headers.map { (name: $0.0, value: $0.1) }), body: Data(body.utf8),
        url: URL(string: "https://api.github.com/graphql")!)
}

private func decode(_ body: String, status: Int = 200, headers: [(String, String)] = [], logins: [String])
    -> Result<GraphQLBatch, GraphQLBatchFailure>
{
    Result { () throws(GraphQLBatchFailure) in
        try GraphQLProfileResponse.decode(
            response(body, status: status, headers: headers), logins: logins.map(login), endpoint: "POST /graphql")
    }
}

struct GraphQLProfileQueryTests {
    @Test func aliasesArePositionsNeverLogins() {
        let text = GraphQLProfileQuery.text(for: [login("octocat"), login("dependabot[bot]"), login("a-b_c")])
        #expect(text.contains("a0: repositoryOwner(login: \"octocat\") { ...ghUsersOwner }"))
        #expect(text.contains("a1: repositoryOwner(login: \"dependabot[bot]\") { ...ghUsersOwner }"))
        #expect(text.contains("a2: repositoryOwner(login: \"a-b_c\")"))
        #expect(!text.contains("octocat:"))
        #expect(text.contains("rateLimit { cost remaining resetAt }"))
    }

    @Test func oneSharedFragmentWithAnInlineFragmentPerType() {
        let text = GraphQLProfileQuery.text(for: [login("a"), login("b")])
        #expect(text.components(separatedBy: "fragment ghUsersOwner on RepositoryOwner").count == 2)
        #expect(text.contains("... on User {"))
        #expect(text.contains("... on Organization {"))
        #expect(text.contains("repositories(privacy: PUBLIC, ownerAffiliations: OWNER) { totalCount }"))
        #expect(text.contains("gists(privacy: PUBLIC) { totalCount }"))
    }

    /// Without `email`, the fragment asks every other field, and only that one is gone.
    @Test func theFragmentWithoutEmailLacksThatFieldAlone() {
        #expect(!GraphQLProfileQuery.withoutEmail.contains("email"))
        #expect(GraphQLProfileQuery.fragment.contains("\n    email\n"))
        #expect(
            GraphQLProfileQuery.withoutEmail
                == GraphQLProfileQuery.fragment.replacingOccurrences(of: "    email\n", with: ""))
        #expect(
            GraphQLProfileQuery.text(for: [login("a")], email: false).hasSuffix(GraphQLProfileQuery.withoutEmail + "\n")
        )
    }

    @Test func theBodyIsJSONWithTheQuery() throws {
        let body = GraphQLProfileQuery.body(for: [login("octocat")])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(body)) as? [String: String])
        #expect(object["query"] == GraphQLProfileQuery.text(for: [login("octocat")]))
    }

    @Test(arguments: [
        ("https://api.github.com", "https://api.github.com/graphql"),
        ("https://api.github.com/", "https://api.github.com/graphql"),
        ("https://ghe.example.com/api/v3", "https://ghe.example.com/api/graphql"),
        ("https://ghe.example.com/api/v3/", "https://ghe.example.com/api/graphql"),
        ("http://127.0.0.1:8080", "http://127.0.0.1:8080/graphql"),
    ])
    func theEndpointSitsBesideTheRESTRoot(root: String, expected: String) {
        #expect(GitHubEndpoints.graphQLURL(apiRoot: URL(string: root)!).absoluteString == expected)
    }
}

struct GraphQLUserRebuildTests {
    /// Every key of the REST object and what it must be for octocat's GraphQL answer.
    static let expectations: [(key: String, value: String)] = [
        ("login", "\"octocat\""), ("id", "583231"), ("node_id", "\"MDQ6VXNlcjU4MzIzMQ==\""),
        ("avatar_url", "\"https://avatars.githubusercontent.com/u/583231?v=4\""), ("gravatar_id", "\"\""),
        ("url", "\"https://api.github.com/users/octocat\""), ("html_url", "\"https://github.com/octocat\""),
        ("followers_url", "\"https://api.github.com/users/octocat/followers\""),
        ("following_url", "\"https://api.github.com/users/octocat/following{/other_user}\""),
        ("gists_url", "\"https://api.github.com/users/octocat/gists{/gist_id}\""),
        ("starred_url", "\"https://api.github.com/users/octocat/starred{/owner}{/repo}\""),
        ("subscriptions_url", "\"https://api.github.com/users/octocat/subscriptions\""),
        ("organizations_url", "\"https://api.github.com/users/octocat/orgs\""),
        ("repos_url", "\"https://api.github.com/users/octocat/repos\""),
        ("events_url", "\"https://api.github.com/users/octocat/events{/privacy}\""),
        ("received_events_url", "\"https://api.github.com/users/octocat/received_events\""),
        ("type", "\"User\""), ("user_view_type", "\"public\""), ("site_admin", "false"),
        ("name", "\"The Octocat\""), ("company", "\"@github\""), ("blog", "\"https://github.blog\""),
        ("location", "\"San Francisco\""), ("email", "null"), ("hireable", "null"), ("bio", "null"),
        ("twitter_username", "null"), ("public_repos", "8"), ("public_gists", "8"), ("followers", "20"),
        ("following", "9"), ("created_at", "\"2011-01-25T18:44:36Z\""), ("updated_at", "\"2025-01-02T03:04:05Z\""),
    ]

    @Test(arguments: expectations.map(\.key))
    func eachKeyIsRebuilt(key: String) throws {
        let object = try rebuilt()
        let expected = try #require(Self.expectations.first { $0.key == key }?.value)
        let value = try #require(object[key], "\(key) is missing")
        let wanted = try JSONSerialization.jsonObject(with: Data("[\(expected)]".utf8)) as? [Any]
        let got = try JSONSerialization.data(withJSONObject: [value])
        #expect(
            String(decoding: got, as: UTF8.self)
                == String(decoding: try JSONSerialization.data(withJSONObject: wanted!), as: UTF8.self))
    }

    @Test func keysComeInGitHubsRESTOrder() throws {
        let dto = try JSONDecoder().decode(GraphQLUserDTO.self, from: Data(octocatOwner.utf8))
        let user = try #require(GraphQLUserRebuild.user(dto, asked: login("OctoCat")))
        let text = String(decoding: user.raw.bytes, as: UTF8.self)
        let positions = Self.expectations.map { text.range(of: "\"\($0.key)\":")!.lowerBound }
        #expect(positions == positions.sorted())
        #expect(Self.expectations.count == 33)
        #expect(user.id == 583231 && user.followers == 20 && user.publicRepos == 8 && user.type == .user)
    }

    @Test func approximateKeysAreTheDocumentedSeven() {
        #expect(
            GraphQLUserRebuild.approximateKeys == [
                "avatar_url", "blog", "email", "hireable", "public_repos", "public_gists", "updated_at",
            ])
    }

    @Test func graphQLsConventionsBecomeRESTs() throws {
        var owner = octocatOwner.replacingOccurrences(of: "\"https://github.blog\"", with: "null")
        owner = owner.replacingOccurrences(of: "\"email\":\"\"", with: "\"email\":\"octo@example.com\"")
        owner = owner.replacingOccurrences(of: "\"isHireable\":false", with: "\"isHireable\":true")
        let object = try rebuilt(owner)
        #expect(object["blog"] as? String == "")
        #expect(object["email"] as? String == "octo@example.com")
        #expect(object["hireable"] as? Bool == true)
    }

    @Test func enterpriseURLsComeFromTheProfilesHost() throws {
        let owner = octocatOwner.replacingOccurrences(
            of: "\"url\":\"https://github.com/octocat\"", with: "\"url\":\"https://ghe.example.com/octocat\"")
        let object = try rebuilt(owner)
        #expect(object["url"] as? String == "https://ghe.example.com/api/v3/users/octocat")
        #expect(object["html_url"] as? String == "https://ghe.example.com/octocat")
        // Off github.com the avatar is GraphQL's own.
        #expect(object["avatar_url"] as? String == "https://avatars.githubusercontent.com/u/583231?u=abc&v=4")
        #expect(GraphQLUserRebuild.restRoot(forProfile: "https://octo.ghe.com/x") == "https://api.octo.ghe.com")
        #expect(GraphQLUserRebuild.restRoot(forProfile: "http://ghe.local:8080/x") == "http://ghe.local:8080/api/v3")
        #expect(GraphQLUserRebuild.restRoot(forProfile: "file:///etc/passwd") == nil)
    }

    @Test(arguments: [
        "\"login\":\"octocat\"", "\"databaseId\":583231", "\"followers\":{\"totalCount\":20}",
        "\"url\":\"https://github.com/octocat\"", "\"createdAt\":\"2011-01-25T18:44:36Z\"", "\"__typename\":\"User\"",
    ])
    func aProfileMissingAFieldRESTNeedsIsNotRebuilt(field: String) throws {
        let owner = octocatOwner.replacingOccurrences(of: field + ",", with: "")
        #expect(owner != octocatOwner)
        let dto = try JSONDecoder().decode(GraphQLUserDTO.self, from: Data(owner.utf8))
        #expect(GraphQLUserRebuild.user(dto, asked: login("octocat")) == nil)
    }

    @Test func anotherAccountThanTheOneAskedIsNotTaken() throws {
        let dto = try JSONDecoder().decode(GraphQLUserDTO.self, from: Data(octocatOwner.utf8))
        #expect(GraphQLUserRebuild.user(dto, asked: login("monalisa")) == nil)
    }

    /// Only a `.ghe.com` subdomain is GitHub Enterprise Cloud's: a host that merely ends in "ghe.com" is a
    /// server's own (mutation round 10, M10-706).
    @Test func aHostEndingInGheDotComWithoutItsDotIsAServersOwn() {
        #expect(GraphQLUserRebuild.restRoot(forProfile: "https://myghe.com/u") == "https://myghe.com/api/v3")
    }

    /// A profile address that is no web page (another scheme) names no REST root, on github.com's host too
    /// (mutation round 10, M10-708).
    @Test func aProfileOfAnotherSchemeNamesNoRESTRoot() {
        #expect(GraphQLUserRebuild.restRoot(forProfile: "ftp://github.com/u") == nil)
        #expect(GraphQLUserRebuild.restRoot(forProfile: "HTTPS://github.com/u") == "https://api.github.com")
    }

    /// A list's member that is a site administrator stays one in REST's `site_admin` (mutation round 10, M10-710).
    @Test func aSiteAdministratorNodeIsRebuiltAsOne() throws {
        let node = try JSONDecoder().decode(
            GraphQLAccountNodeDTO.self,
            from: Data(
                (#"{"databaseId":9,"id":"U_9","login":"nine","url":"https://github.com/nine","#
                    + #""avatarUrl":"https://a/9","isSiteAdmin":true}"#).utf8))
        let user = try #require(node.simpleUser)
        #expect(user.members.first { $0.key == "site_admin" }?.value == .bool(true))
    }
}

struct GraphQLProfileResponseTests {
    @Test func foundOrganizationNullAndNotFoundAliases() throws {
        let body = """
            {"data":{"rateLimit":{"cost":1,"remaining":4999,"resetAt":"2030-01-01T00:00:00Z"},"a0":\(octocatOwner),
            "a1":{"__typename":"Organization","login":"github","databaseId":9919},"a2":null,"a3":null},
            "errors":[{"type":"NOT_FOUND","path":["a3"],"message":"Could not resolve"}]}
            """
        let batch = try decode(body, logins: ["octocat", "github", "dependabot[bot]", "gone"]).get()
        #expect(batch.lookups.count == 4)
        guard case .found(let user) = batch.lookups[0] else {
            Issue.record("octocat was not found")
            return
        }
        #expect(user.login == "octocat")
        #expect(Array(batch.lookups[1...]) == [.needsREST, .needsREST, .needsREST])
        #expect(batch.cost == 1 && batch.remaining == 4999)
    }

    @Test func anErrorWithNoPathIsAboutTheWholeBatch() {
        let validation = #"{"errors":[{"message":"Field 'isHireable' doesn't exist on type 'User'"}]}"#
        #expect(
            decode(validation, logins: ["a"])
                == .failure(.unsupported("Field 'isHireable' doesn't exist on type 'User'")))
        let stranger = #"{"data":{"a0":null},"errors":[{"type":"FORBIDDEN","path":["viewer"],"message":"no"}]}"#
        #expect(decode(stranger, logins: ["a"]) == .failure(.unsupported("no")))
        // A refusal of the token is one too (NETWORK.md): profiles need no scope but `email`'s, whose refusal the
        // repository meets by asking without it (`aTokenWithoutTheEmailScopeIsAskedAgainWithoutEmail`).
        let scopes = #"{"errors":[{"type":"INSUFFICIENT_SCOPES","message":"Your token has not been granted"}]}"#
        #expect(decode(scopes, logins: ["a"]) == .failure(.unsupported("Your token has not been granted")))
        let nodes = #"{"errors":[{"type":"MAX_NODE_LIMIT_EXCEEDED","message":"This query requests up to 600 nodes"}]}"#
        #expect(decode(nodes, logins: ["a"]) == .failure(.tooLarge("This query requests up to 600 nodes")))
    }

    /// Issue 26, item 4: a partial answer whose nulled aliases carry `RESOURCE_LIMITS_EXCEEDED` (GitHub's partial
    /// data since 2025-09, changelog "GraphQL API resource limits"; the error's shape as recorded in
    /// github-profile-3d-contrib issue #163) is a batch too large, as the node limit is: before, each nulled
    /// login went to REST, one request each (160 of 200). A null alias with no error still goes to REST.
    @Test func resourceLimitsOnSomeAliasesMeanTooLarge() {
        let partial =
            #"{"data":{"a0":null,"a1":null},"errors":[{"type":"RESOURCE_LIMITS_EXCEEDED","path":["a1"],"#
            + #""message":"Resource limits for this query exceeded."}]}"#
        #expect(
            decode(partial, logins: ["a", "b"]) == .failure(.tooLarge("Resource limits for this query exceeded.")))
        guard case .success(let batch) = decode(#"{"data":{"a0":null}}"#, logins: ["a"]) else {
            Issue.record("a null alias with no error is no failure")
            return
        }
        #expect(batch.lookups == [.needsREST])
    }

    /// GitHub's timeout in a 200 (`data: null`, one error with no type and no path) is a batch too large, as a
    /// 502 is: before, it sent the rest of the run to REST, one request an account.
    @Test(arguments: [GraphQLTimeoutBodies.recorded, GraphQLTimeoutBodies.dated])
    func aQueryThatRanOutOfTimeIsTooLarge(body: String) {
        guard case .failure(.tooLarge(let message)) = decode(body, logins: ["a"]) else {
            Issue.record("\(decode(body, logins: ["a"]))")
            return
        }
        #expect(message.contains("This may be the result of a timeout"))
    }

    @Test(arguments: [502, 504])
    func aGatewayTimeoutMeansTooLarge(status: Int) {
        guard case .failure(.tooLarge) = decode("<html>", status: status, logins: ["a"]) else {
            Issue.record("\(status) is not tooLarge")
            return
        }
    }

    @Test func rateLimitedIsASpentLimitWithItsReset() {
        let body = #"{"errors":[{"type":"RATE_LIMITED","message":"API rate limit already exceeded for user ID 1."}]}"#
        let result = decode(
            body, headers: [("x-ratelimit-remaining", "0"), ("x-ratelimit-reset", "2000000000")], logins: ["a"])
        #expect(
            result
                == .failure(
                    .failed(
                        .rateLimited(
                            resetAt: Date(timeIntervalSince1970: 2_000_000_000),
                            message: "GraphQL: API rate limit already exceeded for user ID 1.", resource: "graphql"))))
    }

    /// GraphQL's secondary limit may come with status 200 (GitHub's "Rate limits and node limits for the GraphQL
    /// API": "200 or 403"), its words in an error: once the client has waited it out, it is that limit, back when
    /// `Retry-After` says. It went to REST, a request per account, while limited (helper-297).
    @Test func aSecondaryLimitInA200IsThatLimit() {
        let body = #"{"errors":[{"message":"You have exceeded a secondary rate limit. Please wait a few minutes."}]}"#
        let result = decode(
            body, headers: [("Retry-After", "30"), ("Date", "Sun, 06 Dec 2026 14:00:00 GMT")], logins: ["a"])
        guard case .failure(.failed(.rateLimited(let retryAt, let message, DomainError.secondaryLimit?, _))) = result
        else {
            Issue.record("not the secondary limit: \(result)")
            return
        }
        #expect(retryAt != nil)
        #expect(message == "GraphQL: You have exceeded a secondary rate limit. Please wait a few minutes.")
    }

    @Test func aBadTokenFailsEveryLoginAndOtherStatusesGoToREST() {
        guard
            case .failure(.failed(.unauthorized(401, _, _, _))) = decode(
                #"{"message":"Bad credentials"}"#, status: 401, logins: ["a"])
        else {
            Issue.record("401 is not a failure for every login")
            return
        }
        for status in [400, 403, 404] {
            guard case .failure(.unsupported) = decode(#"{"message":"x"}"#, status: status, logins: ["a"]) else {
                Issue.record("\(status) does not go to REST")
                continue
            }
        }
        // A proxy that forwards only /api/v3 answers /api/graphql with its own HTML 404: REST answers too.
        let proxy = decode(
            "<html>404 Not Found</html>", status: 404, headers: [("Content-Type", "text/html")], logins: ["a"])
        guard case .failure(.unsupported) = proxy else {
            Issue.record("an HTML 404 does not go to REST: \(proxy)")
            return
        }
        // A server error that outlived the client's retries fails the run, as it would for REST.
        for status in [500, 503] {
            guard
                case .failure(.failed(.server(status, _, _))) = decode(
                    #"{"message":"x"}"#, status: status, logins: ["a"])
            else {
                Issue.record("\(status) is not a failure for every login")
                continue
            }
        }
    }

    /// The three forms GitHub's spent graphql bucket takes (recorded: `{"errors":[{"type":"RATE_LIMIT","code":
    /// "graphql_rate_limit","message":"API rate limit already exceeded for user ID …"}]}` with status 200).
    @Test(arguments: [
        (
            200,
            #"{"errors":[{"type":"RATE_LIMIT","code":"graphql_rate_limit","message":"API rate limit already exceeded for user ID 7."}]}"#
        ),
        (200, #"{"errors":[{"type":"RATE_LIMITED","message":"API rate limit already exceeded for user ID 7."}]}"#),
        (
            200,
            #"{"errors":[{"code":"graphql_rate_limit","message":"API rate limit already exceeded for user ID 7."}]}"#
        ),
        (403, #"{"message":"API rate limit already exceeded for user ID 7."}"#),
    ])
    func everyFormOfASpentGraphQLLimitIsARateLimit(status: Int, body: String) {
        let headers = [
            ("x-ratelimit-remaining", "0"), ("x-ratelimit-reset", "2000000000"), ("x-ratelimit-resource", "graphql"),
        ]
        guard
            case .failure(.failed(.rateLimited(let reset, let message, _, _))) = decode(
                body, status: status, headers: headers, logins: ["a"])
        else {
            Issue.record("HTTP \(status) \(body) is not a spent limit")
            return
        }
        #expect(reset == Date(timeIntervalSince1970: 2_000_000_000))
        #expect(message.contains("API rate limit already exceeded for user ID 7."))
    }

    /// A cost, remaining or count that no Int holds, or a negative one, is an unknown number, never a trap.
    @Test(arguments: [
        #""rateLimit":{"cost":9223372036854775807,"remaining":-1}"#,
        #""rateLimit":{"cost":-5,"remaining":1e400}"#,
        #""rateLimit":{"cost":99999999999999999999999,"remaining":"many"}"#,
        #""rateLimit":"spent""#,
    ])
    func outOfRangeNumbersAreUnknown(rateLimit: String) throws {
        let body =
            #"{"data":{"#
            + rateLimit + #","a0":\#(octocatOwner),"a1":{"__typename":"User","followers":{"totalCount":1e30}}}}"#
        let batch = try decode(body, logins: ["octocat", "x"]).get()
        #expect(batch.cost == nil && batch.remaining == nil)
        guard case .found = batch.lookups[0] else {
            Issue.record("octocat was not found")
            return
        }
        #expect(batch.lookups[1] == .needsREST)
    }

    /// An error on an alias's field nulls only that field (GitHub's partial data: `"path": ["a0", "name"]`): the
    /// profile is not whole, so REST answers that login. Before, the nulls were printed as the profile's, exit 0.
    @Test func anErrorOnAnAliasFieldSendsThatLoginToREST() throws {
        let nulled = octocatOwner.replacing(#""name":"The Octocat""#, with: #""name":null"#)
        let body = """
            {"data":{"a0":\(nulled),"a1":\(octocatOwner.replacing("octocat", with: "monalisa"))},
            "errors":[{"type":"INTERNAL","path":["a0","name"],"message":"Something went wrong"}]}
            """
        let batch = try decode(body, logins: ["octocat", "monalisa"]).get()
        #expect(batch.lookups[0] == .needsREST)
        guard case .found(let user) = batch.lookups[1] else {
            Issue.record("monalisa was not found")
            return
        }
        #expect(user.login == "monalisa")
    }

    /// A member that is no account is that login's alone: REST answers it, and the batch's other lookups stand.
    @Test func aMemberThatIsNoAccountGoesToRESTAlone() throws {
        let body = #"{"data":{"a0":42,"a1":\#(octocatOwner)}}"#
        let batch = try decode(body, logins: ["a", "octocat"]).get()
        #expect(batch.lookups[0] == .needsREST)
        guard case .found = batch.lookups[1] else {
            Issue.record("octocat was not found")
            return
        }
    }

    @Test(arguments: ["", "[]", "{\"data\":[1]}", "{\"data\":null}", "not json"])
    func anUnreadableAnswerGoesToREST(body: String) {
        guard case .failure(.unsupported) = decode(body, logins: ["a"]) else {
            Issue.record("'\(body)' was not sent to REST")
            return
        }
    }
}

struct GraphQLRepositoryTests {
    private func repository(
        _ stub: StubTransport, policy: RetryPolicy = RetryPolicy(maxRetries: 0), sleeps: Sleeps? = nil,
        logger: Logger = .disabled, asksProfileEmail: Bool = true
    )
        -> GitHubRepository
    {
        let clock = RetryClock(
            now: { Date(timeIntervalSince1970: 1_999_999_990) }, random: { 0 },
            sleep: { duration, _ in sleeps?.record(duration) })
        return GitHubRepository(
            client: HTTPClient(
                configuration: HTTPClientConfiguration(
                    baseURL: URL(string: "https://ghe.example.com/api/v3")!, userAgent: "gh-users/test", token: "t0k"),
                transport: stub.transport, logger: .disabled, retryPolicy: policy, clock: clock),
            logger: logger, asksProfileEmail: asksProfileEmail)
    }

    final class Sleeps: @unchecked Sendable {
        private let lock = NSLock()
        private(set) var durations: [Duration] = []
        func record(_ duration: Duration) { lock.withLock { durations.append(duration) } }
    }

    private static let limited = #"{"errors":[{"type":"RATE_LIMITED","message":"API rate limit exceeded"}]}"#
    private static let limitHeaders = [("x-ratelimit-remaining", "0"), ("x-ratelimit-reset", "2000000000")]
    private static let answer = #"{"data":{"rateLimit":{"cost":1,"remaining":4998},"a0":null}}"#

    @Test func postsTheQueryAsJSONToEnterprisesGraphQLEndpoint() async throws {
        let stub = StubTransport()
        stub.stub("https://ghe.example.com/api/graphql", body: Self.answer)
        let batch = try await repository(stub).profiles([login("octocat")])
        #expect(batch.lookups == [.needsREST])
        let request = try #require(stub.received.first)
        #expect(request.method == .post)
        #expect(request.headers["Content-Type"] == "application/json")
        #expect(request.headers["Authorization"] == "Bearer t0k")
        #expect(request.body.map { [UInt8]($0) } == GraphQLProfileQuery.body(for: [login("octocat")]))
        #expect(stub.unusedStubs.isEmpty)
    }

    /// A classic token with neither `user:email` nor `read:user` (`gh`'s default scopes are `repo, read:org,
    /// gist`) has the whole query refused for `email`, `data` null: the shape in atom/github issue #660 and
    /// mntnr/name-your-contributors issue #67 (GitHub's message; the body here is written for the test). The
    /// batch is asked again without `email`, as is every later one, and the warning names the scopes once.
    /// Before (helper-357): the refusal sent the rest of the run to REST, one request a profile.
    @Test func aTokenWithoutTheEmailScopeIsAskedAgainWithoutEmail() async throws {
        let refusal =
            #"{"data":null,"errors":[{"type":"INSUFFICIENT_SCOPES","locations":[{"line":9,"column":5}],"#
            + #""message":"Your token has not been granted the required scopes to execute this query. The 'email' "#
            + #"field requires one of the following scopes: ['user:email', 'read:user'], but your token has only "#
            + #"been granted the: ['repo', 'read:org', 'gist'] scopes. Please modify your token's scopes at: "#
            + #"https://github.com/settings/tokens."}]}"#
        let owner = octocatOwner.replacingOccurrences(of: #""email":"","#, with: "")
        let answer = #"{"data":{"rateLimit":{"cost":1,"remaining":4998},"a0":\#(owner)}}"#
        let stub = StubTransport()
        let url = "https://ghe.example.com/api/graphql"
        stub.stub(url, body: refusal)
        stub.stub(url, body: answer)
        stub.stub(url, body: answer)
        let log = InMemoryLogHandler()
        let github = repository(stub, logger: Logger(label: "t", level: .warning, handler: log))
        var requests: [Int] = []
        for _ in 0..<2 {
            let batch = try await github.profiles([login("octocat")])
            requests.append(batch.requests)
            guard case .found(let user) = batch.lookups.first else {
                Issue.record("no profile: \(batch.lookups)")
                return
            }
            #expect(user.login == "octocat")
            #expect(String(decoding: user.raw.bytes, as: UTF8.self).contains(#""email":null"#))
        }
        // The first batch took two POSTs, as the run's closing line counts them (helper-358: it said one).
        #expect(requests == [2, 1])
        let queries = stub.received.map { String(decoding: $0.body ?? Data(), as: UTF8.self) }
        #expect(queries.count == 3)
        #expect(queries.map { $0.contains("email") } == [true, false, false])
        #expect(
            log.entries.map(\.message) == [
                "GitHub's GraphQL API gives a profile's email only to a token with the scope it names (user:email or "
                    + "read:user), which this one lacks: email is null in the profiles it gives (add the scope, or "
                    + "use --via rest, for the emails)"
            ])
    }

    /// A run that writes no email (`--fields` without it) never asks the field, so a token without its scope is
    /// neither refused nor warned (helper-358, F3: each such run sent a refused POST and a warning about emails it
    /// would not write).
    @Test func aRunThatWritesNoEmailNeverAsksIt() async throws {
        let owner = octocatOwner.replacingOccurrences(of: #""email":"","#, with: "")
        let stub = StubTransport()
        stub.stub(
            "https://ghe.example.com/api/graphql",
            body: #"{"data":{"rateLimit":{"cost":1,"remaining":4998},"a0":\#(owner)}}"#)
        let log = InMemoryLogHandler()
        let github = repository(
            stub, logger: Logger(label: "t", level: .warning, handler: log), asksProfileEmail: false)
        let batch = try await github.profiles([login("octocat")])
        #expect(batch.requests == 1)
        let queries = stub.received.map { String(decoding: $0.body ?? Data(), as: UTF8.self) }
        #expect(queries.map { $0.contains("email") } == [false])
        #expect(log.entries.isEmpty)
    }

    /// Batches in flight together (`--full` expands several at once), each refused for `email`, say the scope once
    /// between them, as one batch does.
    @Test func batchesRefusedForEmailTogetherSayItOnce() async throws {
        let refusal =
            #"{"data":null,"errors":[{"type":"INSUFFICIENT_SCOPES","message":"Your token has not been granted the "#
            + #"required scopes to execute this query. The 'email' field requires one of the following scopes: "#
            + #"['user:email', 'read:user'], but your token has only been granted the: ['repo'] scopes."}]}"#
        let owner = octocatOwner.replacingOccurrences(of: #""email":"","#, with: "")
        let answer = #"{"data":{"rateLimit":{"cost":1,"remaining":4998},"a0":\#(owner)}}"#
        let stub = StubTransport()
        stub.answerEvery { request, _ in
            let asksEmail = String(decoding: request.body ?? Data(), as: UTF8.self).contains("email")
            return HTTPResponse(status: 200, body: Data((asksEmail ? refusal : answer).utf8), url: request.url)
        }
        let arrived = InFlightGauge()
        // Each POST waits for the other, so both batches ask `email` before either is refused.
        let together: HTTPTransport = { request in
            arrived.enter()
            for _ in 0..<200 where arrived.maximum < 2 { try await Task.sleep(for: .milliseconds(10)) }
            return try await stub.transport(request)
        }
        let log = InMemoryLogHandler()
        let github = GitHubRepository(
            client: HTTPClient(
                configuration: HTTPClientConfiguration(
                    baseURL: URL(string: "https://ghe.example.com/api/v3")!, userAgent: "gh-users/test", token: "t0k"),
                transport: together, logger: .disabled, retryPolicy: RetryPolicy(maxRetries: 0)),
            logger: Logger(label: "t", level: .warning, handler: log))
        async let first = github.profiles([login("octocat")])
        async let second = github.profiles([login("octocat")])
        let batches = try await [first, second]
        #expect(batches.map(\.requests) == [2, 2])
        #expect(log.entries.count == 1, "\(log.entries.map(\.message))")
        #expect(log.entries.first?.message.contains("(user:email or read:user)") == true)
    }

    /// Only a refusal of `email` alone is met by asking without it: one that names another field as well is
    /// the query's refusal, as before.
    @Test func aScopeRefusalOfAnotherFieldIsNoEmailRefusal() {
        func refusal(_ fields: [String]) -> HTTPResponse {
            let errors = fields.map {
                #"{"type":"INSUFFICIENT_SCOPES","message":"Your token has not been granted the required scopes to "#
                    + #"execute this query. The '\#($0)' field requires one of the following scopes: ['read:user']"#
                    + #", but your token has only been granted the: ['repo'] scopes."}"#
            }
            return response(#"{"data":null,"errors":[\#(errors.joined(separator: ","))]}"#)
        }
        #expect(GraphQLProfileResponse.emailRefusal(refusal(["email"])) == ["read:user"])
        #expect(GraphQLProfileResponse.emailRefusal(refusal(["email", "createdAt"])) == nil)
        #expect(GraphQLProfileResponse.emailRefusal(refusal(["createdAt"])) == nil)
        #expect(GraphQLProfileResponse.emailRefusal(response(#"{"data":{"a0":null}}"#)) == nil)
    }

    /// Only a 200 is read for a refusal of `email`: a 403 or 502 whose body says the same words is that status's
    /// failure, never met by asking again without the field.
    @Test func onlyA200CanRefuseEmail() {
        let body =
            #"{"data":null,"errors":[{"type":"INSUFFICIENT_SCOPES","message":"The 'email' field requires one of "#
            + #"the following scopes: ['read:user'], but your token has only been granted the: ['repo'] scopes."}]}"#
        #expect(GraphQLProfileResponse.emailRefusal(response(body)) == ["read:user"])
        #expect(GraphQLProfileResponse.emailRefusal(response(body, status: 403)) == nil)
        #expect(GraphQLProfileResponse.emailRefusal(response(body, status: 502)) == nil)
    }

    @Test func aSpentLimitIsReportedWithoutWaitOnRateLimit() async {
        let stub = StubTransport()
        stub.stub("https://ghe.example.com/api/graphql", headers: Self.limitHeaders, body: Self.limited)
        let sleeps = Sleeps()
        do {
            _ = try await repository(stub, sleeps: sleeps).profiles([login("octocat")])
            Issue.record("no failure")
        } catch {
            #expect(
                error
                    == .failed(
                        .rateLimited(
                            resetAt: Date(timeIntervalSince1970: 2_000_000_000),
                            message: "GraphQL: API rate limit exceeded", resource: "graphql")))
        }
        #expect(sleeps.durations.isEmpty)
    }

    /// A limit GitHub answers by status (403 or 429) is the client's: it waits out a primary one ten times, and
    /// retries a secondary one `--retries` times; the batch then reports it and waits no more (a review saw 121
    /// POSTs, ten of the client's ten waits, and 44 for a secondary limit with `--retries 3`).
    @Test(arguments: [
        (403, [("x-ratelimit-remaining", "0"), ("x-ratelimit-reset", "2000000000")], 11, "graphql"),
        (429, [("retry-after", "1")], 4, DomainError.secondaryLimit),
    ])
    func aLimitAnsweredByStatusIsWaitedOnlyByTheClient(
        status: Int, headers: [(String, String)], requests: Int, resource: String
    ) async {
        let stub = StubTransport()
        stub.answerEvery { request, _ in
            HTTPResponse(
                status: status, headers: HTTPHeaders(headers + [("x-ratelimit-resource", "graphql")]),
                body: Data(#"{"message":"API rate limit exceeded for user ID 1."}"#.utf8), url: request.url)
        }
        let sleeps = Sleeps()
        let policy = RetryPolicy(maxRetries: 3, waitOnPrimaryLimit: true)
        do {
            _ = try await repository(stub, policy: policy, sleeps: sleeps).profiles([login("octocat")])
            Issue.record("no failure")
        } catch {
            guard case .failed(.rateLimited(_, _, resource, _)) = error else {
                Issue.record("\(error)")
                return
            }
        }
        #expect(stub.received.count == requests)
        #expect(sleeps.durations.count == requests - 1)
    }

    /// GraphQL's secondary limit in a 200 is the client's too: retried `--retries` times, then reported, and not
    /// waited again as a spent primary limit under --wait-on-rate-limit (ten more rounds of retries, 44 POSTs;
    /// helper-299).
    @Test func aSecondaryLimitInA200IsWaitedOnlyByTheClient() async {
        let stub = StubTransport()
        stub.answerEvery { request, _ in
            HTTPResponse(
                status: 200, headers: HTTPHeaders([("retry-after", "1")]),
                body: Data(#"{"errors":[{"message":"You have exceeded a secondary rate limit."}]}"#.utf8),
                url: request.url)
        }
        let sleeps = Sleeps()
        let policy = RetryPolicy(maxRetries: 3, waitOnPrimaryLimit: true)
        do {
            _ = try await repository(stub, policy: policy, sleeps: sleeps).profiles([login("octocat")])
            Issue.record("no failure")
        } catch {
            guard case .failed(.rateLimited(_, _, DomainError.secondaryLimit?, _)) = error else {
                Issue.record("\(error)")
                return
            }
        }
        #expect(stub.received.count == 4)
        #expect(sleeps.durations == [.seconds(1), .seconds(2), .seconds(4)])
    }

    @Test func aSpentLimitIsWaitedOutWithWaitOnRateLimit() async throws {
        let stub = StubTransport()
        stub.stub("https://ghe.example.com/api/graphql", headers: Self.limitHeaders, body: Self.limited)
        stub.stub("https://ghe.example.com/api/graphql", body: Self.answer)
        let sleeps = Sleeps()
        let batch = try await repository(
            stub, policy: RetryPolicy(maxRetries: 0, waitOnPrimaryLimit: true), sleeps: sleeps
        ).profiles([login("octocat")])
        #expect(batch.cost == 1)
        // The clock says ten seconds before the reset: it waits those and one more.
        #expect(sleeps.durations == [.seconds(11)])
        #expect(stub.received.count == 2)
    }

    @Test func aNetworkFailureIsRetriedAsGraphQLThenFailsTheRun() async {
        let stub = StubTransport()
        for _ in 0..<3 { stub.fail("https://ghe.example.com/api/graphql", with: .connectionLost) }
        let sleeps = Sleeps()
        do {
            _ = try await repository(stub, policy: RetryPolicy(maxRetries: 2), sleeps: sleeps).profiles([
                login("octocat")
            ])
            Issue.record("no failure")
        } catch {
            guard case .failed(.network(let text, _, _)) = error else {
                Issue.record("\(error) is not a network failure for every login")
                return
            }
            #expect(text.contains("3 attempts"))
        }
        #expect(stub.received.count == 3)
        #expect(stub.received.allSatisfy { $0.method == .post })
    }

    @Test func aServerErrorIsRetriedAsGraphQL() async throws {
        let stub = StubTransport()
        stub.stub("https://ghe.example.com/api/graphql", status: 503, body: #"{"message":"Service Unavailable"}"#)
        stub.stub("https://ghe.example.com/api/graphql", body: Self.answer)
        let batch = try await repository(stub, policy: RetryPolicy(maxRetries: 2)).profiles([login("octocat")])
        #expect(batch.lookups == [.needsREST])
        #expect(stub.received.count == 2)
    }

    /// A 502 is a query that ran out of time: handed back at once, for a smaller batch, not repeated as it was.
    @Test func aGatewayErrorIsNotRetriedAsItWas() async {
        let stub = StubTransport()
        stub.stub("https://ghe.example.com/api/graphql", status: 502, body: "<html>")
        do {
            _ = try await repository(stub, policy: RetryPolicy(maxRetries: 2)).profiles([login("octocat")])
            Issue.record("no failure")
        } catch {
            guard case .tooLarge = error else {
                Issue.record("\(error) is not tooLarge")
                return
            }
        }
        #expect(stub.received.count == 1)
    }
}
