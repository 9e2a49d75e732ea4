import Foundation
import GitHubStandIn
import Testing

/// `search QUERY` through the built binary: the 1,000-result cap, qualifiers and sorting as the stand-in
/// searches, and its own rate limit. A qualifier's encoding and an empty query are `SearchCommandTests`'.
struct SearchEndToEndTests: EndToEndSuite {
    let accounts = 1000

    @Test func searchStopsAtAThousandAndSaysSo() async throws {
        try await withServer(users: 3000) { server in
            let result = try await BinaryRunner.run(
                ["search", "type:user", "--all", "--format", "ndjson"] + api(server))
            #expect(result.status == 0)
            #expect(try ids(result.stdout) == server.population.searchUsers(query: "type:user").prefix(1000).map(\.id))
            #expect(
                result.stderr == "gh-users: GitHub returns only the first 1000 of the 2699 results; "
                    + "narrow the query (for example with created:<DATE) to reach the rest.\n"
            )
            let requests = server.requests
            #expect(requests.count == 10)
            #expect(requests.first?.query["q"] == "type:user")
        }
    }

    @Test func searchQualifiersAndSorting() async throws {
        try await withServer { server in
            let place = try await BinaryRunner.run(["search", #"location:"San Francisco""#] + api(server))
            #expect(column(place.stdout, 1) == ["octocat"])
            let sorted = try await BinaryRunner.run(
                ["search", "type:org", "--sort", "followers", "--order", "asc", "--limit", "40", "--format", "ndjson"]
                    + api(server)
            )
            #expect(
                try ids(sorted.stdout)
                    == server.population.searchUsers(query: "type:org", sort: .followers, ascending: true).prefix(40)
                    .map(\.id)
            )
        }
    }

    @Test func searchHasItsOwnRateLimit() async throws {
        // A window of 15 minutes, not GitHub's one: three runs on a loaded machine once took over a minute, and
        // the limit had refilled by the third.
        try await withServer(searchRateLimit: 2, searchWindowSeconds: 900) { server in
            let token = ["GH_TOKEN": "search-token-1234"]
            for _ in 0..<2 {
                #expect(try await BinaryRunner.run(["search", "mona"] + api(server), environment: token).status == 0)
            }
            let limited = try await BinaryRunner.run(["search", "mona"] + api(server), environment: token)
            #expect(limited.status == 5)
            #expect(limited.stderr.contains("rate limit"))
            #expect(limited.stderr.contains("in 15m") || limited.stderr.contains("in 14m"), "\(limited.stderr)")
            #expect(server.rateLimitRemaining(token: "search-token-1234") == 5000)
        }
    }
}
