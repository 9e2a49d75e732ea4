import Foundation
import Testing

@testable import gh_users

/// `hovercard LOGIN`: the contexts as lines, no subject sent unless one is given, `--json` GitHub's object, and the
/// refusals made before anything is sent. The subject's two query keys are `CommandRequestTests`'.
struct HovercardCommandTests {
    private static let card = StubbedAnswer(
        "GET /users/octocat/hovercard", status: 200, body: "users-get-context-for-user")

    @Test(arguments: [
        AnsweredCase("hovercard octocat --format tsv", answers: [card], status: 0, out: "Owns this repository\trepo\n"),
        AnsweredCase(
            "hovercard octocat --subject-type repository", status: 64,
            err: "--subject-type and --subject-id go together"),
        AnsweredCase(
            "hovercard octocat --subject-id 1296269", status: 64, err: "--subject-type and --subject-id go together"),
        AnsweredCase(
            "hovercard octocat --subject-type gist --subject-id 1", status: 64, err: "choose one of organization"),
        AnsweredCase("hovercard octocat --subject-type issue --subject-id 1x", status: 64, err: "numeric id"),
        AnsweredCase("hovercard octocat", token: false, status: 4, err: "hovercard needs a token"),
    ])
    func theContextsAsLinesOrARefusalBeforeAnythingIsSent(_ example: AnsweredCase) async {
        await example.run()
    }

    @Test func jsonIsGitHubsObjectIndented() async {
        let harness = CommandHarness.signedIn()
        harness.expect(Self.card.request, body: Self.card.body)
        let run = await harness.run(["hovercard", "octocat", "--json"])
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out.hasPrefix("{\n  \"contexts\": [\n"), "\(run.out)")
        #expect(run.err.isEmpty)
    }
}
