import Foundation
import Testing

@testable import GitHubStandIn

@Suite struct StandInFaultTests {
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
        for path in ["/users/octocat", "/users/Yamada-Taro", "/users", "/users/octocat/followers"] {
            #expect(try fetch(server, path).status != 200)
            #expect(server.requestsTooEarly == 0)
        }
        #expect(try fetch(server, "/users/octocat").status == 200)
        #expect(try fetch(server, "/users/Yamada-Taro").status == 200)
        #expect(try fetch(server, "/users?since=5").status == 200)
        #expect(try fetch(server, "/users/octocat/followers").status == 200)
        #expect(server.requestsTooEarly == 3)
        server.advanceClock(bySeconds: 601)
        for path in ["/users/octocat", "/users/Yamada-Taro", "/users"] { _ = try fetch(server, path) }
        #expect(server.requestsTooEarly == 3)
    }

    /// A queue answers its own decoded path only, in turn (`passThrough` serving normally), then normal service
    /// resumes; no fault spends anything, and a status fault's headers replace the defaults.
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
    }

    @Test func secondaryRateLimitFaultCarriesRetryAfterOnlyWhenGiven() throws {
        let server = try standIn()
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
