import AtomicLogger
import Data
import Domain
import Foundation
import Networking

/// GitHub as an in-process test meets it: the real Data-layer repository over this strict transport, each
/// expected request answered once. A test that needs specific accounts (ids to page through, a login that
/// fails) writes GitHub's list shape with `accounts(_:)`; every other body is GitHub's documented or recorded one.
extension StubTransport {
    package static let apiRoot = "https://api.github.com"

    /// Requests a run sends for one failing GET with the default `--retries 3`: the first and three retries.
    package static let attemptsWithDefaultRetries = 4

    /// The real repository over this transport, as the app builds it, sleeping no retry wait and timing no attempt
    /// out: the stub answers in-process, and a machine loaded enough to starve a request for the app's 30 s made
    /// `EarlyPagesStressTests` see a page asked twice (its retry). Timeouts are `AttemptTimersTests`'.
    /// `over` replaces the transport with one made of it (`transport(latency:gauge:counting:)`).
    package func repository(token: String? = "ghp_stubbed", retries: Int = 3, over: HTTPTransport? = nil)
        -> GitHubRepository
    {
        let client = HTTPClient(
            configuration: HTTPClientConfiguration(
                baseURL: URL(string: Self.apiRoot)!, userAgent: "gh-users-tests", token: token),
            transport: over ?? transport,
            logger: .disabled,
            retryPolicy: RetryPolicy(maxRetries: retries, waitOnPrimaryLimit: false, attemptTimeout: .seconds(86_400)),
            clock: RetryClock(now: { Date() }, random: { 0 }, sleep: { _, _ in })
        )
        return GitHubRepository(client: client)
    }

    /// A transport that answers every request no stub matches with 204 No Content, GitHub's answer to a write
    /// it did; a test of writes registers only the refusals and reads what was sent in `calls`.
    package static func acceptingWrites() -> StubTransport {
        let http = StubTransport()
        http.answerEvery { request, _ in
            HTTPResponse(status: 204, headers: HTTPHeaders(), body: Data(), url: request.url)
        }
        return http
    }

    /// Each request sent, in order, as `METHOD /path?query`.
    package var calls: [String] {
        received.map { request in
            let components = URLComponents(url: request.url, resolvingAgainstBaseURL: false)
            let path = components?.percentEncodedPath ?? ""
            return request.method.rawValue + " " + (components?.percentEncodedQuery.map { path + "?" + $0 } ?? path)
        }
    }

    /// The logins each GraphQL profile batch sent asked for, in the order of its aliases.
    package var graphQLLoginsAsked: [[String]] {
        received.compactMap { request in
            guard let body = request.body,
                let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any],
                let query = object["query"] as? String, query.contains("a0: ")
            else { return nil }
            return query.matches(of: /a[0-9]+: [a-zA-Z]+\(login: "([^"]+)"\)/).map { String($0.1) }
        }
    }

    /// Answers `request` (`"GET /users?since=0&per_page=30"`) with `json`.
    package func answer(
        _ request: String, status: Int = 200, headers: [(String, String)] = [], json: String,
        redirectedTo: String? = nil
    ) {
        register(
            RequestMatcher(request), status: status, headers: headers, body: Data(json.utf8),
            redirectedTo: redirectedTo)
    }

    /// Answers `request` with a page of the accounts `ids` names, linking to `next` (a path and query) when given.
    package func answer(_ request: String, accounts ids: [Int64], logins: [Int64: String] = [:], next: String? = nil) {
        answer(request, headers: next.map { [Self.link(next: $0)] } ?? [], json: accounts(ids, logins: logins))
    }

    /// Answers `GET list` (`/users?since=0&per_page=2`) with `pages` of accounts, each linking to the next
    /// (`&page=2`, …); then, when `failing` is given, the page after the last fails with that status as often as
    /// it is asked (5xx: the default retries too), or, when `linkOn` is set, the last page links to one never
    /// answered.
    package func answerPages(_ list: String, _ pages: [[Int64]], failing status: Int? = nil, linkOn: Bool = false) {
        let more = status != nil || linkOn
        func page(_ number: Int) -> String {
            number == 1 ? list : list + (list.contains("?") ? "&" : "?") + "page=\(number)"
        }
        for (index, ids) in pages.enumerated() {
            answer(
                "GET " + page(index + 1), accounts: ids, next: index + 1 < pages.count || more ? page(index + 2) : nil)
        }
        if let status {
            refuse(
                "GET " + page(pages.count + 1), status: status, message: status == 502 ? "Bad Gateway" : "Server Error",
                times: status >= 500 ? Self.attemptsWithDefaultRetries : 1)
        }
    }

    /// Answers `request` with GitHub's error body: `status` and `message`, `times` times (a retried failure is
    /// asked again).
    package func refuse(
        _ request: String, status: Int, message: String, headers: [(String, String)] = [], times: Int = 1
    ) {
        for _ in 0..<times {
            answer(
                request, status: status, headers: headers,
                json: #"{"message":"\#(message)","documentation_url":"https://docs.github.com/rest"}"#)
        }
    }

    /// GitHub's answer when the primary rate limit is spent, resetting at `reset` (seconds since 1970).
    package func refuseAsRateLimited(_ request: String, reset: Int = 1_800_000_754) {
        refuse(
            request, status: 403, message: "API rate limit exceeded",
            headers: [("X-RateLimit-Limit", "60"), ("X-RateLimit-Remaining", "0"), ("X-RateLimit-Reset", "\(reset)")])
    }

    /// This transport, each request held `latency` first, with the most requests `counted` in flight at once
    /// kept in `gauge`: for a bound on concurrent requests.
    package func transport(
        latency: Duration, gauge: InFlightGauge, counting counted: @escaping @Sendable (HTTPRequest) -> Bool
    ) -> HTTPTransport {
        let transport = transport
        return { request in
            guard counted(request) else { return try await transport(request) }
            gauge.enter()
            defer { gauge.leave() }
            try await Task.sleep(for: latency)
            return try await transport(request)
        }
    }

    /// The `Link` header pointing at `next`, a path and query on the API root.
    package static func link(next: String) -> (String, String) {
        ("Link", "<\(apiRoot)\(next)>; rel=\"next\"")
    }
}

/// GitHub's list of simple users, cut to the two fields every account has: the one `makeUser(_:_:)` holds.
package func accounts(_ ids: [Int64], logins: [Int64: String] = [:]) -> String {
    "[" + ids.map { account($0, logins[$0]) }.joined(separator: ",") + "]"
}

/// One account as GitHub writes it, cut to its login and id (`user<id>` unless given).
package func account(_ id: Int64, _ login: String? = nil) -> String {
    #"{"login":"\#(login ?? "user\(id)")","id":\#(id)}"#
}

/// The most of something (requests) under way at once.
package final class InFlightGauge: @unchecked Sendable {
    private let lock = NSLock()
    private var current = 0
    private var most = 0

    package init() {}

    package var maximum: Int { lock.withLock { most } }

    package func enter() {
        lock.withLock {
            current += 1
            most = max(most, current)
        }
    }

    package func leave() { lock.withLock { current -= 1 } }
}

/// An account as GitHub's GraphQL API answers gh-users's profile fragment (the fields of octocat's in
/// DataTests/GraphQLProfilesTests), with the id, login, name and follower count a test needs.
package func graphQLOwner(_ id: Int64, _ login: String, name: String, followers: Int) -> String {
    #"{"__typename":"User","login":"\#(login)","databaseId":\#(id),"id":"U_\#(id)","name":"\#(name)","#
        + #""company":null,"location":null,"bio":null,"twitterUsername":null,"websiteUrl":null,"email":"","#
        + #""isHireable":false,"isSiteAdmin":false,"createdAt":"2011-01-25T18:44:36Z","#
        + #""updatedAt":"2025-01-02T03:04:05Z","url":"https://github.com/\#(login)","avatarUrl":null,"#
        + #""followers":{"totalCount":\#(followers)},"following":{"totalCount":0},"repositories":{"totalCount":0},"#
        + #""gists":{"totalCount":0}}"#
}

/// GitHub's answer to a batch of profile lookups: the aliases `a0`, `a1`… in order (nil: `null`, an account
/// GraphQL cannot give), and what the query cost.
package func graphQLProfiles(_ owners: [String?], cost: Int = 1, remaining: Int = 4999) -> String {
    let aliases = owners.enumerated().map { #""a\#($0.offset)":"# + ($0.element ?? "null") }
    return #"{"data":{"rateLimit":{"cost":\#(cost),"remaining":\#(remaining)},"#
        + aliases.joined(separator: ",") + "}}"
}

/// GitHub's documented or recorded answers, one file per operation; their sources are in the folder's NOTICE.md.
package enum GitHubBodies {
    /// The one place that says where the body files are.
    package static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Sources/GitHubStandIn/Bodies")

    /// The bytes of `<name>.json`; empty when there is no such file, which the test's own assertions then catch.
    package static func named(_ name: String) -> Data {
        FileManager.default.contents(atPath: folder.appendingPathComponent(name + ".json").path) ?? Data()
    }
}
