import Foundation
import GitHubStandIn
import Testing

@testable import gh_users

/// `list --state` against files that are not what they seem (a state that names no output, a link to a state, a
/// planted link or FIFO beside it), reruns that would append another shape to the same output, and hints that
/// must run as printed.
struct CrawlStateSafetyEndToEndTests {
    static let token = "ghp_crawlstatesafety"
    private let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("gh-users-safety-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    private func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    private func read(_ name: String) -> String {
        (try? String(contentsOfFile: path(name), encoding: .utf8)) ?? ""
    }

    private func write(_ name: String, _ text: String) throws {
        try Foundation.Data(text.utf8).write(to: URL(fileURLWithPath: path(name)))
    }

    private func exists(_ name: String) -> Bool {
        var info = stat()
        return lstat(path(name), &info) == 0
    }

    private func withServer<T>(users: Int, latency: Int = 0, _ body: (StandInServer) async throws -> T)
        async throws -> T
    {
        defer { try? FileManager.default.removeItem(at: folder) }
        return try await withStandIn(users: users, latency: latency, body)
    }

    private func run(_ arguments: [String], timeout: TimeInterval = 60) async throws -> RunResult {
        try await BinaryRunner.run(arguments, environment: ["GH_TOKEN": Self.token], timeout: timeout)
    }

    /// A bash snippet run in the test's folder, with `$GH_USERS`, `$API` and the token set.
    private func shell(_ script: String, _ server: StandInServer) async throws -> RunResult {
        try await BinaryRunner.shell(
            "cd \"$FOLDER\" && " + script,
            environment: ["FOLDER": folder.path, "API": server.baseURL, "GH_TOKEN": Self.token])
    }

    private func api(_ server: StandInServer) -> [String] { ["--api-url", server.baseURL, "--no-cache"] }

    private func ids(_ tsv: String) -> [Int] {
        tsv.split(separator: "\n").compactMap { Int($0.split(separator: "\t")[0]) }
    }

    private func stateObject(_ name: String) -> [String: Any] {
        let bytes = FileManager.default.contents(atPath: path(name)) ?? Foundation.Data()
        return ((try? JSONSerialization.jsonObject(with: bytes)) as? [String: Any]) ?? [:]
    }

    // MARK: A state that names no output (issue 20, item 1)

    /// Before, such a state skipped the "another file" check and cut any --output back to its length: a different
    /// two-line file was cut to 0 bytes.
    @Test(arguments: [0, 3])
    func aStateThatNamesNoOutputNeverCutsAFile(recordedBytes: Int) async throws {
        try await withServer(users: 100) { server in
            let state = #"{"version":1,"since":5,"output_bytes":\#(recordedBytes)}"#
            try write("s", state)
            try write("o.tsv", "1\tkeep\n2\tme\n")
            let result = try await run(
                ["list", "--all", "--state", path("s"), "--output", path("o.tsv")] + api(server))
            #expect(result.status == 1)
            #expect(result.stdout.isEmpty)
            #expect(
                result.stderr.contains(
                    "counts \(recordedBytes) bytes of output but does not say of which file, so '\(path("o.tsv"))' "
                        + "was left as it is"), "\(result.stderr)")
            #expect(result.stderr.contains(#""output":"\#(path("o.tsv"))""#))
            #expect(read("o.tsv") == "1\tkeep\n2\tme\n")
            #expect(read("s") == state)
            #expect(server.requests.isEmpty)
        }
    }

    /// A state that cannot be saved after a page went to `>> FILE` (a full disk, a read-only mount; here a folder
    /// planted at the state's temporary name mid-run): the state goes on from before that page, which is in the
    /// file. stderr names the length to cut the file back to, and done as told, the rerun leaves the crawl whole,
    /// no account twice. A review's full disk got only the rerun's command, and 100 accounts twice; then a count
    /// of bytes from the end. (stderr into the same file, `2>&1`, is refused: stderrIntoTheAppendedFileIsRefused….)
    @Test func aPageTheStateCouldNotCountIsNamedAndTheRerunMendsIt() async throws {
        try await withServer(users: 1_000, latency: 40) { server in
            let list = #""$GH_USERS" list --all --format tsv --api-url "$API" --no-cache"#
            let whole = try await shell(list, server)
            #expect(whole.status == 0 && ids(whole.stdout).count == 1_000, "\(whole.stderr)")
            // The folder goes in once the first page is in the file, and the crawl is far from its end. (`: ;` ends
            // `cd` before the `&`, which would take it into the background with the crawl.)
            let cut = try await shell(
                ": ; " + list + #" --state s >> out.tsv & pid=$!; "#
                    + #"until [ -s out.tsv ] && mkdir s.tmp 2>/dev/null; do sleep 0.005; done; wait $pid"#, server)
            #expect(cut.status == 1, "\(cut.stderr)")
            let said = cut.stderr
            #expect(said.contains(" are the page the state could not count"), "\(said)")
            let length = try #require(
                said.split(separator: "(truncate -s ").last.flatMap { Int($0.prefix { $0.isNumber }) }, "\(said)")
            let rerun = try await shell(
                "truncate -s \(length) out.tsv && rmdir s.tmp && " + list + " --state s >> out.tsv", server)
            #expect(rerun.status == 0, "\(rerun.stderr)")
            #expect(read("out.tsv") == whole.stdout)
        }
    }

    /// The same, when the page was itself cut short (a full disk takes the page and the state alike; here a size
    /// limit of 8 KiB cuts the second page, and a folder planted at the state's temporary name once the first is
    /// counted fails its save; each page takes 250 ms, so the folder is there before the second, even on a loaded
    /// machine). A review's run was told only to remove the unfinished last line, and done so, the rerun wrote
    /// the cut page's whole records twice.
    @Test func aCutPageTheStateCouldNotCountIsNamedAndTheRerunMendsIt() async throws {
        try await withServer(users: 1_000, latency: 250) { server in
            let list = #""$GH_USERS" list --all --format tsv --api-url "$API" --no-cache"#
            let whole = try await shell(list, server)
            let cut = try await shell(
                ": ; (ulimit -f 8; exec " + list + #" --state s >> out.tsv) & pid=$!; "#
                    + #"until grep -q '"since":[1-9]' s 2>/dev/null && mkdir s.tmp 2>/dev/null; do sleep 0.005; done; wait $pid"#,
                server)
            #expect(cut.status == 1, "\(cut.stderr)")
            #expect(cut.stderr.contains("(what was written ends in a cut record)"), "\(cut.stderr)")
            #expect(cut.stderr.contains(" are the page the state could not count"), "\(cut.stderr)")
            let length = try #require(
                cut.stderr.split(separator: "(truncate -s ").last.flatMap { Int($0.prefix { $0.isNumber }) },
                "\(cut.stderr)")
            let rerun = try await shell(
                "truncate -s \(length) out.tsv && rmdir s.tmp && " + list + " --state s >> out.tsv", server)
            #expect(rerun.status == 0, "\(rerun.stderr)")
            #expect(read("out.tsv") == whole.stdout)
        }
    }

    /// A state that counts an output file's bytes, rerun without --output, would write to stdout and forget the
    /// file: exit 1, naming the file to give.
    /// A run whose working directory was removed leaves a relative `--state` relative, for its open to fail, and
    /// never makes it at `/`.
    @Test func aRelativeStateFromARemovedFolderIsNotMadeAtTheRoot() async throws {
        // No stand-in, so no `withServer` to remove the folder `init` made.
        defer { try? FileManager.default.removeItem(at: folder) }
        let name = "gone-\(UUID().uuidString).json"
        let script = """
            dir=$(mktemp -d) && cd "$dir" && rmdir "$dir"
            "$GH_USERS" list --limit 1 --state \(name) --api-url http://127.0.0.1:9 --no-cache; echo "status=$?"
            """
        let result = try await BinaryRunner.shell(script)
        defer { try? FileManager.default.removeItem(atPath: "/" + name) }
        #expect(result.stdout.hasSuffix("status=1\n"), "\(result.stdout) \(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: "/" + name))
    }

    @Test func aStateThatCountsAFileIsNotContinuedOnStdout() async throws {
        try await withServer(users: 300) { server in
            let first = try await run(
                ["list", "--limit", "100", "--state", path("s"), "--output", path("o.tsv")] + api(server))
            #expect(first.status == 0, "\(first.stderr)")
            let state = read("s")
            let again = try await run(["list", "--all", "--state", path("s")] + api(server))
            #expect(again.status == 1)
            #expect(again.stdout.isEmpty)
            #expect(again.stderr.contains("give --output \(ShellWord.quote(path("o.tsv")))"), "\(again.stderr)")
            #expect(read("s") == state)
        }
    }

    /// Issue 26 item 11: a state and an output named with an OSC 52 sequence (set the clipboard) and a
    /// right-to-left override. The refusal names both, and gives the output to pass back as a shell word: stderr
    /// shows every one of those characters as an escape, and holds none of them raw.
    @Test func hostilePathsReachStderrOnlyAsEscapes() async throws {
        let hostile = "\u{1B}]52;c;aGk=\u{07}\u{202E}"
        try await withServer(users: 300) { server in
            let first = try await run(
                ["list", "--limit", "100", "--state", path("s" + hostile), "--output", path("o" + hostile)]
                    + api(server))
            #expect(first.status == 0, "\(first.stderr)")
            let again = try await run(["list", "--all", "--state", path("s" + hostile)] + api(server))
            #expect(again.status == 1)
            let escaped = #"\e]52;c;aGk=\a\u{202e}"#
            #expect(
                again.stderr.hasPrefix(
                    "gh-users: the state file '\(path("s" + escaped))' counts the bytes written "
                        + "to '\(path("o" + escaped))'"), "\(again.stderr)")
            #expect(again.stderr.contains(#"give --output $'\#(path("o"))\e]52;c;aGk=\x07\u202e'"#), "\(again.stderr)")
            #expect(
                !again.stderr.unicodeScalars.contains { ["\u{1B}", "\u{07}", "\u{202E}"].contains($0) },
                "\(again.stderr.debugDescription)")
        }
    }

    // MARK: Links, planted files and FIFOs beside the state (issue 20, items 7 and 2)

    /// Through a symbolic link the lock is the linked file's: while another run holds it, a run through the link
    /// is refused. Before, it took `current.state.lock` and ran beside the other. The link stays a link, and the
    /// lock file goes with the run that made it.
    /// `--output a/ld/../o.tsv` where `ld` links to `real/deep`: the kernel writes `real/o.tsv`, where the state
    /// recorded `a/o.tsv` (`..` read as text), so the same command's rerun was refused for good, and so was what
    /// its message advised (a review's find). The state now records the folder as the kernel reached it, and a
    /// state that names the file another way (as an older gh-users wrote it) still resumes.
    @Test func anOutputPathWithDotDotAfterALinkResumes() async throws {
        try await withServer(users: 500) { server in
            let manager = FileManager.default
            try manager.createDirectory(atPath: path("real/deep"), withIntermediateDirectories: true)
            try manager.createDirectory(atPath: path("a"), withIntermediateDirectories: true)
            try manager.createSymbolicLink(atPath: path("a/ld"), withDestinationPath: path("real/deep"))
            // A hundred accounts more each run.
            let crawl =
                ["list", "--limit", "100", "--state", path("a/ld/../s.json"), "--output", path("a/ld/../o.tsv")]
                + api(server)
            let whole = try await run(["list", "--limit", "400"] + api(server))
            #expect(ids(whole.stdout).count == 400)
            let first = try await run(crawl)
            #expect(first.status == 0, "\(first.stderr)")
            let state = "real/s.json"
            let recorded = try #require(stateObject(state)["output"] as? String)
            let real = try #require(realpath(path("real"), nil))
            defer { free(real) }
            #expect(recorded == String(cString: real) + "/o.tsv")
            let second = try await run(crawl)
            #expect(second.status == 0, "\(second.stderr)")
            #expect(ids(read("real/o.tsv")) == Array(ids(whole.stdout).prefix(200)))
            #expect(!exists("a/o.tsv"))
            // The state an older gh-users wrote for this command (`..` read as text: `a/o.tsv`, no file) resumes
            // the file it counts; and one that names the file through a link (`L/o.tsv`).
            let older = path("a/o.tsv")
            try write(state, read(state).replacing(recorded, with: older))
            #expect(read(state).contains(older))
            let third = try await run(crawl)
            #expect(third.status == 0, "\(third.stderr)")
            #expect(ids(read("real/o.tsv")) == Array(ids(whole.stdout).prefix(300)))
            try manager.createSymbolicLink(atPath: path("L"), withDestinationPath: path("real"))
            try write(state, read(state).replacing(recorded, with: path("L/o.tsv")))
            #expect(read(state).contains(path("L/o.tsv")))
            let fourth = try await run(crawl.map { $0.replacing("a/ld/..", with: "L") })
            #expect(fourth.status == 0, "\(fourth.stderr)")
            #expect(ids(read("real/o.tsv")) == ids(whole.stdout))
        }
    }

    @Test func aStateReachedThroughALinkSharesItsLockAndStaysALink() async throws {
        try await withServer(users: 200) { server in
            try FileManager.default.createSymbolicLink(atPath: path("current.state"), withDestinationPath: "c.state")
            let holder = open(path("c.state.lock"), O_RDWR | O_CREAT, 0o600)
            #expect(holder >= 0)
            #expect(flock(holder, LOCK_EX | LOCK_NB) == 0)
            let refused = try await run(["list", "--all", "--state", path("current.state")] + api(server))
            close(holder)
            try FileManager.default.removeItem(atPath: path("c.state.lock"))
            #expect(refused.status == 1)
            #expect(refused.stderr.contains("another gh-users run is using the state file"), "\(refused.stderr)")
            #expect(server.requests.isEmpty)

            let result = try await run(["list", "--all", "--state", path("current.state")] + api(server))
            #expect(result.status == 0, "\(result.stderr)")
            #expect(ids(result.stdout) == server.population.users.map(\.id))
            let link = try FileManager.default.destinationOfSymbolicLink(atPath: path("current.state"))
            #expect(link == "c.state")
            #expect(stateObject("c.state")["since"] as? Int == server.population.users.last?.id)
            let left = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
            #expect(left == ["c.state", "current.state"])
        }
    }

    /// Three runs at once, again and again, two through the state's name and one through a link to it, each
    /// appending to one --output: one at a time gets the state, and the file ends as the single crawl, with no
    /// line twice. Before, the run through the link ran beside the others and duplicated pages; with the lock
    /// file removed when a run ends, a run that opened it just before must not lock a file no longer there.
    @Test func concurrentRunsThroughTwoNamesNeverWriteAPageTwice() async throws {
        try await withServer(users: 600, latency: 3) { server in
            try FileManager.default.createSymbolicLink(atPath: path("link.state"), withDestinationPath: "s")
            let whole = server.population.users.map(\.id)
            var statuses: [Int32] = []
            for _ in 0..<12 {
                let common = ["--limit", "120", "--per-page", "20", "--output", path("o.tsv")] + api(server)
                async let first = run(["list", "--state", path("s")] + common)
                async let second = run(["list", "--state", path("link.state")] + common)
                async let third = run(["list", "--state", path("s")] + common)
                let results = try await [first, second, third]
                for result in results {
                    #expect(
                        result.status == 0 || result.stderr.contains("another gh-users run is using the state file"),
                        "\(result.stderr)")
                }
                statuses += results.map(\.status)
                let written = ids(read("o.tsv"))
                #expect(written == Array(whole.prefix(written.count)))
                if written.count == whole.count { break }
            }
            while ids(read("o.tsv")).count < whole.count {
                let result = try await run(
                    ["list", "--all", "--per-page", "20", "--state", path("s"), "--output", path("o.tsv")]
                        + api(server))
                #expect(result.status == 0, "\(result.stderr)")
            }
            #expect(ids(read("o.tsv")) == whole)
            #expect(!exists("s.lock"))
            print(
                "concurrent state runs: \(statuses.filter { $0 == 0 }.count) ran, \(statuses.filter { $0 != 0 }.count) refused"
            )
        }
    }

    /// A hard link planted at the temporary file's name: before, the state was written through it, so the linked
    /// file was emptied, filled with the state and made 0600. Now only the name is removed.
    @Test func aLinkPlantedAtTheTemporaryNameLeavesItsFileAlone() async throws {
        try await withServer(users: 50) { server in
            try write("precious", "do not touch\n")
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path("precious"))
            #expect(link(path("precious"), path("s.tmp")) == 0)
            let result = try await run(["list", "--all", "--state", path("s")] + api(server))
            #expect(result.status == 0, "\(result.stderr)")
            #expect(read("precious") == "do not touch\n")
            let mode = try FileManager.default.attributesOfItem(atPath: path("precious"))[.posixPermissions] as? Int
            #expect(mode == 0o644)
            #expect(stateObject("s")["since"] as? Int == server.population.users.last?.id)
            #expect(!exists("s.tmp"))
        }
    }

    /// A FIFO where the state, its temporary file or its lock belongs: exit 1 at once, naming it. Before, the
    /// state and the temporary file hung the run on a FIFO nobody writes or reads, and the lock took a FIFO.
    @Test(arguments: ["s", "s.tmp", "s.lock"])
    func aFIFOBesideTheStateIsRefusedAtOnce(name: String) async throws {
        try await withServer(users: 50) { server in
            #expect(mkfifo(path(name), 0o600) == 0)
            // A run that hung on the FIFO is killed (status 137), never 1.
            let result = try await run(["list", "--all", "--state", path("s")] + api(server))
            #expect(result.status == 1, "\(result.stderr)")
            #expect(result.stderr.contains("is a FIFO (named pipe), not a"), "\(result.stderr)")
            #expect(result.stderr.contains(path(name)))
            #expect(result.stdout.isEmpty)
            var info = stat()
            #expect(lstat(path(name), &info) == 0 && info.st_mode & S_IFMT == S_IFIFO)
        }
    }

    // MARK: The shape of the output (issue 20, item 13)

    /// stderr into the file stdout appends to (`>> FILE 2>&1`, a cron job's habit) would write the run's messages
    /// among the records, which no rerun checks: refused before anything is asked, as `access --state` is, file
    /// and state left as they were. With no terminal (`setsid`, as under cron) only the exit status can say it.
    /// Before: each run wrote its rate-limit text into the data, and `jq` stopped at that line (helper-329). So is
    /// stderr into `--output`'s file.
    @Test func stderrIntoTheAppendedFileIsRefusedBeforeAnythingIsAsked() async throws {
        try await withServer(users: 300) { server in
            try write("users.ndjson", "{\"id\":1}\n")
            let crawl = #""$GH_USERS" list --all --state s --format ndjson --api-url "$API" --no-cache >> users.ndjson"#
            let mixed = try await shell("setsid -w " + crawl + " 2>&1", server)
            #expect(mixed.status == 1)
            #expect(read("users.ndjson") == "{\"id\":1}\n")
            #expect(!exists("s") && !exists("s.lock"))
            #expect(server.requests.isEmpty)
            // stderr elsewhere: the crawl runs.
            let apart = try await shell(crawl + " 2> err", server)
            #expect(apart.status == 0, "\(read("err"))")
            #expect(read("users.ndjson").split(separator: "\n").count == 301)
            // stderr into --output's file (`2>> FILE`) is refused the same way. Before, only stdout's was.
            server.resetRequests()
            let output = #""$GH_USERS" list --all --state o --output out.ndjson --format ndjson --api-url "$API""#
            let intoOutput = try await shell("setsid -w " + output + " --no-cache 2>> out.ndjson", server)
            #expect(intoOutput.status == 1)
            #expect(read("out.ndjson").isEmpty)
            #expect(!exists("o") && !exists("o.lock"))
            #expect(server.requests.isEmpty)
        }
    }

    /// A state made with --format csv --output c.csv: before, a rerun with another format, or none, appended
    /// JSON or TSV lines to the CSV. Each difference is exit 1, naming it, with the file and state untouched.
    @Test(arguments: [
        (["--format", "ndjson"], "--format csv where this run has --format ndjson"),
        ([], "--format csv where this run has --format tsv"),
        (["--format", "csv", "--fields", "login,id"], "every field where this run has --fields login,id"),
        (["--format", "csv", "--full"], "the list's summaries where this run writes full profiles (--full)"),
    ])
    func aRerunThatWritesAnotherShapeIsRefused(options: [String], difference: String) async throws {
        try await withServer(users: 300) { server in
            let crawl = ["list", "--limit", "100", "--state", path("s"), "--output", path("c.csv")] + api(server)
            let first = try await run(crawl + ["--format", "csv"])
            #expect(first.status == 0, "\(first.stderr)")
            #expect(stateObject("s")["format"] as? String == "csv")
            let (state, csv) = (read("s"), read("c.csv"))
            server.resetRequests()
            let rerun = try await run(crawl + options)
            #expect(rerun.status == 1)
            #expect(rerun.stderr.contains(difference), "\(rerun.stderr)")
            #expect(rerun.stderr.contains("run it with --format csv"), "\(rerun.stderr)")
            #expect((read("s"), read("c.csv")) == (state, csv))
            #expect(server.requests.isEmpty)
            // The same options go on.
            let same = try await run(crawl + ["--format", "csv"])
            #expect(same.status == 0, "\(same.stderr)")
            #expect(read("c.csv").split(separator: "\r\n").count == 201)
        }
    }

    /// The same with `>>`: the state records the format of what went to stdout.
    @Test func aStdoutCrawlKeepsItsFormatToo() async throws {
        try await withServer(users: 200) { server in
            let crawl = ["list", "--limit", "50", "--state", path("s")] + api(server)
            #expect(try await run(crawl + ["--format", "ndjson"]).status == 0)
            let rerun = try await run(crawl)
            #expect(rerun.status == 1)
            #expect(rerun.stdout.isEmpty)
            #expect(rerun.stderr.contains("--format ndjson where this run has --format tsv"), "\(rerun.stderr)")
        }
    }

    /// A new state has recorded no shape, and its crawl to `>> FILE` writes no csv header into a file that holds
    /// another crawl's: the file's header must be this run's. Other `--fields` are refused before any request,
    /// the file and the state as they were; the same columns go on without a header. Before: `login` lines went on
    /// under `id,login,type,html_url`, exit 0.
    @Test func aNewStateAppendsToStdoutsFileOnlyUnderItsOwnHeader() async throws {
        try await withServer(users: 100) { server in
            let first = try await shell(
                #""$GH_USERS" list --limit 10 --format csv --api-url "$API" --no-cache > o.csv"#, server)
            #expect(first.status == 0, "\(first.stderr)")
            let before = read("o.csv")
            server.resetRequests()
            let since = server.population.users[9].id
            let crawl =
                #""$GH_USERS" list --all --since \#(since) --state b.state --format csv --api-url "$API" --no-cache"#
            let other = try await shell(crawl + " --fields login >> o.csv", server)
            #expect(other.status == 1)
            #expect(
                other.stderr.contains(
                    "the file stdout appends to, '\(path("o.csv"))', begins with the line 'id,login,type,html_url', "
                        + "not this run's csv header 'login'"), "\(other.stderr)")
            #expect(read("o.csv") == before)
            #expect(server.requests.isEmpty)
            #expect(!exists("b.state"))
            let same = try await shell(crawl + " >> o.csv", server)
            #expect(same.status == 0, "\(same.stderr)")
            let lines = read("o.csv").split(separator: "\r\n")
            #expect(read("o.csv").hasPrefix(before))
            #expect(lines.count == 101 && lines.filter { $0.hasPrefix("id,") }.count == 1, "\(lines.prefix(3))")
        }
    }

    /// The file stdout appends to ends inside a line (a record a kill cut short): refused before any request, the
    /// file and the state as they were; ended, it takes the crawl.
    @Test func aStdoutFileThatEndsInsideALineIsRefused() async throws {
        try await withServer(users: 20) { server in
            let held = "{\"login\":\"user1\",\"id\":"
            try held.write(toFile: path("o.ndjson"), atomically: true, encoding: .utf8)
            let crawl =
                #""$GH_USERS" list --all --state s.state --format ndjson --api-url "$API" --no-cache >> o.ndjson"#
            let refused = try await shell(crawl, server)
            #expect(refused.status == 1)
            #expect(
                refused.stderr.contains(
                    "the file stdout appends to, '\(path("o.ndjson"))', ends inside a line"), "\(refused.stderr)")
            #expect(read("o.ndjson") == held)
            #expect(server.requests.isEmpty)
            #expect(!exists("s.state"))
            try (held + "1}\n").write(toFile: path("o.ndjson"), atomically: true, encoding: .utf8)
            let ended = try await shell(crawl, server)
            #expect(ended.status == 0, "\(ended.stderr)")
            #expect(read("o.ndjson").split(separator: "\n").count == 21)
        }
    }

    /// A state from before the settings were recorded: adopted while nothing has been written under it; once
    /// something has, refused with the line that records this run's settings, which then works.
    @Test func anOlderStateTakesTheRunsSettingsOnlyBeforeAnythingIsWritten() async throws {
        try await withServer(users: 200) { server in
            let users = server.population.users
            try write("fresh", #"{"version":1,"since":0}"#)
            let fresh = try await run(
                ["list", "--limit", "10", "--state", path("fresh"), "--format", "csv"] + api(server))
            #expect(fresh.status == 0, "\(fresh.stderr)")
            #expect(stateObject("fresh")["format"] as? String == "csv")

            let older = #"{"version":1,"since":\#(users[9].id)}"#
            try write("s", older)
            let refused = try await run(
                ["list", "--limit", "10", "--state", path("s"), "--format", "csv"] + api(server))
            #expect(refused.status == 1)
            #expect(refused.stdout.isEmpty)
            #expect(read("s") == older)
            let line = try #require(
                refused.stderr.firstRange(of: #"{"version":1"#).map { start in
                    String(refused.stderr[start.lowerBound...].prefix { $0 != " " })
                })
            #expect(line == #"{"version":1,"since":\#(users[9].id),"format":"csv"}"#)
            try write("s", line)
            let resumed = try await run(
                ["list", "--limit", "10", "--state", path("s"), "--format", "csv"] + api(server))
            #expect(resumed.status == 0, "\(resumed.stderr)")
            #expect(resumed.stdout.split(separator: "\r\n").first?.hasPrefix(String(users[10].id)) == true)
        }
    }

    // MARK: Hints that run as printed (issue 20, items 14 and 8)

    /// `--json > j.json` stopped half-way: the hint says the rest is a document of its own.
    @Test func aJSONHintSaysTheRestIsADocumentOfItsOwn() async throws {
        try await withServer(users: 300) { server in
            server.injectFaults([.passThrough, .status(502, body: #"{"message":"Bad Gateway"}"#)], forPath: "/users")
            let result = try await run(["list", "--all", "--json", "--per-page", "50", "--retries", "0"] + api(server))
            #expect(result.status == 1)
            #expect(
                result.stderr.contains(
                    "The rest is a JSON array of its own: write it to another file, not after this one (or crawl "
                        + "with --format ndjson, whose lines can be appended).\nTo continue from here: gh-users list "
                        + "--since \(server.population.users[49].id) --all"), "\(result.stderr)")
        }
    }

    /// A `--state` crawl appended to a file with `>>`, stopped by a failure: its hint, run as printed by bash,
    /// appends the rest to the same file. Before, the hint left out `>> FILE`, so the rest went elsewhere.
    @Test func theStateHintAppendsToTheSameFileWhenRunAsPrinted() async throws {
        try await withServer(users: 300) { server in
            server.injectFaults(
                [.passThrough, .passThrough, .status(500, body: #"{"message":"Server Error"}"#)], forPath: "/users")
            let first = try await shell(
                "\"$GH_USERS\" list --all --per-page 50 --retries 0 --state s --api-url \"$API\" --no-cache "
                    + ">> 'out put.tsv'", server)
            #expect(first.status == 1)
            let hint = try #require(
                first.stderr.split(separator: "\n").first { $0.hasPrefix("To continue from here") })
            #expect(hint.hasSuffix(" >> '\(path("out put.tsv"))'"), "\(hint)")
            let command = try #require(hint.split(separator: ": ", maxSplits: 1).last)
            // The hint names the program `gh-users`: here, the binary under test.
            let second = try await shell("gh-users() { \"$GH_USERS\" \"$@\"; }; " + command, server)
            #expect(second.status == 0, "\(second.stderr)")
            #expect(second.stdout.isEmpty)
            #expect(ids(read("out put.tsv")) == server.population.users.map(\.id))
        }
    }

    /// A fresh `--state` crawl appended with `>>` to a CSV file that holds an earlier one (the shards of
    /// CRAWLING.md, one file) writes no second header, as `--output` to such a file writes none; into an empty
    /// file, the header comes first. Before, every shard put a header in the middle of the file.
    @Test func aFreshStateAppendedToACSVFileThatHoldsOneWritesNoSecondHeader() async throws {
        try await withServer(users: 300) { server in
            let crawl =
                "\"$GH_USERS\" list --limit 3 --per-page 3 --format csv --fields id,login --api-url \"$API\" --no-cache"
            let first = try await shell(": > all.csv; " + crawl + " --state a >> all.csv", server)
            #expect(first.status == 0, "\(first.stderr)")
            let second = try await shell(crawl + " --since 100 --state b >> all.csv", server)
            #expect(second.status == 0, "\(second.stderr)")
            let lines = read("all.csv").split(separator: "\r\n")
            #expect(lines.count == 7 && lines.first == "id,login", "\(lines)")
            #expect(lines.filter { $0 == "id,login" }.count == 1, "\(lines)")
        }
    }

    /// A name a wrapper gives the binary (`exec -a Scripts/try`) is the one every hint uses, on a terminal or
    /// not. Before, a rate-limited run with stderr in a file said `gh-users list …`.
    @Test func aWrappersNameIsTheOneHintsUse() async throws {
        try await withServer(users: 300) { server in
            server.injectFaults([.passThrough, .primaryRateLimitExhausted(resetAfterSeconds: 600)], forPath: "/users")
            let result = try await shell(
                "(exec -a Scripts/try \"$GH_USERS\" list --all --per-page 50 --api-url \"$API\" --no-cache)", server)
            #expect(result.status == 5)
            #expect(
                result.stderr.contains(
                    "To continue from here: Scripts/try list --since \(server.population.users[49].id)"),
                "\(result.stderr)")
        }
    }

    /// `--token-file <(cmd)` names a pipe that is gone once the run ends: before, the hint repeated /dev/fd/63.
    @Test func aTokenFromAProcessSubstitutionIsNotInTheHint() async throws {
        try await withServer(users: 300) { server in
            server.injectFaults([.passThrough, .status(502, body: #"{"message":"Bad Gateway"}"#)], forPath: "/users")
            let result = try await shell(
                "\"$GH_USERS\" list --all --per-page 50 --retries 0 --api-url \"$API\" --no-cache "
                    + "--token-file <(printf '%s\\n' \"$GH_TOKEN\")", server)
            #expect(result.status == 1)
            let hint = try #require(
                result.stderr.split(separator: "\n").first { $0.hasPrefix("To continue from here") })
            #expect(!hint.contains("--token-file"), "\(hint)")
            #expect(result.stderr.contains("/dev/fd/"))
            #expect(result.stderr.contains("which cannot be read again: give it again, with --token-file or GH_TOKEN"))
        }
    }

    // MARK: A resume cuts back only its own unsaved page

    /// Two shards that share one output: resuming the first cut the second's 100 records away, exit 0. Now the
    /// bytes past the first's recorded length are the second's (ids above the first's --until), so the run is
    /// exit 1 naming the file and both lengths, and the file and the state are as they were.
    @Test func aResumeNeverCutsAnotherShardsRecords() async throws {
        try await withServer(users: 3000) { server in
            let shared = ["--output", path("shared.tsv")] + api(server)
            let first = try await run(
                ["list", "--since", "0", "--until", "1000", "--limit", "100", "--state", path("a.state")] + shared)
            #expect(first.status == 0, "\(first.stderr)")
            let second = try await run(
                ["list", "--since", "1000", "--until", "3000", "--limit", "100", "--state", path("b.state")] + shared)
            #expect(second.status == 0, "\(second.stderr)")
            let both = read("shared.tsv")
            let state = read("a.state")
            let recorded = try #require(stateObject("a.state")["output_bytes"] as? Int)
            let requests = server.requests.count
            let again = try await run(
                ["list", "--until", "1000", "--limit", "100", "--state", path("a.state")] + shared)
            #expect(again.status == 1)
            #expect(
                again.stderr.contains(
                    "the output file '\(path("shared.tsv"))' holds \(both.utf8.count) bytes, more than the \(recorded) "
                        + "the state file recorded"), "\(again.stderr)")
            #expect(again.stderr.contains("above --until 1000"), "\(again.stderr)")
            #expect(read("shared.tsv") == both)
            #expect(ids(both).count == 200)
            #expect(read("a.state") == state)
            #expect(server.requests.count == requests)
        }
    }

    /// A state whose length was set by hand to fall inside a record: exit 1, nothing cut.
    @Test func aRecordedLengthInsideARecordCutsNothing() async throws {
        try await withServer(users: 300) { server in
            let first = try await run(
                ["list", "--limit", "100", "--state", path("s"), "--output", path("o.tsv")] + api(server))
            #expect(first.status == 0, "\(first.stderr)")
            let output = read("o.tsv")
            var object = stateObject("s")
            object["output_bytes"] = 10
            try Foundation.Data(JSONSerialization.data(withJSONObject: object)).write(
                to: URL(fileURLWithPath: path("s")))
            let state = read("s")
            let again = try await run(
                ["list", "--limit", "100", "--state", path("s"), "--output", path("o.tsv")] + api(server))
            #expect(again.status == 1)
            #expect(
                again.stderr.contains(
                    "holds \(output.utf8.count) bytes, more than the 10 the state file recorded"), "\(again.stderr)")
            #expect(read("o.tsv") == output)
            #expect(read("s") == state)
        }
    }
}
