import Foundation
import GitHubStandIn
import TestSupport
import Testing

/// `list --state` and `access --state` writing to a pipe whose reader takes some lines and leaves. Before, the
/// state advanced past everything written, the pipe's unread bytes too, and a rerun skipped them for good (exit
/// 0). Now the state records only the pages (repositories) the reader took whole, the run is exit 1 saying so,
/// and a rerun appended to what the reader kept makes the whole list once. A reader reads ahead of what it uses,
/// so a page counts as taken only once the reader read `readAhead` bytes past it (gh-users's `PipeTally`): the
/// readers here take a known count of a pipe's bytes and no further (`head -c`), so where the state stands is
/// known to the page; `head -N` reads ahead of the lines it prints, and the state never passes what it printed.
struct StatePipeEndToEndTests {
    static let token = "gho_octocat"
    /// `PipeTally.readAhead`: how far past a page a reader that leaves must have read for the page to count.
    static let readAhead = 128 * 1024

    /// How many of `lines`' groups of `size` (pages, repositories) a reader that read the first `count` lines and
    /// left has taken whole, `readAhead` bytes before where it stopped.
    static func groupsTaken(_ lines: [Substring], size: Int, count: Int) -> Int {
        let read = lines.prefix(count).reduce(0) { $0 + $1.utf8.count + 1 }
        var groups = 0
        while (groups + 1) * size <= count,
            lines.prefix((groups + 1) * size).reduce(0, { $0 + $1.utf8.count + 1 }) + readAhead <= read
        {
            groups += 1
        }
        return groups
    }
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
        read(name).lines(omittingEmpty: false).dropLast()
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

    /// `COMMAND | reader that keeps the first N of `lines` in FILE`, then `status=` gh-users's exit status.
    /// `pause` lets the pipe fill before the reader starts, or not. The reader takes exactly those lines' bytes
    /// and no more: GNU `head -c` asks for no byte past its count, as a bash `read` loop asks for none past its
    /// line, without a read call per byte. It then holds the pipe a moment before it leaves, so the pipe is full
    /// of bytes it never read: a run that counted them as taken would record pages past what the reader kept.
    private func piped(
        _ command: String, keeping count: Int, of lines: [Substring], in file: String, pause: String
    ) -> String {
        let bytes = lines.prefix(count).reduce(0) { $0 + $1.utf8.count + 1 }
        return "\"$GH_USERS\" \(command) --api-url \"$API\" --no-cache | (sleep \(pause); "
            + "head -c \(bytes) > \(file); sleep 0.2); echo \"status=${PIPESTATUS[0]}\""
    }

    /// Stress: readers that leave after 0 to 6,000 lines, before or after the pipe filled, one after another. Each
    /// time the state stands exactly at the last page the reader took whole `readAhead` bytes before it left, and
    /// the same command appended to what it kept of those pages ends as the whole list, with no account lost or
    /// written twice.
    @Test func aCrawlToAReaderThatLeavesRecordsOnlyThePagesItTook() async throws {
        try await withServer(users: 8_000) { server in
            let whole = try await shell(
                "\"$GH_USERS\" list --all --per-page 100 --api-url \"$API\" --no-cache", server
            ).stdout.lines()
            #expect(whole.count == 8_000)
            for (round, count) in [0, 99, 3_333, 5_234, 57, 6_000].enumerated() {
                let state = "p\(round).state"
                let crawl = "list --all --per-page 100 --state \(state)"
                let result = try await shell(
                    piped(crawl, keeping: count, of: whole, in: "r\(round).tsv", pause: round % 2 == 0 ? "0" : "0.2"),
                    server)
                #expect(result.stdout == "status=1\n", "\(count): \(result.stderr)")
                #expect(result.stderr.contains("records only what it took"), "\(result.stderr)")
                let kept = lines("r\(round).tsv")
                #expect(kept == Array(whole.prefix(count)))
                let pages = Self.groupsTaken(whole, size: 100, count: count) * 100
                #expect(count < 3_500 || pages > 0, "the margin leaves pages to take: \(count)")
                let expected = pages == 0 ? 0 : Int(whole[pages - 1].split(separator: "\t")[0]) ?? -1
                #expect(stateObject(state)["since"] as? Int == expected, "\(count) lines: \(read(state))")
                let rest = try await shell(
                    "\"$GH_USERS\" \(crawl) --api-url \"$API\" --no-cache | cat", server)
                #expect(rest.status == 0, "\(rest.stderr)")
                #expect(Array(kept.prefix(pages)) + rest.stdout.lines() == whole, "\(count)")
            }
        }
    }

    /// GNU head reads ahead of the lines it prints, and drops the rest when it leaves: the state never passes
    /// what it printed, and the rerun appended to it from there makes the whole list.
    @Test(arguments: [300, 2_000, 5_000])
    func aCrawlToHeadNeverSkipsWhatHeadDidNotPrint(count: Int) async throws {
        try await withServer(users: 8_000) { server in
            let whole = try await shell(
                "\"$GH_USERS\" list --all --per-page 100 --api-url \"$API\" --no-cache", server
            ).stdout.lines()
            let crawl = "list --all --state h.state --api-url \"$API\" --no-cache"
            let result = try await shell(
                "\"$GH_USERS\" \(crawl) | (sleep 0.2; head -\(count) > h.tsv); echo \"status=${PIPESTATUS[0]}\"", server
            )
            #expect(result.stdout == "status=1\n", "\(result.stderr)")
            let since = stateObject("h.state")["since"] as? Int ?? 0
            let position = since == 0 ? 0 : (whole.firstIndex { $0.hasPrefix("\(since)\t") } ?? Int.max) + 1
            #expect(position <= count, "the state is at line \(position), head printed \(count)")
            let rest = try await shell("\"$GH_USERS\" \(crawl) | cat", server)
            #expect(Array(lines("h.tsv").prefix(position)) + rest.stdout.lines() == whole)
        }
    }

    /// A reader that empties the pipe in one read, keeps five lines and leaves a moment later (a script that
    /// breaks after five lines) has not taken the rest: the run waits a moment more before it counts a reader that
    /// took everything as staying, so the state stays where it was and the rerun writes what the reader dropped.
    @Test func aReaderThatEmptiesThePipeAndLeavesAMomentLaterTookNothingMore() async throws {
        try await withServer(users: 400) { server in
            let crawl = "list --all --until 140 --state g.state --api-url \"$API\" --no-cache"
            let whole = try await shell("\"$GH_USERS\" \(crawl.replacing(" --state g.state", with: ""))", server)
            let result = try await shell(
                "\"$GH_USERS\" \(crawl) | (sleep 0.2; dd bs=1M count=1 2>/dev/null | head -5 > g.tsv; sleep 0.01); "
                    + "echo \"status=${PIPESTATUS[0]}\"", server)
            #expect(result.stdout == "status=1\n", "\(result.stderr)")
            #expect(lines("g.tsv").count == 5)
            #expect(stateObject("g.state")["since"] as? Int == 0, "\(read("g.state"))")
            let rest = try await shell("\"$GH_USERS\" \(crawl) | cat", server)
            #expect(rest.stdout == whole.stdout && !whole.stdout.isEmpty)
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

    /// `access --state` to readers that leave after 0 to 5,000 records: each time the state records the last
    /// repository the reader took whole, exit 1; the rerun appended to those repositories' records is the whole map.
    @Test func anAccessMapToAReaderThatLeavesRecordsOnlyTheRepositoriesItTook() async throws {
        try await withServer(users: 2_000, accessBench: true) { server in
            let map =
                "access bench-org "
                + (0..<40).map { String(format: "--repo repo-%04d", $0) }.joined(separator: " ")
            let whole = try await shell("\"$GH_USERS\" \(map) --api-url \"$API\" --no-cache", server)
            let wholeLines = whole.stdout.lines()
            #expect(wholeLines.count == 6_040, "\(whole.stderr)")
            for count in [0, 151, 2_500, 5_000] {
                let state = "s\(count)"
                let result = try await shell(
                    piped(map + " --state " + state, keeping: count, of: wholeLines, in: "r.tsv", pause: "0.2"),
                    server)
                #expect(result.stdout == "status=1\n", "\(count): \(result.stderr)")
                #expect(result.stderr.contains("records only what it took"), "\(result.stderr)")
                let taken = Self.groupsTaken(wholeLines, size: 151, count: count) * 151
                #expect(count < 5_000 || taken > 0, "the margin leaves repositories to take: \(count)")
                let after = stateObject(state)["after"] as? String
                #expect(after == (taken == 0 ? nil : String(wholeLines[taken - 1].split(separator: "\t")[0])))
                let rest = try await shell(
                    "\"$GH_USERS\" \(map) --state \(state) --api-url \"$API\" --no-cache | cat", server)
                #expect(rest.status == 0, "\(count): \(rest.stderr)")
                #expect(Array(lines("r.tsv").prefix(taken)) + rest.stdout.lines() == wholeLines)
            }
        }
    }

    /// A file option that reaches a pipe through Linux's `/proc/PID/fd/N` (`/dev/stdout`, `/dev/fd/3`, bash's
    /// `>(…)`), whose link reads `pipe:[…]`: `--output` writes to it as a shell's `>` would, where gh-users
    /// followed the link's text as a path and said "no such file or directory" (a review's find); `--state` and
    /// `--changes`, which must replace a regular file, refuse it as a pipe, and make no file.
    @Test func aFileOptionReachingAPipeThroughProcIsWrittenOrRefusedAsAPipe() async throws {
        try await withServer(users: 300) { server in
            let list = "list --limit 3 --api-url \"$API\" --no-cache"
            let direct = try await shell("\"$GH_USERS\" \(list)", server)
            #expect(direct.status == 0 && direct.stdout.lines().count == 3, "\(direct.stderr)")
            for (output, tail) in [
                ("/dev/stdout", " | cat"), ("/dev/fd/3", " 3>&1 | cat"),
                (">(cat > sub.tsv)", "; sleep 0.3; cat sub.tsv"),
            ] {
                let result = try await shell("\"$GH_USERS\" \(list) --output \(output)\(tail)", server)
                #expect(result.stdout == direct.stdout, "\(output): \(result.stderr)")
                #expect(result.stderr.isEmpty, "\(output)")
            }
            for (command, kind) in [
                ("list --limit 3 --state", "state"), ("followers octocat --changes", "snapshot"),
            ] {
                let refused = try await shell(
                    "\"$GH_USERS\" \(command) /dev/stdout --api-url \"$API\" | cat; echo \"status=${PIPESTATUS[0]}\"",
                    server)
                #expect(refused.stdout == "status=1\n", "\(command): \(refused.stderr)")
                #expect(
                    refused.stderr.hasPrefix("gh-users: the \(kind) file '/dev/stdout' is a pipe (pipe:["),
                    "\(refused.stderr)")
                #expect(refused.stderr.contains("Nothing was read or changed: give"))
            }
            // A descriptor the shell opened on a regular file (`3>>out.tsv`) is that file's: a crawl through it
            // resumes, where its state recorded `/proc/PID/fd/3`, this run's alone, and every rerun was refused
            // (helper-289).
            let crawl = "\"$GH_USERS\" \(list) --state s3 --output /dev/fd/3 3>>out.tsv"
            for run in 1...2 {
                let result = try await shell(crawl, server)
                #expect(result.status == 0, "\(run): \(result.stderr)")
            }
            #expect(lines("out.tsv").count == 6)
            #expect(stateObject("s3")["output"] as? String == "/dev/fd/3")
            // A descriptor the shell did not give is gh-users's own (its signal pipe is 3 and 4): `--output
            // /dev/fd/3` wrote the records into it, read as signals, and ended with 128 + a byte; `--token-file
            // /dev/fd/3` waited for ever (helper-290). Both are refused, as is a snapshot there.
            let notGiven = "descriptor 3 was not open when gh-users started (a shell gives one with 3>>FILE)"
            for (command, status) in [
                ("\(list) --output /dev/fd/3", 1), ("\(list) --state s4 --output /proc/self/fd/3", 1),
                ("followers octocat --api-url \"$API\" --changes /dev/fd/3", 1),
            ] {
                let refused = try await shell("exec 3>&-; \"$GH_USERS\" \(command)", server)
                #expect(refused.status == Int32(status), "\(command): \(refused.stderr)")
                #expect(refused.stderr.contains(notGiven), "\(command): \(refused.stderr)")
            }
            let token = try await shell("exec 3<&-; timeout 20 \"$GH_USERS\" \(list) --token-file /dev/fd/3", server)
            #expect(token.status == 64, "\(token.stderr)")
            #expect(token.stderr.contains("descriptor 3 was not open when gh-users started (a shell gives one with 3<"))
            // A standard descriptor closed at the start is held on /dev/null, which `/dev/stdout` reopened for
            // writing: `--output /dev/stdout >&-` wrote the list there, exit 0; `--token-file /dev/stdin <&-`
            // called the token file empty.
            let output = try await shell("\"$GH_USERS\" \(list) --output /dev/stdout >&-", server)
            #expect(output.status == 1, "\(output.stderr)")
            #expect(
                output.stderr.contains("descriptor 1 was not open when gh-users started (a shell gives one with 1>>"),
                "\(output.stderr)")
            // However the path reaches it: `//dev/stdout`, `/dev/./stdout`, a link to it (helper-338).
            for spelled in ["//dev/stdout", "/dev/./stdout", "/proc/self/fd/../fd/1", "so"] {
                let other = try await shell(
                    "ln -sf /dev/stdout so; \"$GH_USERS\" \(list) --output \(spelled) >&-", server)
                #expect(other.status == 1, "\(spelled): \(other.stderr)")
                #expect(other.stderr.contains("descriptor 1 was not open when gh-users started"), "\(other.stderr)")
            }
            let stdin = try await shell("timeout 20 \"$GH_USERS\" \(list) --token-file /dev/stdin <&-", server)
            #expect(stdin.status == 64, "\(stdin.stderr)")
            #expect(stdin.stderr.contains("descriptor 0 was not open when gh-users started (a shell gives one with 0<"))
            // A live file whose name ends in " (deleted)", as the kernel marks a deleted one's link: written.
            let named = try await shell("\"$GH_USERS\" \(list) --output /dev/fd/3 3>>'d (deleted)'", server)
            #expect(named.status == 0, "\(named.stderr)")
            #expect(lines("d (deleted)").count == 3)
            let withState = try await shell("\"$GH_USERS\" \(list) --state s2 --output >(cat)", server)
            #expect(withState.status == 1)
            #expect(withState.stderr.contains("is a FIFO (named pipe), not a regular file"), "\(withState.stderr)")
            #expect(!FileManager.default.fileExists(atPath: path("s2")))
        }
    }
}
