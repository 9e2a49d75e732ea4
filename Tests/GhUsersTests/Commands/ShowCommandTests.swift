import Foundation
import Testing

@testable import gh_users

/// `show`: GitHub's whole profile, several accounts in the order given, a missing account (exit 3) or one of
/// several (exit 1), and its usage errors, which send nothing.
struct ShowCommandTests {
    @Test func jsonIsTheWholeProfileForALoginInAnyCase() async {
        let harness = CommandHarness()
        harness.expect("GET /users/OCTOCAT", body: "users-get-by-username")
        let run = await harness.run(["show", "OCTOCAT", "--json"])
        #expect(run.status == 0, "\(run.err)")
        #expect(Bodies.compact(Array(run.out.utf8)) == Bodies.compact("users-get-by-username"))
        #expect(run.out.contains("\"twitter_username\": \"monatheoctocat\""))
    }

    @Test func severalAreShownInTheOrderGivenABotIncluded() async {
        let harness = CommandHarness()
        harness.expect("GET /users/sigmavirus24", body: "users-get-by-id")
        harness.expect("GET /users/shipit%5Bbot%5D", body: "users-get-by-username-bot")
        harness.expect("GET /users/octocat", body: "users-get-by-username")
        let run = await harness.run([
            "show", "sigmavirus24", "shipit[bot]", "octocat", "--format", "tsv", "--fields", "login",
        ])
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out == "sigmavirus24\nshipit[bot]\noctocat\n")
    }

    @Test(arguments: [
        AnsweredCase(
            "show no-such-user",
            answers: [
                StubbedAnswer(
                    "GET /users/no-such-user", status: 404, headers: [CommandHarness.requestID], body: "error-404")
            ],
            status: 3, err: "gh-users: no user 'no-such-user' (HTTP 404)\nrequest id: CF25:41C0:C9E976\n"),
        AnsweredCase(
            "show --id 6",
            answers: [
                StubbedAnswer("GET /user/6", status: 404, headers: [CommandHarness.requestID], body: "error-404")
            ],
            status: 3, err: "gh-users: no account with id 6 (HTTP 404)\nrequest id: CF25:41C0:C9E976\n"),
    ])
    func aMissingAccountIsStatusThree(_ example: AnsweredCase) async {
        await example.run()
    }

    @Test func oneMissingOfSeveralIsStatusOneAndTheRestAreShown() async {
        let harness = CommandHarness()
        harness.expect("GET /users/octocat", body: "users-get-by-username")
        harness.expect("GET /users/no-such-user", status: 404, body: "error-404")
        let run = await harness.run(["show", "octocat", "no-such-user", "--json"])
        #expect(run.status == 1)
        #expect(Bodies.compact(Array(run.out.utf8)) == "[" + Bodies.compact("users-get-by-username") + "]")
        #expect(run.err.contains("no-such-user"))
    }

    @Test(arguments: [["show", "../etc/passwd"], ["show", "octocat", "--concurrency", "11"], ["show"]])
    func aUsageErrorIsStatus64AndSendsNothing(_ arguments: [String]) async {
        await expectUsageError(arguments)
    }
}
