import Foundation
import TestSupport
import Testing

@testable import gh_users

/// A command whose answer has no rows, as a user runs it.
struct EmptyResultCase: Sendable, CustomTestStringConvertible {
    let command: String
    /// What the command sends, and GitHub's answer with nothing in it.
    let request: String
    let body: String
    /// What a terminal is told on stderr.
    let message: String

    var testDescription: String { "gh-users \(command)" }

    func harness(terminal: Bool) -> CommandHarness {
        var harness = CommandHarness()
        harness.environment["GH_TOKEN"] = CommandRequestTests.token
        harness.stdoutTTY = terminal
        harness.http.register(RequestMatcher(request), body: Data(body.utf8))
        return harness
    }
}

/// An empty list, or a hovercard with no contexts, says so on a terminal's stderr as `gh` does ("no followers
/// found"), and exits 0; piped, stdout and stderr both stay empty, so a script reads nothing.
struct EmptyResultTests {
    static let cases = [
        EmptyResultCase(
            command: "blocks", request: "GET /user/blocks?per_page=30", body: "[]",
            message: "gh-users: no blocked accounts found\n"),
        EmptyResultCase(
            command: "followers octocat", request: "GET /users/octocat/followers?per_page=30", body: "[]",
            message: "gh-users: no followers found\n"),
        EmptyResultCase(
            command: "following octocat", request: "GET /users/octocat/following?per_page=30", body: "[]",
            message: "gh-users: no followed accounts found\n"),
        EmptyResultCase(
            command: "subscriptions octocat", request: "GET /users/octocat/subscriptions?per_page=30", body: "[]",
            message: "gh-users: no watched repositories found\n"),
        EmptyResultCase(
            command: "events octocat", request: "GET /users/octocat/events/public?per_page=30", body: "[]",
            message: "gh-users: no events found\n"),
        EmptyResultCase(
            command: "events octocat --received", request: "GET /users/octocat/received_events/public?per_page=30",
            body: "[]", message: "gh-users: no received events found\n"),
        EmptyResultCase(
            command: "search nosuchname", request: "GET /search/users?q=nosuchname&per_page=30",
            body: #"{"total_count":0,"incomplete_results":false,"items":[]}"#,
            message: "gh-users: no accounts matched your search\n"),
        EmptyResultCase(
            command: "repos octocat", request: "GET /users/octocat/repos?per_page=30", body: "[]",
            message: "gh-users: no repositories found\n"),
        EmptyResultCase(
            command: "hovercard octocat", request: "GET /users/octocat/hovercard", body: #"{"contexts":[]}"#,
            message: "gh-users: no hovercard contexts found\n"),
    ]

    @Test(arguments: cases)
    func aTerminalIsToldThereIsNothing(row: EmptyResultCase) async {
        let run = await row.harness(terminal: true).run(row.command.split(separator: " ").map(String.init))
        #expect(run.status == 0)
        #expect(run.out.isEmpty)
        #expect(run.err == row.message)
    }

    @Test(arguments: cases)
    func aPipeReadsNothingAtAll(row: EmptyResultCase) async {
        let run = await row.harness(terminal: false).run(row.command.split(separator: " ").map(String.init))
        #expect(run.status == 0)
        #expect(run.out.isEmpty)
        #expect(run.err.isEmpty)
    }

    /// JSON on a terminal is a document a reader or `jq` takes as it is: `[]`, and nothing more said.
    @Test func jsonOnATerminalIsAnEmptyArrayAlone() async {
        let row = Self.cases[0]
        let run = await row.harness(terminal: true).run(["blocks", "--json"])
        #expect(run.out == "[]\n")
        #expect(run.err.isEmpty)
    }
}
