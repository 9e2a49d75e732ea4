import Foundation
import GitHubStandIn
import TestSupport
import Testing

@testable import gh_users

/// A crawl that a test starts and kills itself, for `--output` runs that write nothing on stdout or stderr to wait
/// for (BinaryRunner's interrupt waits for a first byte). Every wait is a `Task.sleep`, never a blocked thread, so
/// the tests running beside it keep the cooperative pool.
private final class CrawlProcess: @unchecked Sendable {
    private let process: SpawnedProcess

    init(_ arguments: [String], in folder: URL) throws {
        let null = open("/dev/null", O_WRONLY | O_CLOEXEC)
        guard null >= 0 else { throw POSIXError(.EBADF) }
        defer { close(null) }
        process = try SpawnedProcess(
            executable: BinaryRunner.binary.path, arguments: arguments,
            environment: [
                "PATH": "/usr/bin:/bin", "HOME": folder.path, "LANG": "C.UTF-8",
                "XDG_CACHE_HOME": folder.appendingPathComponent("cache").path,
                "GH_TOKEN": CrawlStateEndToEndTests.token,
            ],
            directory: folder.path, stdout: null, stderr: null)
        // Reaped as soon as it ends, so `isRunning` turns false then.
        process.onExit { _ in }
    }

    var isRunning: Bool { process.isRunning }

    func kill(_ signal: Int32 = SIGKILL) {
        process.send(signal)
    }

    /// The exit status (128 + the signal for a killed process), or nil when it had not ended within `seconds`
    /// (it is then killed).
    func wait(seconds: Double = 60) async throws -> Int32? {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while process.isRunning, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        guard !process.isRunning else {
            kill()
            while process.isRunning { try await Task.sleep(for: .milliseconds(5)) }
            return nil
        }
        return process.shellStatus
    }
}

/// `list --state`, `--output` and `--until` against the built binary: crawls that resume, grow, survive a SIGKILL
/// and split into shards, with nothing lost and nothing written twice. The tests run beside the rest of the suite:
/// each waits for what a crawl has done (its state, its first byte), never for a time, and one that ran one at a
/// time was a chain of crawls left to run alone after everything else. Options that cannot go together are
/// `ListCommandTests`'.
struct CrawlStateEndToEndTests {
    /// Any token: the stand-in grants it 5,000 requests an hour, where anonymous callers get 60.
    static let token = "ghp_crawlstatetest"
    private let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("gh-users-crawl-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    private func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    private func read(_ name: String) -> String {
        (try? String(contentsOfFile: path(name), encoding: .utf8)) ?? ""
    }

    private func bytes(_ name: String) -> Foundation.Data {
        FileManager.default.contents(atPath: path(name)) ?? Foundation.Data()
    }

    private func state(_ name: String) throws -> [String: Int] {
        try #require(currentState(name))
    }

    /// The state file's fields, or nil while there is none; it is replaced atomically, so it is never half-written.
    private func currentState(_ name: String) -> [String: Int]? {
        ((try? JSONSerialization.jsonObject(with: bytes(name))) as? [String: Any])?.compactMapValues { $0 as? Int }
    }

    /// The output file the state counts, when it names one.
    private func recordedOutput(_ name: String) -> String? {
        ((try? JSONSerialization.jsonObject(with: bytes(name))) as? [String: Any])?["output"] as? String
    }

    private func withServer<T>(
        users: Int, latency: Int = 0, keepFolder: Bool = false, _ body: (StandInServer) async throws -> T
    ) async throws -> T {
        let server = try StandInServer(
            configuration: StandInConfiguration(userCount: users, latencyMilliseconds: latency))
        try server.start()
        defer {
            server.stop()
            if !keepFolder { try? FileManager.default.removeItem(at: folder) }
        }
        return try await body(server)
    }

    private func run(_ arguments: [String], interruptAfter: TimeInterval? = nil) async throws -> RunResult {
        try await BinaryRunner.run(arguments, environment: ["GH_TOKEN": Self.token], interruptAfter: interruptAfter)
    }

    private func api(_ server: StandInServer) -> [String] { ["--api-url", server.baseURL, "--no-cache"] }

    /// `gh-users ARGUMENTS --api-url … >> FILE`, through a shell, as a cron job appends.
    private func append(_ arguments: [String], to file: String, _ server: StandInServer) async throws -> RunResult {
        try await BinaryRunner.shell(
            #""$GH_USERS" "# + (arguments + api(server)).map { "'\($0)'" }.joined(separator: " ") + #" >> "$OUT""#,
            environment: ["OUT": path(file), "GH_TOKEN": Self.token])
    }

    private func ids(_ tsv: String) -> [Int] {
        tsv.lines().compactMap { Int($0.split(separator: "\t")[0]) }
    }

    private func ndjsonIDs(_ text: String) throws -> [Int] {
        try text.lines().map { line in
            try #require(try JSONSerialization.jsonObject(with: Foundation.Data(line.utf8)) as? [String: Any])["id"]
                as? Int ?? -1
        }
    }

    private func sinceValues(_ server: StandInServer) -> [String] {
        server.requests.filter { $0.path == "/users" }.compactMap { $0.query["since"] }
    }

    @Test func aNightlyCrawlAppendsOnlyTheAccountsCreatedSinceTheLastRun() async throws {
        let arguments = ["list", "--all", "--state", path("users.state"), "--format", "ndjson", "--per-page", "100"]
        // Tonight GitHub has 250 accounts; tomorrow 420, the first 250 of them the same.
        let tonight = try await withServer(users: 250, keepFolder: true) { server in
            let result = try await run(arguments + api(server))
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stderr.isEmpty)
            #expect(try ndjsonIDs(result.stdout) == server.population.users.map(\.id))
            #expect(try state("users.state") == ["version": 1, "since": server.population.users.last!.id])
            let mode = try FileManager.default.attributesOfItem(atPath: path("users.state"))[.posixPermissions] as? Int
            #expect(mode == 0o600)
            return (stdout: result.stdout, root: server.baseURL)
        }
        try await withServer(users: 420) { server in
            // The two stand-ins are one GitHub on two days, on two ports: the state's API root becomes tomorrow's,
            // which a run against another root would refuse.
            let recorded = read("users.state")
            #expect(recorded.contains(#""api_url":"\#(tonight.root)""#), "\(recorded)")
            try recorded.replacingOccurrences(of: tonight.root, with: server.baseURL)
                .write(toFile: path("users.state"), atomically: true, encoding: .utf8)
            let result = try await run(arguments + api(server))
            #expect(result.status == 0, "\(result.stderr)")
            // Tomorrow's run starts after tonight's last account, and `>>` makes the file the whole list.
            #expect(sinceValues(server).first == String(server.population.users[249].id))
            #expect(try ndjsonIDs(tonight.stdout + result.stdout) == server.population.users.map(\.id))
            // A third run finds nothing new and writes nothing.
            let again = try await run(arguments + api(server))
            #expect(again.status == 0)
            #expect(again.stdout.isEmpty)
        }
    }

    /// A failure or a spent rate limit after three pages: rerunning the same command goes on after the last account
    /// written, and the two outputs together are the list, once each.
    @Test(arguments: [
        (StandInFault.status(500, body: #"{"message":"Server Error"}"#), Int32(1)),
        (StandInFault.primaryRateLimitExhausted(resetAfterSeconds: 3600), Int32(5)),
    ])
    func aCrawlStoppedByAFailureGoesOnWithTheSameCommand(fault: StandInFault, status: Int32) async throws {
        try await withServer(users: 1000) { server in
            server.injectFaults([.passThrough, .passThrough, .passThrough, fault], forPath: "/users")
            let arguments = ["list", "--all", "--state", path("s"), "--retries", "0"] + api(server)
            let first = try await run(arguments)
            #expect(first.status == status, "\(first.stderr)")
            #expect(ids(first.stdout) == Array(server.population.users.prefix(300).map(\.id)))
            #expect(
                first.stderr.contains(
                    "To continue from here, run it again: gh-users list --state \(ShellWord.quote(path("s"))) --all"))
            #expect(try state("s")["since"] == server.population.users[299].id)
            let second = try await run(arguments)
            #expect(second.status == 0, "\(second.stderr)")
            #expect(ids(first.stdout + second.stdout) == server.population.users.map(\.id))
        }
    }

    /// `--full` with `--state`: a profile that fails in the middle of a page leaves that page out of stdout, so the
    /// rerun, which starts after the last page the state counts, writes nothing twice. Without holding the page,
    /// the profiles before the failure would be written now and again by the rerun.
    @Test func aFullCrawlStoppedMidPageGoesOnWithNothingWrittenTwice() async throws {
        try await withServer(users: 300) { server in
            let users = server.population.users
            server.injectFaults(
                [.status(500, body: #"{"message":"Server Error"}"#)], forPath: "/users/" + users[124].login)
            let arguments =
                [
                    "list", "--all", "--per-page", "50", "--full", "--state", path("s"), "--format", "ndjson",
                    "--retries", "0",
                ] + api(server)
            let first = try await run(arguments)
            #expect(first.status == 1, "\(first.stderr)")
            #expect(try ndjsonIDs(first.stdout) == Array(users.prefix(100).map(\.id)))
            #expect(try state("s")["since"] == users[99].id)
            let second = try await run(arguments)
            #expect(second.status == 0, "\(second.stderr)")
            let all = try ndjsonIDs(first.stdout + second.stdout)
            #expect(all == users.map(\.id))
            #expect(first.stdout.contains("\"followers\":"))
        }
    }

    @Test func aCrawlInterruptedWithCtrlCGoesOnWithTheSameCommand() async throws {
        try await withServer(users: 3000, latency: 100) { server in
            let arguments = ["list", "--all", "--state", path("s"), "--per-page", "50"] + api(server)
            let first = try await run(arguments, interruptAfter: 0.4)
            #expect(first.status == 130, "\(first.stderr)")
            #expect(first.stderr.contains("gh-users: interrupted"))
            let written = ids(first.stdout)
            #expect(!written.isEmpty && written.count < 3000)
            #expect(try state("s")["since"] == written.last)
            let second = try await run(arguments)
            #expect(second.status == 0, "\(second.stderr)")
            #expect(ids(first.stdout + second.stdout) == server.population.users.map(\.id))
        }
    }

    /// The id on the last line of tsv, csv or ndjson output; 0 when there is none (the crawl's start). Read from
    /// the end: the stress test below asks after every kill, of a file of thousands of lines.
    private func lastID(_ output: Foundation.Data) -> Int {
        let isNewline = { (byte: UInt8) in byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") }
        guard let end = output.lastIndex(where: { !isNewline($0) }) else { return 0 }
        let start = output[..<end].lastIndex(where: isNewline).map { $0 + 1 } ?? output.startIndex
        let line = String(decoding: output[start...end], as: UTF8.self)
        if line.hasPrefix("{") {
            let object = try? JSONSerialization.jsonObject(with: Foundation.Data(line.utf8)) as? [String: Any]
            return object?["id"] as? Int ?? -1
        }
        return Int(line.prefix { $0 != "\t" && $0 != "," }) ?? 0
    }

    /// The state after a kill, checked against the single crawl: the file up to the recorded length is exactly the
    /// crawl's first lines, ending at the recorded id; anything past it is at most the page being written.
    private func checkInvariant(against whole: Foundation.Data, file: String, state name: String) throws -> Bool {
        guard FileManager.default.fileExists(atPath: path(name)) else { return false }
        let recorded = try state(name)
        let length = try #require(recorded["output_bytes"])
        let output = bytes(file)
        #expect(output.count >= length)
        let kept = output.prefix(length)
        #expect(whole.starts(with: kept))
        #expect(lastID(kept) == recorded["since"])
        return output.count > length
    }

    /// SIGKILL while the stand-in holds page 4's response: the state records page 3 and the file holds pages 1 to 3.
    /// A kill a moment later, inside the write of page 4 or between that write and its state, leaves part or all of
    /// page 4 beyond the recorded length; that tail is added here, byte for byte what such a kill leaves, and the
    /// rerun cuts it off and writes page 4 once.
    @Test(arguments: [0.5, 1.0])
    func aCrawlKilledMidPageGoesOnWithNothingLostOrWrittenTwice(shareOfNextPage: Double) async throws {
        try await withServer(users: 600) { server in
            let common = ["list", "--all", "--per-page", "50", "--format", "csv"] + api(server)
            let single = try await run(common)
            let whole = Foundation.Data(single.stdout.utf8)
            server.injectFaults([.passThrough, .passThrough, .passThrough, .hang(seconds: 60)], forPath: "/users")
            server.resetRequests()
            let arguments = common + ["--state", path("s"), "--output", path("users.csv")]
            let crawl = try CrawlProcess(arguments, in: folder)
            let pageThreeEnd = server.population.users[149].id
            let deadline = Date().addingTimeInterval(60)
            while currentState("s")?["since"] != pageThreeEnd, crawl.isRunning, Date() < deadline {
                try await Task.sleep(for: .milliseconds(5))
            }
            crawl.kill()
            #expect(try await crawl.wait() == 128 + SIGKILL)
            #expect(try checkInvariant(against: whole, file: "users.csv", state: "s") == false)
            let recorded = try #require(try state("s")["output_bytes"])
            // The next page's bytes as the crawl writes them: the single crawl's next 50 lines.
            let pageFourLines = String(decoding: whole.dropFirst(recorded), as: UTF8.self).split(separator: "\r\n")
                .prefix(50)
            let pageFourBytes = Foundation.Data((pageFourLines.joined(separator: "\r\n") + "\r\n").utf8)
            let torn = pageFourBytes.prefix(Int(Double(pageFourBytes.count) * shareOfNextPage))
            let handle = try #require(FileHandle(forWritingAtPath: path("users.csv")))
            try handle.seekToEnd()
            try handle.write(contentsOf: torn)
            try handle.close()
            #expect(try checkInvariant(against: whole, file: "users.csv", state: "s"))

            let resumed = try await run(arguments)
            #expect(resumed.status == 0, "\(resumed.stderr)")
            #expect(resumed.stdout.isEmpty)
            // Byte for byte: no account twice, none missing, and the CSV header once.
            #expect(bytes("users.csv") == whole)
        }
    }

    /// Kills at random moments, over and over, until a run finishes by itself: each run is killed once it has got
    /// one to three pages further, plus up to 30 ms (inside a write, an fsync, a rename or a wait for GitHub).
    /// After every kill the state and the file agree, and the finished file is the single crawl's, byte for byte.
    @Test func aCrawlKilledAgainAndAgainEndsWithTheWholeListOnce() async throws {
        try await withServer(users: 3000, latency: 20) { server in
            let common = ["list", "--all", "--per-page", "40", "--format", "ndjson"] + api(server)
            let whole = Foundation.Data(try await run(common).stdout.utf8)
            let arguments = common + ["--state", path("s"), "--output", path("users.ndjson")]
            let users = server.population.users
            // Asked every 2 ms while a crawl runs: a lookup, not a walk of the 3,000 accounts.
            let positions = Dictionary(uniqueKeysWithValues: users.enumerated().map { ($1.id, $0) })
            func position() -> Int { currentState("s")?["since"].flatMap { positions[$0] } ?? -1 }
            var kills = 0
            var tornTails = 0
            var restarts = 0
            var status: Int32?
            for _ in 0..<100 {
                let target = position() + 40 * Int.random(in: 1...3)
                let crawl = try CrawlProcess(arguments, in: folder)
                while crawl.isRunning, position() < target { try await Task.sleep(for: .milliseconds(2)) }
                try await Task.sleep(for: .milliseconds(Int.random(in: 0...30)))
                guard crawl.isRunning else {
                    status = try await crawl.wait()
                    // A crawl that ended well before any kill (the tests beside this one left it no turn while
                    // the crawl ran) tested nothing: it starts again from nothing, up to four times. One that
                    // failed, or wrote another list, is the failure it is.
                    if kills == 0, restarts < 4, status == 0, bytes("users.ndjson") == whole {
                        restarts += 1
                        status = nil
                        for name in ["s", "s.lock", "users.ndjson"] {
                            try? FileManager.default.removeItem(atPath: path(name))
                        }
                        continue
                    }
                    break
                }
                crawl.kill()
                _ = try await crawl.wait()
                kills += 1
                if try checkInvariant(against: whole, file: "users.ndjson", state: "s") { tornTails += 1 }
            }
            if status == nil { status = try await CrawlProcess(arguments, in: folder).wait() }
            #expect(status == 0)
            #expect(kills > 0)
            #expect(bytes("users.ndjson") == whole)
            print("crawl state stress: \(kills) SIGKILLs, \(tornTails) left bytes past the recorded length")
        }
    }

    /// Two runs on one state at once would both append the same page: the second stops at once, exit 1, and
    /// sends nothing, while the lock file's holder (here the test itself) keeps it.
    @Test func aSecondRunOnTheSameStateIsRefused() async throws {
        try await withServer(users: 100) { server in
            let holder = open(path("s.lock"), O_RDWR | O_CREAT, 0o600)
            #expect(holder >= 0)
            defer { close(holder) }
            #expect(flock(holder, LOCK_EX | LOCK_NB) == 0)
            let result = try await run(["list", "--all", "--state", path("s")] + api(server))
            #expect(result.status == 1)
            #expect(result.stdout.isEmpty)
            #expect(result.stderr.contains("another gh-users run is using the state file '\(path("s"))'"))
            #expect(server.requests.isEmpty)
            #expect(!FileManager.default.fileExists(atPath: path("s")))
        }
    }

    /// A run without a state holds a share of the file stdout goes to while it runs, so a crawl does not start into
    /// it (before: it did, and its state counted what the other run's pages cut; helper-220).
    @Test func aCrawlDoesNotStartIntoAFileAnotherRunIsWriting() async throws {
        let plain = try await withServer(users: 100) { server in
            #expect(FileManager.default.createFile(atPath: path("shared.tsv"), contents: nil))
            func appending(_ arguments: [String]) async throws -> RunResult {
                try await append(arguments, to: "shared.tsv", server)
            }
            // The plain run waits in its first request, holding its share, until the stand-in stops.
            server.injectFaults([.hang(seconds: 600)], forPath: "/users")
            let plain = Task { try await appending(["list", "--limit", "2", "--retries", "0"]) }
            while server.requests.isEmpty { try await Task.sleep(for: .milliseconds(10)) }
            let crawl = try await appending(["list", "--all", "--state", path("c.state")])
            #expect(crawl.status == 1)
            #expect(crawl.stderr.contains("the file stdout goes to: wait for it to end"), "\(crawl.stderr)")
            #expect(server.requests.count == 1)
            return plain
        }
        _ = try? await plain.value
    }

    /// A crawl into a file that holds earlier output keeps its lock while it runs (before: reading the file's ends
    /// closed a descriptor of it, which dropped every lock the crawl held there, and a plain run wrote into it;
    /// helper-222). `follows` refused so is 2, as every question it could not ask. Before the holder was told by
    /// its executable too, a crawl run under another name was taken for a wrapper's lock, and let be.
    @Test func noRunWritesIntoAFileACrawlIsWriting() async throws {
        let crawl = try await withServer(users: 100) { server in
            #expect(FileManager.default.createFile(atPath: path("held.tsv"), contents: nil))
            func appending(_ arguments: [String]) async throws -> RunResult {
                try await append(arguments, to: "held.tsv", server)
            }
            #expect(try await appending(["list", "--limit", "3"]).status == 0)
            server.resetRequests()
            server.injectFaults([.hang(seconds: 600)], forPath: "/users")
            // The crawl runs under another name (an install's alias): still a gh-users run, as its executable is.
            try FileManager.default.createSymbolicLink(
                atPath: path("ghu"), withDestinationPath: BinaryRunner.binary.path)
            let arguments = ["list", "--all", "--state", path("h.state"), "--retries", "0"] + api(server)
            let crawl = Task {
                try await BinaryRunner.shell(
                    #""$GHU" "# + arguments.map { "'\($0)'" }.joined(separator: " ") + #" >> "$OUT""#,
                    environment: ["GHU": path("ghu"), "OUT": path("held.tsv"), "GH_TOKEN": Self.token])
            }
            while server.requests.isEmpty { try await Task.sleep(for: .milliseconds(10)) }
            let plain = try await appending(["show", "octocat"])
            #expect(plain.status == 1)
            #expect(plain.stderr.contains("the file stdout goes to: wait for it to end"), "\(plain.stderr)")
            let question = try await appending(["follows", "octocat", "octocat"])
            #expect(question.status == 2, "\(question.stderr)")
            // With stderr into the file too (`2>&1`) and no terminal, the refusal is not written among the
            // crawl's records (a review found it in the middle of a map).
            let before = try Foundation.Data(contentsOf: URL(fileURLWithPath: path("held.tsv")))
            let mixed = try await BinaryRunner.shell(
                #"setsid -w "$GH_USERS" show octocat "# + api(server).map { "'\($0)'" }.joined(separator: " ")
                    + #" >> "$OUT" 2>&1"#, environment: ["OUT": path("held.tsv"), "GH_TOKEN": Self.token])
            #expect(mixed.status == 1)
            #expect(try Foundation.Data(contentsOf: URL(fileURLWithPath: path("held.tsv"))) == before)
            #expect(server.requests.count == 1)
            return crawl
        }
        _ = try? await crawl.value
    }

    /// Two crawls with their own states wrote one output in turn, each account twice, and neither state could go
    /// on: a crawl holds a record lock on its `--output`, or the file its stdout appends to, and another is
    /// refused before it asks or writes anything. A caller's flock(1) on the file is no crawl, and is let be.
    @Test func aSecondCrawlIntoTheSameOutputIsRefused() async throws {
        try await withServer(users: 100) { server in
            #expect(
                FileManager.default.createFile(atPath: path("out.tsv"), contents: Foundation.Data("1\ta\t\t\n".utf8)))
            let holder = open(path("out.tsv"), O_RDWR)
            defer { close(holder) }
            var lock = flock()
            (lock.l_type, lock.l_whence) = (Int16(F_WRLCK), Int16(SEEK_SET))
            #expect(fcntl(holder, F_SETLK, &lock) == 0)
            let crawl = ["list", "--all", "--state", path("a.state")] + api(server)
            let refused = try await run(crawl + ["--output", path("out.tsv")])
            #expect(refused.status == 1)
            #expect(refused.stderr.contains("another gh-users run is writing the output file"), "\(refused.stderr)")
            // The crawl with stdout sent as `redirect` says.
            func crawling(_ redirect: String) async throws -> RunResult {
                try await BinaryRunner.shell(
                    #""$GH_USERS" "# + crawl.map { "'\($0)'" }.joined(separator: " ") + " " + redirect,
                    environment: ["OUT": path("out.tsv"), "GH_TOKEN": Self.token])
            }
            let appending = try await crawling(#">> "$OUT""#)
            #expect(appending.status == 1)
            #expect(appending.stderr.contains("the file stdout goes to: wait for it to end"), "\(appending.stderr)")
            // A run without a state is not refused for a lock that is no gh-users run's (a wrapper's `lockf`): the
            // test holds it here (before: refused, naming "another gh-users run"; helper-222).
            let wrapped = open(path("out.tsv.w"), O_RDWR | O_CREAT, 0o600)
            defer { close(wrapped) }
            var wrapperLock = flock()
            (wrapperLock.l_type, wrapperLock.l_whence) = (Int16(F_WRLCK), Int16(SEEK_SET))
            #expect(fcntl(wrapped, F_SETLK, &wrapperLock) == 0)
            let plain = try await BinaryRunner.shell(
                #""$GH_USERS" list --limit 2 "# + api(server).map { "'\($0)'" }.joined(separator: " ")
                    + #" >> "$OUT".w"#,
                environment: ["OUT": path("out.tsv"), "GH_TOKEN": Self.token])
            #expect(plain.status == 0, "\(plain.stderr)")
            server.resetRequests()
            // A crawl to `> FILE` is refused: a rerun with > would empty what the state counts.
            let truncating = try await crawling(#"> "$OUT".new"#)
            #expect(truncating.status == 1)
            #expect(truncating.stderr.contains("with --state, stdout must append to"), "\(truncating.stderr)")
            // No state yet: none to restore or remove (a review's find); with one, the output may be what it counts.
            #expect(
                truncating.stderr.hasSuffix("Nothing was asked: run with >> FILE or --output FILE\n"),
                "\(truncating.stderr)")
            #expect(
                FileManager.default.createFile(
                    atPath: path("a.state"), contents: Foundation.Data(#"{"version":1,"since":3,"format":"tsv"}"#.utf8))
            )
            let held = try await crawling(#"> "$OUT".new"#)
            #expect(held.status == 1)
            #expect(
                held.stderr.contains("restore it or remove the state file to start again; then run with >> FILE or "),
                "\(held.stderr)")
            try FileManager.default.removeItem(atPath: path("a.state"))
            // `1<>` empties nothing, but would write over the file from its start: refused, and said so (of a file
            // no run holds: one that another run writes is refused as such first).
            #expect(FileManager.default.createFile(atPath: path("out.tsv.full"), contents: Foundation.Data("1\n".utf8)))
            let overwriting = try await crawling(#"1<> "$OUT".full"#)
            #expect(overwriting.status == 1)
            #expect(overwriting.stderr.contains("(>>, not <>): <> writes over the file"), "\(overwriting.stderr)")
            // Empty and read-write (Python's open(f, "w+") truncates): it may have been emptied, so said as for >.
            let emptied = try await crawling(#"1<> "$OUT".rw"#)
            #expect(emptied.status == 1)
            #expect(emptied.stderr.contains("(>>, not >): > empties the file"), "\(emptied.stderr)")
            #expect(server.requests.isEmpty)
            #expect(read("out.tsv") == "1\ta\t\t\n")
            lock.l_type = Int16(F_UNLCK)
            #expect(fcntl(holder, F_SETLK, &lock) == 0)
            #expect(flock(holder, LOCK_EX | LOCK_NB) == 0)
            let written = try await run(crawl + ["--output", path("out.tsv")])
            #expect(written.status == 0, "\(written.stderr)")
            #expect(ids(read("out.tsv")).count == 1 + server.population.users.count)
        }
    }

    /// The state counts one output file's bytes: a run that names another `--output` stops, exit 1, before it
    /// cuts that other file back to a length that was never its own.
    @Test func aStateKeepsToItsOwnOutputFile() async throws {
        try await withServer(users: 300) { server in
            let first = try await run(
                ["list", "--limit", "200", "--state", path("s"), "--output", path("a.tsv")] + api(server))
            #expect(first.status == 0, "\(first.stderr)")
            #expect(recordedOutput("s") == path("a.tsv"))
            let precious = String(repeating: "keep me\n", count: 10_000)
            try precious.write(toFile: path("b.tsv"), atomically: true, encoding: .utf8)
            server.resetRequests()
            let second = try await run(
                ["list", "--all", "--state", path("s"), "--output", path("b.tsv")] + api(server))
            #expect(second.status == 1)
            #expect(second.stderr.contains("counts the bytes of '\(path("a.tsv"))'"), "\(second.stderr)")
            #expect(read("b.tsv") == precious)
            #expect(server.requests.isEmpty)
            // The same file named from another folder is still the same file.
            let third = try await BinaryRunner.shell(
                "cd \"$FOLDER\" && \"$GH_USERS\" list --all --state s --output ./a.tsv --api-url \"$API\" --no-cache",
                environment: ["FOLDER": folder.path, "API": server.baseURL, "GH_TOKEN": Self.token])
            #expect(third.status == 0, "\(third.stderr)")
            #expect(ids(read("a.tsv")) == server.population.users.map(\.id))
        }
    }

    /// An empty range is still a list: JSON prints its empty array.
    @Test func anEmptyRangeIsAnEmptyList() async throws {
        try await withServer(users: 50) { server in
            let result = try await run(["list", "--since", "5", "--until", "5", "--json"] + api(server))
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout == "[]\n")
        }
    }

    @Test func aCorruptStateIsExitOneAndLeftAsItIs() async throws {
        try await withServer(users: 100) { server in
            let corrupt = #"{"version":1,"since":"#
            try Foundation.Data(corrupt.utf8).write(to: URL(fileURLWithPath: path("s")))
            let result = try await run(["list", "--all", "--state", path("s")] + api(server))
            #expect(result.status == 1)
            #expect(result.stdout.isEmpty)
            #expect(result.stderr.contains("the state file '\(path("s"))'"))
            #expect(result.stderr.contains("left as it is"))
            #expect(read("s") == corrupt)
            #expect(server.requests.isEmpty)
        }
    }

    @Test func anOutputShorterThanItsStateIsExitOneAndTouchesNothing() async throws {
        try await withServer(users: 100) { server in
            let state = #"{"version":1,"since":5,"output_bytes":5000,"output":"\#(path("o"))","format":"tsv"}"#
            try Foundation.Data(state.utf8).write(to: URL(fileURLWithPath: path("s")))
            try Foundation.Data("1\tx\n".utf8).write(to: URL(fileURLWithPath: path("o")))
            let result = try await run(
                ["list", "--all", "--state", path("s"), "--output", path("o")] + api(server))
            #expect(result.status == 1)
            #expect(result.stderr.contains("fewer than the 5000 the state file recorded"))
            #expect(read("o") == "1\tx\n")
            #expect(read("s") == state)
            #expect(server.requests.isEmpty)
        }
    }

    @Test func aMissingStateStartsAtSinceAndIsCreatedPrivate() async throws {
        try await withServer(users: 300) { server in
            let result = try await run(
                ["list", "--since", "100", "--limit", "5", "--state", path("new.state")] + api(server))
            #expect(result.status == 0, "\(result.stderr)")
            let expected = server.population.users.filter { $0.id > 100 }.prefix(5).map(\.id)
            #expect(ids(result.stdout) == expected)
            #expect(sinceValues(server) == ["100"])
            #expect(try state("new.state") == ["version": 1, "since": expected.last!])
            let mode = try FileManager.default.attributesOfItem(atPath: path("new.state"))[.posixPermissions] as? Int
            #expect(mode == 0o600)
            // The state wins over --since on the next run.
            let next = try await run(
                ["list", "--since", "100", "--limit", "5", "--state", path("new.state")] + api(server))
            #expect(ids(next.stdout) == server.population.users.filter { $0.id > expected.last! }.prefix(5).map(\.id))
        }
    }

    /// The page holding --until is the last one requested, whether it ends inside a page or at its end.
    @Test(arguments: [(120, 3), (100, 2), (1, 1)])
    func untilStopsAtItsAccountAndRequestsNothingBeyond(ordinal: Int, pages: Int) async throws {
        try await withServer(users: 1000) { server in
            let until = server.population.users[ordinal - 1].id
            let result = try await run(
                ["list", "--all", "--per-page", "50", "--until", String(until)] + api(server))
            #expect(result.status == 0, "\(result.stderr)")
            #expect(ids(result.stdout) == server.population.users.prefix(ordinal).map(\.id))
            #expect(server.requests.count == pages)
        }
    }

    @Test func twoShardsTogetherAreTheSingleCrawl() async throws {
        try await withServer(users: 1234) { server in
            let common = ["list", "--all", "--per-page", "100", "--format", "ndjson"] + api(server)
            let single = try await run(common)
            // A boundary that is no account's id (ids skip), and one that is.
            for boundary in [server.population.users[600].id - 1, server.population.users[333].id] {
                let low = try await run(
                    common + ["--until", String(boundary), "--state", path("low\(boundary)"), "--output", path("a")])
                let high = try await run(
                    common + ["--since", String(boundary), "--state", path("high\(boundary)"), "--output", path("b")])
                #expect(low.status == 0 && high.status == 0, "\(low.stderr)\(high.stderr)")
                #expect(read("a") + read("b") == single.stdout)
                #expect(try ndjsonIDs(read("a")).allSatisfy { $0 <= boundary })
                // A shard already done writes nothing; when its last account is the boundary, it asks for nothing.
                server.resetRequests()
                let again = try await run(
                    common + ["--until", String(boundary), "--state", path("low\(boundary)"), "--output", path("a")])
                #expect(again.status == 0)
                #expect(again.stdout.isEmpty && again.stderr.isEmpty)
                let boundaryIsAnID = server.population.user(id: boundary) != nil
                #expect(server.requests.count == (boundaryIsAnID ? 0 : 1))
                try FileManager.default.removeItem(atPath: path("a"))
                try FileManager.default.removeItem(atPath: path("b"))
            }
        }
    }
}
