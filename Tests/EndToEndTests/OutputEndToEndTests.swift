import Foundation
import GitHubStandIn
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Output is data, and the cache can always be repaired (issue 19 items 12 to 14, issue 20 items 4 and 19),
/// through the built binary. stdout, stderr and the exit status are checked separately. csv headers are
/// `CSVHeaderCommandTests`'.
struct OutputEndToEndTests {
    private func withServer<T>(_ body: (StandInServer) async throws -> T) async throws -> T {
        try await withStandIn(users: 400, body)
    }

    private func withFolder<T>(_ body: (URL) async throws -> T) async throws -> T {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "gh-users-e2e-output-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        return try await body(folder)
    }

    // MARK: - 19.12 A failed write to stdout is a failure

    @Test(arguments: [
        ("list --limit 5", true), ("show octocat", true), ("show octocat --json", true), ("repos octocat", true),
        ("list --limit 5 --format csv", true), ("--help", false), ("completion bash", false),
    ])
    func aFullDeviceIsExitOneWithTheReason(command: String, talksToGitHub: Bool) async throws {
        try await withServer { server in
            let options = talksToGitHub ? #" --api-url "$API" --no-cache"# : ""
            let result = try await BinaryRunner.shell(
                "$GH_USERS \(command)\(options) > /dev/full", environment: ["API": server.baseURL])
            #expect(result.status == 1, "\(command): \(result.stderr)")
            #expect(result.stderr == "gh-users: cannot write to stdout: no space left on device\n")
        }
    }

    @Test func aFileSizeLimitIsExitOneWithTheResumeHint() async throws {
        try await withServer { server in
            try await withFolder { folder in
                let output = folder.appendingPathComponent("users.tsv")
                // 2 blocks of 1024 bytes: a few pages of 10 accounts fit, then a page is cut.
                let result = try await BinaryRunner.shell(
                    #"ulimit -f 2; $GH_USERS list --limit 200 --per-page 10 --api-url "$API" --no-cache > "$OUT""#,
                    environment: ["API": server.baseURL, "OUT": output.path])
                #expect(result.status == 1, "\(result.stderr)")
                #expect(result.stderr.contains("gh-users: cannot write to stdout: file too large"))
                #expect(result.stderr.contains("To continue from here: gh-users list --since "))
                let written = try Data(contentsOf: output)
                #expect(written.count == 2048)
                // The hint resumes after the last record the file holds whole (not the last whole page, which
                // would write the rest of the cut page again), and says to drop the cut one after it.
                let since = try #require(
                    result.stderr.split(separator: "--since ").last.flatMap { Int($0.prefix { $0.isNumber }) })
                let text = String(decoding: written, as: UTF8.self)
                let whole = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
                #expect(whole.last?.hasPrefix("\(since)\t") == true, "\(since): \(whole.suffix(2))")
                #expect(
                    result.stderr.contains("Remove the unfinished last line from the output before you continue.")
                        == !text.hasSuffix("\n"))
            }
        }
    }

    /// With `--state` and `--output`, a record cut short by the limit is the rerun's to cut off, as the docs
    /// say: the message no longer asks for a hand edit, and the rerun, as told, leaves no cut record and none twice,
    /// and writes the rest of the 200: its `--limit` counts the part page's records, which it writes again.
    @Test func aCutRecordUnderStateAndOutputIsTheRerunsToCutOff() async throws {
        try await withServer { server in
            try await withFolder { folder in
                let (output, state) = (folder.appendingPathComponent("users.tsv"), folder.appendingPathComponent("s"))
                let command =
                    #"$GH_USERS list --limit 200 --per-page 10 --api-url "$API" --no-cache --state "$STATE" --output "$OUT""#
                let environment = ["API": server.baseURL, "OUT": output.path, "STATE": state.path]
                let cut = try await BinaryRunner.shell("ulimit -f 2; " + command, environment: environment)
                #expect(cut.status == 1, "\(cut.stderr)")
                let text = String(decoding: try Data(contentsOf: output), as: UTF8.self)
                #expect(!text.hasSuffix("\n"), "the limit fell inside a record")
                #expect(!cut.stderr.contains("Remove the unfinished last line"), "\(cut.stderr)")
                #expect(cut.stderr.contains("The output ends in a record cut short, which the rerun below cuts off."))
                let told = try #require(
                    cut.stderr.split(separator: "\n").first { $0.hasPrefix("To continue from here, run it again: ") })
                let rerun = try await BinaryRunner.shell(
                    "$GH_USERS " + told.split(separator: " ").drop { $0 != "list" }.joined(separator: " "),
                    environment: environment)
                #expect(rerun.status == 0, "\(rerun.stderr)")
                let ids = String(decoding: try Data(contentsOf: output), as: UTF8.self).split(separator: "\n")
                    .map { $0.prefix { $0 != "\t" } }
                // The cut record is gone, and none is written twice: every line is a whole record, in id order.
                let numbers = ids.compactMap { Int($0) }
                #expect(numbers.count == ids.count && numbers == numbers.sorted() && Set(numbers).count == ids.count)
                #expect(ids.count == 200, "\(ids.count) records after \(told)")
            }
        }
    }

    /// With `--state` and stdout appended to a file (`>>`), a page cut by the limit had its whole records on disk
    /// while the state stayed at the page before: the hint's rerun, after the cut line was removed as told, wrote
    /// them again. The state now counts them, and the rerun writes each account once.
    @Test func aCutPageUnderStateAndAppendedStdoutIsNotWrittenTwice() async throws {
        try await withServer { server in
            try await withFolder { folder in
                let (output, state) = (folder.appendingPathComponent("users.tsv"), folder.appendingPathComponent("s"))
                let command = #"$GH_USERS list --all --per-page 50 --api-url "$API" --no-cache --state "$STATE""#
                let environment = ["API": server.baseURL, "OUT": output.path, "STATE": state.path]
                let cut = try await BinaryRunner.shell(
                    #"(ulimit -f 8; "# + command + #" >> "$OUT")"#, environment: environment)
                #expect(cut.status == 1, "\(cut.stderr)")
                // As told: the cut line removed, then the same command appended again.
                let text = String(decoding: try Data(contentsOf: output), as: UTF8.self)
                #expect(cut.stderr.contains("Remove the unfinished last line") == !text.hasSuffix("\n"))
                let kept = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().joined(
                    separator: "\n")
                try Data((kept + "\n").utf8).write(to: output)
                let rerun = try await BinaryRunner.shell(command + #" >> "$OUT""#, environment: environment)
                #expect(rerun.status == 0, "\(rerun.stderr)")
                let ids = String(decoding: try Data(contentsOf: output), as: UTF8.self).split(separator: "\n")
                    .compactMap { Int($0.prefix { $0 != "\t" }) }
                #expect(ids.count == 400 && Set(ids).count == 400, "\(ids.count) lines, \(Set(ids).count) accounts")
            }
        }
    }

    @Test func aClosedPipeIsStillAQuietSuccess() async throws {
        try await withServer { server in
            let result = try await BinaryRunner.shell(
                #"set -o pipefail; $GH_USERS list --limit 300 --per-page 10 --api-url "$API" --no-cache | head -1"#,
                environment: ["API": server.baseURL])
            #expect(result.status == 0)
            #expect(result.stdout.split(separator: "\n").count == 1)
            #expect(result.stderr.isEmpty)
        }
    }

    /// A reader gone before the first write (`(exec <&-)` ends at once): `show`'s failed lookup was dropped,
    /// exit 0 with nothing said, and `follows` answered no as 0. A failed write otherwise is 2 for `follows`,
    /// never a yes or a no.
    @Test func aReaderThatLeftHidesNoFailureAndNoAnswer() async throws {
        try await withServer { server in
            let environment = ["API": server.baseURL]
            let show = try await BinaryRunner.shell(
                #"set -o pipefail; $GH_USERS show nosuchzz octocat --api-url "$API" | (exec <&-)"#,
                environment: environment)
            #expect(show.status == 1, "\(show.stderr)")
            #expect(show.stderr.contains("nosuchzz"), "\(show.stderr)")
            let no = try await BinaryRunner.shell(
                #"set -o pipefail; $GH_USERS follows octocat Yamada-Taro --api-url "$API" | (exec <&-)"#,
                environment: environment)
            #expect(no.status == 1, "\(no.stderr)")
            for redirect in ["> /dev/full", ">&-"] {
                let yes = try await BinaryRunner.shell(
                    #"$GH_USERS follows Yamada-Taro octocat --api-url "$API" "# + redirect, environment: environment)
                #expect(yes.status == 2, "\(redirect): \(yes.stderr)")
                #expect(yes.stderr.hasPrefix("gh-users: cannot write to stdout"), "\(redirect): \(yes.stderr)")
            }
        }
    }

    /// Repeated: the write error and the crawl's paging must not race into a crash or a quiet 0.
    @Test func aFullDeviceMidCrawlIsExitOneEveryTime() async throws {
        try await withServer { server in
            for _ in 0..<5 {
                let result = try await BinaryRunner.shell(
                    #"$GH_USERS list --limit 100 --per-page 20 --full --api-url "$API" --no-cache > /dev/full"#,
                    environment: ["API": server.baseURL])
                #expect(result.status == 1, "\(result.stderr)")
                #expect(result.stderr.hasPrefix("gh-users: cannot write to stdout: no space left on device"))
            }
        }
    }

    // MARK: - 19.13 CSV keeps the text

    /// Python's csv module, an independent RFC 4180 reader, reads back exactly the text GitHub sent (which the
    /// JSON output carries exactly).
    @Test func pythonsCSVReaderReadsBackTheExactText() async throws {
        let logins = [
            "tabby-newline", "Quote-Backslash", "ansi-red", "bell-ringer", "osc8-link", "bidi-override", "del-char",
            "u2028-sep", "nul-byte", "octocat", "Yamada-Taro", "empty-strings", "spaces-only",
        ]
        try await withServer { server in
            try await withFolder { folder in
                let csv = folder.appendingPathComponent("users.csv")
                let json = folder.appendingPathComponent("users.json")
                let script = """
                    $GH_USERS show \(logins.joined(separator: " ")) --api-url "$API" --no-cache --format csv > "$CSV" &&
                    $GH_USERS show \(logins.joined(separator: " ")) --api-url "$API" --no-cache --json > "$JSON" &&
                    python3 - "$CSV" "$JSON" <<'PY'
                    import csv, json, sys
                    with open(sys.argv[1], newline="", encoding="utf-8") as f:
                        rows = list(csv.DictReader(f))
                    with open(sys.argv[2], encoding="utf-8") as f:
                        users = json.load(f)
                    assert len(rows) == len(users), (len(rows), len(users))
                    for row, user in zip(rows, users):
                        for key in ("login", "name", "bio", "company", "location", "blog"):
                            want = user.get(key) or ""
                            assert row[key] == want, (key, row[key], want)
                    print("same", len(rows))
                    PY
                    """
                let result = try await BinaryRunner.shell(
                    script, environment: ["API": server.baseURL, "CSV": csv.path, "JSON": json.path])
                #expect(result.status == 0, "\(result.stderr)")
                #expect(result.stdout == "same \(logins.count)\n")
                let bytes = try String(contentsOf: csv, encoding: .utf8)
                #expect(bytes.contains("\"line one\nline two\r\n\tindented"))
                #expect(bytes.contains(#"C:\Users\me said ""hi"""#))
            }
        }
    }

    // MARK: - 20.4 Sanitising is linear

    /// Counted, not timed: the work is the bytes read from stdin and sanitised, and 8 times the line reads no
    /// more of it than the shorter one, one 64 KiB chunk (the old sanitising took the whole line, quadratically,
    /// and took minutes on 1 MiB). Stdin is a file the shell opened, whose offset the binary's reads move: after
    /// the run, /proc tells how far.
    @Test func aLongLineOfControlCharactersIsRefusedInLinearTime() async throws {
        try await withFolder { folder in
            func run(_ count: Int) async throws -> (result: RunResult, read: Int?) {
                let input = folder.appendingPathComponent("logins-\(count)")
                try Data(repeating: 0x1B, count: count).write(to: input)
                let result = try await BinaryRunner.shell(
                    #"exec 3< "$IN"; $GH_USERS show - --api-url http://127.0.0.1:9 --no-cache <&3; status=$?; "#
                        + #"awk '/^pos:/ { print $2 }' /proc/$$/fdinfo/3; exit $status"#,
                    environment: ["IN": input.path])
                return (result, Int(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
            }
            let small = try await run(128 * 1024)
            let large = try await run(1024 * 1024)
            for (result, read) in [small, large] {
                // Refused at stdin's 1 KiB line cap (20.3), echoing a short, sanitised prefix only.
                #expect(result.status == 64)
                #expect(result.stderr.contains("stdin"), "\(result.stderr)")
                #expect(result.stderr.utf8.count < 400, "\(result.stderr.utf8.count) bytes on stderr")
                #expect(!result.stderr.utf8.contains(0x1B))
                #expect(read.map { $0 > 1024 && $0 <= 64 * 1024 } == true, "\(read.map(String.init) ?? "?") bytes read")
            }
            #expect(small.read == large.read)
        }
    }

    // MARK: - 19.14 The cache can always be repaired

    private func storeOf(_ folder: URL) -> URL { folder.appendingPathComponent("gh-users-responses") }

    /// A store of the user's own with one 3-byte entry and no CACHEDIR.TAG, as an older gh-users left it.
    private func unmarkedStore(in folder: URL, mode: mode_t) throws -> URL {
        let store = storeOf(folder)
        try FileManager.default.createDirectory(at: store, withIntermediateDirectories: true)
        #expect(chmod(store.path, mode) == 0)
        try Data("old".utf8).write(to: store.appendingPathComponent("a.entry"))
        return store
    }

    @Test(arguments: [nil, "damaged", "Signature: 8a477f597d28d172789f06886806bc55\n# format 2\n"])
    func aDamagedMarkerIsRepairedOnceWithOneLine(marker: String?) async throws {
        try await withServer { server in
            try await withFolder { folder in
                let cache = ["--api-url", server.baseURL, "--cache-dir", folder.path]
                let first = try await BinaryRunner.run(["show", "octocat"] + cache)
                #expect(first.status == 0)
                let tag = storeOf(folder).appendingPathComponent("CACHEDIR.TAG")
                try FileManager.default.removeItem(at: tag)
                if let marker { try Data(marker.utf8).write(to: tag) }

                let repaired = try await BinaryRunner.run(["show", "octocat"] + cache)
                #expect(repaired.status == 0)
                #expect(repaired.stdout == first.stdout)
                #expect(
                    repaired.stderr
                        == "gh-users: warning: the cache '\(storeOf(folder).path)' had a missing, damaged or other "
                        + "version's CACHEDIR.TAG: emptied it (1 file) and marked it again\n")
                let again = try await BinaryRunner.run(["show", "octocat"] + cache)
                #expect(again.status == 0)
                #expect(again.stderr.isEmpty, "repaired once: \(again.stderr)")
                let info = try await BinaryRunner.run(["cache", "info", "--cache-dir", folder.path, "--json"])
                #expect(info.stdout.contains("\"entries\": 1"), "the repaired cache is used again")
            }
        }
    }

    /// The temporary file of a write interrupted an hour ago goes with the entries, and stderr says so, as `cache
    /// info` counts it (helper-231: before, it went without a word). One written a minute ago may be another run's
    /// write under way: it is kept, and said (helper-353's P-4: before, a clear left it without a word).
    @Test func cacheClearSaysWhichTemporaryFilesItRemovedAndKept() async throws {
        try await withFolder { folder in
            let store = try unmarkedStore(in: folder, mode: 0o700)
            for (name, age) in [(".tmp-a-1-2", 3_600.0), (".tmp-b-3-4", 60.0)] {
                let file = store.appendingPathComponent(name)
                try Data("cut".utf8).write(to: file)
                try FileManager.default.setAttributes(
                    [.modificationDate: Date().addingTimeInterval(-age)], ofItemAtPath: file.path)
            }
            let cleared = try await BinaryRunner.run(["cache", "clear", "--cache-dir", folder.path])
            #expect(cleared.status == 0, "\(cleared.stderr)")
            #expect(
                cleared.stderr.hasSuffix(
                    "Removed 1 entry (3 B) and 1 orphaned temporary file from '\(store.path)'\n"
                        + "Kept 1 temporary file younger than 5 minutes: a write another run has under way (or a "
                        + "killed run's, which a run removes once it is 5 minutes old)\n"), "\(cleared.stderr)")
            #expect(
                try FileManager.default.contentsOfDirectory(atPath: store.path).sorted()
                    == [".tmp-b-3-4", "CACHEDIR.TAG"])
        }
    }

    @Test func cacheClearRepairsAnUnmarkedStoreOfTheUsersOwn() async throws {
        try await withFolder { folder in
            let store = try unmarkedStore(in: folder, mode: 0o755)
            let cleared = try await BinaryRunner.run(["cache", "clear", "--cache-dir", folder.path])
            #expect(cleared.status == 0, "\(cleared.stderr)")
            #expect(cleared.stdout.isEmpty)
            #expect(cleared.stderr.hasSuffix("Removed 1 entry (3 B) from '\(store.path)'\n"))
            #expect(try FileManager.default.contentsOfDirectory(atPath: store.path) == ["CACHEDIR.TAG"])
            let info = try await BinaryRunner.run(["cache", "info", "--cache-dir", folder.path])
            #expect(info.status == 0)
            #expect(info.stderr.isEmpty)
        }
    }

    @Test func aStoreOthersCanWriteIsStillRefusedAndTheMessageSaysTheWayOut() async throws {
        try await withFolder { folder in
            let store = storeOf(folder)
            try FileManager.default.createDirectory(at: store, withIntermediateDirectories: true)
            #expect(chmod(store.path, 0o777) == 0)
            let cleared = try await BinaryRunner.run(["cache", "clear", "--cache-dir", folder.path])
            #expect(cleared.status == 1)
            #expect(cleared.stderr.contains("other users can write to it (mode 777)"))
            #expect(cleared.stderr.contains("remove it by hand, or give --cache-dir another folder"))
        }
    }

    // MARK: - 20.19 Small things

    @Test func cacheInfoAsATableEndsWithoutABlankLine() async throws {
        try await withFolder { folder in
            let info = try await BinaryRunner.run(["cache", "info", "--cache-dir", folder.path, "--format", "table"])
            #expect(info.status == 0)
            #expect(info.stdout.hasPrefix("Path "))
            #expect(info.stdout.hasSuffix("B\n") && !info.stdout.hasSuffix("\n\n"), "\(info.stdout)")
        }
    }

    /// `COLUMNS` is taken as at most what a terminal can say, 65,535: a table with a free-text column pads it to
    /// share the width, and a huge value ended in an allocation failure's backtrace (exit 134, helper-292).
    @Test func aHugeColumnsIsTakenAsTheWidestTerminal() async throws {
        try await withServer { server in
            let result = try await BinaryRunner.run(
                ["followers", "octocat", "--full", "--limit", "3", "--format", "table", "--api-url", server.baseURL]
                    + ["--no-cache"],
                environment: ["COLUMNS": "9223372036854775807", "GH_TOKEN": StandInTokens.token(for: "octocat")])
            #expect(result.status == 0, "\(result.stderr)")
            let lines = result.stdout.split(separator: "\n")
            #expect(lines.count == 4, "\(result.stdout.prefix(300))")
            #expect(lines.first?.hasPrefix("ID ") == true && lines.first?.contains(" LOGIN ") == true)
            #expect(lines.allSatisfy { $0.utf8.count <= 65_535 * 4 }, "\(lines.map(\.utf8.count))")
        }
    }

    @Test func reposAtFortyColumnsKeepsTheNameWhole() async throws {
        try await withServer { server in
            let result = try await BinaryRunner.run(
                ["repos", "octocat", "--format", "table", "--api-url", server.baseURL, "--no-cache"],
                environment: ["COLUMNS": "40"])
            #expect(result.status == 0, "\(result.stderr)")
            let lines = result.stdout.split(separator: "\n")
            #expect(lines.first?.hasPrefix("NAME") == true)
            #expect(lines.first?.contains("DESCRIPTION") == false)
            #expect(lines.contains { $0.hasPrefix("octocat/Hello-World ") }, "\(result.stdout)")
        }
    }
}

/// gh's `GH_FORCE_TTY`, which gh-users did not read (helper-340's E11): stdout redirected to a file gets the
/// terminal's table, at the width a number gives; a value gh reads as false, or TERM=dumb, leaves it as it was.
struct ForcedTerminalEndToEndTests {
    @Test(arguments: [("100", true), ("yes", true), ("0", false), ("false", false), ("", false)])
    func forcedTerminalWritesATableToAFile(value: String, table: Bool) async throws {
        try await withStandIn(users: 20) { server in
            let run = try await BinaryRunner.run(
                ["list", "--limit", "3", "--api-url", server.baseURL, "--no-cache"],
                environment: ["GH_FORCE_TTY": value, "NO_COLOR": "1"])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stdout.hasPrefix("ID  LOGIN") == table, "\(run.stdout)")
            #expect(run.stdout.hasPrefix("1\toctocat\t") == !table, "\(run.stdout)")
        }
    }

    /// csv is data in a file or a pipe, forced terminal or not: GitHub's bidi override and tab reach the file as
    /// they were sent (helper-350's S1; before: U+FFFD, and `\t` written as two characters, exit 0).
    @Test func csvInAFileIsTheExactDataUnderAForcedTerminal() async throws {
        try await withStandIn(users: 20) { server in
            let arguments = [
                "show", "bidi-override", "tabby-newline", "--format", "csv", "--fields", "login,name,location",
                "--api-url", server.baseURL, "--no-cache",
            ]
            let forced = try await BinaryRunner.run(arguments, environment: ["GH_FORCE_TTY": "1"])
            let plain = try await BinaryRunner.run(arguments)
            #expect(forced.status == 0 && plain.status == 0, "\(forced.stderr)\(plain.stderr)")
            #expect(forced.stdout == plain.stdout)
            #expect(forced.stdout.contains("\u{202E}") && forced.stdout.contains("\t"), "\(forced.stdout)")
        }
    }

    @Test func termDumbStillCountsAsNoTerminal() async throws {
        try await withStandIn(users: 20) { server in
            let run = try await BinaryRunner.run(
                ["list", "--limit", "3", "--api-url", server.baseURL, "--no-cache"],
                environment: ["GH_FORCE_TTY": "100", "TERM": "dumb"])
            #expect(run.stdout.hasPrefix("1\toctocat\t"), "\(run.stdout)")
        }
    }
}
