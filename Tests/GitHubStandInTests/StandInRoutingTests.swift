import Foundation
import GitHubStandIn
import Testing

@Suite struct StandInRoutingTests {
    @Test func perPageDefaultsToThirtyAndIsCappedAtOneHundred() throws {
        try withStandInServer(StandInConfiguration(userCount: 500)) { server throws in
            let defaulted = try fetch(server, "/users")
            #expect(try defaulted.jsonArray().count == 30)
            let thirtieth = server.population.users[29].id
            // Without per_page in the request, GitHub's next link has none either.
            #expect(linkRelations(defaulted.header("Link"))["next"] == "\(server.baseURL)/users?since=\(thirtieth)")
            let capped = try fetch(server, "/users?per_page=500")
            #expect(try capped.jsonArray().count == 100)
            #expect(linkRelations(capped.header("Link"))["next"]?.contains("per_page=100&") == true)
            #expect(try fetch(server, "/users?per_page=abc").jsonArray().count == 30)
            #expect(try fetch(server, "/users?per_page=0").jsonArray().count == 30)
            let nonNumericSince = try fetch(server, "/users?since=abc&per_page=2").jsonArray()
            #expect(nonNumericSince.compactMap { $0["login"] as? String } == ["octocat", "Yamada-Taro"])
            let afterGap = try fetch(server, "/users?since=6&per_page=1").jsonArray()
            #expect(afterGap.first?["id"] as? Int == 8)
        }
    }

    @Test func loginLookupIgnoresCaseAndDecodesThePath() throws {
        try withStandInServer { server throws in
            let mixed = try fetch(server, "/users/OctoCat")
            #expect(mixed.status == 200)
            #expect(try mixed.jsonObject()["login"] as? String == "octocat")
            for target in ["/users/dependabot%5Bbot%5D", "/users/DEPENDABOT%5bBOT%5d", "/users/dependabot[bot]"] {
                let bot = try fetch(server, target)
                #expect(bot.status == 200, "\(target)")
                #expect(try bot.jsonObject()["type"] as? String == "Bot")
            }
            let encodedLetters = try fetch(server, "/users/%6Fctocat")
            #expect(encodedLetters.status == 200)
        }
    }

    @Test func unknownLoginsAndRoutesGetGitHubsNotFoundBodies() throws {
        try withStandInServer { server throws in
            let missing = try fetch(server, "/users/no-such-user")
            #expect(missing.status == 404)
            #expect(missing.text == userNotFound)
            #expect(missing.header("Content-Type") == "application/json; charset=utf-8")
            #expect(missing.header("ETag") == nil)
            for target in [
                // Neighbours of served paths: the caller's own keys, private events, received events.
                "/", "/user/keys", "/users/octocat/received_events", "/users/octocat/repos/extra", "/user/abc",
                "/user/1/events", "/search/repositories", "/rate_limit/extra",
            ] {
                let response = try fetch(server, target)
                #expect(response.status == 404 && response.text == routeNotFound, "\(target)")
            }
        }
    }

    @Test func everyResponseCarriesGitHubsHeaders() throws {
        try withStandInServer { server throws in
            var requestIDs = Set<String>()
            for target in ["/users", "/users/octocat", "/users/nobody", "/elsewhere"] {
                let response = try fetch(server, target)
                #expect(response.header("content-type") == "application/json; charset=utf-8")
                #expect(response.header("x-github-api-version-selected") == "2022-11-28")
                #expect(response.header("x-ratelimit-resource") == "core")
                #expect(response.header("Content-Length") == String(response.body.count))
                for name in ["x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-used", "x-ratelimit-reset"] {
                    #expect(response.header(name).flatMap { Int($0) } != nil, "\(name) on \(target)")
                }
                requestIDs.insert(try #require(response.header("X-GitHub-Request-Id")))
                if response.status == 200 {
                    #expect(response.header("Cache-Control") == "private, max-age=60, s-maxage=60")
                    #expect(response.header("Vary") == "Accept, Authorization, Cookie, X-GitHub-OTP")
                }
            }
            #expect(requestIDs.count == 4)
        }
    }

    /// How the core bucket counts down is `StandInRateLimitTests`' (search counts the same way); this pins what
    /// only core has: the hour's reset, and GitHub's 403 body for a spent core limit.
    @Test func coreIsCountedPerTokenAndItsExhaustionIsGitHubs403() throws {
        try withStandInServer(StandInConfiguration(userCount: 50, rateLimit: 1)) { server throws in
            let token = [("Authorization", "token alpha")]
            let first = try fetch(server, "/users/octocat", headers: token)
            #expect(first.header("x-ratelimit-limit") == "1" && first.header("x-ratelimit-used") == "1")
            let reset = try #require(first.header("x-ratelimit-reset").flatMap { Int($0) })
            let now = Int(Date().timeIntervalSince1970)
            #expect(reset > now && reset <= now + 3_600)
            let exhausted = try fetch(server, "/users/octocat", headers: token)
            #expect(exhausted.status == 403 && exhausted.header("x-ratelimit-remaining") == "0")
            let body = try exhausted.jsonObject()
            #expect((body["message"] as? String)?.hasPrefix("API rate limit exceeded for user ID 1.") == true)
            #expect(
                body["documentation_url"] as? String
                    == "https://docs.github.com/rest/overview/resources-in-the-rest-api#rate-limiting")
            #expect(body["status"] as? String == "403")
            #expect(try fetch(server, "/users/octocat", headers: [("Authorization", "Bearer beta")]).status == 200)
            let anonymous = try fetch(server, "/users/octocat")
            #expect(anonymous.header("x-ratelimit-limit") == "60" && anonymous.header("x-ratelimit-remaining") == "59")
        }
    }

    @Test func requestsAreRecordedWithDecodedPartsAndHeaders() throws {
        try withStandInServer { server throws in
            _ = try fetch(
                server, "/users/dependabot%5Bbot%5D?note=a%20b+c&x=1",
                headers: [("Authorization", "Bearer rec"), ("X-Custom-Thing", "value: with colon")])
            _ = try fetch(server, "/users?since=0&per_page=100", method: "HEAD")
            let recorded = server.requests
            #expect(recorded.count == 2)
            let first = try #require(recorded.first)
            #expect(first.method == "GET")
            #expect(first.target == "/users/dependabot%5Bbot%5D?note=a%20b+c&x=1")
            #expect(first.path == "/users/dependabot[bot]")
            #expect(first.query == ["note": "a b c", "x": "1"])
            #expect(first.header("authorization") == "Bearer rec")
            #expect(first.header("x-custom-thing") == "value: with colon")
            #expect(first.headers.contains { $0.name == "X-Custom-Thing" })
            #expect(first.header("Missing") == nil)
            #expect(recorded[1].method == "HEAD" && recorded[1].query == ["since": "0", "per_page": "100"])
            #expect(recorded[1].receivedAt >= recorded[0].receivedAt)
            server.resetRequests()
            #expect(server.requests.isEmpty)
            _ = try fetch(server, "/users")
            #expect(server.requests.map(\.path) == ["/users"])
            server.isRecordingRequests = false
            _ = try fetch(server, "/users/octocat")
            #expect(server.requests.count == 1)
        }
    }
}
