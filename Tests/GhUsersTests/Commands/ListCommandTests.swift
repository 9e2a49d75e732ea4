import Foundation
import Testing

@testable import gh_users

/// `list`: its formats, and its usage errors, which send nothing. Paging through the population by the `Link`
/// header and `--since` are `EndToEndTests`'.
struct ListCommandTests {
    private func harness(_ request: String) -> CommandHarness {
        let harness = CommandHarness()
        harness.expect(request, body: "users-list")
        return harness
    }

    @Test func jsonIsGitHubsOwnObjects() async {
        let run = await harness("GET /users?since=0&per_page=20").run(["list", "--limit", "20", "--json"])
        #expect(run.status == 0, "\(run.err)")
        #expect(Bodies.compact(Array(run.out.utf8)) == Bodies.compact("users-list"))
    }

    @Test func aTableHasAHeaderAndALinePerAccount() async {
        let run = await harness("GET /users?since=0&per_page=12").run(["list", "--limit", "12", "--format", "table"])
        let lines = run.out.split(separator: "\n")
        #expect(lines.first?.hasPrefix("ID") == true)
        #expect(lines.count == 2)
    }

    @Test func csvHasItsHeaderAndCRLFLines() async {
        let run = await harness("GET /users?since=0&per_page=3").run(["list", "--limit", "3", "--format", "csv"])
        #expect(run.out.hasPrefix("id,login,type,html_url\r\n"))
        #expect(run.out.split(separator: "\r\n").count == 2)
    }

    /// `--wait-on-rate-limit` and `--max-wait` tell the same story, where help gives the network options.
    @Test func theTwoRateLimitFlagsHelpTextsAgree() async {
        let run = await CommandHarness().run(["help", "options"])
        #expect(run.status == 0)
        let text = run.out.split(separator: "\n").joined(separator: " ").split(separator: " ").joined(separator: " ")
        #expect(text.contains("for at most --max-wait"))
        #expect(text.contains("The longest any rate-limit wait may last"))
        #expect(!text.contains("however long"))
    }

    @Test(arguments: [
        (["--since", "10", "--until", "9"], "--until 9 is below --since 10"),
        (["--state", "s", "--json"], "--state needs a format that can be appended to"),
        (["--output", "o", "--format", "table"], "--output needs a format that can be appended to"),
        (["--state", ""], "--state needs a file path"),
        // `-` made a file named `-`: gh and curl read it as stdout.
        (["--output", "-"], "--output takes a file, not '-' (without --output the records go to stdout); ./- names"),
        (["--all", "--state", "-"], "--state takes a file, not '-' (FILE is read and replaced)"),
        // A name ending in a slash made a file of the folder's name (helper-282).
        (["--all", "--state", "newdir/"], "--state takes a file, and 'newdir/' ends in a slash, which names a folder"),
        (["--output", "/tmp/"], "--output takes a file, and '/tmp/' ends in a slash"),
        // The last one was taken: an alias's own --state or --output left the one typed unused (a tester's find).
        (
            ["--all", "--state", "a", "--state", "b"],
            "--state is given more than once, naming 'a' and 'b': a run uses one file"
        ),
        (["--output", "o", "--output", "p", "--output", "./o"], "naming 'o' and 'p': a run"),
        (["--output", "o", "--output", "p", "--output", "q"], "naming 'o' and 'p' and more: a run"),
        // The token of the last one was taken without a word (a review's find); the same file twice is one.
        (["--token-file", "a", "--token-file", "b", "--token-file", "./a"], "--token-file is given more than once"),
    ])
    func badCrawlOptionsAreUsageErrorsAndSendNothing(arguments: [String], message: String) async {
        await expectUsageError(["list"] + arguments, saying: message)
    }

    /// The last two: a misspelt command and an unknown option.
    @Test(arguments: [
        ["list", "--since", "-1"], ["list", "--limit", "0"], ["list", "--per-page", "101"], ["lsit"],
        ["list", "--bogus"],
    ])
    func aUsageErrorIsStatus64AndSendsNothing(_ arguments: [String]) async {
        await expectUsageError(arguments)
    }
}

/// Runs `arguments` with no stub registered, so any request fails the test: status 64, nothing on stdout, and
/// stderr saying `message`, or starting `Error: ` when none is given.
func expectUsageError(
    _ arguments: [String], saying message: String? = nil, sourceLocation: SourceLocation = #_sourceLocation
) async {
    let run = await CommandHarness().run(arguments, sourceLocation: sourceLocation)
    #expect(run.status == 64, "\(arguments)", sourceLocation: sourceLocation)
    #expect(run.out.isEmpty, sourceLocation: sourceLocation)
    let said = message.map(run.err.contains) ?? run.err.hasPrefix("Error: ")
    #expect(said, "\(arguments): \(run.err)", sourceLocation: sourceLocation)
}
