import Foundation
import GitHubStandIn
import Testing

/// repos, followers, following, search, rate-limit and show --id through the built binary.
struct MoreCommandsEndToEndTests {
    private func withServer<T>(
        users: Int = 1000,
        searchRateLimit: Int = 30,
        _ body: (StandInServer) async throws -> T
    ) async throws -> T {
        let server = try StandInServer(
            configuration: StandInConfiguration(userCount: users, searchRateLimit: searchRateLimit))
        try server.start()
        defer { server.stop() }
        return try await body(server)
    }

    private func api(_ server: StandInServer) -> [String] { ["--api-url", server.baseURL] }

    private func column(_ tsv: String, _ index: Int = 0) -> [String] {
        tsv.split(separator: "\n").map { String($0.split(separator: "\t", omittingEmptySubsequences: false)[index]) }
    }

    private func ids(_ ndjson: String) throws -> [Int] {
        try ndjson.split(separator: "\n").map { line in
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            return try #require(object["id"] as? Int)
        }
    }

    @Test func reposPagesThroughEveryRepositoryByTheLinkHeader() async throws {
        try await withServer { server in
            let result = try await BinaryRunner.run(["repos", "Otter-Labs-7", "--all"] + api(server))
            #expect(result.status == 0, "\(result.stderr)")
            let expected = server.population.repositories(ofUserID: 9).map(\.fullName)
            #expect(expected.count == 280)
            #expect(column(result.stdout) == expected)
            let requests = server.requests
            #expect(requests.count == 3)
            #expect(requests[0].path == "/users/Otter-Labs-7/repos")
            #expect(requests[1].path == "/user/9/repos")
            #expect(requests.allSatisfy { $0.query["per_page"] == "100" })
        }
    }

    @Test func reposSortsAndFiltersForks() async throws {
        try await withServer { server in
            let owner = try #require(server.population.user(id: 9))
            let pushed = server.population.repositories(of: owner, type: .owner, sort: .pushed, ascending: false)
            let sources = try await BinaryRunner.run(
                ["repos", "Otter-Labs-7", "--sort", "pushed", "--sources", "--limit", "150", "--format", "ndjson"]
                    + api(server)
            )
            #expect(sources.status == 0)
            #expect(try ids(sources.stdout) == pushed.filter { !$0.fork }.prefix(150).map(\.id))
            #expect(server.requests.first?.query["sort"] == "pushed")
            let forks = try await BinaryRunner.run(
                ["repos", "Otter-Labs-7", "--forks", "--all", "--format", "ndjson"] + api(server))
            #expect(try ids(forks.stdout) == server.population.repositories(ofUserID: 9).filter(\.fork).map(\.id))
            #expect(try ids(forks.stdout).count == 70)
        }
    }

    @Test func reposOfOctocatAndAsMember() async throws {
        try await withServer { server in
            let own = try await BinaryRunner.run(["repos", "octocat"] + api(server))
            #expect(column(own.stdout) == ["octocat/Hello-World", "octocat/Spoon-Knife"])
            let member = try await BinaryRunner.run(["repos", "octocat", "--type", "member", "--json"] + api(server))
            let names = try #require(
                try JSONSerialization.jsonObject(with: Data(member.stdout.utf8)) as? [[String: Any]]
            )
            .compactMap { $0["full_name"] as? String }
            #expect(names.count == 3)
            #expect(names.allSatisfy { !$0.hasPrefix("octocat/") })
            let missing = try await BinaryRunner.run(["repos", "no-such-user"] + api(server))
            #expect(missing.status == 3)
            #expect(missing.stderr.hasPrefix("gh-users: no user 'no-such-user' (HTTP 404)\nrequest id: "))
        }
    }

    @Test func followersPageByTheLinkUnderTheNumericID() async throws {
        try await withServer { server in
            let result = try await BinaryRunner.run(
                ["followers", "Yamada-Taro", "--all", "--format", "ndjson"] + api(server))
            #expect(result.status == 0)
            let expected = server.population.followers(ofUserID: 2).map(\.id)
            #expect(expected.count == 999)
            #expect(try ids(result.stdout) == expected)
            let requests = server.requests
            #expect(requests.count == 10)
            #expect(requests[0].path == "/users/Yamada-Taro/followers")
            #expect(requests.dropFirst().allSatisfy { $0.path == "/user/2/followers" })
        }
    }

    @Test func followingAnEmptyListIsSuccess() async throws {
        try await withServer { server in
            let result = try await BinaryRunner.run(["following", "octocat", "--json"] + api(server))
            #expect(result.status == 0)
            #expect(result.stdout == "[]\n")
            let twenty = try await BinaryRunner.run(["followers", "octocat", "--limit", "100"] + api(server))
            #expect(column(twenty.stdout, 1).count == 20)
        }
    }

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

    @Test func searchQualifiersSortingAndEncoding() async throws {
        try await withServer { server in
            let place = try await BinaryRunner.run(["search", #"location:"San Francisco""#] + api(server))
            #expect(column(place.stdout, 1) == ["octocat"])
            #expect(server.requests.first?.target.contains("q=location%3A%22San+Francisco%22") == true)
            let sorted = try await BinaryRunner.run(
                ["search", "type:org", "--sort", "followers", "--order", "asc", "--limit", "40", "--format", "ndjson"]
                    + api(server)
            )
            #expect(
                try ids(sorted.stdout)
                    == server.population.searchUsers(query: "type:org", sort: .followers, ascending: true).prefix(40)
                    .map(\.id)
            )
            server.resetRequests()
            let empty = try await BinaryRunner.run(["search", "  "] + api(server))
            #expect(empty.status == 64)
            #expect(server.requests.isEmpty)
        }
    }

    @Test func searchHasItsOwnRateLimit() async throws {
        try await withServer(searchRateLimit: 2) { server in
            let token = ["GH_TOKEN": "search-token-1234"]
            for _ in 0..<2 {
                #expect(try await BinaryRunner.run(["search", "mona"] + api(server), environment: token).status == 0)
            }
            let limited = try await BinaryRunner.run(["search", "mona"] + api(server), environment: token)
            #expect(limited.status == 5)
            #expect(limited.stderr.contains("rate limit"))
            #expect(limited.stderr.contains("in 1m") || limited.stderr.contains("s."))
            #expect(server.rateLimitRemaining(token: "search-token-1234") == 5000)
        }
    }

    @Test func rateLimitIsFreeNeverCachedAndShowsEachBucket() async throws {
        try await withServer { server in
            let token = ["GH_TOKEN": "rate-token-1234"]
            _ = try await BinaryRunner.run(["show", "octocat"] + api(server), environment: token)
            let before = server.rateLimitRemaining(token: "rate-token-1234")
            server.resetRequests()
            let cache = FileManager.default.temporaryDirectory.appendingPathComponent(
                "gh-users-rate-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: cache) }
            let table = try await BinaryRunner.run(
                ["rate-limit", "--cache-dir", cache.path] + api(server), environment: token)
            let json = try await BinaryRunner.run(
                ["rate-limit", "--json", "--cache-dir", cache.path] + api(server), environment: token)
            #expect(table.status == 0 && json.status == 0)
            #expect(column(table.stdout).prefix(2) == ["core", "search"])
            #expect(column(table.stdout, 2).first == String(before))
            let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
            let core = try #require((object["resources"] as? [String: Any])?["core"] as? [String: Any])
            #expect(core["remaining"] as? Int == before)
            #expect(server.rateLimitRemaining(token: "rate-token-1234") == before)
            #expect(server.requests.count == 2)
            #expect(server.requests.allSatisfy { $0.header("if-none-match") == nil })
            #expect(!FileManager.default.fileExists(atPath: cache.path))
        }
    }

    @Test func showByID() async throws {
        try await withServer { server in
            let found = try await BinaryRunner.run(["show", "--id", "9", "--json"] + api(server))
            #expect(found.status == 0)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(found.stdout.utf8)) as? [String: Any])
            #expect(object["login"] as? String == "Otter-Labs-7")
            #expect(server.requests.first?.path == "/user/9")
            let missing = try await BinaryRunner.run(["show", "--id", "6"] + api(server))
            #expect(missing.status == 3)
            #expect(missing.stderr.hasPrefix("gh-users: no account with id 6 (HTTP 404)\nrequest id: "))
        }
    }
}
