import AtomicCore
import Domain
import Foundation
import TestSupport
import Testing

@testable import gh_users

struct ProgressTests {
    private func repository() -> StubTransport {
        let users = StubTransport()
        users.answerPages("/users?since=0&per_page=2", [[1, 2], [3, 4], [5]])
        return users
    }

    /// `list --all` over three pages of two, with `io` for the run's streams.
    private func listAll(_ io: IOStreams) async -> Int32 {
        var (env, _, _) = AppEnvironment.test(http: repository())
        env.io = io
        return await GhUsersApp(environment: env).run(["list", "--all", "--per-page", "2"])
    }

    @Test func aMultiPageListingShowsProgressOnATerminalAndErasesIt() async {
        let (io, out, err) = IOStreams.test(stderrTTY: true)
        #expect(await listAll(io) == 0)
        #expect(out.text.split(separator: "\n").count == 5)
        #expect(err.text.contains("Fetched 1 page · 2 accounts"))
        #expect(err.text.contains("Fetched 2 pages · 4 accounts"))
        #expect(err.text.hasSuffix("\r\u{1B}[2K"))
        #expect(!out.text.contains("Fetched"))
    }

    /// A retry is noted on the progress line with `--output FILE` too: the output's streams were new ones, whose
    /// status line the retry's streams never saw drawn (helper-321: 17 retries, no note).
    @Test func aRetryIsNotedOnTheProgressLineWithAnOutputFile() async throws {
        var harness = CommandHarness()
        harness.stderrTTY = true
        harness.http.answer("GET /users?since=0&per_page=2", accounts: [1, 2], next: "/users?since=2&per_page=2")
        harness.expect("GET /users?since=2&per_page=2", status: 502)
        harness.http.answer("GET /users?since=2&per_page=2", accounts: [3])
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gh-users-progress-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("users.tsv").path
        let run = await harness.run(["list", "--all", "--per-page", "2", "--fields", "id", "--output", file])
        #expect(run.status == 0, "\(run.err)")
        #expect(String(decoding: try Data(contentsOf: URL(fileURLWithPath: file)), as: UTF8.self) == "1\n2\n3\n")
        // The rate follows the count when the page took half a second or more, as on a loaded machine.
        #expect(run.err.contains(/Fetched 1 page · 2 accounts( · [0-9]+\/s)? · retrying \(HTTP 502\)/), "\(run.err)")
    }

    /// The output's streams keep what the run's knew: a stdout that is a pipe (no progress line on its reader's
    /// screen: helper-321 saw `list --state S | cat` draw one), stderr's width, the status line, and the clocks.
    @Test func theOutputsStreamsKeepWhatTheRunsKnew() async {
        var (io, _, err) = IOStreams.test(stderrTTY: true, width: 120)
        io.stdoutIsPipe = true
        io.stderrWidth = 60
        var context = CommandContext(
            io: io,
            render: RenderContext.resolve(requested: nil, isTTY: false, colorEnabled: false, width: 120, now: .now),
            presenter: ErrorPresenter(now: .now, hasToken: false))
        let waited = SleptFlag()
        context.sleep = { _ in waited.set() }
        let appended = context.appending(to: ReadPipe())
        #expect(appended.io.stdoutIsPipe)
        // A file in place of the pipe (`--output FILE | cat`) is no pipe: its progress shows (helper-323).
        #expect(!context.appending(to: CapturedOutput()).io.stdoutIsPipe)
        #expect(appended.io.stderrWidth == 60)
        #expect(!appended.io.stdoutIsTTY)
        appended.io.drawStatusLine("Fetched 1 page")
        io.noteOnStatusLine("retrying (HTTP 502)")
        #expect(err.text.hasSuffix("\r\u{1B}[2KFetched 1 page · retrying (HTTP 502)"), "\(err.text)")
        // The test's clock, not the real one.
        await appended.sleep(.milliseconds(1))
        #expect(waited.value)
    }

    /// A window resized mid-run: each status line is cut to stderr's width as it is then. A crawl narrowed from 80
    /// to 20 columns kept drawing 35, and each redraw wrapped, leaving a stale row behind (helper-360).
    @Test func theProgressLineFollowsAResizedTerminal() {
        var (io, _, err) = IOStreams.test(stderrTTY: true, width: 80)
        let columns = Columns()
        io.measureStderrWidth = { columns.now }
        io.drawStatusLine("Fetched 12 pages · 1,200 accounts · 40/s")
        columns.now = 20
        io.drawStatusLine("Fetched 13 pages · 1,300 accounts · 41/s")
        let drawn = err.text.components(separatedBy: "\r\u{1B}[2K")
        #expect(drawn == ["", "Fetched 12 pages · 1,200 accounts · 40/s", "Fetched 13 pages ·…"], "\(drawn)")
    }

    /// gh's `GH_SPINNER_DISABLED` says no status line is redrawn in place: a screen reader, or a terminal's log,
    /// read every redraw, and only `2>/dev/null` (errors too) or `TERM=dumb` (the table too) stopped them
    /// (helper-360). A value gh reads as false keeps the line.
    @Test func ghsSpinnerSwitchLeavesTheProgressLineOut() async {
        var (io, out, err) = IOStreams.test(stderrTTY: true)
        io.redrawsStatusLine = false
        #expect(await listAll(io) == 0)
        #expect(out.text.split(separator: "\n").count == 5)
        #expect(err.text.isEmpty, "\(err.text)")
        for (value, redraws) in [("1", false), ("true", false), ("0", true), ("false", true), ("", true)] {
            let system = IOStreams.system(environment: ["GH_SPINNER_DISABLED": value])
            #expect(system.redrawsStatusLine == redraws, "\(value)")
        }
        #expect(IOStreams.system(environment: [:]).redrawsStatusLine)
    }

    /// Without the status line a retry is still said, with the progress so far, on a line of its own: a stall
    /// went unannounced, as the note had no line to go on (helper-364).
    @Test func withoutTheStatusLineARetryIsSaidOnALineOfItsOwn() async {
        var harness = CommandHarness()
        (harness.stderrTTY, harness.redrawsStatusLine) = (true, false)
        harness.http.answer("GET /users?since=0&per_page=2", accounts: [1, 2], next: "/users?since=2&per_page=2")
        harness.expect("GET /users?since=2&per_page=2", status: 502)
        harness.http.answer("GET /users?since=2&per_page=2", accounts: [3])
        let run = await harness.run(["list", "--all", "--per-page", "2", "--fields", "id"])
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out == "1\n2\n3\n")
        #expect(
            run.err.contains(/^gh-users: Fetched 1 page · 2 accounts( · [0-9]+\/s)? · retrying \(HTTP 502\)\n/),
            "\(run.err)")
        #expect(!run.err.contains("\u{1B}"), "\(run.err)")
    }

    private final class Columns: @unchecked Sendable {
        private let lock = NSLock()
        private var value = 80
        var now: Int {
            get { lock.withLock { value } }
            set { lock.withLock { value = newValue } }
        }
    }

    /// A progress line wider than a narrow pane wrapped, and `\r` with erase-line cleared only its last row: the
    /// pane filled with stale copies. Each drawing fits the terminal, short of its last column.
    @Test func theProgressLineFitsANarrowTerminal() async {
        var (io, _, err) = IOStreams.test(stderrTTY: true, width: 20)
        io.stderrWidth = 20
        #expect(await listAll(io) == 0)
        let drawings = err.text.split(separator: "\r\u{1B}[2K").map(String.init).filter { !$0.isEmpty }
        #expect(drawings.count >= 2, "\(err.text)")
        #expect(drawings.allSatisfy { DisplayWidth.of($0) <= 19 && $0.hasPrefix("Fetched ") }, "\(drawings)")
    }

    /// One of anything is said in the singular, in the progress line and in the note a limit stop leaves.
    @Test func oneIsSingular() async {
        for limit in [1, 2] {
            let users = StubTransport()
            users.answerPages("/users?since=0&per_page=1", [[1], [2]], linkOn: true)
            let (io, _, err) = IOStreams.test(stdoutTTY: true, stderrTTY: true)
            var (env, _, _) = AppEnvironment.test(http: users)
            env.io = io
            #expect(await GhUsersApp(environment: env).run(["list", "--limit", "\(limit)", "--per-page", "1"]) == 0)
            // The rate follows the count when the page took half a second or more, as on a loaded machine.
            if limit == 1 {
                #expect(err.text.contains("Showing 1 account. To continue"), "\(err.text)")
            } else {
                #expect(err.text.contains(/Fetched 1 page · 1 account( · [0-9]+\/s)?\r/), "\(err.text)")
            }
        }
        #expect(Counted.text(1, plural: "events") == "1 event")
        #expect(Counted.text(1, plural: "email addresses") == "1 email address")
        #expect(Counted.text(1, plural: "starred repositories") == "1 starred repository")
        #expect(Counted.text(2, plural: "repositories") == "2 repositories")
    }

    @Test func offATerminalThereIsNoProgress() async {
        let (env, _, err) = AppEnvironment.test(http: repository())
        #expect(await GhUsersApp(environment: env).run(["list", "--all", "--per-page", "2"]) == 0)
        #expect(err.text.isEmpty)
    }

    /// stdout a pipe whose reader prints to the same terminal (`| head`): the progress line mixed into its lines
    /// ("Fetched 1 page · 100 accounts1\toctocat…"), and OUTPUT.md says none appears when output is piped.
    @Test func stdoutToAPipeShowsNoProgress() async {
        var (io, out, err) = IOStreams.test(stderrTTY: true)
        io.stdoutIsPipe = true
        #expect(await listAll(io) == 0)
        #expect(!out.text.isEmpty)
        #expect(err.text.isEmpty, "\(err.text)")
    }

    @Test func aSinglePageShowsNone() async {
        let users = StubTransport()
        users.answerPages("/users?since=0&per_page=30", [[1]])
        let (io, _, err) = IOStreams.test(stderrTTY: true)
        var (env, _, _) = AppEnvironment.test(http: users)
        env.io = io
        #expect(await GhUsersApp(environment: env).run(["list"]) == 0)
        #expect(err.text.isEmpty)
    }
}

/// Whether a test's clock was asked to sleep.
private final class SleptFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var slept = false

    var value: Bool { lock.withLock { slept } }

    func set() { lock.withLock { slept = true } }
}

/// A pipe whose reader has taken everything written.
private struct ReadPipe: OutputSink {
    func write(_ bytes: [UInt8]) throws {}
    var unreadBytes: Int? { 0 }
}
