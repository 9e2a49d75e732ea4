import Foundation
import GitHubStandIn
import Testing

/// `show --via graphql` against the stand-in's `POST /graphql`: the same REST objects, at a fraction of the
/// requests, and every way a batch can go wrong. Without a token it is `ConnectionSettingsCommandTests`'.
struct GraphQLEndToEndTests {
    static let token = ["GH_TOKEN": "ghp_graphqlE2E"]
    /// The keys `help formats` and docs/USAGE.md call approximate; every other key must match REST's exactly.
    private static let approximate: Set = [
        "avatar_url", "blog", "email", "hireable", "public_repos", "public_gists", "updated_at",
    ]

    func withServer<T>(
        _ configuration: StandInConfiguration = StandInConfiguration(userCount: 300),
        _ body: (StandInServer) async throws -> T
    ) async throws -> T {
        let server = try StandInServer(configuration: configuration)
        try server.start()
        defer { server.stop() }
        return try await body(server)
    }

    /// `show -` with `logins` on stdin, through a file so a thousand of them are no trouble.
    func show(
        _ server: StandInServer, _ logins: [String], _ options: String, environment: [String: String] = token
    )
        async throws -> RunResult
    {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("gh-users-logins-\(UUID().uuidString)")
        try (logins.joined(separator: "\n") + "\n").write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        return try await BinaryRunner.shell(
            "\"$GH_USERS\" show - --api-url \(server.baseURL) --no-cache \(options) < '\(file.path)'",
            environment: environment, timeout: 120)
    }

    private func objects(_ text: String) throws -> [[String: Any]] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
    }

    private func graphQLRequests(_ server: StandInServer) -> Int {
        server.requests.filter { $0.path == "/graphql" }.count
    }

    private func restRequests(_ server: StandInServer) -> [String] {
        server.requests.filter { $0.path.hasPrefix("/users/") }.map(\.path)
    }

    /// A classic token without `user:email` or `read:user` (the stand-in's `noscope`) has the query refused for
    /// `email` (GitHub's `INSUFFICIENT_SCOPES`): the batch is asked again without it, the profiles come from
    /// GraphQL with `email` null, and stderr says why once. Before (helper-357), the run went to REST, one
    /// request a profile, and the stand-in never refused.
    @Test func aTokenWithoutTheEmailScopeGetsProfilesWithoutEmailNotRESTRequests() async throws {
        try await withServer { server in
            let logins = server.population.users.filter { $0.type == "User" }.prefix(150).map(\.login)
            let result = try await show(
                server, logins, "--format json --via graphql --concurrency 1",
                environment: ["GH_TOKEN": "ghp_graphqlE2E_noscope"])
            #expect(result.status == 0, "\(result.stderr)")
            let profiles = try objects(result.stdout)
            #expect(profiles.compactMap { $0["login"] as? String } == logins)
            #expect(profiles.allSatisfy { $0["email"] is NSNull })
            #expect(
                result.stderr
                    == "gh-users: warning: GitHub's GraphQL API gives a profile's email only to a token with the scope "
                    + "it names (user:email or read:user), which this one lacks: email is null in the profiles it gives "
                    + "(add the scope, or use --via rest, for the emails)\n")
            #expect(graphQLRequests(server) == 3)
            #expect(restRequests(server).isEmpty)
        }
    }

    /// `--fields` without `email` asks GraphQL no email, so the same token is neither refused nor warned
    /// (helper-358, F3); with `email` among the fields it is asked, and refused, as above.
    @Test func fieldsWithoutEmailNeverAskIt() async throws {
        try await withServer { server in
            let logins = server.population.users.filter { $0.type == "User" }.prefix(150).map(\.login)
            let noScope = ["GH_TOKEN": "ghp_graphqlE2E_noscope"]
            let result = try await show(
                server, logins, "--format json --via graphql --concurrency 1 --fields login,name", environment: noScope)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(
                try objects(result.stdout).map { $0.keys.sorted() } == Array(repeating: ["login", "name"], count: 150))
            #expect(result.stderr == "")
            #expect(graphQLRequests(server) == 2)
            server.resetRequests()
            let asked = try await show(
                server, logins, "--format json --via graphql --concurrency 1 --fields login,email", environment: noScope
            )
            #expect(asked.status == 0, "\(asked.stderr)")
            #expect(asked.stderr.contains("email is null in the profiles it gives"))
            #expect(graphQLRequests(server) == 3)
        }
    }

    @Test func threeBatchesOfProfilesMatchRESTKeyByKeyExceptTheApproximateKeys() async throws {
        try await withServer { server in
            let logins = server.population.users.map(\.login)
            let rest = try await show(server, logins, "--json --concurrency 10")
            #expect(rest.status == 0, "\(rest.stderr)")
            server.resetRequests()
            let graph = try await show(server, logins, "--json --via graphql")
            #expect(graph.status == 0, "\(graph.stderr)")
            #expect(graph.stderr.isEmpty)
            let restObjects = try objects(rest.stdout)
            let graphObjects = try objects(graph.stdout)
            #expect(restObjects.count == 300 && graphObjects.count == 300)
            var differing: Set<String> = []
            for (left, right) in zip(restObjects, graphObjects) {
                #expect(Set(left.keys) == Set(right.keys), "\(left["login"] ?? "")")
                for key in left.keys {
                    let a = try JSONSerialization.data(withJSONObject: [left[key]!])
                    let b = try JSONSerialization.data(withJSONObject: [right[key] ?? NSNull()])
                    if a != b { differing.insert(key) }
                }
            }
            #expect(differing.isSubset(of: Self.approximate), "\(differing.subtracting(Self.approximate))")
            // Key order is REST's too: the output is the same text shape.
            let firstUser = try #require(server.population.users.firstIndex { $0.type == "User" && $0.ordinal > 1 })
            let restKeys = rest.stdout.components(separatedBy: "\n  },")[firstUser]
                .split(separator: "\n").compactMap { $0.split(separator: "\"").dropFirst().first }
            let graphKeys = graph.stdout.components(separatedBy: "\n  },")[firstUser]
                .split(separator: "\n").compactMap { $0.split(separator: "\"").dropFirst().first }
            #expect(restKeys == graphKeys)
            // Three batches, and REST only for the organizations and the bot.
            #expect(graphQLRequests(server) == 3)
            let fallbacks = server.population.users.filter { $0.type != "User" }.map { "/users/" + $0.login }
            #expect(restRequests(server).sorted() == fallbacks.sorted())
        }
    }

    /// `list --full --via graphql`: the same 300 accounts as `list --full`, key by key but for the approximate
    /// keys, in at most 3 pages and 4 GraphQL requests, REST only for the organizations and the bot, at most 12
    /// points.
    @Test func aFullListingThroughGraphQLMatchesRESTAndCostsOneRequestAPage() async throws {
        try await withServer { server in
            let listing = [
                "list", "--limit", "300", "--full", "--format", "ndjson", "--api-url", server.baseURL,
                "--no-cache",
            ]
            let rest = try await BinaryRunner.run(listing + ["--concurrency", "10"], environment: Self.token)
            #expect(rest.status == 0, "\(rest.stderr)")
            server.resetRequests()
            let before = server.graphQLRateLimitRemaining(token: Self.token["GH_TOKEN"] ?? "")
            let graph = try await BinaryRunner.run(listing + ["--via", "graphql"], environment: Self.token)
            #expect(graph.status == 0, "\(graph.stderr)")
            #expect(graph.stderr.isEmpty)
            let restObjects = try rest.stdout.split(separator: "\n").map { line in
                try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            }
            let graphObjects = try graph.stdout.split(separator: "\n").map { line in
                try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            }
            #expect(restObjects.count == 300 && graphObjects.count == 300)
            var differing: Set<String> = []
            for (left, right) in zip(restObjects, graphObjects) {
                #expect(left["id"] as? Int == right["id"] as? Int)
                #expect(Set(left.keys) == Set(right.keys), "\(left["login"] ?? "")")
                for key in left.keys {
                    let a = try JSONSerialization.data(withJSONObject: [left[key]!])
                    let b = try JSONSerialization.data(withJSONObject: [right[key] ?? NSNull()])
                    if a != b { differing.insert(key) }
                }
            }
            #expect(differing.isSubset(of: Self.approximate), "\(differing.subtracting(Self.approximate))")
            #expect(server.requests.filter { $0.path == "/users" }.count <= 3)
            #expect(graphQLRequests(server) <= 4)
            let fallbacks = server.population.users.filter { $0.type != "User" }.map { "/users/" + $0.login }
            #expect(restRequests(server).sorted() == fallbacks.sorted())
            let spent = before - server.graphQLRateLimitRemaining(token: Self.token["GH_TOKEN"] ?? "")
            #expect(spent > 0 && spent <= 12, "\(spent) points")
        }
    }

    @Test func botsOrganizationsAndAMissingLoginComeFromREST() async throws {
        try await withServer { server in
            let organization = try #require(server.population.users.first { $0.type == "Organization" })
            let result = try await show(
                server, ["octocat", "dependabot[bot]", organization.login, "no-such-login"], "--json --via graphql")
            #expect(result.status == 1)
            #expect(result.stderr.contains("no user 'no-such-login'"))
            let found = try objects(result.stdout)
            #expect(found.map { $0["login"] as? String } == ["octocat", "dependabot[bot]", organization.login])
            #expect(found.map { $0["type"] as? String } == ["User", "Bot", "Organization"])
            // The bot is REST's own object: its app page and avatar, which no rebuild would give.
            #expect(found[1]["html_url"] as? String == "https://github.com/apps/dependabot")
            #expect(found[1]["avatar_url"] as? String == server.population.users[2].avatarURL)
            #expect(graphQLRequests(server) == 1)
            #expect(
                restRequests(server).sorted()
                    == ["/users/\(organization.login)", "/users/dependabot[bot]", "/users/no-such-login"].sorted())
        }
    }

    @Test func aSpentGraphQLLimitExits5WithTheResetTime() async throws {
        // A batch of 100 costs 4 points: with 5 an hour the second batch finds the limit spent.
        try await withServer(StandInConfiguration(userCount: 300, graphQLRateLimit: 5)) { server in
            let logins = server.population.users.prefix(200).map(\.login)
            let first = try await show(server, Array(logins.prefix(100)), "--format ndjson --via graphql")
            #expect(first.status == 0, "\(first.stderr)")
            let result = try await show(server, Array(logins.suffix(100)), "--format ndjson --via graphql")
            #expect(result.status == 5, "\(result.stderr)")
            #expect(result.stdout.isEmpty)
            #expect(result.stderr.contains("rate limit"))
            #expect(result.stderr.contains("resets"))
            // Said once, not once per login; and nothing was fetched from REST instead.
            #expect(result.stderr.split(separator: "\n").filter { $0.contains("rate limit") }.count == 1)
            #expect(graphQLRequests(server) == 2)
            #expect(
                restRequests(server).count == server.population.users.prefix(100).filter { $0.type != "User" }.count)
        }
    }

    @Test func aSpentGraphQLLimitIsWaitedOutWithWaitOnRateLimit() async throws {
        try await withServer { server in
            server.injectFaults([.graphQLRateLimited(resetAfterSeconds: 1)], forPath: "/graphql")
            let result = try await show(
                server, ["octocat", "Yamada-Taro"], "--json --via graphql --wait-on-rate-limit")
            #expect(result.status == 0, "\(result.stderr)")
            #expect(try objects(result.stdout).map { $0["login"] as? String } == ["octocat", "Yamada-Taro"])
            #expect(result.stderr.contains("rate limit"))
            #expect(graphQLRequests(server) == 2)
        }
    }

    @Test func aBatchOverTheNodeLimitIsHalvedUntilItFitsThenGrowsBack() async throws {
        try await withServer(StandInConfiguration(userCount: 300, graphQLNodeLimit: 30)) { server in
            let users = server.population.users.filter { $0.type == "User" }.prefix(100)
            let result = try await show(server, users.map(\.login), "--format tsv --fields login --via graphql")
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout == users.map { $0.login + "\n" }.joined())
            // 100 → 50 → 25 fits twice; growing halfway back to 50 (37) is refused, 19 and 18 fit, then the size
            // grows again for the last 13.
            let sizes = server.requests.filter { $0.path == "/graphql" }.map {
                String(decoding: $0.body, as: UTF8.self).components(separatedBy: "repositoryOwner(").count - 1
            }
            #expect(sizes == [100, 50, 25, 25, 37, 19, 18, 13])
            #expect(restRequests(server).isEmpty)
        }
    }

    @Test func a502HalvesTheBatch() async throws {
        try await withServer { server in
            server.injectFaults([.status(502, body: #"{"message":"Bad Gateway"}"#)], forPath: "/graphql")
            let users = server.population.users.filter { $0.type == "User" }.prefix(10)
            let result = try await show(server, users.map(\.login), "--format tsv --fields login --via graphql")
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout == users.map { $0.login + "\n" }.joined())
            #expect(graphQLRequests(server) == 3)
            #expect(restRequests(server).isEmpty)
        }
    }

    @Test func debugShowsEachBatchsCost() async throws {
        try await withServer { server in
            let logins = server.population.users.prefix(150).map(\.login)
            let result = try await show(server, logins, "--format tsv --fields login --via graphql --debug")
            #expect(result.status == 0)
            // The two batches go out together (`--concurrency` 4): either may be answered first.
            #expect(result.stderr.contains("GraphQL batch of 100: cost 4 points, 499"))
            #expect(result.stderr.contains("GraphQL batch of 50: cost 2 points, 499"))
            #expect(result.stderr.contains(" points, 4994 remaining"))
            #expect(!result.stderr.contains("ghp_graphqlE2E"))
        }
    }

    @Test func rateLimitShowsTheGraphQLBucketSpending() async throws {
        try await withServer { server in
            _ = try await show(server, ["octocat"], "--json --via graphql")
            let result = try await BinaryRunner.run(
                ["rate-limit", "--format", "tsv", "--api-url", server.baseURL], environment: Self.token)
            #expect(result.status == 0)
            let row = result.stdout.split(separator: "\n").first { $0.hasPrefix("graphql\t") }
            let fields = try #require(row).split(separator: "\t")
            #expect(fields[1] == "5000" && fields[2] == "4999" && fields[3] == "1")
        }
    }

    /// The REST fallbacks run concurrently between batches: repeated runs must keep the order asked every time.
    @Test func repeatedRunsKeepTheOrderAsked() async throws {
        try await withServer { server in
            let logins = server.population.users.prefix(250).map(\.login).reversed().map { $0 }
            for _ in 0..<8 {
                let result = try await show(
                    server, logins, "--format tsv --fields login --via graphql --concurrency 10")
                #expect(result.status == 0, "\(result.stderr)")
                #expect(result.stdout == logins.map { $0 + "\n" }.joined())
            }
        }
    }
}
