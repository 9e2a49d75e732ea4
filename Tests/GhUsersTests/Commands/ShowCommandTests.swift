import Domain
import Foundation
import Networking
import TestSupport
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

    /// csv's own columns hold what GitHub sent, as `--fields` does: a time with its fraction and offset, a count
    /// as written (before: `created_at` went through a Date, `2008-01-14T11:33:35Z`, and `1e3` became `1000`).
    @Test func csvWritesTheTimeAndCountsAsSent() async {
        let harness = CommandHarness()
        harness.http.answer(
            "GET /users/octocat",
            json: #"{"login":"octocat","id":1,"type":"User","followers":1e3,"#
                + #""created_at":"2008-01-14T04:33:35.123-07:00"}"#)
        let run = await harness.run(["show", "octocat", "--format", "csv"])
        #expect(run.status == 0, "\(run.err)")
        let row = run.out.split(separator: "\r\n").last.map(String.init) ?? ""
        #expect(row.contains(",1e3,"), "\(run.out)")
        #expect(row.contains(",2008-01-14T04:33:35.123-07:00,"), "\(run.out)")
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

    /// The card shows each count GitHub sent, though the other of its row is null, and no lone `@` for a blank
    /// Twitter name.
    @Test func theCardKeepsEachCountSentAndSaysNoEmptyTwitterName() async {
        let github = StubTransport()
        github.answer(
            "GET /users/d1",
            json: #"{"login":"d1","id":7,"twitter_username":"","public_repos":null,"public_gists":1,"#
                + #""followers":null,"following":5}"#)
        let (env, out, _) = AppEnvironment.test(http: github)
        #expect(await GhUsersApp(environment: env).run(["show", "d1", "--format", "table"]) == 0)
        let rows = out.text.split(separator: "\n").map { $0.split(separator: " ").joined(separator: " ") }
        #expect(rows.contains("Repos 1 gist"), "\(out.text)")
        #expect(rows.contains("Following 5"), "\(out.text)")
        #expect(!out.text.contains("Twitter"), "\(out.text)")
    }

    /// A profile that is another JSON value (a list, a number, null) is "not an object", as a list's page that
    /// is not a list says; it said "expected '{'".
    @Test(arguments: [#"[{"login":"d1","id":7}]"#, "5", "null", #""d1""#])
    func aProfileThatIsNoObjectSaysSo(body: String) async {
        let github = StubTransport()
        github.answer("GET /users/d1", json: body)
        let (env, out, err) = AppEnvironment.test(http: github)
        #expect(await GhUsersApp(environment: env).run(["show", "d1"]) == 1)
        #expect(out.text.isEmpty)
        #expect(err.text.contains("malformed response from GET /users/d1: not an object"), "\(err.text)")
    }

    /// An account named twice, in any case, is asked for and written once, where first named, as an `--id` given
    /// twice is.
    @Test func anAccountNamedTwiceIsAskedForAndWrittenOnce() async {
        let harness = CommandHarness()
        harness.expect("GET /users/octocat", body: "users-get-by-username")
        harness.expect("GET /users/sigmavirus24", body: "users-get-by-id")
        let run = await harness.run([
            "show", "octocat", "sigmavirus24", "OctoCat", "octocat", "--format", "tsv", "--fields", "login",
        ])
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out == "octocat\nsigmavirus24\n")
        #expect(harness.http.received.count == 2)
        // Said, since a script may count on a record per name (before: two records for four names, silently).
        #expect(
            run.err == "gh-users: note: 2 logins or ids repeat an account named before; each account is shown once, "
                + "where first named\n")
    }

    /// Every `--fields` column a path into a plain value: every row would be blank, so nothing is written and the
    /// run is exit 1, as a list's is; one good column beside it is written, with the warning.
    /// Each profile is written as soon as it and those before it are in: by the time the last of 40 is asked,
    /// the first is on stdout. Before, every profile was held to the end (about 4 KB each, 74 MiB for 10,000
    /// logins), and nothing was written until the last came.
    @Test func profilesAreWrittenAsTheyComeInTheOrderAsked() async {
        let harness = CommandHarness()
        let seenAtTheLast = OutputProbe.Seen()
        let stdout = harness.stdoutSoFar
        harness.http.answerEvery { request, _ in
            let login = String(request.url.path.dropFirst("/users/".count))
            if login == "user40" { seenAtTheLast.set(stdout.text) }
            let id = Int(login.dropFirst("user".count)) ?? 0
            return HTTPResponse(
                status: 200, headers: HTTPHeaders([(name: "Content-Type", value: "application/json")]),
                body: Data(#"{"login":"\#(login)","id":\#(id),"type":"User"}"#.utf8), url: request.url)
        }
        let logins = (1...40).map { "user\($0)" }
        let run = await harness.run(["show"] + logins + ["--format", "tsv", "--fields", "login", "--concurrency", "1"])
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out == logins.map { $0 + "\n" }.joined())
        #expect(seenAtTheLast.value.hasPrefix("user1\nuser2\n"), "\(seenAtTheLast.value)")
    }

    /// A network failure names no account: alike ones are said once, naming the accounts they were for (helper-234:
    /// two hung logins gave two identical lines that named neither). A 404 names its own.
    @Test func aNetworkFailureNamesTheAccountsItWasFor() async {
        let harness = CommandHarness()
        harness.expect("GET /users/octocat", body: "users-get-by-username")
        harness.http.fail("https://api.github.com/users/hang1", with: .timedOut)
        harness.http.fail("https://api.github.com/users/hang2", with: .timedOut)
        harness.expect("GET /users/nosuch-zz", status: 404, body: "error-404")
        let run = await harness.run(
            [
                "show", "hang1", "octocat", "hang2", "nosuch-zz", "--format", "tsv", "--fields", "login", "--retries",
                "0",
            ])
        #expect(run.status == 1)
        #expect(run.out == "octocat\n")
        let lines = run.err.split(separator: "\n")
        #expect(lines.filter { $0.hasPrefix("gh-users: network error: ") }.count == 1, "\(run.err)")
        #expect(run.err.contains(" (looking up 'hang1', 'hang2')\n"), "\(run.err)")
        #expect(run.err.contains("no user 'nosuch-zz' (HTTP 404)"), "\(run.err)")
    }

    /// So does GitHub's 500, and a 403 for one organization's single sign-on (helper-317: each was said without
    /// the account it was for). The 500 met twice is said once, naming both; a malformed answer names its path.
    @Test func aServerErrorOrAForbiddenNamesTheAccountsItWasFor() async {
        let harness = CommandHarness()
        harness.expect("GET /users/octocat", body: "users-get-by-username")
        harness.expect("GET /users/down1", status: 500, body: "error-500")
        harness.expect("GET /users/down2", status: 500, body: "error-500")
        harness.expect(
            "GET /users/mona", status: 403, headers: [("X-GitHub-SSO", "required; url=https://github.com/orgs/o/sso")],
            body: "error-403-forbidden")
        let run = await harness.run(
            ["show", "down1", "octocat", "mona", "down2", "--format", "tsv", "--fields", "login", "--retries", "0"])
        #expect(run.status == 1)
        #expect(run.out == "octocat\n")
        let lines = run.err.split(separator: "\n")
        let serverLines = lines.filter { $0.hasPrefix("gh-users: GitHub answered HTTP 500") }
        #expect(serverLines.count == 1, "\(run.err)")
        #expect(serverLines.first?.hasSuffix(" (looking up 'down1', 'down2')") == true, "\(run.err)")
        let refused = lines.filter { $0.hasPrefix("gh-users: GitHub refused the request (HTTP 403") }
        #expect(refused.count == 1 && refused.first?.hasSuffix(") (looking up 'mona')") == true, "\(run.err)")
        // Alone, a failure needs no name: it is the account asked for.
        let alone = CommandHarness()
        alone.expect("GET /users/down1", status: 500, body: "error-500")
        let one = await alone.run(["show", "down1", "--retries", "0"])
        #expect(one.status == 1)
        #expect(one.err.hasPrefix("gh-users: GitHub answered HTTP 500"), "\(one.err)")
        #expect(!one.err.contains("looking up"), "\(one.err)")
    }

    /// A failure met by many accounts names the first five and counts the rest, so its one line stays short.
    @Test func aFailureMetByManyAccountsNamesFiveAndCountsTheRest() async {
        let harness = CommandHarness()
        let logins = (1...7).map { "down\($0)" }
        for login in logins { harness.expect("GET /users/\(login)", status: 500, body: "error-500") }
        let run = await harness.run(["show"] + logins + ["--format", "tsv", "--retries", "0"])
        #expect(run.status == 1)
        let lines = run.err.split(separator: "\n").filter { $0.hasPrefix("gh-users: GitHub answered HTTP 500") }
        #expect(lines.count == 1, "\(run.err)")
        #expect(
            lines.first?.hasSuffix(" (looking up 'down1', 'down2', 'down3', 'down4', 'down5' and 2 more)") == true,
            "\(run.err)")
    }

    /// Cards are parted by one blank line, with none before the first.
    @Test func cardsArePartedByABlankLineWithNoneBeforeTheFirst() async {
        let harness = CommandHarness()
        harness.expect("GET /users/octocat", body: "users-get-by-username")
        harness.expect("GET /users/sigmavirus24", body: "users-get-by-id")
        let run = await harness.run(["show", "octocat", "sigmavirus24", "--format", "table"])
        #expect(run.status == 0, "\(run.err)")
        #expect(!run.out.hasPrefix("\n"), "\(run.out)")
        #expect(run.out.components(separatedBy: "\n\n").count == 2, "\(run.out)")
    }

    /// A `--fields` table is held for its widths and written at the end: an account not found beside the ones
    /// found leaves their rows written.
    @Test func aFieldsTableIsWrittenThoughAnAccountWasNotFound() async {
        let harness = CommandHarness()
        harness.expect("GET /users/octocat", body: "users-get-by-username")
        harness.expect("GET /users/nosuch-zz", status: 404, body: "error-404")
        let run = await harness.run(["show", "octocat", "nosuch-zz", "--format", "table", "--fields", "login"])
        #expect(run.status == 1)
        #expect(run.out.contains("octocat"), "\(run.out)")
        #expect(run.err.contains("no user 'nosuch-zz'"), "\(run.err)")
    }

    /// A malformed GraphQL batch names `POST /graphql`, no account: the accounts of the batch are named
    /// (helper-321), where a REST answer's path names its own.
    @Test func aMalformedGraphQLBatchNamesTheAccountsItWasFor() async {
        let harness = CommandHarness.signedIn()
        harness.http.register(RequestMatcher("POST /graphql"), body: Data(#"{"data": {}, "data": {}}"#.utf8))
        let run = await harness.run(["show", "mona", "hubot", "--via", "graphql", "--retries", "0"])
        #expect(run.status == 1, "\(run.err)")
        let malformed = run.err.split(separator: "\n").filter { $0.contains("malformed response from POST /graphql") }
        #expect(malformed.count == 1, "\(run.err)")
        #expect(malformed.first?.hasSuffix(" (looking up 'mona', 'hubot')") == true, "\(run.err)")
    }

    @Test func everyFieldAPathThatGoesWrongIsExitOne() async {
        let harness = CommandHarness()
        harness.expect("GET /users/octocat", body: "users-get-by-username")
        let run = await harness.run(["show", "octocat", "--format", "tsv", "--fields", "login.x,name.y"])
        #expect(run.status == 1)
        #expect(run.out.isEmpty)
        #expect(run.err.contains("has nothing at login.x, name.y, so every row would be blank"), "\(run.err)")
        // Each path's warning says what it met first, as a list's does.
        #expect(run.err.contains("--fields login.x: the first record's login is a plain value"), "\(run.err)")
        let mixed = CommandHarness()
        mixed.expect("GET /users/octocat", body: "users-get-by-username")
        let written = await mixed.run(["show", "octocat", "--format", "tsv", "--fields", "login,login.x"])
        #expect(written.status == 0, "\(written.err)")
        #expect(written.out == "octocat\t\n")
        #expect(written.err.contains("--fields login.x: the first record's login is a plain value"))
        // A login that failed before it is still said. (Profiles are written as they come, in order, and the
        // first one found stops the run here: what comes after it is not waited for.)
        let failing = CommandHarness()
        failing.expect("GET /users/octocat", body: "users-get-by-username")
        failing.expect("GET /users/nosuch-zz", status: 404, body: "error-404")
        let both = await failing.run(["show", "nosuch-zz", "octocat", "--format", "tsv", "--fields", "login.x"])
        #expect(both.status == 1)
        #expect(both.err.contains("no user 'nosuch-zz' (HTTP 404)"), "\(both.err)")
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

    /// Several accounts, none found: json is still one document, `[]`, and csv its header, as OUTPUT.md promises
    /// (before: nothing, and `jq length` read no input); one account is an object, so none found writes nothing.
    @Test(arguments: [
        (["--json"], "[]\n"), (["--format", "csv", "--fields", "login,id"], "login,id\r\n"),
        (["--format", "tsv"], ""), (["--format", "table"], ""),
    ])
    func severalNoneFoundIsStillOneDocument(format: [String], expected: String) async {
        let harness = CommandHarness()
        harness.expect("GET /users/nosuch-a", status: 404, body: "error-404")
        harness.expect("GET /users/nosuch-b", status: 404, body: "error-404")
        let run = await harness.run(["show", "nosuch-a", "nosuch-b"] + format)
        #expect(run.status == 3, "\(run.err)")
        #expect(run.out == expected)
        #expect(run.err.contains("no user 'nosuch-a'") && run.err.contains("no user 'nosuch-b'"), "\(run.err)")
        let one = CommandHarness()
        one.expect("GET /users/nosuch-a", status: 404, body: "error-404")
        let single = await one.run(["show", "nosuch-a"] + format)
        #expect(single.status == 3)
        #expect(single.out.isEmpty)
    }

    /// A spent rate limit stops the lookups: nothing more is sent, what was found is written, stderr says how
    /// many were not shown, and the run is exit 5, as a list that meets the limit half-way (before: every login
    /// was asked and refused, exit 1).
    @Test func aSpentRateLimitStopsTheLookupsAndIsExitFive() async {
        let harness = CommandHarness()
        harness.expect("GET /users/octocat", body: "users-get-by-username")
        harness.http.refuseAsRateLimited("GET /users/mona")
        let run = await harness.run([
            "show", "octocat", "mona", "hubot", "monalisa", "--concurrency", "1", "--format", "tsv", "--fields",
            "login",
        ])
        #expect(run.status == 5, "\(run.err)")
        #expect(run.out == "octocat\n")
        #expect(harness.http.received.count == 2)
        #expect(
            run.err.hasSuffix(
                "gh-users: 3 of 4 accounts were not shown: the rate limit stopped the lookups; ask for them again "
                    + "once it lifts\n"), "\(run.err)")
        // A login not found beside them is said by its own line, and not counted as stopped (helper-316: "3 of 4"
        // blamed the limit for it); nothing written, nothing more is said.
        let mixed = CommandHarness()
        mixed.expect("GET /users/octocat", body: "users-get-by-username")
        mixed.expect("GET /users/nosuch-zz", status: 404, body: "error-404")
        mixed.http.refuseAsRateLimited("GET /users/mona")
        let counted = await mixed.run(["show", "octocat", "nosuch-zz", "mona", "hubot", "--concurrency", "1"])
        #expect(counted.status == 5, "\(counted.err)")
        #expect(counted.err.contains("no user 'nosuch-zz'"), "\(counted.err)")
        #expect(
            counted.err.hasSuffix(
                "gh-users: 2 of 4 accounts were not shown: the rate limit stopped the lookups; "
                    + "ask for them again once it lifts\n"), "\(counted.err)")
        let none = CommandHarness()
        none.expect("GET /users/nosuch-zz", status: 404, body: "error-404")
        none.http.refuseAsRateLimited("GET /users/mona")
        let nothing = await none.run(["show", "nosuch-zz", "mona", "hubot", "--concurrency", "1"])
        #expect(nothing.status == 5, "\(nothing.err)")
        #expect(!nothing.err.contains("were not shown"), "\(nothing.err)")
    }

    /// A token GitHub refuses (401 `Bad credentials`: revoked or expired during the run) stops the lookups as a
    /// spent limit does: nothing more is sent with it, since GitHub locks out an account that keeps sending bad
    /// credentials; what was found is written, stderr says how many were not shown, and the run is exit 4.
    /// Before: every login was asked with the refused token (helper-315 saw 297 of 300), and exit 1.
    @Test func aRefusedTokenStopsTheLookupsAndIsExitFour() async {
        let harness = CommandHarness()
        harness.expect("GET /users/octocat", body: "users-get-by-username")
        harness.expect("GET /users/mona", status: 401, body: "error-401")
        let run = await harness.run([
            "show", "octocat", "mona", "hubot", "monalisa", "--concurrency", "1", "--format", "tsv", "--fields",
            "login",
        ])
        #expect(run.status == 4, "\(run.err)")
        #expect(run.out == "octocat\n")
        #expect(harness.http.received.count == 2)
        #expect(run.err.hasPrefix("gh-users: authentication failed (HTTP 401"), "\(run.err)")
        #expect(
            run.err.hasSuffix(
                "gh-users: 3 of 4 accounts were not shown: GitHub refused the token, which stopped the lookups; ask "
                    + "for them again with one it takes\n"), "\(run.err)")
        // A login GitHub does not know is no refusal of the token: the others are still asked, and the run is 1.
        let missing = CommandHarness()
        missing.expect("GET /users/octocat", body: "users-get-by-username")
        missing.expect("GET /users/nosuch-zz", status: 404, body: "error-404")
        missing.expect("GET /users/mona", body: "users-get-by-username")
        let one = await missing.run(["show", "octocat", "nosuch-zz", "mona", "--concurrency", "1"])
        #expect(one.status == 1, "\(one.err)")
        #expect(missing.http.received.count == 3)
        // Nor is one organization's single sign-on (a 403 that names it), which the token may yet be authorized
        // for: that account fails alone (helper-316: it stopped every lookup, saying to use another token).
        let sso = CommandHarness()
        sso.expect("GET /users/octocat", body: "users-get-by-username")
        sso.expect(
            "GET /users/mona", status: 403, headers: [("X-GitHub-SSO", "required; url=https://github.com/orgs/o/sso")],
            body: "error-403-forbidden")
        sso.expect("GET /users/hubot", body: "users-get-by-username")
        let authorize = await sso.run(["show", "octocat", "mona", "hubot", "--concurrency", "1"])
        #expect(authorize.status == 1, "\(authorize.err)")
        #expect(sso.http.received.count == 3)
        #expect(!authorize.err.contains("were not shown"), "\(authorize.err)")
    }

    @Test(arguments: [["show", "../etc/passwd"], ["show", "octocat", "--concurrency", "11"], ["show"]])
    func aUsageErrorIsStatus64AndSendsNothing(_ arguments: [String]) async {
        await expectUsageError(arguments)
    }
}
