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
    ])
    func theHintRunsTheSameCommandFromTheLastID(line: [String], movesSince: Bool) throws {
        let original = try invocation(line)
        let options = try #require(original.options as? ListUsersOptions)
        let context = CommandContext(
            io: IOStreams.test().0,
            render: RenderContext.resolve(requested: nil, isTTY: false, colorEnabled: false, width: 80, now: .now),
            presenter: ErrorPresenter(now: .now, hasToken: false),
            common: original.common
        )
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
                == ListUsersCommand.declaration.invocation(expected, original.common))
    }

    @Test func aFailedJSONCrawlSaysHowToGoOnInJSON() async {
        let github = FakeGitHub()
        github.script(
            "/users?since=0&per_page=100",
            .success(Page(items: [makeUser(1), makeUser(2)], next: PageCursor(url: "p2"))))
        github.scriptPage("p2", Result<Page<User>, DomainError>.failure(.server(status: 502, message: "Bad Gateway")))
        let (env, _, err) = AppEnvironment.test(github: github)
        #expect(await GhUsersApp(environment: env).run(["list", "--all", "--json", "--no-cache"]) == 1)
        #expect(err.text.hasSuffix("To continue from here: gh-users list --since 2 --all --format json --no-cache\n"))
    }

    /// A write that stops part-way through a page (`ulimit -f`) leaves some of its records whole: the hint goes on
    /// after the last of them, not after the page before, which would write them again.
    @Test(arguments: [(60, "2"), (50, "2"), (30, "1")])
    func aWriteCutInsideAPageResumesAfterItsLastWholeRecord(accepted: Int, since: String) async {
        let github = FakeGitHub()
        github.script(
            "/users?since=0&per_page=100",
            .success(Page(items: [makeUser(1), makeUser(2), makeUser(3)], next: PageCursor(url: "p2"))))
        let out = PartialSink(accepts: accepted)
        let (io, _, err) = IOStreams.test()
        var (env, _, _) = AppEnvironment.test(github: github)
        env.io = IOStreams(
            out: out, err: io.err, stdoutIsTTY: false, stderrIsTTY: false, terminalWidth: 80, colorPolicy: .auto)
        #expect(await GhUsersApp(environment: env).run(["list", "--all", "--format", "ndjson", "--no-cache"]) == 1)
        let written = out.text
        let whole = written.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(whole.last?.contains(#""id":\#(since)}"#) == true, "\(written)")
        #expect(
            err.text.hasSuffix(
                "To continue from here: gh-users list --since \(since) --all --format ndjson --no-cache\n"))
        #expect(err.text.contains("Remove the unfinished last line") == !written.hasSuffix("\n"), "\(err.text)")
    }

    @Test func onATerminalTheHintUsesTheNameTheUserTyped() async {
        let github = FakeGitHub()
        github.script(
            "/users?since=0&per_page=100", .success(Page(items: [makeUser(1)], next: PageCursor(url: "p2"))))
        github.scriptPage("p2", Result<Page<User>, DomainError>.failure(.server(status: 502, message: "Bad Gateway")))
        let (io, _, err) = IOStreams.test(stderrTTY: true)
        var (env, _, _) = AppEnvironment.test(github: github)
        env.io = io
        env.programName = "./.build/release/gh-users"
        #expect(await GhUsersApp(environment: env).run(["list", "--all"]) == 1)
        #expect(err.text.contains("To continue from here: ./.build/release/gh-users list --since 1 --all\n"))
    }

    @Test(arguments: [("plain", "plain"), ("a b", "'a b'"), ("it's", #"'it'\''s'"#), ("\u{1B}[2J", #"'\e[2J'"#)])
    func wordsAreQuotedForTheShellAndTheTerminal(word: String, quoted: String) {
        #expect(ShellWord.quote(word) == quoted)
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
                throw OutputWriteError(message: "cannot write to stdout: file too large", written: taken.count)
            }
        }
    }

    var text: String { lock.withLock { String(decoding: bytes, as: UTF8.self) } }
}
