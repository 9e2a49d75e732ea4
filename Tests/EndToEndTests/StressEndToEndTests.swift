import Foundation
import GitHubStandIn
import Testing

/// Repeated runs of what used to fail only now and then, or only in the release build: `Scripts/run-tests` runs
/// them against `.build/release/gh-users` (`GH_USERS_BINARY`). A crawl stopped by a closed stdout or a signal
/// used to deadlock when the cancellation met an answer arriving (URLSession's cancel waited on its own queue
/// under the task's lock), and `show --id` trapped in the release build. Every run is killed after 15
/// seconds, so a hang fails the run instead of the suite.
struct StressEndToEndTests {
    private let runs = 20
    /// The crawl takes one account per request, so requests end every millisecond or two and a stop is likely
    /// to meet an answer on its way in.
    private let crawl = ["list", "--all", "--json", "--per-page", "1", "--no-cache"]
    private let token = ["GH_TOKEN": "stress-token"]

    private func withServer<T>(_ body: (StandInServer) async throws -> T) async throws -> T {
        let server = try StandInServer(
            configuration: StandInConfiguration(userCount: 30000, rateLimit: 10_000_000)
        )
        try server.start()
        defer { server.stop() }
        return try await body(server)
    }

    private func api(_ server: StandInServer) -> [String] { ["--api-url", server.baseURL] }

    /// The ids in a JSON array on stdout, or nil when stdout is not one closed JSON array.
    private func writtenIDs(_ stdout: String) -> [Int]? {
        guard let array = try? JSONSerialization.jsonObject(with: Data(stdout.utf8)) as? [[String: Any]] else {
            return nil
        }
        return array.compactMap { $0["id"] as? Int }
    }

    @Test func showByIDPrintsTheProfileEveryTime() async throws {
        try await withServer { server in
            let accounts = Array(server.population.users.prefix(runs))
            for account in accounts {
                let result = try await BinaryRunner.run(
                    ["show", "--id", String(account.id), "--json"] + api(server), environment: token, timeout: 15)
                #expect(result.status == 0, "show --id \(account.id): exit \(result.status)\n\(result.stderr)")
                let object = try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
                #expect(object?["id"] as? Int == account.id)
                #expect(object?["login"] as? String == account.login)
                #expect(result.stderr.isEmpty)
            }
        }
    }

    @Test func aClosedStdoutMidCrawlEndsQuicklyEveryTime() async throws {
        try await withServer { server in
            let first = try #require(server.population.users.first)
            for run in 1...runs {
                // `timeout` turns a hung gh-users into status 137 rather than a hung test.
                let result = try await BinaryRunner.shell(
                    #"timeout -s KILL 15 "$GH_USERS" list --all --format ndjson --api-url "$API" 2>stderr.txt | head -n 1; echo "status=${PIPESTATUS[0]}"; cat stderr.txt"#,
                    environment: token.merging(["API": server.baseURL]) { $1 },
                    timeout: 30
                )
                let lines = result.stdout.split(separator: "\n")
                #expect(
                    lines.last == "status=0" || lines.last == "status=141",
                    "run \(run): \(lines.dropFirst().joined(separator: "\n"))")
                #expect(lines.count == 2, "run \(run): \(lines.dropFirst().joined(separator: "\n"))")
                let object = try? JSONSerialization.jsonObject(with: Data((lines.first ?? "").utf8)) as? [String: Any]
                #expect(object?["id"] as? Int == first.id, "run \(run)")
            }
        }
    }

    @Test func anInterruptMidCrawlEndsQuicklyWithValidJSONEveryTime() async throws {
        try await withServer { server in
            let population = server.population.users.map(\.id)
            for run in 1...runs {
                let delay = Double.random(in: 0...0.25)
                let result = try await BinaryRunner.run(
                    crawl + api(server), environment: token, timeout: 15, interruptAfter: delay)
                let context = "run \(run), SIGINT \(Int(delay * 1000)) ms after the first output"
                #expect(result.status == 130, "\(context): exit \(result.status)")
                let written = writtenIDs(result.stdout)
                #expect(written != nil, "\(context): stdout is not a closed JSON array")
                if let written {
                    #expect(!written.isEmpty, "\(context)")
                    #expect(written == Array(population.prefix(written.count)), "\(context)")
                    if let last = written.last {
                        #expect(result.stderr.contains("gh-users list --since \(last)"), "\(context): \(result.stderr)")
                    }
                }
                #expect(result.stderr.contains("gh-users: interrupted"), "\(context): \(result.stderr)")
            }
        }
    }

    /// SIGTERM (a service manager, `kill`) and SIGHUP (the terminal went away) stop a crawl as Ctrl-C does,
    /// and the status tells which: 128 + the signal's number.
    @Test(arguments: [(SIGTERM, Int32(143)), (SIGHUP, Int32(129))])
    func terminationSignalsCloseTheDocumentAndSayWhereToResume(signal: Int32, status: Int32) async throws {
        try await withServer { server in
            for run in 1...5 {
                let result = try await BinaryRunner.run(
                    crawl + api(server), environment: token, timeout: 15, interruptAfter: 0.2, signal: signal)
                #expect(result.status == status, "run \(run): exit \(result.status)")
                let written = writtenIDs(result.stdout)
                #expect(written != nil, "run \(run): stdout is not a closed JSON array")
                let last = try #require(written?.last, "run \(run): nothing written")
                #expect(result.stderr.contains("gh-users list --since \(last)"), "run \(run): \(result.stderr)")
            }
        }
    }

    /// An impatient second Ctrl-C used to `_exit` at once, cutting the JSON document off before its `]`.
    @Test func aSecondInterruptStillLeavesAClosedDocument() async throws {
        try await withServer { server in
            for run in 1...5 {
                let result = try await BinaryRunner.run(
                    crawl + api(server), environment: token, timeout: 15, interruptAfter: 0.2, signals: 2)
                #expect(result.status == 130, "run \(run): exit \(result.status)")
                #expect(writtenIDs(result.stdout)?.isEmpty == false, "run \(run): stdout is not a closed JSON array")
                #expect(result.seconds < 14, "run \(run)")
            }
        }
    }
}
