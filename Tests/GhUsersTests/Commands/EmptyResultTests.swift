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

    /// `says`: the message without "gh-users: " and its line break; an empty list's body unless `body` is given.
    init(_ command: String, _ request: String, body: String = "[]", says message: String) {
        self.command = command
        self.request = request
        self.body = body
        self.message = "gh-users: \(message)\n"
    }

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
        EmptyResultCase("blocks", "GET /user/blocks?per_page=30", says: "no blocked accounts found"),
        EmptyResultCase("followers octocat", "GET /users/octocat/followers?per_page=30", says: "no followers found"),
        EmptyResultCase(
            "following octocat", "GET /users/octocat/following?per_page=30", says: "no followed accounts found"),
        EmptyResultCase(
            "subscriptions octocat", "GET /users/octocat/subscriptions?per_page=30",
            says: "no watched repositories found"),
        EmptyResultCase("events octocat", "GET /users/octocat/events/public?per_page=30", says: "no events found"),
        EmptyResultCase(
            "events octocat --received", "GET /users/octocat/received_events/public?per_page=30",
            says: "no received events found"),
        EmptyResultCase(
            "search nosuchname", "GET /search/users?q=nosuchname&per_page=30",
            body: #"{"total_count":0,"incomplete_results":false,"items":[]}"#,
            says: "no accounts matched your search"),
        EmptyResultCase("repos octocat", "GET /users/octocat/repos?per_page=30", says: "no repositories found"),
        EmptyResultCase(
            "hovercard octocat", "GET /users/octocat/hovercard", body: #"{"contexts":[]}"#,
            says: "no hovercard contexts found"),
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
