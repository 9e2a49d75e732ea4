import Foundation
import Testing

@testable import gh_users

/// `emails`: the token's own addresses with their four columns, and status 4 naming the scope for a token that may
/// not read them, whether GitHub refuses with 403 or hides the list behind 404.
struct EmailsCommandTests {
    @Test(arguments: [
        AnsweredCase(
            "emails --format tsv",
            answers: [
                StubbedAnswer(
                    "GET /user/emails?per_page=30", status: 200, body: "users-list-emails-for-authenticated-user")
            ],
            status: 0,
            out: "octocat@github.com\ttrue\ttrue\tpublic\n1+octocat@users.noreply.github.com\tfalse\ttrue\t\n"),
        AnsweredCase("emails", token: false, status: 4, err: "emails needs a token"),
        AnsweredCase(
            "emails", answers: [.scopeRefusal("GET /user/emails?per_page=30", accepted: "user, user:email")], status: 4,
            err: "(GitHub accepts: user, user:email)"),
        AnsweredCase(
            "emails", answers: [StubbedAnswer("GET /user/emails?per_page=30", status: 404, body: "error-404")],
            status: 4, err: "GitHub answers 404 for what a token may not see (this needs: user:email)"),
        // The token's own account has no role to lack: a 404 that names a scope the token holds still names the
        // row's scope, not an account's role, which is for a row under an organization or a repository
        // (mutation round 13, M13-19).
        AnsweredCase(
            "emails",
            answers: [
                StubbedAnswer(
                    "GET /user/emails?per_page=30", status: 404,
                    headers: [("X-OAuth-Scopes", "repo, user"), ("X-Accepted-OAuth-Scopes", "user, user:email")],
                    body: "error-404")
            ],
            status: 4, err: "GitHub answers 404 for what a token may not see (this needs: user:email)"),
    ])
    func theAddressesOrStatusFourNamingTheScope(_ example: AnsweredCase) async {
        await example.run()
    }
}
