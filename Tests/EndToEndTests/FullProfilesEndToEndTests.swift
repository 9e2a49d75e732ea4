import Foundation
import GitHubStandIn
import TestSupport
import Testing

/// `--full` through the built binary: every listing of accounts written as profiles, the same bytes `show`
/// writes, in the listing's order, revalidated through the cache.
struct FullProfilesEndToEndTests {
    private let token = ["GH_TOKEN": "full-token-1234"]

    private func withServer<T>(users: Int = 400, _ body: (StandInServer) async throws -> T) async throws -> T {
        let server = try StandInServer(
            configuration: StandInConfiguration(userCount: users, rateLimit: 1_000_000))
        try server.start()
        defer { server.stop() }
        return try await body(server)
    }

    private func objects(_ ndjson: String) -> [[String: Any]] {
        ndjson.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    /// `list --full` writes exactly what `show` writes for the same accounts, byte for byte, in id order.
    @Test func listFullWritesWhatShowWrites() async throws {
        try await withServer { server in
            let environment = token.merging(["API": server.baseURL]) { $1 }
            let full = try await BinaryRunner.run(
                [
                    "list", "--limit", "150", "--full", "--concurrency", "8", "--format", "ndjson", "--api-url",
                    server.baseURL, "--no-cache",
                ],
                environment: token)
            let shown = try await BinaryRunner.shell(
                #""$GH_USERS" list --limit 150 --format tsv --fields login --api-url "$API" --no-cache | "#
                    + #""$GH_USERS" show - --format ndjson --api-url "$API" --no-cache"#,
                environment: environment)
            #expect(full.status == 0, "\(full.stderr)")
            #expect(full.stderr.isEmpty)
            #expect(shown.status == 0, "\(shown.stderr)")
            #expect(full.stdout == shown.stdout)
            let ids = objects(full.stdout).compactMap { $0["id"] as? Int }
            #expect(ids == Array(server.population.users.prefix(150).map(\.id)))
            #expect(objects(full.stdout).allSatisfy { $0["followers"] != nil && $0["created_at"] != nil })
        }
    }

    /// Followers keep the list's order; the set operations and search take --full the same way.
    @Test func everyAccountListingTakesFull() async throws {
        try await withServer { server in
            let listings: [[String]] = [
                ["followers", "octocat", "--all"],
                ["following", "kitsune-fox", "--all"],
                ["followers", "octocat", "--all", "--not-followed-back"],
                ["search", "type:org", "--limit", "12"],
            ]
            for listing in listings {
                let summary = try await BinaryRunner.run(
                    listing + ["--format", "tsv", "--fields", "login", "--api-url", server.baseURL],
                    environment: token)
                let full = try await BinaryRunner.run(
                    listing + ["--full", "--format", "ndjson", "--api-url", server.baseURL], environment: token)
                let context = listing.joined(separator: " ")
                #expect(summary.status == 0 && full.status == 0, "\(context): \(full.stderr)")
                let logins = objects(full.stdout).compactMap { $0["login"] as? String }
                #expect(!logins.isEmpty, "\(context)")
                #expect(logins == summary.stdout.split(separator: "\n").map(String.init), "\(context)")
                #expect(objects(full.stdout).allSatisfy { $0["public_repos"] != nil }, "\(context)")
            }
        }
    }

    /// A repeated --full crawl revalidates every page and profile with its ETag: 304s, no quota spent, the
    /// same output.
    @Test func aRepeatedFullCrawlCostsNoQuota() async throws {
        try await withServer { server in
            let cache = FileManager.default.temporaryDirectory.appendingPathComponent("gh-users-full-\(UUID())")
            defer { try? FileManager.default.removeItem(at: cache) }
            let arguments = [
                "list", "--limit", "60", "--per-page", "30", "--full", "--format", "ndjson", "--api-url",
                server.baseURL, "--cache-dir", cache.path,
            ]
            let tokenValue = try #require(token["GH_TOKEN"])
            let first = try await BinaryRunner.run(arguments, environment: token)
            let afterFirst = server.rateLimitRemaining(token: tokenValue)
            server.resetRequests()
            let second = try await BinaryRunner.run(arguments, environment: token)
            #expect(first.status == 0 && second.status == 0, "\(second.stderr)")
            #expect(second.stdout == first.stdout)
            #expect(server.rateLimitRemaining(token: tokenValue) == afterFirst)
            #expect(server.requests.count == 62)
            #expect(server.requests.allSatisfy { $0.header("if-none-match") != nil })
        }
    }

    /// Closing stdout and Ctrl-C in the middle of a --full crawl, repeated on the release build: the run ends
    /// promptly, JSON stays one closed document of profiles in id order, and the hint resumes after the last.
    @Test func stoppingAFullCrawlEndsPromptlyEveryTime() async throws {
        try await withServer(users: 5000) { server in
            let environment = token.merging(["API": server.baseURL]) { $1 }
            let population = server.population.users.map(\.id)
            for run in 1...Stress.rounds(4) {
                let piped = try await BinaryRunner.shell(
                    #"timeout -s KILL 15 "$GH_USERS" list --all --full --concurrency 10 --format ndjson "#
                        + #"--api-url "$API" --no-cache 2>stderr.txt | head -n 1; echo "status=${PIPESTATUS[0]}""#,
                    environment: environment, timeout: 30)
                let lines = piped.stdout.split(separator: "\n")
                #expect(lines.last == "status=0" || lines.last == "status=141", "run \(run): \(piped.stdout)")
                #expect(objects(String(lines.first ?? "")).first?["followers"] != nil, "run \(run)")

                let delay = Double.random(in: 0...0.3)
                let interrupted = try await BinaryRunner.run(
                    [
                        "list", "--all", "--full", "--concurrency", "10", "--json", "--per-page", "7", "--no-cache",
                        "--api-url", server.baseURL,
                    ],
                    environment: token, timeout: 15, interruptAfter: delay)
                let context = "run \(run), SIGINT \(Int(delay * 1000)) ms after the first output"
                // stderr is kept in the message: one full-suite run on a loaded machine ended here by SIGABRT.
                #expect(
                    interrupted.status == 130,
                    "\(context): exit \(interrupted.status), stderr: \(interrupted.stderr.suffix(4_000))")
                let array = try? JSONSerialization.jsonObject(with: Data(interrupted.stdout.utf8)) as? [[String: Any]]
                let written = try #require(array, "\(context): stdout is not a closed JSON array")
                let ids = written.compactMap { $0["id"] as? Int }
                #expect(ids == Array(population.prefix(ids.count)), "\(context)")
                #expect(written.allSatisfy { $0["followers"] != nil }, "\(context)")
                if let last = ids.last {
                    #expect(interrupted.stderr.contains("--since \(last) --all"), "\(context): \(interrupted.stderr)")
                }
            }
        }
    }
}
