import Testing

@testable import gh_users

/// Issue 26, item 2: `subscriptions` as GitHub answers it since July 2026. GitHub's REST page for watching
/// (docs.github.com/rest/activity/watching, "New access restrictions", read with the search tool) says the
/// endpoint that lists the repositories a user watches is deprecated: it stays available but answers empty, and
/// is removed later. python-github-backup pull request #521 and issue #522 (2026-07-05) recorded what that is:
/// `GET /users/{username}/subscriptions?per_page=100` answered `HTTP 204: No Content` with no body, with a valid
/// token, while `GET /user/subscriptions?per_page=100` answered 200 with the watched repositories.
struct SubscriptionsCommandTests {
    private static let retired =
        "GitHub no longer lists the repositories an account watches by its login, your own included"

    @Test(arguments: [
        // Before: "malformed response … expected '['", exit 1.
        AnsweredCase(
            "subscriptions octocat",
            answers: [StubbedAnswer("GET /users/octocat/subscriptions?per_page=30", status: 204)],
            status: 0, err: retired),
        AnsweredCase(
            "subscriptions octocat --json",
            answers: [StubbedAnswer("GET /users/octocat/subscriptions?per_page=30", status: 204)],
            status: 0, out: "[]\n", err: retired),
        // Before: "no user 'octocat'", exit 3, for an account that exists.
        AnsweredCase(
            "subscriptions octocat",
            answers: [
                StubbedAnswer("GET /users/octocat/subscriptions?per_page=30", status: 404, body: "error-404"),
                StubbedAnswer("GET /users/octocat", status: 200, body: "users-get-by-username"),
            ],
            status: 1,
            err: retired + " (since July 2026); without LOGIN, subscriptions lists your own (GitHub "
                + "answered 404 Not Found)"),
        // A 404 for an account GitHub does not know is "no user" (exit 3), as for any account's list: before, the
        // retirement's line, exit 1, whatever the login.
        AnsweredCase(
            "subscriptions no-such-zz",
            answers: [
                StubbedAnswer("GET /users/no-such-zz/subscriptions?per_page=30", status: 404, body: "error-404"),
                StubbedAnswer("GET /users/no-such-zz", status: 404, body: "error-404"),
            ],
            status: 3, err: "no user 'no-such-zz'"),
        AnsweredCase(
            "subscriptions octocat",
            answers: [
                StubbedAnswer("GET /users/octocat/subscriptions?per_page=30", status: 403, body: "error-403-forbidden")
            ],
            status: 1, err: "(GitHub answered 403 Forbidden)"),
        // The token's own list is still GitHub's to give: before, LOGIN was required (exit 64).
        AnsweredCase(
            "subscriptions --format tsv --fields full_name",
            answers: [StubbedAnswer("GET /user/subscriptions?per_page=30", status: 200, body: "repos-list-for-user")],
            status: 0, out: "octocat/Hello-World\n"),
        AnsweredCase("subscriptions", token: false, status: 4, err: "needs a token"),
    ])
    func anotherAccountsWatchedRepositoriesAreWithheld(_ example: AnsweredCase) async {
        await example.run()
    }

    /// Any list GitHub answers with 204 No Content is an empty list, not a malformed body (before: exit 1,
    /// "expected '['"): records, accounts and a search alike. Only the retired list says more.
    @Test(arguments: [
        AnsweredCase(
            "keys octocat", answers: [StubbedAnswer("GET /users/octocat/keys?per_page=30", status: 204)], status: 0),
        AnsweredCase(
            "followers octocat", answers: [StubbedAnswer("GET /users/octocat/followers?per_page=30", status: 204)],
            status: 0),
        AnsweredCase(
            "search octo --json",
            answers: [StubbedAnswer("GET /search/users?q=octo&per_page=30", status: 204)], status: 0, out: "[]\n"),
    ])
    func anyListAnsweredNoContentIsEmpty(_ example: AnsweredCase) async {
        await example.run()
    }

    /// The line is said once, not once per page, and an empty 200 (an account that watches nothing, from before
    /// the retirement) says nothing of it.
    @Test func anEmptyListIsNotAWithheldOne() async {
        let harness = CommandHarness.signedIn()
        harness.expect("GET /users/octocat/subscriptions?per_page=30", body: "empty-list")
        let run = await harness.run(["subscriptions", "octocat"])
        #expect(run.status == 0)
        #expect(run.out.isEmpty)
        #expect(!run.err.contains(Self.retired), "\(run.err)")
    }
}
