import Foundation
import Testing

@testable import GitHubStandIn

/// Resource names of GitHub's `rate-limit-overview` example (github/rest-api-description, MIT License,
/// Copyright (c) 2020 GitHub), in its order.
private let rateLimitResources = [
    "core", "search", "graphql", "integration_manifest", "source_import", "actions_runner_registration", "scim",
    "dependency_snapshots", "code_search", "code_scanning_autofix",
]

private func rateEntry(_ body: [String: Any], _ resource: String) throws -> [String: Int] {
    try #require(value(body, "resources", resource) as? [String: Int], "\(resource)")
}

@Suite struct StandInRateLimitTests {
    /// Search has its own bucket per caller, apart from core (of one request here), in a window its first search opens
    /// (GitHub's minute, two seconds here), then full again; it and `/rate_limit` are `no-cache` with no ETag, as GitHub
    /// sends them. A spent core still reads `/rate_limit`. Anonymous callers get 60 an hour and 10 searches a minute,
    /// whose refusal names their address, and pay for a 304. A write a spent bucket refuses is not carried out.
    @Test func searchHasItsOwnWindowedBucketAndSpentAndAnonymousCallersHaveGitHubsLimits() throws {
        let server = try standIn(
            StandInConfiguration(userCount: 100, rateLimit: 1, searchRateLimit: 3, searchWindowSeconds: 2))
        let token = [("Authorization", "token gho_octocat")]
        let before = Int(Date().timeIntervalSince1970)
        var resets = Set<String>()
        for used in 1...3 {
            let response = try fetch(server, "/search/users?q=type:user", headers: token)
            #expect(response.status == 200 && response.header("x-ratelimit-resource") == "search")
            #expect(response.header("x-ratelimit-limit") == "3" && response.header("x-ratelimit-used") == "\(used)")
            #expect(response.header("x-ratelimit-remaining") == String(3 - used))
            resets.insert(try #require(response.header("x-ratelimit-reset")))
        }
        let reset = try #require(resets.count == 1 ? resets.first.flatMap { Int($0) } : nil)
        #expect(reset >= before + 2 && reset <= Int(Date().timeIntervalSince1970) + 2)
        let exhausted = try fetch(server, "/search/users?q=octocat", headers: token)
        #expect(exhausted.status == 403 && exhausted.header("x-ratelimit-remaining") == "0")
        #expect(exhausted.header("x-ratelimit-resource") == "search")
        #expect(exhausted.text.contains("API rate limit exceeded"))
        // Searching spent nothing of core, and core calls still work; another caller has its own bucket.
        let core = try fetch(server, "/users/octocat", headers: token)
        #expect(core.status == 200 && core.header("x-ratelimit-resource") == "core")
        #expect(try fetch(server, "/users", headers: token).status == 403)
        #expect(try fetch(server, "/user/starred/github/linguist", method: "PUT", headers: token).status == 403)
        #expect(server.world.current.repository("github", "linguist")?.stars?.count == 2)
        let status = try fetch(server, "/rate_limit", headers: token)
        #expect(try status.status == 200 && rateEntry(status.jsonObject(), "core")["remaining"] == 0)
        #expect(status.header("ETag") == nil && status.header("Cache-Control") == "no-cache")
        #expect(server.searchRateLimitRemaining(token: "gho_octocat") == 0)
        #expect(server.searchRateLimitRemaining(token: "someone-else") == 3)
        server.advanceClock(bySeconds: 3)
        let renewed = try fetch(server, "/search/users?q=octocat", headers: token)
        #expect(renewed.status == 200 && renewed.header("x-ratelimit-remaining") == "2")
        #expect(try #require(renewed.header("x-ratelimit-reset").flatMap { Int($0) }) >= reset + 2)
        // Core's hourly window did not roll over.
        #expect(server.rateLimitRemaining(token: "gho_octocat") == 0)
        let anonymous = try fetch(server, "/rate_limit").jsonObject()
        #expect(try rateEntry(anonymous, "core")["limit"] == 60 && rateEntry(anonymous, "search")["limit"] == 10)
        for _ in 0..<10 { #expect(try fetch(server, "/search/users?q=a").header("Cache-Control") == "no-cache") }
        let limited = try fetch(server, "/search/users?q=a")
        #expect(limited.status == 403 && limited.text.contains("API rate limit exceeded for 127.0.0.1."))
        let tag = try #require(try fetch(server, "/users/octocat").header("ETag"))
        #expect(try fetch(server, "/users/octocat", headers: [("If-None-Match", tag)]).status == 304)
        #expect(server.searchRateLimitRemaining(token: nil) == 0 && server.rateLimitRemaining(token: nil) == 58)
    }

    @Test func rateLimitEndpointReportsBothBucketsAndCostsNothing() throws {
        let server = try standIn(StandInConfiguration(userCount: 50))
        let token = [("Authorization", "token watcher")]
        for _ in 0..<3 { _ = try fetch(server, "/users", headers: token) }
        for _ in 0..<2 { _ = try fetch(server, "/search/users?q=x", headers: token) }
        for _ in 0..<5 {
            let response = try fetch(server, "/rate_limit", headers: token)
            #expect(response.status == 200 && response.header("x-ratelimit-resource") == "core")
            #expect(response.header("x-ratelimit-remaining") == "4997" && response.header("x-ratelimit-used") == "3")
            let body = try response.jsonObject()
            let resources = try #require(body["resources"] as? [String: Any])
            #expect(Set(resources.keys) == Set(rateLimitResources))
            let core = try rateEntry(body, "core")
            #expect(core == ["limit": 5_000, "used": 3, "remaining": 4_997, "reset": core["reset"] ?? -1])
            #expect(String(core["reset"] ?? -1) == response.header("x-ratelimit-reset"))
            #expect(body["rate"] as? [String: Int] == core)
            let search = try rateEntry(body, "search")
            #expect(search["limit"] == 30 && search["used"] == 2 && search["remaining"] == 28)
            for resource in rateLimitResources {
                let entry = try rateEntry(body, resource)
                #expect(Set(entry.keys) == ["limit", "used", "remaining", "reset"])
                #expect(entry["limit"] == (entry["used"] ?? 0) + (entry["remaining"] ?? 0))
            }
        }
        #expect(server.rateLimitRemaining(token: "watcher") == 4_997)
        #expect(server.searchRateLimitRemaining(token: "watcher") == 28)
    }
}
