import Foundation
import GitHubStandIn
import TestSupport
import Testing

/// The output a `--state` run appends to, moved or replaced while the run writes it (a log rotation, `sed -i`):
/// before, the run ended 0 with every later record in a file no state names, and a complete state then said the
/// map was whole (helper-343's finds 1 and 2). Now the next checkpoint stops the run (exit 1), the state counting
/// only what the file at the path held, and putting the file back lets the same command go on with nothing lost.
struct OutputDepartureEndToEndTests {
    private let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("gh-users-left-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    private func withServer<T>(
        latency: Int = 0, accessBench: Bool = false, _ body: (StandInServer) async throws -> T
    ) async throws -> T {
        defer { try? FileManager.default.removeItem(at: folder) }
        var configuration = StandInConfiguration(userCount: 2_000, latencyMilliseconds: latency)
        configuration.accessBench = accessBench
        let server = try StandInServer(configuration: configuration)
        try server.start()
        defer { server.stop() }
        return try await body(server)
    }

    /// `command` in the background; once FILE holds bytes, `change` runs; then `status=` the run's exit status.
    private func shell(_ command: String, change: String, file: String, _ server: StandInServer) async throws
        -> RunResult
    {
        try await BinaryRunner.shell(
            "cd \"$FOLDER\" && { \(command) 2> err & pid=$!; while [ ! -s \(file) ]; do sleep 0.002; done; "
                + "\(change); wait $pid; echo \"status=$?\"; cat err >&2; }",
            environment: ["FOLDER": folder.path, "API": server.baseURL, "GH_TOKEN": "gho_octocat"], timeout: 120)
    }

    private func text(_ name: String) -> String {
        (try? String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)) ?? ""
    }

    @Test func aCrawlWhoseOutputIsMovedAwayStopsAndGoesOnOnceItIsBack() async throws {
        try await withServer(latency: 5) { server in
            let crawl = "\"$GH_USERS\" list --all --per-page 10 --state s --output o.tsv --api-url \"$API\" --no-cache"
            let moved = try await shell(crawl, change: "mv o.tsv o.old", file: "o.tsv", server)
            #expect(moved.stdout == "status=1\n", "\(moved.stderr)")
            #expect(moved.stderr.contains("'o.tsv' was removed or moved away while this run wrote it"))
            #expect(!moved.stderr.contains("To continue from here"))
            let back = try await BinaryRunner.shell(
                "cd \"$FOLDER\" && mv o.old o.tsv && " + crawl,
                environment: ["FOLDER": folder.path, "API": server.baseURL, "GH_TOKEN": "gho_octocat"])
            #expect(back.status == 0, "\(back.stderr)")
            let ids = text("o.tsv").split(separator: "\n").map { Int($0.prefix { $0 != "\t" }) ?? -1 }
            #expect(ids == server.population.users.map(\.id))
        }
    }

    /// `list --state S >> FILE`, the cron form, records no length of FILE: replaced mid-run (`sed -i`), it had every
    /// later page go to the old file and the run end 0 (helper-347's Q1). It stops now, with no cut advice.
    @Test func aCrawlAppendedToAReplacedFileStops() async throws {
        try await withServer(latency: 5) { server in
            let crawl =
                "\"$GH_USERS\" list --all --per-page 10 --state s --format ndjson --api-url \"$API\" --no-cache >> o.ndjson"
            let replaced = try await shell(crawl, change: "sed -i 's/x/x/' o.ndjson", file: "o.ndjson", server)
            #expect(replaced.stdout == "status=1\n", "\(replaced.stderr)")
            #expect(replaced.stderr.contains("o.ndjson' was replaced by another file while this run wrote it"))
            #expect(!replaced.stderr.contains("truncate"), "\(replaced.stderr)")
        }
    }

    /// An access map whose file is replaced (`mv`), or cut and written again in place (`cat other > FILE`, the same
    /// inode), stops unfinished, with no advice to keep the bytes past the state's length, which are no longer the
    /// map's (helper-347's Q2).
    @Test(arguments: [
        ("printf 'not the map\\n' > a.tsv", "a.tsv' was "),
        ("cp a.tsv a.new && mv a.new a.tsv", "a.tsv' was replaced by another file while this run wrote it"),
    ])
    func anAccessMapWhoseFileLeavesStopsUnfinished(change: String, said: String) async throws {
        try await withServer(accessBench: true) { server in
            let map = "\"$GH_USERS\" access bench-org --state s --api-url \"$API\" --no-cache >> a.tsv"
            let left = try await shell(map, change: change, file: "a.tsv", server)
            #expect(left.stdout == "status=1\n", "\(left.stderr)")
            #expect(left.stderr.contains(said), "\(left.stderr)")
            #expect(!left.stderr.contains("the rerun keeps"), "\(left.stderr)")
            let state = try #require(
                try JSONSerialization.jsonObject(with: Data(text("s").utf8)) as? [String: Any], "\(text("s"))")
            #expect(state["complete"] as? Bool != true)
        }
    }
}
