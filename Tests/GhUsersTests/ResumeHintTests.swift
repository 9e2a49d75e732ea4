import AtomicCore
import Domain
import Foundation
import TestSupport
import Testing

@testable import gh_users

/// The hint a stopped crawl prints must, run as printed, continue the same output.
struct ResumeHintTests {
    private func invocation(_ line: [String]) throws -> Invocation {
        guard case .run(let invocation) = CommandRouter().route(line) else {
            throw HintError.notRunnable(line.joined(separator: " "))
        }
        return invocation
    }

    private enum HintError: Error { case notRunnable(String) }

    /// The context of `invocation` run with stdout piped, as a crawl to a file runs.
    private func pipedContext(_ invocation: Invocation) -> CommandContext {
        CommandContext(
            io: IOStreams.test().0,
            render: RenderContext.resolve(requested: nil, isTTY: false, colorEnabled: false, width: 80, now: .now),
            presenter: ErrorPresenter(now: .now, hasToken: false),
            common: invocation.common
        )
    }

    /// Without --state the hint moves --since to the last id; with it, the hint is the command as given, since the
    /// state file says where to go on from.
    @Test(arguments: [
        (["list", "--all", "--json", "--no-cache"], true),
        (["list", "--limit", "250", "--per-page", "50", "--format", "csv", "--fields", "login,id"], true),
        (["list", "--since", "7", "--format", "ndjson", "--api-url", "http://127.0.0.1:9/api v3", "--offline"], true),
        (
            ["list", "--cache-dir", "/tmp/it's here", "--retries", "5", "--timeout", "2.5", "--wait-on-rate-limit"],
            true
        ),
        (["list", "--color", "never", "--token-file", "/run/secrets/gh"], true),
        (["list", "--since", "7", "--until", "90000", "--output", "o.tsv", "--limit", "50"], true),
        (["list", "--all", "--state", "/var/lib/users state", "--format", "ndjson"], false),
        (["list", "--since", "7", "--until", "90", "--state", "s", "--output", "o.csv", "--format", "csv"], false),
        // Values that read as options are written onto them: `--state --s` is refused as the next word.
        (["list", "--state=--s", "--output=-L5", "--cache-dir=-h", "--token-file=--t", "--format", "tsv"], false),
        (["list", "--output=--o.tsv", "--cache-dir=-", "--limit", "5"], true),
    ])
    func theHintRunsTheSameCommandFromTheLastID(line: [String], movesSince: Bool) throws {
        let original = try invocation(line)
        let options = try #require(original.options as? ListUsersOptions)
        let context = pipedContext(original)
        // A line before the hint may say where its output should go (JSON).
        let hint = try #require(ListUsersCommand.resumeHint(after: 4242, options, context).split(separator: "\n").last)
        #expect(hint.hasPrefix(movesSince ? "To continue from here: " : "To continue from here, run it again"))
        let command = try #require(hint.split(separator: ": ", maxSplits: 1).last.map(String.init))
        let words = ShellWords.split(command)
        #expect(words.first == "gh-users")
        var expected = options
        if movesSince { expected.since = 4242 }
        #expect(
            try invocation(Array(words.dropFirst()))
                == Command(ListUsersOptions.self).invocation(expected, original.common))
    }

    /// A csv crawl to stdout would repeat its header where its rerun is appended (`>> u.csv`): to a file, the rest
    /// goes there by `--output`, which writes no header into a file that holds records; to a pipe, a line says to
    /// leave the header out. Before: only the `--since` hint, and a second header in the middle of the file.
    /// An `--offline` crawl stopped at a page the cache does not have: the same line would stop there again, so the
    /// hint leaves --offline out and says why (helper-231; before, it kept --offline). Stopped otherwise, an
    /// offline crawl's hint stays offline.
    @Test func anOfflineCrawlStoppedAtAPageNotCachedGoesOnOnline() throws {
        let original = try invocation(["list", "--since", "7", "--format", "ndjson", "--offline", "--limit", "500"])
        let options = try #require(original.options as? ListUsersOptions)
        let context = pipedContext(original)
        let hint = CrawlResumeHint(requested: options, context: context)
        let stopped = hint.hint(
            afterID: 4242, written: 200, stoppedBy: .notCached(resource: "GET /users?since=4242&per_page=100"))
        let lines = stopped.split(separator: "\n").map(String.init)
        #expect(
            lines.first == "That page is not in the cache, so the line below leaves --offline out: it reads GitHub.")
        let command = try #require(lines.last?.split(separator: ": ", maxSplits: 1).last.map(String.init))
        var online = original.common
        online.cacheMode = .readWrite
        var expected = options
        expected.since = 4242
        expected.paging.limit = .count(300)
        #expect(
            try invocation(Array(ShellWords.split(command).dropFirst()))
                == Command(ListUsersOptions.self).invocation(expected, online))
        let otherwise = hint.hint(afterID: 4242, written: 200, stoppedBy: .network("connection reset"))
        #expect(otherwise.hasSuffix(" --offline") && !otherwise.contains("not in the cache"), "\(otherwise)")
    }

    @Test(arguments: [nil, "/data/u.csv"])
    func aCSVCrawlToStdoutIsNotContinuedWithASecondHeader(file: String?) throws {
        let original = try invocation(["list", "--all", "--format", "csv"])
        let options = try #require(original.options as? ListUsersOptions)
        var context = CommandContext(
            io: IOStreams.test().0,
            render: RenderContext.resolve(requested: .csv, isTTY: false, colorEnabled: false, width: 80, now: .now),
            presenter: ErrorPresenter(now: .now, hasToken: false),
            common: original.common
        )
        context.stdoutFile = file
        let lines = ListUsersCommand.resumeHint(after: 3, options, context).split(separator: "\n").map(String.init)
        if let file {
            #expect(lines == ["To continue from here: gh-users list --since 3 --output \(file) --all --format csv"])
        } else {
            #expect(
                lines == [
                    "The rest starts with csv's header again: leave that line out where you append it.",
                    "To continue from here: gh-users list --since 3 --all --format csv",
                ])
        }
    }

    /// `--output >(gzip > f)` (bash's /dev/fd/63, a pipe) is this run's alone: the line leaves it out and says
    /// so, where it repeated `--output /dev/fd/63`, gone or another file on the rerun (a review's find). A
    /// descriptor the shell opened on a regular file (`3>>out.tsv`) is kept: the same redirection gives it again
    /// (helper-289); so are `/dev/stdout` and a file's name. The descriptors are this test's own: which numbers
    /// are open in a test process is not known beforehand.
    @Test func anOutputTheShellMadeForThisRunAloneIsLeftOut() throws {
        func hint(_ output: String) throws -> [String] {
            let original = try invocation(["list", "--all", "--output", output])
            let options = try #require(original.options as? ListUsersOptions)
            return ListUsersCommand.resumeHint(after: 3, options, pipedContext(original)).split(separator: "\n")
                .map(String.init)
        }
        var ends: [Int32] = [-1, -1]
        #expect(pipe(&ends) == 0)
        defer { for end in ends { close(end) } }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("hint-\(UUID())").path
        let regular = open(file, O_WRONLY | O_CREAT, 0o600)
        defer { close(regular) }
        defer { unlink(file) }
        for output in ["/dev/fd/\(ends[1])", "/proc/self/fd/\(ends[1])"] {
            #expect(
                try hint(output) == [
                    "The output went to \(output), which the shell made for this run alone: give the line below "
                        + "--output (or a redirection) for where the rest goes.",
                    "To continue from here: gh-users list --since 3 --all",
                ])
        }
        for output in ["/dev/fd/\(regular)", "/proc/self/fd/\(regular)", "/dev/stdout", "u.tsv"] {
            #expect(try hint(output) == ["To continue from here: gh-users list --since 3 --output \(output) --all"])
        }
    }

    @Test func aFailedJSONCrawlSaysHowToGoOnInJSON() async {
        let github = StubTransport()
        github.answerPages("/users?since=0&per_page=100", [[1, 2]], failing: 502)
        let (env, _, err) = AppEnvironment.test(http: github)
        #expect(await GhUsersApp(environment: env).run(["list", "--all", "--json", "--no-cache"]) == 1)
        #expect(err.text.hasSuffix("To continue from here: gh-users list --since 2 --all --format json --no-cache\n"))
    }

    /// A `--state` crawl stopped before it wrote anything (a rerun interrupted at once, a first page refused)
    /// still says to run it again: the state knows where. Before, stderr held the failure alone.
    @Test func aStateCrawlStoppedBeforeItsFirstRecordSaysHowToGoOn() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let line = ["list", "--all", "--state", folder("s"), "--output", folder("o.tsv"), "--no-cache"]
        let first = StubTransport()
        first.answerPages("/users?since=0&per_page=100", [[1, 2]], failing: 502)
        #expect(await GhUsersApp(environment: AppEnvironment.test(http: first).0).run(line) == 1)
        let github = StubTransport()
        github.answerPages("/users?since=2&per_page=100", [], failing: 502)
        let (env, out, err) = AppEnvironment.test(http: github)
        #expect(await GhUsersApp(environment: env).run(line) == 1)
        #expect(out.text.isEmpty)
        #expect(
            err.text.hasSuffix(
                "To continue from here, run it again: gh-users list --state \(ShellWord.quote(folder("s"))) --output "
                    + "\(ShellWord.quote(folder("o.tsv"))) --all --no-cache\n"), "\(err.text)")
    }

    /// A crawl of `--limit 5` that stopped after 2 accounts asks for the 3 left, with or without a state: run as
    /// printed, the two runs write the 5 first asked for, not 2 + 5.
    @Test(arguments: [false, true])
    func aCrawlStoppedShortOfItsLimitAsksOnlyForTheRest(withState: Bool) async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let github = StubTransport()
        github.answerPages("/users?since=0&per_page=2", [[1, 2]], failing: 502)
        let (env, out, err) = AppEnvironment.test(http: github)
        let state = withState ? ["--state", folder("s")] : []
        let line = ["list", "--limit", "5", "--per-page", "2", "--format", "tsv"] + state
        #expect(await GhUsersApp(environment: env).run(line) == 1)
        #expect(out.text.split(separator: "\n").count == 2)
        let hint = try #require(err.text.split(separator: "\n").last.map(String.init))
        #expect(
            hint
                == (withState
                    ? "To continue from here, run it again, appending to where this output went: gh-users list "
                        + "--state \(ShellWord.quote(folder("s"))) --limit 3 --per-page 2 --format tsv"
                    : "To continue from here: gh-users list --since 2 --limit 3 --per-page 2 --format tsv"))
        // A run that reached its limit, with more to come, goes on with the same limit: the next 5.
        let (io, _, terminal) = IOStreams.test(stdoutTTY: true)
        let more = StubTransport()
        more.answerPages("/users?since=0&per_page=2", [[1, 2], [3, 4], [5, 6]], linkOn: true)
        var (full, _, _) = AppEnvironment.test(http: more)
        full.io = io
        #expect(await GhUsersApp(environment: full).run(["list", "--limit", "5", "--per-page", "2"]) == 0)
        #expect(terminal.text.contains("To continue from here: gh-users list --since 5 --limit 5 --per-page 2\n"))
    }

    /// `list` with `arguments` whose first page (`per_page` as given) holds accounts 1 to 3, written to a stdout
    /// that takes `accepted` bytes and then fails as a file-size limit does: what was written, and stderr.
    private func cutRun(_ arguments: [String], perPage: Int, accepted: Int) async -> (written: String, err: String) {
        let github = StubTransport()
        github.answerPages("/users?since=0&per_page=\(perPage)", [[1, 2, 3]], linkOn: true)
        let out = PartialSink(accepts: accepted)
        let (io, _, err) = IOStreams.test()
        var (env, _, _) = AppEnvironment.test(http: github)
        env.io = IOStreams(
            out: out, err: io.err, stdoutIsTTY: false, stderrIsTTY: false, terminalWidth: 80, colorPolicy: .auto)
        #expect(await GhUsersApp(environment: env).run(["list"] + arguments) == 1)
        return (out.text, err.text)
    }

    /// A write that stops part-way through a page (`ulimit -f`) leaves some of its records whole: the hint goes on
    /// after the last of them, not after the page before, which would write them again.
    @Test(arguments: [(60, "2"), (50, "2"), (30, "1")])
    func aWriteCutInsideAPageResumesAfterItsLastWholeRecord(accepted: Int, since: String) async {
        let (written, err) = await cutRun(
            ["--all", "--format", "ndjson", "--no-cache"], perPage: 100, accepted: accepted)
        let whole = written.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(whole.last?.contains(#""id":\#(since)}"#) == true, "\(written)")
        #expect(
            err.hasSuffix("To continue from here: gh-users list --since \(since) --all --format ndjson --no-cache\n"))
        #expect(err.contains("Remove the unfinished last line") == !written.hasSuffix("\n"), "\(err)")
    }

    /// A JSON record is many lines and the array is open: stderr says the output is no whole document, and not to
    /// take away a last line, which would leave it no more whole.
    @Test func aCutJSONArrayIsNotCalledALine() async {
        let (written, err) = await cutRun(["--all", "--json", "--no-cache"], perPage: 100, accepted: 60)
        #expect(written.hasPrefix("[") && !written.hasSuffix("]\n"), "\(written)")
        #expect(err.contains("The output ends in a record cut short: it is no whole JSON document"), "\(err)")
        #expect(!err.contains("unfinished last line"), "\(err)")
    }

    /// A JSON array cut just after a record holds no cut record, and is still no whole document.
    @Test func aJSONArrayCutBetweenRecordsIsNoWholeDocumentEither() async throws {
        let (full, _) = await cutRun(["--all", "--json", "--no-cache"], perPage: 100, accepted: 100_000)
        let firstEnd = try #require(full.utf8.firstRange(of: "\n  }".utf8)).upperBound
        let boundary = full.utf8.distance(from: full.utf8.startIndex, to: firstEnd)
        let (written, err) = await cutRun(["--all", "--json", "--no-cache"], perPage: 100, accepted: boundary)
        #expect(written.hasSuffix("\n  }"), "\(written)")
        #expect(!err.contains("cut record") && !err.contains("cut short"), "\(err)")
        #expect(err.contains("The output is no whole JSON document: its array was left open"), "\(err)")
        // Cut before its first record was whole: no record is said to be whole.
        let (_, early) = await cutRun(["--all", "--json", "--no-cache"], perPage: 100, accepted: 3)
        #expect(early.contains("The output is no whole JSON document, and holds no whole record."), "\(early)")
    }

    /// A csv record may span lines (a quoted field with a line break): the cut one is told in bytes, which take
    /// away what it wrote and no more.
    @Test func aCutCSVRecordIsToldInBytes() async throws {
        let (full, _) = await cutRun(["--all", "--format", "csv", "--no-cache"], perPage: 100, accepted: 100_000)
        // Five bytes into the second record (after the header and the first).
        let accepted = full.split(separator: "\r\n").prefix(2).map { $0.utf8.count + 2 }.reduce(5, +)
        let (written, err) = await cutRun(
            ["--all", "--format", "csv", "--no-cache"], perPage: 100, accepted: accepted)
        let bytes = try #require(err.firstMatch(of: /the output's last ([0-9]+) bytes/)?.output.1, "\(err)").description
        let kept = written.utf8.dropLast(try #require(Int(bytes)))
        #expect(String(decoding: kept, as: UTF8.self).hasSuffix("\r\n") && kept.count < written.utf8.count)
        #expect(!err.contains("unfinished last line"), "\(err)")
        #expect(err.components(separatedBy: "(what was written ends in a cut record)").count == 2, "\(err)")
    }

    /// The same cut write under `--limit 10` asks for the 10 less the records written whole.
    @Test(arguments: [(60, 8), (30, 9)])
    func aWriteCutInsideAPageAsksForWhatIsLeftOfTheLimit(accepted: Int, left: Int) async {
        let (_, err) = await cutRun(["--limit", "10", "--format", "ndjson"], perPage: 10, accepted: accepted)
        #expect(
            err.hasSuffix(
                "To continue from here: gh-users list --since \(10 - left) --limit \(left) --format ndjson\n"),
            "\(err)")
    }

    @Test func onATerminalTheHintUsesTheNameTheUserTyped() async {
        let github = StubTransport()
        github.answerPages("/users?since=0&per_page=100", [[1]], failing: 502)
        let (io, _, err) = IOStreams.test(stderrTTY: true)
        var (env, _, _) = AppEnvironment.test(http: github)
        env.io = io
        env.programName = "./.build/release/gh-users"
        #expect(await GhUsersApp(environment: env).run(["list", "--all"]) == 1)
        #expect(err.text.contains("To continue from here: ./.build/release/gh-users list --since 1 --all\n"))
    }

    @Test(arguments: [("plain", "plain"), ("a b", "'a b'"), ("it's", #"'it'\''s'"#), ("\u{1B}[2J", #"$'\e[2J'"#)])
    func wordsAreQuotedForTheShellAndTheTerminal(word: LoggedText, quoted: String) {
        #expect(ShellWord.quote(word.text) == quoted)
    }
}

/// stdout that takes the first `accepts` bytes and then fails as a file-size limit does, saying how many of the
/// failed write's bytes went out.
private final class PartialSink: OutputSink, @unchecked Sendable {
    private let lock = NSLock()
    private let accepts: Int
    private var bytes: [UInt8] = []

    init(accepts: Int) {
        self.accepts = accepts
    }

    func write(_ chunk: [UInt8]) throws {
        try lock.withLock {
            let taken = chunk.prefix(max(0, accepts - bytes.count))
            bytes += taken
            guard taken.count == chunk.count else {
                // As a descriptor's write fails (`FileDescriptorSink`), its message saying a cut part-way.
                throw OutputWriteError.cut("cannot write to stdout: file too large", written: taken.count)
            }
        }
    }

    var text: String { lock.withLock { String(decoding: bytes, as: UTF8.self) } }
}
