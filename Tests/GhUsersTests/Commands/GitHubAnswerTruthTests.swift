import Foundation
import Networking
import TestSupport
import Testing

@testable import gh_users

/// Issue 26.5: GitHub's refusals of the API version gh-users asks for say so, with GitHub's own sentence.
struct APIVersionRefusalCommandTests {
    private let sentence =
        #"The version you specified in the "X-GitHub-API-Version" request header, "1999-01-01", is not a "#
        + #"supported version. The following versions are currently supported: "2026-03-10" (most recent) and "#
        + #""2022-11-28"."#

    /// Before: "gh-users: GitHub answered HTTP 400: Bad Request", and nothing of the version.
    @Test func theVersionRefusalPrintsGitHubsSentenceAndSaysToUpgrade() async {
        await AnsweredCase(
            "show octocat",
            answers: [
                StubbedAnswer(
                    "GET /users/octocat", status: 400, headers: [CommandHarness.requestID],
                    body: "error-400-api-version")
            ],
            status: 1,
            err: "gh-users: GitHub answered HTTP 400: Bad Request: \(sentence)\n"
                + "This gh-users is too old for GitHub's API (it asks for version 2022-11-28): upgrade gh-users.\n"
                + "request id: CF25:41C0:C9E976\n"
        ).run()
    }

    /// GitHub answers a version it no longer supports with the 400 above (docs.github.com/rest/overview/api-versions:
    /// "If you specify an API version that is no longer supported, you will receive a 400 error"); its 410 Gone is
    /// about the resource (gone, or disabled), so it is GitHub's message alone, exit 1 as any other HTTP failure.
    /// Before: every 410 said "This gh-users is too old for GitHub's API … upgrade gh-users." A 410 whose words
    /// name the version header is still no version refusal (helper-327: taking 410 as 400 went unseen).
    @Test(arguments: ["Gone", "Gone: X-GitHub-Api-Version 2022-11-28 of this endpoint"])
    func aPlainGoneIsGitHubsMessageNotAnUpgrade(message: String) async {
        let harness = CommandHarness.signedIn()
        harness.http.register(
            RequestMatcher("GET /users/gone"), status: 410, headers: [CommandHarness.requestID],
            body: Data(#"{"message":"\#(message)"}"#.utf8))
        let run = await harness.run(["show", "gone"])
        #expect(run.status == 1)
        #expect(run.out.isEmpty)
        #expect(
            run.err == "gh-users: GitHub answered HTTP 410: \(message)\nrequest id: CF25:41C0:C9E976\n", "\(run.err)")
    }
}

/// A failure on GitHub's side (500, 502, 503, 504), once the retries are spent, says to try again later and where
/// GitHub reports outages; a refusal of the request itself (a 4xx, a 501) does not, since asking again changes
/// nothing. Before: "gh-users: GitHub answered HTTP 500: Server Error" alone.
struct ServerFailureAdviceTests {
    private let advice = "GitHub failed on its side: try again later (https://www.githubstatus.com shows outages).\n"

    @Test(arguments: [500, 502, 503, 504])
    func aServerFailureSaysToTryAgainLater(status: Int) async {
        let harness = CommandHarness.signedIn()
        harness.expect("GET /users/octocat", status: status, headers: [CommandHarness.requestID], body: "error-500")
        let run = await harness.run(["show", "octocat", "--retries", "0"])
        #expect(run.status == 1)
        #expect(run.out.isEmpty)
        let expected = "gh-users: GitHub answered HTTP \(status): Server Error\n\(advice)request id: CF25:41C0:C9E976\n"
        #expect(run.err == expected, "\(run.err)")
    }

    /// A GitHub Enterprise Server's failure is not github.com's: no link to github.com's status page there
    /// (helper-351's R5).
    @Test func anEnterpriseHostsFailureNamesNoStatusPage() {
        var presenter = ErrorPresenter(now: Date(timeIntervalSince1970: 1_700_000_000), hasToken: true)
        presenter.tokenOrigin = TokenOrigin(
            source: nil, variables: ["GH_ENTERPRISE_TOKEN", "GITHUB_ENTERPRISE_TOKEN"], enterpriseHost: "ghe.example")
        let message = presenter.present(.server(status: 503, message: "Service Unavailable")).message
        #expect(message.hasSuffix("\nGitHub failed on its side: try again later.\n"), "\(message)")
    }

    @Test(arguments: [409, 422, 501])
    func aRefusalOfTheRequestDoesNot(status: Int) async {
        let harness = CommandHarness.signedIn()
        harness.expect("GET /users/octocat", status: status, body: "error-500")
        let run = await harness.run(["show", "octocat", "--retries", "0"])
        #expect(run.status == 1)
        #expect(run.err == "gh-users: GitHub answered HTTP \(status): Server Error\n", "\(run.err)")
    }
}

/// Issue 26.6: GitHub's own 304s carry no `X-OAuth-Scopes`, so `me` asks `GET /user` without validators.
struct ScopesAfterARecorded304Tests {
    /// A 304 GitHub sent on 2018-01-01, as github3.py recorded it (`tests/cassettes/Branch_latest_sha.json`,
    /// interaction 2, commit 9eeac0dd), has no `X-OAuth-Scopes`, though `Access-Control-Expose-Headers` names it.
    /// That recording was made without a token; a 304 sent to a token carries none either (PyGithub's 2013
    /// recording `ConditionalRequestUpdate.testDidNotUpdate`, a fact only: its data is not copied here).
    static let etag = #""1254fe8f5cfcbd4afc2f692827da4f04a3033c56""#

    /// Before: the second `me` said "Scopes     not reported: fine-grained and app tokens have …"; then it named
    /// the scopes stored with the copy a 304 confirmed, however they had been edited since.
    @Test func theSecondMeNamesTheScopesTheTokenHasNow() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gh-users-304-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        var harness = CommandHarness.signedIn()
        harness.cacheDirectory = folder
        harness.stdoutTTY = true
        harness.width = 100
        harness.expect(
            "GET /user",
            headers: [
                ("ETag", Self.etag), ("Last-Modified", "Sat, 25 Jun 2016 17:11:19 GMT"),
                ("X-OAuth-Scopes", "repo, user"),
            ], body: "users-get-authenticated")
        let first = await harness.run(["me", "--color", "never"])
        #expect(first.status == 0, "\(first.err)")
        #expect(first.out.hasSuffix("\n  Scopes     repo, user\n"))
        // A 304 carries no X-OAuth-Scopes, so the scopes it would show are the stored ones: `me`
        // asks without validators, and a token whose scopes were edited since shows its scopes now.
        harness.expect(
            "GET /user",
            headers: [("ETag", Self.etag), ("X-OAuth-Scopes", "read:org, repo, user")],
            body: "users-get-authenticated")
        let second = await harness.run(["me", "--color", "never"])
        #expect(second.status == 0, "\(second.err)")
        #expect(harness.http.received.last?.headers["If-None-Match"] == nil)
        #expect(second.out.hasSuffix("\n  Scopes     read:org, repo, user\n"), "\(second.out)")
        // The fresh answer is stored: --offline shows it.
        let offline = await harness.run(["me", "--color", "never", "--offline"])
        #expect(offline.status == 0, "\(offline.err)")
        #expect(offline.out.hasSuffix("\n  Scopes     read:org, repo, user\n"), "\(offline.out)")
    }
}

/// Issue 26.7: smaller truths.
struct SmallerTruthsTests {
    /// Since 2025-01-30 the events API keeps 30 days (GitHub changelog, 2025-01-30). Before: "90 days".
    @Test func eventsHelpSaysThirtyDays() {
        let discussion = ListEventsCommand.spec.discussion ?? ""
        #expect(discussion.contains("none older than 30 days"))
        #expect(!discussion.contains("90"))
    }

    /// A secondary limit is per requests at once or per minute: no token lifts it (GitHub's docs, "Rate limits
    /// for the REST API"). GitHub's older wording of it, "You have triggered an abuse detection mechanism …"
    /// (its REST docs until 2021), with `Retry-After`. Before: "… set GH_TOKEN for 5,000."
    @Test func aSecondaryLimitOffersNoToken() async {
        let harness = CommandHarness()
        harness.http.register(
            RequestMatcher("GET /users/octocat"), status: 403, headers: [("Retry-After", "30")],
            body: Data(
                #"{"message":"You have triggered an abuse detection mechanism. Please wait a few minutes before you try again.","documentation_url":"https://developer.github.com/v3/#abuse-rate-limits"}"#
                    .utf8))
        let run = await harness.run(["show", "octocat", "--retries", "0"])
        #expect(run.status == 5, "\(run.err)")
        #expect(run.err.hasPrefix("gh-users: API rate limit exceeded (You have triggered an abuse detection"))
        #expect(!run.err.contains("GH_TOKEN"), "\(run.err)")
    }

    /// Only 204 is yes (GitHub's docs for "Check if a user follows another user": 204 and 404). Before: a 200
    /// `{"following": false}` printed "a follows b." and exit 0.
    @Test func followsAnsweredWithAnotherSuccessIsNoAnswer() async {
        let harness = CommandHarness()
        harness.http.register(
            RequestMatcher("GET /users/a/following/b"), headers: [CommandHarness.requestID],
            body: Data(#"{"following": false}"#.utf8))
        let run = await harness.run(["follows", "a", "b"])
        #expect(run.status == 2, "\(run.err)")
        #expect(run.out.isEmpty)
        #expect(
            run.err
                == "gh-users: malformed response from GET /users/a/following/b: GitHub answered HTTP 200, where only "
                + "204 (follows) or 404 (does not follow) is an answer\nrequest id: CF25:41C0:C9E976\n")
    }

    /// A block is 204 (GitHub's docs, "Block a user"); another success does not say it was done. Before:
    /// "octocat block blocked", exit 0.
    @Test func aBlockAnsweredWithAnotherSuccessIsNotDone() async {
        let harness = CommandHarness.signedIn()
        harness.expect("PUT /user/blocks/octocat", status: 200)
        let run = await harness.run(["block", "--yes", "octocat", "--format", "tsv"])
        #expect(run.status == 1, "\(run.err)")
        #expect(!run.out.contains("\tblocked"), "\(run.out)")
        #expect(
            run.err.contains("GitHub answered HTTP 200, where only 204 (or 304, not modified) says it was done"),
            "\(run.err)")
    }

    /// The body's `rate` alone, as the `rate` object of a 2013 recording (github3.py,
    /// `Tests/Recorded/github3.py/rate-limit-gzip-2013.json`, BSD-3-Clause) without the `resources` beside it.
    /// Before: "malformed response … 'resources' is missing", exit 1.
    @Test func aRateLimitOfRateAloneIsRead() async {
        let harness = CommandHarness()
        harness.http.register(
            RequestMatcher("GET /rate_limit"),
            body: Data(#"{"rate":{"limit":60,"remaining":60,"reset":1386774269}}"#.utf8))
        let run = await harness.run(["rate-limit", "--format", "tsv"])
        #expect(run.status == 0, "\(run.err)")
        // The recording has no `used`: blank, as GitHub sent none (before: 0, worked out as limit less remaining).
        #expect(run.out == "core\t60\t60\t\t2013-12-11T15:04:29Z\n")
    }

    /// A GraphQL limit exit names the answer's request id, as a REST one does. Before: no request id line.
    @Test func aGraphQLLimitNamesTheRequestID() async {
        let harness = CommandHarness.signedIn()
        harness.expect(
            "POST /graphql", headers: [CommandHarness.requestID, ("x-ratelimit-reset", "1800000600")],
            body: "graphql-rate-limit")
        let run = await harness.run(["show", "octocat", "--via", "graphql"])
        #expect(run.status == 5, "\(run.err)")
        #expect(run.err.hasSuffix("request id: CF25:41C0:C9E976\n"), "\(run.err)")
    }

    /// A write's refused redirect names the answer's request id. Before: no request id line.
    @Test func aRefusedWriteRedirectNamesTheRequestID() async {
        let harness = CommandHarness.signedIn()
        harness.expect(
            "PUT /user/following/octocat", status: 307,
            headers: [CommandHarness.requestID, ("Location", "https://api.github.com/user/following/other")])
        let run = await harness.run(["follow", "octocat"])
        #expect(run.status == 1, "\(run.err)")
        #expect(run.err.contains("was redirected"), "\(run.err)")
        #expect(run.err.contains("request id: CF25:41C0:C9E976\n"), "\(run.err)")
    }

    /// GitHub documents 200 with the profile for `PATCH /user`; a 204 is the change made all the same, and the
    /// profile is asked for. Before: "malformed response … PATCH", exit 1, for a change that was made.
    @Test func meEditAnswered204IsSuccess() async {
        let harness = CommandHarness.signedIn()
        harness.expect("PATCH /user", status: 204)
        harness.expect("GET /user", body: "users-get-authenticated")
        let run = await harness.run(["me", "edit", "--bio", "x", "--format", "tsv", "--fields", "login"])
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out == "octocat\n")
    }

    /// After a 204 the profile is read back live: the cached copy is from before the change, so a read that fails
    /// is a failure, saying the profile was changed. Before: the old profile from the cache, exit 0, shown as the
    /// new one.
    @Test func anEditsProfileIsNeverTheCopyFromBeforeIt() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gh-users-edit-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        var harness = CommandHarness.signedIn()
        harness.cacheDirectory = folder
        harness.expect(
            "GET /user", headers: [("ETag", ScopesAfterARecorded304Tests.etag)], body: "users-get-authenticated")
        #expect(await harness.run(["me"]).status == 0)
        harness.expect("PATCH /user", status: 204)
        for _ in 0..<StubTransport.attemptsWithDefaultRetries {
            harness.http.fail("https://api.github.com/user", with: .connectionLost)
        }
        let run = await harness.run(["me", "edit", "--bio", "x", "--format", "tsv", "--fields", "login"])
        #expect(run.status == 1, "\(run.err)")
        #expect(run.out.isEmpty, "\(run.out)")
        #expect(!run.err.contains("using the copy"), "\(run.err)")
        // Nor is that copy offered: it is from before the change.
        #expect(!run.err.contains("--offline answers from it"), "\(run.err)")
        #expect(run.err.hasSuffix("gh-users: the profile was changed all the same; 'gh-users me' shows it\n"))
    }

    /// A gateway's error may come after the change was made, and a PATCH is never sent twice: the failure says to
    /// check, as a lost answer's does. Before: "GitHub answered HTTP 502: Bad Gateway" alone. No "try again later"
    /// follows, which would read as to send it again (helper-351's R3).
    @Test(arguments: [502, 504])
    func aGatewayErrorToAnEditSaysToCheckWithMe(status: Int) async {
        let harness = CommandHarness.signedIn()
        harness.expect("PATCH /user", status: status)
        let run = await harness.run(["me", "edit", "--bio", "x"])
        #expect(run.status == 1, "\(run.err)")
        #expect(
            run.err.contains(
                "; the PATCH may have reached GitHub all the same: check with gh-users me before sending it again"),
            "\(run.err)")
        #expect(!run.err.contains("try again later"), "\(run.err)")
    }

    /// A 5xx the client asked again for says so, as a failure with no answer does, and when GitHub asks to be
    /// asked again: a `Retry-After` over a minute is left to the backoff, so the run ends before it has passed
    /// (helper-326). Before: "GitHub answered HTTP 503: Service Unavailable" alone, which read as asked once.
    @Test(arguments: [
        (["--retries", "0"], [("Retry-After", "120")], ""),  // asked once: nothing to say
        ([], [], ", after 4 attempts over 0.0 s"),
        (
            [], [("Retry-After", "120")],
            ", after 4 attempts over 0.0 s; GitHub asks for 120 s before another (Retry-After)"
        ),
    ])
    func aRetriedServerErrorSaysSo(options: [String], headers: [(String, String)], said: String) async {
        let harness = CommandHarness.signedIn()
        for _ in 0..<(options.isEmpty ? StubTransport.attemptsWithDefaultRetries : 1) {
            harness.http.register(
                RequestMatcher("GET /users/octocat"), status: 503, headers: headers + [CommandHarness.requestID],
                body: Data(#"{"message":"Service Unavailable"}"#.utf8))
        }
        let run = await harness.run(["show", "octocat"] + options)
        #expect(run.status == 1)
        #expect(run.out.isEmpty)
        let advice = "GitHub failed on its side: try again later (https://www.githubstatus.com shows outages).\n"
        #expect(
            run.err == "gh-users: GitHub answered HTTP 503: Service Unavailable\(said)\n\(advice)request id: "
                + "CF25:41C0:C9E976\n", "\(run.err)")
    }

    /// A PATCH sent and its answer lost may have changed the profile. Before: the network error alone.
    @Test func aLostEditAnswerSaysToCheckWithMe() async {
        let harness = CommandHarness.signedIn()
        harness.http.fail("https://api.github.com/user", with: .connectionLost)
        let run = await harness.run(["me", "edit", "--bio", "x"])
        #expect(run.status == 1, "\(run.err)")
        #expect(
            run.err.hasSuffix(
                "The PATCH may have reached GitHub before its answer was lost: check with gh-users me before "
                    + "sending it again.\n"), "\(run.err)")
    }
}

/// An Enterprise host's web root given as the API URL: its web server's HTML 404 is no missing account (exit 3),
/// and its sign-in page no "malformed JSON"; both say to check the API URL, exit 1.
struct WebPageAtTheAPIURLTests {
    /// A write's 404 is read as a token without the scope (exit 4); a web server's page says the API URL is wrong,
    /// and stops the run there: every other write would go to the same web server, one a second.
    @Test func aWriteAnsweredByAWebServersNotFoundSaysToCheckTheAPIURLAndStops() async {
        let harness = CommandHarness.signedIn()
        harness.http.register(
            RequestMatcher("PUT /user/following/mona"), status: 404, headers: [("Content-Type", "text/html")],
            body: Data("<html>Not Found</html>".utf8))
        let run = await harness.run(["follow", "--yes", "mona", "alice", "bob"])
        #expect(run.status == 1, "\(run.err)")
        #expect(harness.http.received.count == 1)
        #expect(run.err.contains("2 not sent"), "\(run.err)")
        #expect(run.err.contains("/user/following/mona: the server answered a web page (HTTP 404)"), "\(run.err)")
        #expect(!run.err.contains("scope"), "\(run.err)")
    }

    @Test(arguments: [
        (404, "text/html; charset=utf-8", "<html>Not Found</html>"), (200, "text/html", "\n<!DOCTYPE html>"),
    ])
    func aReadAnsweredByAWebPageSaysToCheckTheAPIURL(status: Int, type: String, page: String) async {
        let harness = CommandHarness.signedIn()
        harness.http.register(
            RequestMatcher("GET /users/octocat"), status: status, headers: [("Content-Type", type)],
            body: Data(page.utf8))
        let run = await harness.run(["show", "octocat"])
        #expect(run.status == 1, "\(run.err)")
        #expect(
            run.err.hasPrefix(
                "gh-users: malformed response from GET /users/octocat: the server answered a web page (HTTP \(status)), "
                    + "not GitHub's API: check the API URL"), "\(run.err)")
    }
}
