import Foundation
import GitHubStandIn
import TestSupport
import Testing

/// `search --split` through the built binary: past the 1,000-result cap, through the search rate limit, and
/// up to a second that holds more than 1,000 accounts. What `--split` refuses is `SearchCommandTests`'.
struct SearchSplitEndToEndTests {
    private func withServer<T>(
        _ configuration: StandInConfiguration, _ body: (StandInServer) async throws -> T
    ) async throws -> T {
        let server = try StandInServer(configuration: configuration)
        try server.start()
        defer { server.stop() }
        return try await body(server)
    }

    private func api(_ server: StandInServer) -> [String] { ["--api-url", server.baseURL, "--no-cache"] }

    private let token = ["GH_TOKEN": "split-token-1234"]

    private func ids(_ ndjson: String) throws -> [Int] {
        try ndjson.lines().map { line in
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            return try #require(object["id"] as? Int)
        }
    }

    /// The `q` of each search request, in order.
    private func queries(_ server: StandInServer) -> [String] {
        server.requests.filter { $0.path == "/search/users" }.compactMap { $0.query["q"] }
    }

    @Test func aSplitSearchWritesEveryResultOnceInCreatedOrder() async throws {
        try await withServer(StandInConfiguration(userCount: 6_000, searchRateLimit: 1_000)) { server in
            let result = try await BinaryRunner.run(
                ["search", "type:user", "--split", "--all", "--format", "ndjson"] + api(server), environment: token)
            #expect(result.status == 0, "\(result.stderr)")
            let expected = server.population.searchUsers(query: "type:user")
            #expect(expected.count > 5_000)
            let written = try ids(result.stdout)
            #expect(written.count == Set(written).count, "an account was written twice")
            #expect(Set(written) == Set(expected.map(\.id)))
            // Pieces come oldest first: each account's creation is no earlier than the previous piece's.
            let createdAt = Dictionary(uniqueKeysWithValues: expected.map { ($0.id, $0.createdAt) })
            let searches = queries(server)
            #expect(searches.allSatisfy { $0.hasPrefix("type:user created:") })
            #expect(
                result.stderr == "gh-users: --split used \(searches.count) search queries; "
                    + "no piece holds more than 1000 results.\n")
            // Every piece's count request was its first page: at most one wasted request per cut.
            #expect(searches.count < expected.count / 100 + 30, "\(searches.count) queries")
            // Within a piece accounts come by id, whose creation times step about 43 minutes with up to an hour
            // of jitter; a piece written out of created order would step back much further.
            var latest = 0
            for id in written {
                let created = try #require(createdAt[id])
                #expect(created >= latest - 3_600, "account \(id) came after a later piece")
                latest = max(latest, created)
            }
        }
    }

    @Test func theLimitCountsTheWholeOutput() async throws {
        try await withServer(StandInConfiguration(userCount: 3_000, searchRateLimit: 1_000)) { server in
            let result = try await BinaryRunner.run(
                ["search", "type:user", "--split", "--limit", "1500", "--format", "ndjson"] + api(server),
                environment: token)
            #expect(result.status == 0, "\(result.stderr)")
            let written = try ids(result.stdout)
            #expect(written.count == 1_500 && Set(written).count == 1_500)
            #expect(Set(written).isSubset(of: Set(server.population.searchUsers(query: "type:user").map(\.id))))
        }
    }

    @Test func aSpentLimitMidwayIsWaitedOutAndTheOutputStaysWhole() async throws {
        try await withServer(StandInConfiguration(userCount: 1_500, searchRateLimit: 1_000)) { server in
            // The third search request is refused with a reset two seconds away.
            server.injectFaults(
                [.passThrough, .passThrough, .primaryRateLimitExhausted(resetAfterSeconds: 2)], forPath: "/search/users"
            )
            let result = try await BinaryRunner.run(
                ["search", "type:user", "--split", "--all", "--format", "ndjson"] + api(server), environment: token)
            #expect(result.status == 0, "\(result.stderr)")
            let written = try ids(result.stdout)
            #expect(written.count == Set(written).count)
            #expect(Set(written) == Set(server.population.searchUsers(query: "type:user").map(\.id)))
            // "is spent; waiting … for its reset at", or on a loaded machine where the reset passed by more than
            // two seconds as the answer was read, "is still spent after its reset at …; waiting …": a wait for the
            // reset GitHub named either way, announced once.
            let waits = result.stderr.split(separator: "\n").filter { $0.contains("rate limit") }
            #expect(waits.count == 1, "\(result.stderr)")
            #expect(
                waits.allSatisfy {
                    $0.hasPrefix("gh-users: the search rate limit is ") && $0.contains("; waiting ")
                        && $0.contains("reset at ")
                }, "\(result.stderr)")
            let asked = queries(server)
            #expect(asked.count > 3 && asked[2] == asked[3])
        }
    }

    @Test func aWaitLongerThanMaxWaitEndsTheRunWithStatusFive() async throws {
        let configuration = StandInConfiguration(userCount: 1_500, searchRateLimit: 2, searchWindowSeconds: 30)
        try await withServer(configuration) { server in
            let result = try await BinaryRunner.run(
                ["search", "type:user", "--split", "--all", "--format", "ndjson", "--max-wait", "5"] + api(server),
                environment: token)
            #expect(result.status == 5, "\(result.stderr)")
            #expect(result.stderr.contains("rate limit"))
            #expect(!result.stderr.contains("waiting"))
            // A split waits the search limit out without --wait-on-rate-limit: only a longer --max-wait helps
            // (before: "Add --wait-on-rate-limit --max-wait 31").
            #expect(result.stderr.contains("That is longer than --max-wait allows (5s)"), "\(result.stderr)")
            #expect(!result.stderr.contains("--wait-on-rate-limit"), "\(result.stderr)")
            // A split that stops says that a rerun starts over (before: the error alone).
            #expect(
                result.stderr.hasSuffix(
                    "starts again from its first piece: write it to a new file\n"), "\(result.stderr)")
        }
    }

    @Test func aSecondWithOverAThousandAccountsIsSaidAndTheRestStillWritten() async throws {
        let configuration = StandInConfiguration(userCount: 1_500, searchRateLimit: 1_000, sameSecondAccounts: 1_100)
        try await withServer(configuration) { server in
            let result = try await BinaryRunner.run(
                ["search", "repos:>=0", "--split", "--all", "--format", "ndjson"] + api(server), environment: token)
            #expect(result.status == 1, "\(result.stderr)")
            let everyone = server.population.searchUsers(query: "repos:>=0")
            #expect(everyone.count == 1_500)
            let crowded = server.population.users[StandInPopulation.sameSecondFirstOrdinal]
            let crowdSecond = crowded.createdAt
            let crowd = Set(everyone.filter { $0.createdAt == crowdSecond }.map(\.id))
            #expect(crowd.count == 1_100)
            let written = try ids(result.stdout)
            #expect(written.count == Set(written).count)
            // Everyone outside the crowded second, and GitHub's first 1,000 of those within it.
            #expect(Set(written).subtracting(crowd) == Set(everyone.map(\.id)).subtracting(crowd))
            #expect(Set(written).intersection(crowd).count == 1_000)
            // The second as the stand-in's own profile writes it.
            let profile = try await BinaryRunner.run(["show", crowded.login, "--json"] + api(server))
            let object = try JSONSerialization.jsonObject(with: Data(profile.stdout.utf8)) as? [String: Any]
            let range = try #require(object?["created_at"] as? String)
            #expect(
                result.stderr.contains(
                    "gh-users: created:\(range)..\(range) holds 1100 results in one second, more than GitHub's 1000"))
            #expect(result.stderr.contains("; 1 still holds more than 1000 results.\n"))
        }
    }
}
