import Foundation
import GitHubStandIn
import Testing

/// `list --state` and `access --state` writing to a pipe whose reader takes some lines and leaves. Before, the
/// state advanced past everything written, the pipe's unread bytes too, and a rerun skipped them for good (exit
/// 0). Now the state records only the pages (repositories) the reader took whole, the run is exit 1 saying so,
/// and a rerun appended to what the reader kept makes the whole list once. The readers are bash `read` loops,
/// which take a pipe's bytes one line at a time and no further, so what they kept is exactly what they took.
struct StatePipeEndToEndTests {
    static let token = "gho_octocat"
    private let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("gh-users-pipe-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    private func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    private func read(_ name: String) -> String {
        (try? String(contentsOfFile: path(name), encoding: .utf8)) ?? ""
    }

    private func lines(_ name: String) -> [Substring] {
        read(name).split(separator: "\n", omittingEmptySubsequences: false).dropLast()
    }

    private func stateObject(_ name: String) -> [String: Any] {
        let bytes = FileManager.default.contents(atPath: path(name)) ?? Foundation.Data()
        return ((try? JSONSerialization.jsonObject(with: bytes)) as? [String: Any]) ?? [:]
    }

    private func withServer<T>(
        users: Int, accessBench: Bool = false, _ body: (StandInServer) async throws -> T
    ) async throws -> T {
        defer { try? FileManager.default.removeItem(at: folder) }
        var configuration = StandInConfiguration(userCount: users)
        configuration.accessBench = accessBench
        let server = try StandInServer(configuration: configuration)
        try server.start()
        defer { server.stop() }
        return try await body(server)
    }

    /// A bash snippet run in the test's folder, with `$GH_USERS`, `$API` and the token set.
    private func shell(_ script: String, _ server: StandInServer) async throws -> RunResult {
        try await BinaryRunner.shell(
            "cd \"$FOLDER\" && " + script,
            environment: ["FOLDER": folder.path, "API": server.baseURL, "GH_TOKEN": Self.token], timeout: 120)
    }

    /// `COMMAND | reader that keeps N lines in FILE`, then `status=` gh-users's exit status. `pause` lets the
    /// pipe fill before the reader starts, or not.
    private func piped(_ command: String, keeping count: Int, in file: String, pause: String) -> String {
        "\"$GH_USERS\" \(command) --api-url \"$API\" --no-cache | (sleep \(pause); "
            + "for i in $(seq \(count)); do IFS= read -r line || break; printf '%s\\n' \"$line\"; done > \(file)); "
            + "echo \"status=${PIPESTATUS[0]}\""
    }

    /// Stress: readers that leave after 0 to 1,234 lines, before or after the pipe filled, again and again. Each
    /// time the state stands exactly at the last page the reader took whole, and the same command appended to
    /// what it kept of those pages ends as the whole list, with no account lost or written twice.
    @Test func aCrawlToAReaderThatLeavesRecordsOnlyThePagesItTook() async throws {
        try await withServer(users: 2_000) { server in
            let whole = try await shell(
                "\"$GH_USERS\" list --all --api-url \"$API\" --no-cache", server
            ).stdout.split(separator: "\n")
            #expect(whole.count == 2_000)
            for (round, count) in [0, 1, 99, 100, 250, 333, 700, 1_234, 57, 1_000].enumerated() {
                let state = "p\(round).state"
                let crawl = "list --all --per-page 100 --state \(state)"
                let result = try await shell(
                    piped(crawl, keeping: count, in: "r\(round).tsv", pause: round % 2 == 0 ? "0" : "0.2"), server)
                #expect(result.stdout == "status=1\n", "\(count): \(result.stderr)")
                #expect(result.stderr.contains("records only what it took"), "\(result.stderr)")
                let kept = lines("r\(round).tsv")
                #expect(kept == Array(whole.prefix(count)))
                let pages = count / 100 * 100
                let expected = pages == 0 ? 0 : Int(whole[pages - 1].split(separator: "\t")[0]) ?? -1
                #expect(stateObject(state)["since"] as? Int == expected, "\(count) lines: \(read(state))")
                let rest = try await shell(
                    "\"$GH_USERS\" \(crawl) --api-url \"$API\" --no-cache | cat", server)
                #expect(rest.status == 0, "\(rest.stderr)")
                #expect(Array(kept.prefix(pages)) + rest.stdout.split(separator: "\n") == whole, "\(count)")
            }
        }
    }

    /// A reader that is slow but takes everything: the run waits for it, exits 0, and the state is at the end.
    @Test func aSlowReaderThatTakesEverythingEndsTheCrawl() async throws {
        try await withServer(users: 2_000) { server in
            let result = try await shell(
                "\"$GH_USERS\" list --all --state s --api-url \"$API\" --no-cache | (sleep 0.3; cat > all.tsv); "
                    + "echo \"status=${PIPESTATUS[0]}\"", server)
            #expect(result.stdout == "status=0\n", "\(result.stderr)")
            let all = lines("all.tsv")
            #expect(all.count == 2_000)
            #expect(stateObject("s")["since"] as? Int == Int(all.last?.split(separator: "\t")[0] ?? ""))
        }
    }

    /// `access --state` to a reader that leaves: the state records the last repository the reader took whole, exit
    /// 1; the rerun appended to those repositories' records is the whole map.
    @Test(arguments: [0, 151, 500, 1_000])
    func anAccessMapToAReaderThatLeavesRecordsOnlyTheRepositoriesItTook(count: Int) async throws {
        try await withServer(users: 2_000, accessBench: true) { server in
            let map = "access bench-org " + (0..<10).map { "--repo repo-000\($0)" }.joined(separator: " ")
            let whole = try await shell("\"$GH_USERS\" \(map) --api-url \"$API\" --no-cache", server)
            let wholeLines = whole.stdout.split(separator: "\n")
            #expect(wholeLines.count == 1_510, "\(whole.stderr)")
            let result = try await shell(piped(map + " --state s", keeping: count, in: "r.tsv", pause: "0.2"), server)
            #expect(result.stdout == "status=1\n", "\(result.stderr)")
            #expect(result.stderr.contains("records only what it took"), "\(result.stderr)")
            let taken = count / 151 * 151
            let after = stateObject("s")["after"] as? String
            #expect(after == (taken == 0 ? nil : String(wholeLines[taken - 1].split(separator: "\t")[0])))
            let rest = try await shell("\"$GH_USERS\" \(map) --state s --api-url \"$API\" --no-cache | cat", server)
            #expect(rest.status == 0, "\(rest.stderr)")
            #expect(Array(lines("r.tsv").prefix(taken)) + rest.stdout.split(separator: "\n") == wholeLines)
        }
    }
}
