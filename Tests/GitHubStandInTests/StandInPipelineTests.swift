import Foundation
import Testing

@testable import GitHubStandIn

/// How the server answers every request, whatever its route (`reply(to:)`): faults, then the route and its
/// revalidation, then the rate limit; each order test makes two of them want to answer. Who a token signs in as,
/// and the scopes every answer names (the authentication tests, merged in).
@Suite struct StandInPipelineTests {
    /// A spent bucket is GitHub's 403, for a known route, an unknown one, a known path with another method, or a read
    /// the caller already holds (no 304); it is counted per token in a window that ends within the hour, and
    /// anonymous callers have their own 60. Only an injected fault answers before it (`/rate_limit` is exempt:
    /// `StandInRateLimitTests`).
    @Test func anEmptyBucketWinsOverRoutingAndRevalidationButNotOverAFault() throws {
        let server = try standIn(StandInConfiguration(userCount: 50, rateLimit: 1))
        let token = [("Authorization", "token gho_kitsune-fox")]
        let first = try fetch(server, "/users/octocat", headers: token)
        #expect(first.header("x-ratelimit-limit") == "1" && first.header("x-ratelimit-used") == "1")
        let reset = try #require(first.header("x-ratelimit-reset").flatMap { Int($0) })
        let now = Int(Date().timeIntervalSince1970)
        #expect(reset > now && reset <= now + 3_600)
        let revalidation = [("If-None-Match", try #require(first.header("ETag")))]
        for (method, target, headers) in [
            ("GET", "/users/octocat", revalidation), ("GET", "/users/nobody", []), ("GET", "/nowhere", []),
            ("DELETE", "/users", []),
        ] {
            let limited = try fetch(server, target, method: method, headers: token + headers)
            #expect(limited.status == 403 && limited.header("x-ratelimit-remaining") == "0", "\(target)")
            #expect(limited.header("ETag") == nil, "\(target)")
            #expect(
                limited.text
                    == #"{"message":"API rate limit exceeded for user ID 4.","documentation_url":"#
                    + #""https://docs.github.com/rest/overview/resources-in-the-rest-api#rate-limiting","status":"403"}"#,
                "\(target)")
        }
        server.injectFaults([.status(500, body: "{}")], forPath: "/users")
        let faulted = try fetch(server, "/users", headers: token)
        #expect(faulted.status == 500 && faulted.header("x-ratelimit-remaining") == "0")
        #expect(try fetch(server, "/users", headers: token).status == 403)
        #expect(try fetch(server, "/users/octocat", headers: [("Authorization", "Bearer beta")]).status == 200)
        let anonymous = try fetch(server, "/users/octocat")
        #expect(anonymous.header("x-ratelimit-limit") == "60" && anonymous.header("x-ratelimit-remaining") == "59")
    }

    /// A read whose ETag `If-None-Match` names (weakly, strongly, in a list or as `*`) is a 304 with no body that
    /// keeps what a cache would otherwise lose with it (`Link`, `Last-Modified`, the scopes) and costs a token nothing;
    /// a stale tag is answered and charged. Never a refusal (`StandInRouteTableTests`) nor a search (`…RateLimitTests`).
    @Test(arguments: ["/users?per_page=5", "/users/octocat", "/user/1", "/user", "/user/1/keys?per_page=1"])
    func aRevalidationIsA304ThatCostsNothing(target: String) throws {
        let server = try standIn()
        let token = bearer("gho_octocat")
        let first = try fetch(server, target, headers: token)
        let etag = try #require(first.header("ETag"))
        #expect(etag.hasPrefix("W/\"") && etag.hasSuffix("\""))
        for candidate in [etag, String(etag.dropFirst(2)), "\"other\", \(etag)", "*"] {
            let revalidated = try fetch(server, target, headers: token + [("If-None-Match", candidate)])
            #expect(revalidated.status == 304 && revalidated.body.isEmpty && revalidated.header("ETag") == etag)
            for name in ["Link", "Last-Modified", "X-OAuth-Scopes", "x-ratelimit-remaining", "x-ratelimit-resource"] {
                #expect(revalidated.header(name) == first.header(name), "\(name) of \(candidate)")
            }
        }
        #expect(first.header("x-ratelimit-resource") == "core")
        let stale = try fetch(server, target, headers: token + [("If-None-Match", "W/\"stale\"")])
        #expect(stale.status == 200 && stale.header("x-ratelimit-remaining") != first.header("x-ratelimit-remaining"))
    }

    /// Every answer to an anonymous caller, a refusal too (GitHub's 401 to `GET /user` among them), carries GitHub's
    /// headers and is charged; it names no scopes, as there is no token to describe, even where one is needed.
    @Test func everyResponseCarriesGitHubsHeaders() throws {
        let server = try standIn()
        var requestIDs = Set<String>()
        let targets = ["/users", "/users/octocat", "/users/nobody", "/elsewhere", "/users/octocat/keys", "/user"]
        for (index, target) in targets.enumerated() {
            let response = try fetch(server, target)
            #expect(response.header("content-type") == "application/json; charset=utf-8")
            #expect(response.header("x-github-api-version-selected") == "2022-11-28")
            #expect(response.header("x-ratelimit-resource") == "core")
            #expect(response.header("x-ratelimit-remaining") == String(59 - index), "\(target)")
            for name in ["x-ratelimit-limit", "x-ratelimit-used", "x-ratelimit-reset"] {
                #expect(response.header(name).flatMap { Int($0) } != nil, "\(name) on \(target)")
            }
            #expect(response.header("X-OAuth-Scopes") == nil && response.header("X-Accepted-OAuth-Scopes") == nil)
            requestIDs.insert(try #require(response.header("X-GitHub-Request-Id")))
            if response.status == 200 {
                #expect(response.header("Cache-Control") == "private, max-age=60, s-maxage=60")
                #expect(response.header("Vary") == "Accept, Authorization, Cookie, X-GitHub-OTP")
            }
        }
        #expect(requestIDs.count == targets.count)
    }

    @Test func requestsAreRecordedWithDecodedPartsAndHeaders() throws {
        let server = try standIn()
        let target = "/users/dependabot%5Bbot%5D?note=a%20b+c&x=1"
        _ = try fetch(server, target, headers: [("X-Custom-Thing", "value: with colon")])
        _ = try fetch(server, "/users?since=0&per_page=100", method: "HEAD")
        let recorded = server.requests
        #expect(recorded.map(\.method) == ["GET", "HEAD"])
        let first = try #require(recorded.first)
        #expect(first.target == target && first.path == "/users/dependabot[bot]")
        #expect(first.query == ["note": "a b c", "x": "1"])
        #expect(first.header("x-custom-thing") == "value: with colon")
        #expect(first.headers.contains { $0.name == "X-Custom-Thing" })
        #expect(first.header("Missing") == nil)
        #expect(recorded[1].query == ["since": "0", "per_page": "100"])
        #expect(recorded[1].receivedAt >= recorded[0].receivedAt)
        server.resetRequests()
        #expect(server.requests.isEmpty)
        _ = try fetch(server, "/users")
        #expect(server.requests.map(\.path) == ["/users"])
        server.isRecordingRequests = false
        _ = try fetch(server, "/users/octocat")
        #expect(server.requests.count == 1)
    }

    /// A request that comes before the wait a fault asked for is counted, whether the wait was a Retry-After in
    /// seconds, one as an HTTP date, or a spent limit's reset; one after it, or for another path, is not.
    @Test func requestsBeforeTheWaitAFaultAskedForAreCounted() throws {
        let server = try standIn()
        let date = UTCTimestamp.httpDate(Int(Date().timeIntervalSince1970) + 600)
        server.injectFaults([.secondaryRateLimit(retryAfterSeconds: 600)], forPath: "/users/octocat")
        server.injectFaults(
            [.status(429, body: "{}", headers: ["Retry-After": date])], forPath: "/users/Yamada-Taro")
        server.injectFaults([.primaryRateLimitExhausted(resetAfterSeconds: 600)], forPath: "/users")
        server.injectFaults([.status(500, body: "{}")], forPath: "/users/octocat/followers")
        let paths = ["/users/octocat", "/users/Yamada-Taro", "/users", "/users/octocat/followers"]
        for path in paths {
            #expect(try fetch(server, path).status != 200)
            #expect(server.requestsTooEarly == 0)
        }
        for path in paths { #expect(try fetch(server, path + "?since=5").status == 200, "\(path)") }
        #expect(server.requestsTooEarly == 3)
        server.advanceClock(bySeconds: 601)
        for path in paths.dropLast() { _ = try fetch(server, path) }
        #expect(server.requestsTooEarly == 3)
    }

    /// A queue answers its own decoded path only, in turn (`passThrough` serving normally), then normal service
    /// resumes; no fault spends anything, a status fault's headers replace the defaults, and a secondary limit
    /// carries Retry-After only when given.
    @Test func faultsHitTheirOwnDecodedPathInTurnAndSpendNothing() throws {
        let server = try standIn()
        server.injectFaults([.status(503, body: "{}")], forPath: "/users/dependabot[bot]")
        server.injectFaults([.passThrough, .status(500, body: "{}")], forPath: "/users")
        for (target, status, remaining) in [
            ("/users/dependabot%5Bbot%5D", 503, "60"), ("/users/octocat", 200, "59"),
            ("/users/dependabot%5Bbot%5D", 200, "58"), ("/users?per_page=100", 200, "57"),
            ("/users?since=138", 500, "57"), ("/users?since=138", 200, "56"),
        ] {
            let response = try fetch(server, target)
            #expect(response.status == status, "\(target)")
            #expect(response.header("x-ratelimit-remaining") == remaining, "\(target)")
        }
        let html = "<html><body>Bad gateway</body></html>"
        let headers = ["Content-Type": "text/html", "Retry-After": "3"]
        server.injectFaults([.status(502, body: html, headers: headers)], forPath: "/users")
        let badGateway = try fetch(server, "/users")
        #expect(badGateway.status == 502 && badGateway.text == html && badGateway.header("Retry-After") == "3")
        #expect(badGateway.headers.filter { $0.name.lowercased() == "content-type" }.map(\.value) == ["text/html"])
        server.injectFaults(
            [.secondaryRateLimit(retryAfterSeconds: 7), .secondaryRateLimit(retryAfterSeconds: nil)],
            forPath: "/users/octocat")
        let withRetry = try fetch(server, "/users/octocat")
        #expect(withRetry.status == 403 && withRetry.header("Retry-After") == "7")
        #expect(withRetry.header("x-ratelimit-remaining") != "0")
        #expect(withRetry.text.contains(#"{"message":"You have exceeded a secondary rate limit."#))
        let withoutRetry = try fetch(server, "/users/octocat")
        #expect(withoutRetry.status == 403 && withoutRetry.header("Retry-After") == nil)
    }

    /// A token naming a login signs in as it, ignoring case; any other as a User its hash picks, the same every
    /// time and in every population of the same size, spread over the population.
    @Test func aTokenSignsInAsTheLoginItNamesOrTheUserItsHashPicks() throws {
        let server = try standIn()
        let population = server.population
        for (token, login) in [
            ("gho_octocat", "octocat"), ("ghp_OCTOCAT", "octocat"), ("github_pat_Yamada-Taro", "Yamada-Taro"),
            (StandInTokens.token(for: StandInPopulation.manyFollowsLogin), StandInPopulation.manyFollowsLogin),
            ("test-token", population.authenticatedAccount(forToken: "test-token")?.login ?? "?"),
        ] {
            #expect(try fetch(server, "/user", headers: bearer(token)).jsonObject()["login"] as? String == login)
        }
        let many = (0..<500).compactMap { population.authenticatedAccount(forToken: "token-\($0)") }
        #expect(many.count == 500 && many.allSatisfy { $0.type == "User" } && Set(many.map(\.id)).count > 100)
        #expect(StandInPopulation(userCount: 250).authenticatedAccount(forToken: "token-1") == many[1])
        #expect(StandInPopulation(userCount: 0).authenticatedAccount(forToken: "test-token") == nil)
    }

    /// Every answer to a token names its scopes and what its row accepts. A `noscope` token has none (the header is
    /// there, empty) and sees only the public profile, whose ETag differs from the private one's.
    @Test func everyAnswerToATokenCarriesItsScopesAndWithNoneThePublicProfile() throws {
        let server = try standIn()
        let token = bearer("test-token")
        for (target, accepted) in [
            ("/user", "user"), ("/users/octocat", "user"), ("/users/octocat/keys", ""),
            ("/users/no-such-user/gists", ""), ("/nowhere", ""), ("/rate_limit", ""), ("/search/users?q=a", ""),
        ] {
            let response = try fetch(server, target, headers: token)
            #expect(response.header("X-OAuth-Scopes") == "repo, user", "\(target)")
            #expect(response.header("X-Accepted-OAuth-Scopes") == accepted, "\(target)")
        }
        // Faults imitate GitHub's front end but still answer a known token.
        server.injectFaults([.status(502, body: "{}")], forPath: "/users/octocat/orgs")
        #expect(try fetch(server, "/users/octocat/orgs", headers: token).header("X-OAuth-Scopes") == "repo, user")
        let publicOnly = try fetch(server, "/user", headers: bearer("gho_octocat_noscope"))
        #expect(publicOnly.status == 200 && publicOnly.header("X-OAuth-Scopes") == "")
        #expect(publicOnly.text == String(decoding: server.population.users[0].userJSONBytes(), as: UTF8.self))
        #expect(try publicOnly.header("ETag") != fetch(server, "/user", headers: bearer("gho_octocat")).header("ETag"))
        #expect(StandInTokens.scopes(forToken: "gho_octocat_NoScope") == [])
        #expect(StandInTokens.scopes(forToken: "gho_octocat_HIDE404") == ["read:user"])
    }
}
