import AtomicCore
import Domain
import Foundation
import TestSupport
import Testing

@testable import gh_users

private func run(_ arguments: [String], _ env: AppEnvironment) async -> Int32 {
    await GhUsersApp(environment: env).run(arguments)
}

/// `events LOGIN`: GitHub keeps only the 300 most recent public events, and the command says so; `--received`
/// asks the row of the events an account received, which brings the same cap.
struct EventsCommandTests {
    @Test(arguments: [(["--all"], true), (["--limit", "500"], true), (["--limit", "300"], false)])
    func eventsStopAtGitHubsThreeHundredAndSaySo(arguments: [String], notes: Bool) async {
        await expectThreeHundred(of: "/users/octocat/events/public", arguments: arguments, notes: notes)
    }

    @Test func receivedEventsAskTheirOwnRowAndStopAtThreeHundred() async {
        await expectThreeHundred(of: "/users/octocat/received_events/public", arguments: ["--received", "--all"])
    }

    @Test func anUnknownLoginIsExitThree() async {
        await AnsweredCase(
            "events no-such-user --received",
            answers: [
                StubbedAnswer(
                    "GET /users/no-such-user/received_events/public?per_page=30", status: 404, body: "error-404")
            ],
            status: 3, err: "gh-users: no user 'no-such-user' (HTTP 404)\n"
        ).run()
    }

    private func expectThreeHundred(of path: String, arguments: [String], notes: Bool = true) async {
        let github = FakeGitHub()
        for page in 0..<3 {
            let items = (1...100).map { record(#"{"id":"\#(page * 100 + $0)","type":"PushEvent"}"#) }
            let next = page < 2 ? PageCursor(url: "e\(page + 2)") : nil
            if page == 0 {
                github.script(path + "?per_page=100", .success(Page(items: items, next: next)))
            } else {
                github.scriptPage("e\(page + 1)", .success(Page(items: items, next: next)))
            }
        }
        let (env, out, err) = AppEnvironment.test(github: github)
        #expect(await run(["events", "octocat", "--format", "ndjson"] + arguments, env) == 0)
        #expect(out.text.split(separator: "\n").count == 300)
        #expect(github.calls.count == 3)
        #expect(err.text.contains("only the 300 most recent public events") == notes)
        if arguments.contains("--received") {
            #expect(err.text.contains("only the 300 most recent public events an account received"))
        }
    }
}
