import Domain
import Foundation
import TestSupport
import Testing

@testable import gh_users

/// A command whose answer is a status, not a body: `follows`, and the writes (`follow`, `unfollow`, `block`,
/// `unblock`), real and dry run.
struct StatusRow: Sendable, CustomTestStringConvertible {
    let endpoint: Endpoint
    let command: String
    /// What the command must send, in order; none for a dry run.
    let sends: [String]
    let out: String

    init(_ endpoint: Endpoint, _ command: String, sends: [String], out: String) {
        self.endpoint = endpoint
        self.command = command
        self.sends = sends
        self.out = out
    }

    var testDescription: String { "\(endpoint) → gh-users \(command)" }
}

struct FollowCommandTests {
    static let rows: [StatusRow] = [
        StatusRow(
            .checkFollowing, "follows octocat torvalds", sends: ["GET /users/octocat/following/torvalds"],
            out: "octocat\ttorvalds\ttrue\n"),
        StatusRow(
            .follow, "follow --dry-run octocat", sends: [], out: "PUT https://api.github.com/user/following/octocat\n"),
        StatusRow(
            .follow, "follow octocat", sends: ["PUT /user/following/octocat"], out: "octocat\tfollow\tfollowed\n"),
        StatusRow(
            .unfollow, "unfollow --dry-run --yes Yamada-Taro octocat", sends: [],
            out: "DELETE https://api.github.com/user/following/Yamada-Taro\n"
                + "DELETE https://api.github.com/user/following/octocat\n"),
        StatusRow(
            .unfollow, "unfollow --dry-run octocat", sends: [],
            out: "DELETE https://api.github.com/user/following/octocat\n"),
        // In a format asked for, a dry run is the records a run would write, with the request (before: the request
        // lines whatever the format, so `--json | jq` failed).
        StatusRow(
            .unfollow, "unfollow --dry-run --format ndjson octocat", sends: [],
            out: #"{"login":"octocat","action":"unfollow","outcome":"dry run","method":"DELETE","#
                + #""url":"https://api.github.com/user/following/octocat","body":null}"# + "\n"),
        StatusRow(
            .block, "block --dry-run --format csv octocat", sends: [],
            out: "login,action,outcome,method,url,body\r\noctocat,block,dry run,PUT,"
                + "https://api.github.com/user/blocks/octocat,\r\n"),
        // A dry run's columns are fields too (before: its csv header named url, and --fields url was exit 64).
        StatusRow(
            .block, "block --dry-run --fields login,url --format csv octocat", sends: [],
            out: "login,url\r\noctocat,https://api.github.com/user/blocks/octocat\r\n"),
        // --fields alone chooses records too, tsv when piped (before: the request lines, --fields ignored).
        StatusRow(
            .follow, "follow --dry-run --fields login,url octocat", sends: [],
            out: "octocat\thttps://api.github.com/user/following/octocat\n"),
        StatusRow(
            .unfollow, "unfollow octocat", sends: ["DELETE /user/following/octocat"],
            out: "octocat\tunfollow\tunfollowed\n"),
        StatusRow(
            .block, "block --yes octocat", sends: ["PUT /user/blocks/octocat"], out: "octocat\tblock\tblocked\n"),
        StatusRow(
            .unblock, "unblock octocat", sends: ["DELETE /user/blocks/octocat"],
            out: "octocat\tunblock\tunblocked\n"),
    ]

    /// The operations these rows cover, for the test that every operation has a row.
    static var endpoints: [Endpoint] { rows.map(\.endpoint) }

    @Test(arguments: rows)
    func sendsExactlyTheRequestsAndSaysSo(row: StatusRow) async {
        var harness = CommandHarness()
        harness.environment["GH_TOKEN"] = CommandRequestTests.token
        for request in row.sends {
            harness.expect(request, accept: "application/vnd.github+json", status: 204)
        }
        let run = await harness.run(row.command.split(separator: " ").map(String.init))
        #expect(run.status == 0)
        #expect(run.out == row.out)
        #expect(run.err.isEmpty)
        let put = harness.http.received.first { $0.method == .put }
        #expect(put.map { $0.headers["Content-Length"] == "0" } ?? true)
    }

    /// GitHub refuses a token without `user:follow` with 403 naming the scopes, or hides the endpoint behind 404
    /// (an account that exists, as the lookup after it shows): the first refusal stops the run, and the accounts
    /// after it are not sent.
    @Test(arguments: [
        [StubbedAnswer.scopeRefusal("PUT /user/following/Yamada-Taro", accepted: "user, user:follow")],
        [
            StubbedAnswer("PUT /user/following/Yamada-Taro", status: 404, body: "error-404"),
            StubbedAnswer("GET /users/Yamada-Taro", status: 200, body: "users-get-by-username"),
        ],
    ])
    func aTokenWithoutTheFollowScopeStopsAtTheFirstRefusal(_ answers: [StubbedAnswer]) async {
        let harness = CommandHarness.signedIn()
        answers.forEach(harness.expect)
        let run = await harness.run(["follow", "Yamada-Taro", "shipit[bot]", "--format", "tsv"])
        #expect(run.status == 4, "\(run.err)")
        #expect(run.out.contains("shipit[bot]\tfollow\tnot sent"), "\(run.out)")
        #expect(run.err.contains("user:follow"), "\(run.err)")
        #expect(!run.err.contains(CommandRequestTests.token))
    }

    /// A write's records hold plain values (a follow's request has no body), so a path into one is refused, with
    /// --dry-run too (before: a blank column, exit 0).
    @Test(arguments: ["url.host", "login,body.x", "login.first"])
    func aPathIntoAWritesRecordIsAUsageError(fields: String) async {
        let field = fields.split(separator: ",").last.map { $0.prefix { $0 != "." } } ?? ""
        await expectUsageError(
            ["follow", "octocat", "--dry-run", "--fields", fields],
            saying: "follow's field '\(field)' is a plain value or a list, which a path cannot go into")
    }

    /// A path into no field is an unknown field, as for the tool's other records, not a path into a plain value
    /// (before: "follow's field 'nope' is a plain value", and for `.login` a field named ''; now a path with an
    /// empty step, as every command says it).
    @Test(arguments: [
        ("nope.x", "unknown field 'nope.x' for follow"), (".login", "--fields '.login' has an empty step"),
    ])
    func aPathIntoNoFieldIsAnUnknownField(fields: String, saying: String) async {
        await expectUsageError(["follow", "octocat", "--dry-run", "--fields", fields], saying: saying)
    }

    /// GitHub documents 304 Not modified for follow and unfollow (operations.json): nothing needed changing, so
    /// the write is done (before: "the PUT was redirected … so it was not followed", exit 1).
    @Test(arguments: [("follow", "PUT", "followed"), ("unfollow", "DELETE", "unfollowed")])
    func notModifiedIsDone(command: String, method: String, past: String) async {
        let harness = CommandHarness.signedIn()
        harness.expect("\(method) /user/following/Yamada-Taro", status: 304)
        let run = await harness.run([command, "Yamada-Taro", "--format", "tsv", "--yes"])
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out == "Yamada-Taro\t\(command)\t\(past)\n", "\(run.out)")
        #expect(run.err.isEmpty, "\(run.err)")
    }

    /// Without --dry-run a request's key would be a blank column: exit 64, nothing sent.
    @Test(arguments: ["url", "login,method", "body", "url.host"])
    func aRequestFieldWithoutADryRunIsAUsageError(fields: String) async {
        await expectUsageError(
            ["follow", "octocat", "--fields", fields],
            saying: "exists only with --dry-run, whose records have login, action, outcome, method, url, body")
    }

    /// GitHub's OpenAPI description documents 304 Not modified for `PATCH /user` (200, 304, 401, 403, 404, 422):
    /// nothing needed changing, so the profile is asked for and shown, exit 0 (before: "Not Modified, which
    /// GitHub does not document for this write", exit 1).
    @Test func aProfileEditAnswered304ShowsTheProfileAsItIs() async {
        let harness = CommandHarness.signedIn()
        harness.expect("PATCH /user", status: 304)
        harness.expect("GET /user", body: "users-get-authenticated")
        let run = await harness.run(["me", "edit", "--bio", "x", "--format", "tsv", "--fields", "login"])
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out == "octocat\n", "\(run.out)")
        #expect(run.err == "gh-users: GitHub answered 304 Not Modified: the profile needed no change\n", "\(run.err)")
    }

    /// A 200 that is no profile still says the change was probably made, as a lost answer does.
    @Test func aProfileEditAnsweredWithNoProfileSaysToCheck() async {
        let harness = CommandHarness.signedIn()
        harness.http.answer("PATCH /user", json: #"{"oops":1}"#)
        let run = await harness.run(["me", "edit", "--bio", "x"])
        #expect(run.status == 1, "\(run.err)")
        #expect(run.err.contains("so the change was probably made: check with gh-users me"), "\(run.err)")
        // Broken JSON is refused before it is decoded, and says so too.
        let broken = CommandHarness.signedIn()
        broken.http.answer("PATCH /user", json: #"{"login":"octocat","#)
        let cut = await broken.run(["me", "edit", "--bio", "x"])
        #expect(cut.status == 1, "\(cut.err)")
        #expect(cut.err.contains("so the change was probably made: check with gh-users me"), "\(cut.err)")
        // A refusal whose headers do not read (a rate limit's reset that is no time) made no change.
        let limited = CommandHarness.signedIn()
        limited.http.answer(
            "PATCH /user", status: 403, headers: [("X-RateLimit-Remaining", "0"), ("X-RateLimit-Reset", "soon")],
            json: #"{"message":"API rate limit exceeded"}"#)
        let refused = await limited.run(["me", "edit", "--bio", "x"])
        #expect(refused.status == 1, "\(refused.err)")
        #expect(!refused.err.contains("probably made"), "\(refused.err)")
    }

    /// Interrupted while the PATCH is under way, the change may have been made: the user is told to check, as a
    /// lost answer tells them (before: "interrupted" alone).
    @Test func aProfileEditInterruptedInFlightSaysToCheck() async {
        let harness = CommandHarness.signedIn()
        harness.http.fail("https://api.github.com/user", with: .cancelled)
        let run = await harness.run(["me", "edit", "--bio", "x"])
        #expect(run.status == 130, "\(run.err)")
        let warned = harness.log.entries.map(\.message)
        #expect(
            warned.contains(
                "the PATCH was interrupted before GitHub's answer came, and may have reached GitHub: check with "
                    + "gh-users me before sending it again"), "\(warned)")
    }

    /// A 403 that is not about scopes (a fine-grained token without the Followers permission: GitHub's "Resource
    /// not accessible by personal access token", the token's scopes covering the endpoint's) stops the run with
    /// GitHub's words, and names no scope (before: "the token lacks the user:follow scope").
    @Test func a403NotAboutScopesSaysGitHubsWordsAndNoScope() async {
        let harness = CommandHarness.signedIn()
        harness.http.answer(
            "PUT /user/following/Yamada-Taro", status: 403,
            headers: [("X-OAuth-Scopes", "repo, user"), ("X-Accepted-OAuth-Scopes", "user, user:follow")],
            json: #"{"message":"Resource not accessible by personal access token","status":"403"}"#)
        let run = await harness.run(["follow", "Yamada-Taro", "shipit[bot]", "--format", "tsv"])
        #expect(run.status == 4, "\(run.err)")
        #expect(
            run.out.contains(
                "Yamada-Taro\tfollow\tfailed: GitHub refused the request (HTTP 403: Resource not accessible by "
                    + "personal access token)"), "\(run.out)")
        #expect(run.out.contains("shipit[bot]\tfollow\tnot sent"), "\(run.out)")
        #expect(run.err.contains("Resource not accessible by personal access token"), "\(run.err)")
        #expect(!run.err.contains("scope") && !run.out.contains("scope"), "\(run.err)")
    }

    /// A fine-grained token's 403 names the permissions GitHub says it needs (`X-Accepted-GitHub-Permissions`,
    /// GitHub's changelog of 2023-08-10), as a classic token's names its scope.
    @Test func aFineGrainedRefusalNamesThePermissionsGitHubAccepts() async {
        let harness = CommandHarness.signedIn()
        harness.http.answer(
            "PUT /user/following/Yamada-Taro", status: 403,
            headers: [("X-Accepted-GitHub-Permissions", "followers=write")],
            json: #"{"message":"Resource not accessible by personal access token","status":"403"}"#)
        let run = await harness.run(["follow", "Yamada-Taro", "--format", "tsv"])
        #expect(run.status == 4, "\(run.err)")
        #expect(
            run.err.contains("a fine-grained token needs these permissions, any one set of them: followers=write"),
            "\(run.err)")
    }

    @Test func aNoIsStatusOneOnlyOnceBothAccountsAreFoundToExist() async {
        let harness = CommandHarness()
        harness.expect("GET /users/octocat/following/torvalds", status: 404, body: "error-404")
        harness.expect("GET /users/octocat", body: "users-get-by-username")
        harness.expect("GET /users/torvalds", body: "users-get-by-username")
        let run = await harness.run(["follows", "octocat", "torvalds"])
        #expect(run.status == 1)
        #expect(run.out == "octocat\ttorvalds\tfalse\n")
        #expect(run.err.isEmpty)
    }
}
