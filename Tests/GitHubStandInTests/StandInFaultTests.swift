import Foundation
import GitHubStandIn
import Testing

@Suite struct StandInFaultTests {
    @Test func statusFaultsAreServedInOrderThenNormalServiceResumes() throws {
        try withStandInServer { server throws in
            server.injectFaults(
                [
                    .status(502, body: "<html><body>Bad gateway</body></html>", headers: ["Content-Type": "text/html"]),
                    .status(500, body: #"{"message":"Server Error"}"#),
                    .status(429, body: #"{"message":"slow down"}"#, headers: ["Retry-After": "3"]),
                ], forPath: "/users")
            let connection = try RawHTTPConnection(port: server.port)
            let badGateway = try connection.request("GET", "/users?per_page=5")
            #expect(badGateway.status == 502)
            #expect(badGateway.text == "<html><body>Bad gateway</body></html>")
            #expect(badGateway.header("content-type") == "text/html")
            #expect(badGateway.headers.filter { $0.name.lowercased() == "content-type" }.count == 1)
            let serverError = try connection.request("GET", "/users")
            #expect(serverError.status == 500 && serverError.text == #"{"message":"Server Error"}"#)
            let tooMany = try connection.request("GET", "/users?since=3")
            #expect(tooMany.status == 429 && tooMany.header("Retry-After") == "3")
            let recovered = try connection.request("GET", "/users?per_page=5")
            #expect(recovered.status == 200)
            #expect(try recovered.jsonArray().count == 5)
            #expect(server.requests.count == 4)
        }
    }

    @Test func faultsOnlyHitTheirOwnDecodedPath() throws {
        try withStandInServer { server throws in
            server.injectFaults([.status(503, body: "{}")], forPath: "/users/dependabot[bot]")
            #expect(try fetch(server, "/users").status == 200)
            #expect(try fetch(server, "/users/octocat").status == 200)
            #expect(try fetch(server, "/users/dependabot%5Bbot%5D").status == 503)
            #expect(try fetch(server, "/users/dependabot%5Bbot%5D").status == 200)
        }
    }

    @Test func faultsDoNotSpendRateLimit() throws {
        try withStandInServer { server throws in
            server.injectFaults([.status(500, body: "{}")], forPath: "/users")
            #expect(try fetch(server, "/users").header("x-ratelimit-remaining") == "60")
            #expect(try fetch(server, "/users").header("x-ratelimit-remaining") == "59")
        }
    }

    @Test func primaryRateLimitFaultLooksExhausted() throws {
        try withStandInServer { server throws in
            server.injectFaults([.primaryRateLimitExhausted(resetAfterSeconds: 120)], forPath: "/users")
            let before = Int(Date().timeIntervalSince1970)
            let response = try fetch(server, "/users", headers: [("Authorization", "Bearer t")])
            let after = Int(Date().timeIntervalSince1970)
            #expect(response.status == 403)
            #expect(response.header("x-ratelimit-remaining") == "0")
            #expect(response.header("x-ratelimit-used") == "5000")
            let reset = try #require(response.header("x-ratelimit-reset").flatMap { Int($0) })
            #expect(reset >= before + 120 && reset <= after + 120)
            let body = try response.jsonObject()
            #expect((body["message"] as? String)?.hasPrefix("API rate limit exceeded for user ID 1.") == true)
            #expect(body["status"] as? String == "403")
        }
    }

    @Test func secondaryRateLimitFaultCarriesRetryAfterOnlyWhenGiven() throws {
        try withStandInServer { server throws in
            server.injectFaults(
                [.secondaryRateLimit(retryAfterSeconds: 7), .secondaryRateLimit(retryAfterSeconds: nil)],
                forPath: "/users/octocat")
            let withRetry = try fetch(server, "/users/octocat")
            #expect(withRetry.status == 403)
            #expect(withRetry.header("Retry-After") == "7")
            #expect(withRetry.header("x-ratelimit-remaining") != "0")
            let message = try #require(try withRetry.jsonObject()["message"] as? String)
            #expect(message.hasPrefix("You have exceeded a secondary rate limit."))
            let withoutRetry = try fetch(server, "/users/octocat")
            #expect(withoutRetry.status == 403 && withoutRetry.header("Retry-After") == nil)
        }
    }

    @Test func malformedBodyIsFramedCorrectlyButNotJSON() throws {
        try withStandInServer { server throws in
            server.injectFaults([.malformedBody], forPath: "/users")
            let connection = try RawHTTPConnection(port: server.port)
            let broken = try connection.request("GET", "/users")
            #expect(broken.status == 200)
            #expect(broken.text == #"[{"login": "broken","#)
            #expect(throws: (any Error).self) { try JSONSerialization.jsonObject(with: Data(broken.body)) }
            #expect(try connection.request("GET", "/users").status == 200)
        }
    }

    @Test func truncatedBodyPromisesMoreThanItSends() throws {
        try withStandInServer { server throws in
            server.injectFaults([.truncatedBody], forPath: "/users")
            let connection = try RawHTTPConnection(port: server.port)
            do {
                _ = try connection.request("GET", "/users?per_page=50")
                Issue.record("expected a truncated body")
            } catch let RawHTTPError.truncatedBody(expected, received) {
                #expect(expected > 10_000)
                #expect(received < expected && received > 0)
            }
        }
    }

    @Test func hangSaysNothingThenCloses() throws {
        try withStandInServer { server throws in
            server.injectFaults([.hang(seconds: 0.5)], forPath: "/users")
            let connection = try RawHTTPConnection(port: server.port)
            let started = ContinuousClock.now
            #expect(throws: RawHTTPError.closedBeforeHead(received: [])) {
                _ = try connection.request("GET", "/users")
            }
            let waited = ContinuousClock.now - started
            #expect(waited >= .milliseconds(450))
        }
    }

    @Test func closeWithoutResponseDropsTheConnectionAtOnce() throws {
        try withStandInServer { server throws in
            server.injectFaults([.closeWithoutResponse], forPath: "/users/octocat")
            let connection = try RawHTTPConnection(port: server.port)
            // A connection left open would time the read out instead.
            #expect(throws: RawHTTPError.closedBeforeHead(received: [])) {
                _ = try connection.request("GET", "/users/octocat")
            }
            #expect(server.requests.map(\.path) == ["/users/octocat"])
        }
    }

    @Test func redirectPointsAtTheGivenLocation() throws {
        try withStandInServer { server throws in
            let location = "\(server.baseURL)/users/octocat"
            server.injectFaults(
                [.redirect(to: location), .redirect(to: "https://example.invalid/x", status: 307)],
                forPath: "/users/old")
            let moved = try fetch(server, "/users/old")
            #expect(moved.status == 301)
            #expect(moved.header("Location") == location)
            #expect(try moved.jsonObject()["url"] as? String == location)
            let temporary = try fetch(server, "/users/old")
            #expect(temporary.status == 307 && temporary.header("Location") == "https://example.invalid/x")
        }
    }

    @Test func passThroughServesNormallyAndLetsALaterFaultTargetTheNextRequest() throws {
        try withStandInServer { server throws in
            server.injectFaults([.passThrough, .status(500, body: "{}")], forPath: "/users")
            let first = try fetch(server, "/users?per_page=100")
            #expect(first.status == 200 && first.header("x-ratelimit-remaining") == "59")
            #expect(try first.jsonArray().count == 100)
            #expect(try fetch(server, "/users?per_page=100&since=138").status == 500)
            #expect(try fetch(server, "/users?per_page=100&since=138").status == 200)
        }
    }
}
