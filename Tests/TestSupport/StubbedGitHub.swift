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

    /// The real repository over this transport, as the app builds it, sleeping no retry wait.
    package func repository(token: String? = "ghp_stubbed", retries: Int = 3) -> GitHubRepository {
        let client = HTTPClient(
            configuration: HTTPClientConfiguration(
                baseURL: URL(string: Self.apiRoot)!, userAgent: "gh-users-tests", token: token),
            transport: transport,
            logger: .disabled,
            retryPolicy: RetryPolicy(maxRetries: retries, waitOnPrimaryLimit: false),
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

    /// Answers `request` (`"GET /users?since=0&per_page=30"`) with `json`.
    package func answer(_ request: String, status: Int = 200, headers: [(String, String)] = [], json: String) {
        register(RequestMatcher(request), status: status, headers: headers, body: Data(json.utf8))
    }

    /// Answers `request` with a page of the accounts `ids` names, linking to `next` (a path and query) when given.
    package func answer(_ request: String, accounts ids: [Int64], logins: [Int64: String] = [:], next: String? = nil) {
        answer(request, headers: next.map { [Self.link(next: $0)] } ?? [], json: accounts(ids, logins: logins))
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
