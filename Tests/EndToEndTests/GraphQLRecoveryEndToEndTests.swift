import Foundation
import GitHubStandIn
import Testing

/// How `--via graphql` meets what GitHub really answers when a batch fails: a spent limit in each of its forms,
/// a transient failure, a schema refusal, refusals in a row, and numbers no client should trust.
extension GraphQLEndToEndTests {
    /// One batch at a time, for the tests of what follows a refusal: at the default `--concurrency` (4), `show`
    /// sends the next batches beside the first, and which of them a fault meets is the server's order.
    static let oneAtATime = " --concurrency 1"

    private func batchSizes(_ server: StandInServer) -> [Int] {
        server.requests.filter { $0.path == "/graphql" }.map {
            String(decoding: $0.body, as: UTF8.self).components(separatedBy: "repositoryOwner(").count - 1
        }
    }

    private func profileGETs(_ server: StandInServer) -> Int {
        server.requests.filter { $0.path.hasPrefix("/users/") || $0.path.hasPrefix("/user/") }.count
    }

    private func users(_ server: StandInServer, _ count: Int) -> [String] {
        Array(server.population.users.filter { $0.type == "User" }.prefix(count).map(\.login))
    }

    // MARK: - 19.1: a spent graphql limit, in every form GitHub sends

    @Test(arguments: StandInGraphQLRateLimitForm.allCases)
    func aSpentLimitInEachFormExits5WithTheResetAndNoRESTCrawl(form: StandInGraphQLRateLimitForm) async throws {
        // A batch of 100 costs 4 points: with 5 an hour the second batch finds too few left.
        try await withServer(StandInConfiguration(userCount: 300, graphQLRateLimit: 5, graphQLRateLimitForm: form)) {
            server in
            let logins = users(server, 200)
            let first = try await show(server, Array(logins.prefix(100)), "--format tsv --fields login --via graphql")
            #expect(first.status == 0, "\(first.stderr)")
            let result = try await show(server, Array(logins.suffix(100)), "--format tsv --fields login --via graphql")
            #expect(result.status == 5, "\(result.stderr)")
            #expect(result.stdout.isEmpty)
            #expect(result.stderr.contains("API rate limit already exceeded"), "\(result.stderr)")
            #expect(result.stderr.contains("resets"), "\(result.stderr)")
            // Said once, not once per login.
            #expect(result.stderr.components(separatedBy: "API rate limit").count == 2, "\(result.stderr)")
            #expect(batchSizes(server) == [100, 100])
            #expect(profileGETs(server) == 0)
        }
    }

    /// The issue's case: `list --full --via graphql` with too few points left ends at once, not in 800 REST calls.
    @Test(arguments: StandInGraphQLRateLimitForm.allCases)
    func aListingWithTheLimitSpentStopsInsteadOfCrawlingREST(form: StandInGraphQLRateLimitForm) async throws {
        try await withServer(StandInConfiguration(userCount: 1_000, graphQLRateLimit: 8, graphQLRateLimitForm: form)) {
            server in
            let result = try await BinaryRunner.run(
                [
                    "list", "--limit", "1000", "--full", "--via", "graphql", "--format", "ndjson", "--api-url",
                    server.baseURL, "--no-cache",
                ], environment: Self.token, timeout: 120)
            #expect(result.status == 5, "\(result.stderr)")
            #expect(result.stderr.contains("rate limit"))
            // Two batches answered, then at most --concurrency (4) POSTs in flight when the first refusal came:
            // batches go out as soon as their page is in (issue 29), and none is sent after the refusal.
            #expect(batchSizes(server).count <= 2 + 4)
            // Only organizations and bots come from REST, and only those of pages whose batch had started: they go
            // beside its POST (issue 29), so at most one page more than the batches sent (a batch can pass the
            // check before the refusal and find it before its POST). A REST crawl would make 800 or more.
            let pages = min(10, batchSizes(server).count + 1)
            let beside = server.population.users.prefix(pages * 100).filter { $0.type != "User" }.count
            #expect(beside < 150)
            #expect(
                profileGETs(server) <= beside,
                "\(profileGETs(server)) profile GETs; \(beside) organizations and bots in the first \(pages) pages")
        }
    }

    @Test(arguments: StandInGraphQLRateLimitForm.allCases)
    func aSpentLimitInEachFormIsWaitedOut(form: StandInGraphQLRateLimitForm) async throws {
        try await withServer(StandInConfiguration(userCount: 300, graphQLRateLimitForm: form)) { server in
            server.injectFaults([.graphQLRateLimited(resetAfterSeconds: 1)], forPath: "/graphql")
            let logins = users(server, 3)
            let result = try await show(
                server, logins, "--format tsv --fields login --via graphql --wait-on-rate-limit")
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout == logins.map { $0 + "\n" }.joined())
            #expect(batchSizes(server) == [3, 3])
            #expect(profileGETs(server) == 0)
        }
    }

    // MARK: - 19.2: whole-batch failures

    @Test(arguments: [
        StandInFault.status(503, body: #"{"message":"Service Unavailable"}"#), .status(500, body: "{}"),
        .closeWithoutResponse,
    ])
    func aTransientFailureIsRetriedAsGraphQLNotSentToREST(fault: StandInFault) async throws {
        try await withServer { server in
            server.injectFaults([fault], forPath: "/graphql")
            let logins = users(server, 20)
            let result = try await show(server, logins, "--format tsv --fields login --via graphql")
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout == logins.map { $0 + "\n" }.joined())
            #expect(batchSizes(server) == [20, 20])
            #expect(profileGETs(server) == 0)
        }
    }

    @Test func aTransientFailureThatOutlivesTheRetriesFailsTheRunAsRESTWould() async throws {
        try await withServer { server in
            server.injectFaults(
                Array(repeating: .status(503, body: #"{"message":"Service Unavailable"}"#), count: 8),
                forPath: "/graphql")
            let result = try await show(server, users(server, 20), "--format tsv --fields login --via graphql")
            #expect(result.status == 1, "\(result.stderr)")
            #expect(result.stderr.contains("503"), "\(result.stderr)")
            #expect(batchSizes(server) == [20, 20, 20, 20])
            #expect(profileGETs(server) == 0)
        }
    }

    @Test func aSchemaRefusalSwitchesToRESTOnceAndSaysSo() async throws {
        try await withServer { server in
            let refusal = #"{"errors":[{"message":"Field 'isHireable' doesn't exist on type 'User'"}]}"#
            server.injectFaults([.status(200, body: refusal)], forPath: "/graphql")
            let logins = users(server, 150)
            let result = try await show(server, logins, "--format tsv --fields login --via graphql" + Self.oneAtATime)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout == logins.map { $0 + "\n" }.joined())
            let lines = result.stderr.split(separator: "\n")
            #expect(lines.count == 1, "\(result.stderr)")
            #expect(result.stderr.contains("REST"), "\(result.stderr)")
            #expect(!result.stderr.contains("isHireable"))
            #expect(batchSizes(server) == [100])
            #expect(profileGETs(server) == 150)

            server.resetRequests()
            server.injectFaults([.status(200, body: refusal)], forPath: "/graphql")
            let debug = try await show(
                server, logins, "--format tsv --fields login --via graphql --debug" + Self.oneAtATime)
            #expect(debug.status == 0)
            #expect(debug.stderr.contains("Field 'isHireable' doesn't exist on type 'User'"))
        }
    }

    // MARK: - 19.4: numbers from the network

    @Test func aCostOfInt64MaxOnEveryBatchIsNoCrash() async throws {
        try await withServer { server in
            let huge = #"{"data":{"rateLimit":{"cost":9223372036854775807,"remaining":9223372036854775807}}}"#
            server.injectFaults([.status(200, body: huge), .status(200, body: huge)], forPath: "/graphql")
            let logins = users(server, 101)
            let result = try await show(
                server, logins, "--format tsv --fields login --via graphql --debug" + Self.oneAtATime)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout == logins.map { $0 + "\n" }.joined())
            #expect(batchSizes(server) == [100, 1])
        }
    }

    // MARK: - 20.11: the batch size recovers, and refusals in a row stop

    @Test func afterA502TheBatchSizeGrowsBack() async throws {
        try await withServer { server in
            server.injectFaults([.status(502, body: #"{"message":"Bad Gateway"}"#)], forPath: "/graphql")
            let logins = users(server, 250)
            let result = try await show(server, logins, "--format tsv --fields login --via graphql" + Self.oneAtATime)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout == logins.map { $0 + "\n" }.joined())
            #expect(batchSizes(server) == [100, 50, 50, 75, 75])
            #expect(profileGETs(server) == 0)
        }
    }

    @Test func a502OnEveryBatchStopsWithAMessage() async throws {
        try await withServer { server in
            server.injectFaults(
                Array(repeating: .status(502, body: #"{"message":"Bad Gateway"}"#), count: 300), forPath: "/graphql")
            let result = try await show(
                server, users(server, 250), "--format tsv --fields login --via graphql" + Self.oneAtATime)
            #expect(result.status == 1, "\(result.stderr)")
            #expect(result.stdout.isEmpty)
            #expect(result.stderr.contains("refused 5 batches in a row"), "\(result.stderr)")
            #expect(result.stderr.contains("--via graphql"))
            #expect(!result.stderr.contains("Fatal error"))
            #expect(batchSizes(server) == [100, 50, 25, 13, 7])
            #expect(profileGETs(server) == 0)
        }
    }

    /// The listing overlaps batches (`--concurrency` POSTs at once) with REST fallbacks and the next page: a run
    /// whose server refuses every batch from the third on must stop the same way every time, with the message
    /// once and a bounded number of requests. A refusal counts toward the five in a row only at the size then
    /// asked; a batch sent at a larger size before another refusal shrank it is asked again at the new size.
    @Test func refusalsInARowStopAListingTheSameWayEveryTime() async throws {
        for _ in 0..<6 {
            try await withServer(StandInConfiguration(userCount: 400)) { server in
                server.injectFaults(
                    [.passThrough, .passThrough]
                        + Array(repeating: .status(502, body: #"{"message":"Bad Gateway"}"#), count: 100),
                    forPath: "/graphql")
                let result = try await BinaryRunner.run(
                    [
                        "list", "--limit", "400", "--full", "--via", "graphql", "--format", "tsv", "--fields", "login",
                        "--api-url", server.baseURL, "--no-cache",
                    ], environment: Self.token, timeout: 120)
                #expect(result.status == 1, "\(result.stderr)")
                #expect(
                    result.stderr.components(separatedBy: "refused 5 batches in a row").count == 2, "\(result.stderr)")
                // Two answered, five counted refusals, and at most three stale ones (four in flight) for each.
                let sizes = batchSizes(server)
                #expect((7...(2 + 5 * 4)).contains(sizes.count), "\(sizes)")
            }
        }
    }

    // MARK: - 19.3: key order as GitHub sends it

    @Test func profilesListItemsAndSearchItemsCarryTypeThenUserViewTypeThenSiteAdmin() async throws {
        try await withServer { server in
            let login = users(server, 2)[1]
            let runs = [
                try await show(server, [login], "--json --via graphql"),
                try await show(server, [login], "--json"),
                try await BinaryRunner.run(
                    ["followers", "octocat", "--json", "--api-url", server.baseURL, "--no-cache"],
                    environment: Self.token),
                try await BinaryRunner.run(
                    ["search", "type:user", "--limit", "3", "--json", "--api-url", server.baseURL, "--no-cache"],
                    environment: Self.token),
            ]
            for result in runs {
                #expect(result.status == 0, "\(result.stderr)")
                let text = result.stdout
                let type = try #require(text.range(of: "\"type\":"), "\(text.prefix(300))")
                let view = try #require(text.range(of: "\"user_view_type\":"))
                let admin = try #require(text.range(of: "\"site_admin\":"))
                #expect(type.lowerBound < view.lowerBound && view.lowerBound < admin.lowerBound, "\(text.prefix(1500))")
            }
        }
    }
}
