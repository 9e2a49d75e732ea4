import Foundation
import Testing

@testable import gh_users

/// GitHub's error answers, each through the real repository and client to its message and exit status, and a
/// list that spans two pages by its `Link` header.
struct CommandErrorTests {
    @Test func anAccountThatDoesNotExistIsStatusThree() async {
        let harness = CommandHarness()
        harness.expect("GET /users/nobody", status: 404, body: "error-404")
        let run = await harness.run(["show", "nobody"])
        #expect(run.status == 3)
        #expect(run.out.isEmpty)
        #expect(run.err == "gh-users: no user 'nobody' (HTTP 404)\n")
    }

    /// Each list under an account says so when the account does not exist, GitHub's request id included.
    @Test(arguments: [
        ("keys", "keys"), ("signing-keys", "ssh_signing_keys"), ("gpg-keys", "gpg_keys"),
        ("social", "social_accounts"), ("orgs", "orgs"), ("starred", "starred"), ("gists", "gists"),
        ("events", "events/public"), ("repos", "repos"),
    ])
    func everyListOfAnUnknownAccountIsStatusThree(command: String, path: String) async {
        let harness = CommandHarness()
        harness.expect(
            "GET /users/no-such-user/\(path)?per_page=30", status: 404,
            headers: [CommandHarness.requestID], body: "error-404")
        let run = await harness.run([command, "no-such-user"])
        #expect(run.status == 3)
        #expect(run.out.isEmpty)
        #expect(run.err == "gh-users: no user 'no-such-user' (HTTP 404)\nrequest id: CF25:41C0:C9E976\n")
    }

    /// The message names the variable the token came from, not another one to check.
    @Test(arguments: ["GH_TOKEN", "GITHUB_TOKEN"])
    func aTokenGitHubRefusesIsStatusFour(variable: String) async {
        var harness = CommandHarness()
        harness.environment[variable] = CommandRequestTests.token
        harness.expect("GET /user", status: 401, body: "error-401")
        let run = await harness.run(["me"])
        #expect(run.status == 4)
        #expect(run.out.isEmpty)
        #expect(
            run.err == """
                gh-users: authentication failed (HTTP 401: Requires authentication)
                The token was refused: check \(variable); it may be expired or revoked.

                """)
        #expect(!run.err.contains(CommandRequestTests.token))
    }

    /// A token with an expiry date has it in every answer (`github-authentication-token-expiration`, as in
    /// github3.py's 2021 cassette): a 401 after it, by GitHub's clock, names it; a 401 before it is a token
    /// revoked, which the message does not call expired (helper-315: both said "may be expired or revoked").
    /// A header that gives the answer's own time (google/go-github#3708 saw one) is no expiry: a minute must pass.
    @Test(arguments: [
        ("Sat, 23 Oct 2021 09:00:00 GMT", true), ("Fri, 22 Oct 2021 09:00:00 GMT", false),
        ("Fri, 22 Oct 2021 18:28:46 GMT", false), ("Fri, 22 Oct 2021 18:29:46 GMT", true),
    ])
    func aTokenPastItsExpiryDateIsSaidToHaveExpired(date: String, expired: Bool) async {
        var harness = CommandHarness()
        harness.environment["GH_TOKEN"] = CommandRequestTests.token
        harness.expect(
            "GET /user", status: 401,
            headers: [("github-authentication-token-expiration", "2021-10-22 18:28:46 UTC"), ("Date", date)],
            body: "error-401")
        let run = await harness.run(["me"])
        #expect(run.status == 4)
        #expect(run.err.contains("The token expired at 2021-10-22 ") == expired, "\(run.err)")
        #expect(run.err.contains(", GitHub says: make a new one for GH_TOKEN.\n") == expired, "\(run.err)")
        #expect(run.err.contains("check GH_TOKEN; it may be expired or revoked.") != expired, "\(run.err)")
        // Without a token, whatever the header says, the run needs one (helper-316: it said one had expired).
        let anonymous = CommandHarness()
        anonymous.expect(
            "GET /users/octocat", status: 401,
            headers: [("github-authentication-token-expiration", "2021-10-22 18:28:46 UTC"), ("Date", date)],
            body: "error-401")
        let none = await anonymous.run(["show", "octocat"])
        #expect(none.status == 4)
        #expect(none.err.contains("This needs a token: set "), "\(none.err)")
        #expect(!none.err.contains("expired at"), "\(none.err)")
    }

    /// A 403 that is not about the token says GitHub's words and nothing of scopes; one that names a missing
    /// scope says so.
    @Test func a403NotAboutTheTokenPrintsGitHubsMessageAndNoScopeHint() async {
        let github = "Request forbidden by administrative rules. Please make sure your request has a User-Agent header"
        let harness = CommandHarness.signedIn()
        harness.expect(
            "GET /users/octocat", status: 403, headers: [CommandHarness.requestID],
            body: "error-403-forbidden")
        let run = await harness.run(["show", "octocat"])
        #expect(run.status == 4)
        #expect(run.out.isEmpty)
        #expect(run.err == "gh-users: GitHub refused the request (HTTP 403: \(github))\nrequest id: CF25:41C0:C9E976\n")
    }

    @Test func a403ForAMissingScopeStillSaysScope() async {
        let harness = CommandHarness.signedIn()
        harness.expect(StubbedAnswer.scopeRefusal("PUT /user/following/octocat", accepted: "user, user:follow"))
        let run = await harness.run(["follow", "octocat", "--yes"])
        #expect(run.status == 4, "\(run.err)")
        #expect(run.err.contains("scope"), "\(run.err)")
    }

    /// A command that needs a token says so once, under its own name, before anything is sent.
    @Test(arguments: [
        ["me"], ["show", "octocat", "--via", "graphql"], ["followers", "--via", "graphql", "--full"],
        ["follow", "octocat", "--yes"],
    ])
    func theTokenMessageHasOnePrefix(arguments: [String]) async {
        let run = await CommandHarness().run(arguments)
        #expect(run.status == 4, "\(run.err)")
        #expect(run.err.hasPrefix("gh-users: \(arguments[0]) "), "\(run.err)")
        #expect(!run.err.contains("gh-users: gh-users"), "\(run.err)")
    }

    /// GitHub's 403 for a spent bucket: all `limit` used, reset `seconds` after the harness's now.
    private static func spent(_ request: String, _ resource: String, limit: Int, resetIn seconds: Int) -> StubbedAnswer
    {
        StubbedAnswer(
            request, status: 403,
            headers: [
                ("x-ratelimit-limit", "\(limit)"), ("x-ratelimit-remaining", "0"), ("x-ratelimit-used", "\(limit)"),
                ("x-ratelimit-reset", "\(Int(CommandHarness.now.timeIntervalSince1970) + seconds)"),
                ("x-ratelimit-resource", resource),
            ],
            body: "error-403-rate-limit")
    }

    /// Runs `arguments` against `answer`, a spent limit: status 5 and nothing on stdout.
    private func runSpent(_ arguments: [String], _ answer: StubbedAnswer) async -> CommandHarness.Outcome {
        let harness = CommandHarness()
        harness.expect(answer)
        let run = await harness.run(arguments)
        #expect(run.status == 5)
        #expect(run.out.isEmpty)
        return run
    }

    @Test func aSpentRateLimitIsStatusFiveAndSaysWhenItResets() async {
        let run = await runSpent(
            ["keys", "octocat"], Self.spent("GET /users/octocat/keys?per_page=30", "core", limit: 60, resetIn: 600))
        // The reset's clock time is local; how far away it is is not.
        #expect(run.err.hasPrefix("gh-users: API rate limit exceeded for 203.0.113.7."))
        #expect(run.err.contains(", in 10m 0s.\nAdd --wait-on-rate-limit to wait for the reset and carry on.\n"))
        // GitHub's message is said once.
        #expect(run.err.components(separatedBy: "rate limit exceeded").count == 2, "\(run.err)")
    }

    /// Without a token, a spent search bucket names the search numbers, not the core ones.
    @Test func aSpentSearchBucketWithoutATokenNamesTheSearchNumbers() async {
        let run = await runSpent(
            ["search", "type:user"],
            Self.spent("GET /search/users?q=type%3Auser&per_page=30", "search", limit: 10, resetIn: 40))
        #expect(run.err.contains("Searches without a token get 10 a minute: set GH_TOKEN for 30."), "\(run.err)")
        #expect(!run.err.contains("60 an hour"), "\(run.err)")
    }

    @Test func aRefusedSearchIsStatusOneWithGitHubsReasonAndTheRequestID() async {
        let harness = CommandHarness()
        harness.expect(
            "GET /search/users?q=user%3Anobody&per_page=30", status: 422, headers: [CommandHarness.requestID],
            body: "error-422-search")
        let run = await harness.run(["search", "user:nobody"])
        #expect(run.status == 1)
        #expect(run.out.isEmpty)
        #expect(
            run.err == "gh-users: GitHub answered HTTP 422: Validation Failed: The listed users cannot be searched "
                + "either because the users do not exist or you do not have permission to view the users.\n"
                + "request id: CF25:41C0:C9E976\n")
    }

    @Test func aReasonGivenByFieldAndCodeIsSaidInWords() async {
        await AnsweredCase(
            "search x", token: false,
            answers: [StubbedAnswer("GET /search/users?q=x&per_page=30", status: 422, body: "error-422-code-only")],
            status: 1, err: "gh-users: GitHub answered HTTP 422: Validation Failed: Search.q does not exist\n"
        ).run()
    }

    /// A failure GitHub answered names the answer's request id, whatever the status.
    @Test func everyFailureGitHubAnsweredNamesItsRequestID() async {
        let missing = CommandHarness()
        missing.expect("GET /users/octocat", status: 404, headers: [CommandHarness.requestID], body: "error-404")
        let notFound = await missing.run(["show", "octocat"])
        #expect(notFound.status == 3)
        #expect(notFound.out.isEmpty)
        #expect(notFound.err == "gh-users: no user 'octocat' (HTTP 404)\nrequest id: CF25:41C0:C9E976\n")
        let broken = CommandHarness()
        broken.expect(
            "GET /users?since=0&per_page=30", status: 500, headers: [CommandHarness.requestID], body: "error-500")
        let failed = await broken.run(["list", "--retries", "0"])
        #expect(failed.status == 1)
        #expect(failed.out.isEmpty)
        let requestID = "CF25:41C0:C9E976"
        let advice = "GitHub failed on its side: try again later (https://www.githubstatus.com shows outages).\n"
        #expect(failed.err == "gh-users: GitHub answered HTTP 500: Server Error\n\(advice)request id: \(requestID)\n")
    }

    /// A 404 for a page after the first is a list that stopped (exit 1, the pages before kept and said to be
    /// incomplete), not an owner that does not exist: it said "no user 'sigmavirus24'" (exit 3) with no owner asked
    /// for, `list` "no users", and `members` "authentication failed" (exit 4; helper-291).
    @Test(arguments: [
        (
            "followers sigmavirus24 --all", "GET /users/sigmavirus24/followers?per_page=100",
            "https://api.github.com/user/240830/followers?page=2", "followers-page-1",
            "The output holds the first 30 followers only: the list is incomplete."
        ),
        (
            "list --limit 60", "GET /users?since=0&per_page=60", "https://api.github.com/users?since=1&per_page=60",
            "users-list", "To continue from here: gh-users list --since 1 --limit 59"
        ),
        (
            "members github --all", "GET /orgs/github/members?per_page=100",
            "https://api.github.com/organizations/9919/members?per_page=100&page=2", "orgs-list-members",
            "The output holds the first 1 member only: the list is incomplete."
        ),
    ])
    func aLaterPageNotFoundIsAListThatStopped(command: String, first: String, next: String, body: String, says: String)
        async
    {
        var harness = CommandHarness()
        harness.environment["GH_TOKEN"] = CommandRequestTests.token
        harness.expect(first, headers: [("Link", "<\(next)>; rel=\"next\"")], body: body)
        harness.expect(
            "GET " + next.replacing("https://api.github.com", with: ""), status: 404,
            headers: [CommandHarness.requestID], body: "error-404")
        let run = await harness.run(command.split(separator: " ").map(String.init) + ["--format", "tsv"])
        #expect(run.status == 1, "\(run.err)")
        #expect(!run.out.isEmpty)
        #expect(
            run.err.hasPrefix(
                "gh-users: GitHub answered HTTP 404: a next page GitHub linked to was not found, so the list stopped "
                    + "there\nrequest id: CF25:41C0:C9E976\n"), "\(run.err)")
        #expect(run.err.contains(says), "\(run.err)")
    }

    /// A 404 of an endpoint that names nothing is no login or repository missing (exit 3: "no search results"
    /// read as an empty search) but a server that does not serve it, most likely another API's URL (exit 1;
    /// helper-326). A 404 naming something stays exit 3 (the tests above), and `/user/…`'s a missing scope.
    @Test(arguments: [
        (["search", "octo"], "GET /search/users?q=octo&per_page=30"),
        (["me"], "GET /user"),
        (["list"], "GET /users?since=0&per_page=30"),
    ])
    func aNotFoundOfAnEndpointThatNamesNothingIsTheServers(arguments: [String], request: String) async {
        let harness = CommandHarness.signedIn()
        harness.expect(request, status: 404, headers: [CommandHarness.requestID], body: "error-404")
        let run = await harness.run(arguments)
        #expect(run.status == 1, "\(run.err)")
        #expect(run.out.isEmpty)
        let path = request.dropFirst(4).split(separator: "?")[0]
        #expect(
            run.err.hasPrefix("gh-users: GitHub answered HTTP 404: GET \(path)"), "\(run.err)")
        #expect(run.err.contains("was not found: this server does not serve it; check the API URL"), "\(run.err)")
    }

    @Test func aListFollowsItsLinkHeaderToTheSecondPage() async {
        let harness = CommandHarness()
        harness.expect(
            "GET /users/sigmavirus24/followers?per_page=100",
            headers: [
                (
                    "Link",
                    #"<https://api.github.com/user/240830/followers?page=2>; rel="next", "#
                        + #"<https://api.github.com/user/240830/followers?page=2>; rel="last""#
                )
            ],
            body: "followers-page-1")
        harness.expect("GET /user/240830/followers?page=2", body: "followers-page-2")
        let run = await harness.run(["followers", "sigmavirus24", "--all", "--format", "tsv", "--fields", "login"])
        #expect(run.status == 0)
        let logins = run.out.split(separator: "\n")
        #expect(logins.count == 55)
        #expect(logins.first == "tadasv")
        #expect(logins.dropFirst(30).first == "abele")
        #expect(run.err.isEmpty)
    }
}
