import AtomicCore
import Domain
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
