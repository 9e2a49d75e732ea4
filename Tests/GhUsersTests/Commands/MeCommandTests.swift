import Foundation
import Testing

@testable import gh_users

/// `me` through the real client: the token goes out as a bearer, and the scopes come back in a header.
struct MeCommandTests {
    @Test func onATerminalTheProfileEndsWithTheScopesGitHubReports() async {
        var harness = CommandHarness()
        harness.environment["GH_TOKEN"] = CommandRequestTests.token
        harness.stdoutTTY = true
        harness.width = 100
        harness.expect(
            "GET /user", headers: [("X-OAuth-Scopes", "read:user, user:follow")], body: "users-get-authenticated")
        let run = await harness.run(["me", "--color", "never"])
        #expect(run.status == 0)
        #expect(run.out.hasSuffix("\n  Scopes     read:user, user:follow\n"))
        #expect(!run.out.contains(CommandRequestTests.token))
        #expect(harness.http.received.map { $0.headers["Authorization"] } == ["Bearer \(CommandRequestTests.token)"])
    }

    /// No `X-OAuth-Scopes` says why it may be missing, without naming the token's kind, which a server that left
    /// the header out for a classic token (github3.py's recorded `me`) would make wrong.
    @Test func noScopesHeaderSaysWhyItMayBeMissing() async {
        var harness = CommandHarness()
        harness.environment["GH_TOKEN"] = CommandRequestTests.token
        harness.stdoutTTY = true
        harness.width = 120
        harness.expect("GET /user", body: "users-get-authenticated")
        let run = await harness.run(["me", "--color", "never"])
        #expect(run.status == 0)
        #expect(
            run.out.hasSuffix(
                "\n  Scopes     not reported (GitHub sends none for fine-grained and app tokens, which have "
                    + "permissions)\n"), "\(run.out)")
    }

    /// The scopes are the words of the header that a scope can be: a server that echoes the request (the token
    /// among it) or sends escapes has them left out, where the card printed them, the token in the clear.
    @Test func onlyWordsAScopeCanBeAreShownAsScopes() async {
        var harness = CommandHarness()
        harness.environment["GH_TOKEN"] = CommandRequestTests.token
        harness.stdoutTTY = true
        harness.width = 200
        let header = "repo, \u{1B}[2Jevil, Bearer \(CommandRequestTests.token), read:org"
        harness.expect("GET /user", headers: [("X-OAuth-Scopes", header)], body: "users-get-authenticated")
        let run = await harness.run(["me", "--color", "never"])
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out.hasSuffix("\n  Scopes     repo, read:org\n"), "\(run.out)")
        #expect(!run.out.contains(CommandRequestTests.token))
        // A classic token, 40 hexadecimal digits, reads as a scope's name: it is masked as stderr masks it.
        let classic = "0123456789abcdef0123456789abcdef01234567"
        var echoed = CommandHarness()
        echoed.environment["GH_TOKEN"] = classic
        echoed.stdoutTTY = true
        echoed.width = 200
        echoed.expect(
            "GET /user", headers: [("X-OAuth-Scopes", "repo, \(classic), user")], body: "users-get-authenticated")
        let masked = await echoed.run(["me", "--color", "never"])
        #expect(masked.out.hasSuffix("\n  Scopes     repo, ***, user\n"), "\(masked.out)")
        #expect(!masked.out.contains(classic))
    }

    /// A misspelt `--fields` path into the profile's `plan` is named with the keys `plan` holds, in every format,
    /// as a list's first record is (before: a blank column or a null without a word); a right one is not, and
    /// reads the value in JSON too (before: `"plan.name": null`, where a list's JSON had the value).
    @Test(arguments: ["csv", "json"]) func aMisspeltPathIntoThePlanIsNamed(format: String) async {
        var harness = CommandHarness()
        harness.environment["GH_TOKEN"] = CommandRequestTests.token
        harness.expect("GET /user", body: "users-get-authenticated")
        let run = await harness.run(["me", "--format", format, "--fields", "login,plan.nme,plan.name"])
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out.contains("Medium"))
        #expect(
            run.err
                == "gh-users: warning: --fields plan.nme: the first record's plan has no such key (it has "
                + "collaborators, name, private_repos, space), so the column is blank where a record lacks it\n")
    }
}

/// `me edit` through the real client: the body GitHub's keys and the values JSON-escaped, a dry run that sends
/// nothing, the refusals before anything is sent, and a write sent once.
struct MeEditCommandTests {
    private func harness(token: Bool = true) -> CommandHarness {
        var harness = CommandHarness()
        if token { harness.environment["GH_TOKEN"] = CommandRequestTests.token }
        return harness
    }

    @Test func theBodyHasGitHubsKeysAndEveryValueSurvivesEscaping() async throws {
        let harness = harness()
        harness.expect("PATCH /user", body: "users-get-authenticated")
        let name = "Mona \"the\" Octocat"
        let bio = "back\\slash\nsecond line\ttab 🐙 é"
        let run = await harness.run(
            [
                "me", "edit", "--name", name, "--bio", bio, "--twitter-username", "monatheoctocat", "--no-hireable",
                "--format", "tsv", "--fields", "login",
            ])
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out == "octocat\n")
        let sent = try #require(harness.http.received.first)
        #expect(sent.headers["Content-Type"] == "application/json")
        let body = try #require(sent.body)
        let object = try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
        #expect(object["name"] as? String == name)
        #expect(object["bio"] as? String == bio)
        #expect(object["twitter_username"] as? String == "monatheoctocat")
        #expect(object["hireable"] as? Bool == false)
        #expect(object.count == 4)
        let text = String(decoding: body, as: UTF8.self)
        #expect(text.hasPrefix("{\"name\":") && text.contains(",\"bio\":") && text.hasSuffix(",\"hireable\":false}"))
    }

    /// An edit GitHub made is no failure for a `--fields` mistake in what it shows: the paths are warned of, and
    /// the status is 0 (it was 1, as if the edit had failed, and a script would send it again).
    @Test func aFieldsMistakeAfterTheEditIsAWarningNotAFailure() async {
        let harness = harness()
        harness.expect("PATCH /user", body: "users-get-authenticated")
        let run = await harness.run(["me", "edit", "--location", "Town", "--format", "tsv", "--fields", "login.x"])
        #expect(run.status == 0, "\(run.err)")
        #expect(run.err.contains("--fields login.x: the first record's login is a plain value"), "\(run.err)")
        #expect(harness.http.received.count == 1)
    }

    /// `--offline` keeps off the network: a calendar (GraphQL is never cached) fails as not cached, and nothing
    /// is sent.
    @Test func offlineSendsNothing() async {
        let harness = harness(token: true)
        let run = await harness.run(["contributions", "octocat", "--offline"])
        #expect(run.status == 1, "\(run.err)")
        #expect(run.err.contains(" is never cached, and --offline keeps off the network"), "\(run.err)")
        #expect(harness.http.received.isEmpty)
    }

    /// An edit is a write, which only GitHub can take: with `--offline` it is a usage error (exit 64) before
    /// anything is sent, as `follow --offline` is, and `--dry-run` still shows the request. Before, it was exit 1,
    /// "PATCH /user is never cached".
    @Test func offlineEditIsAUsageErrorAndSendsNothing() async {
        let harness = harness(token: true)
        let run = await harness.run(["me", "edit", "--bio", "x", "--offline"])
        #expect(run.status == 64, "\(run.err)")
        #expect(run.out.isEmpty)
        #expect(
            run.err.contains(
                "--offline keeps off the network, and me edit must reach GitHub; nothing was sent (--dry-run shows "
                    + "the request)"),
            "\(run.err)")
        #expect(harness.http.received.isEmpty)
        let dry = await harness.run(["me", "edit", "--bio", "x", "--offline", "--dry-run"])
        #expect(dry.status == 0, "\(dry.err)")
        #expect(dry.out.hasPrefix("PATCH https://api.github.com/user\n"))
        #expect(harness.http.received.isEmpty)
    }

    @Test func aDryRunPrintsTheRequestLineAndItsBodyAndSendsNothingEvenWithoutAToken() async {
        let harness = harness(token: false)
        let run = await harness.run(["me", "edit", "--bio", "a \"quoted\" bio", "--hireable", "--dry-run"])
        #expect(run.status == 0, "\(run.err)")
        #expect(
            run.out
                == "PATCH https://api.github.com/user\n{\n  \"bio\": \"a \\\"quoted\\\" bio\",\n  \"hireable\": true\n}\n"
        )
        #expect(harness.http.received.isEmpty)
    }

    /// With `--json` a dry run is the request as one object, the body as JSON in it; with `--format tsv`, a row
    /// (before: the request line whatever the format).
    @Test func aDryRunInAFormatAskedForIsTheRequestAsARecord() async throws {
        let harness = harness(token: false)
        let json = await harness.run(["me", "edit", "--bio", "x", "--dry-run", "--json"])
        #expect(json.status == 0, "\(json.err)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
        #expect(object["method"] as? String == "PATCH" && object["url"] as? String == "https://api.github.com/user")
        #expect((object["body"] as? [String: Any])?["bio"] as? String == "x")
        let tsv = await harness.run(["me", "edit", "--bio", "x", "--dry-run", "--format", "tsv"])
        #expect(tsv.out == "PATCH\thttps://api.github.com/user\t{\"bio\":\"x\"}\n")
        #expect(harness.http.received.isEmpty)
    }

    /// A value left out makes the next word the value in gh (pflag); when that word reads as an option (any
    /// `--…`, a misspelt one too, or the command's `-h`), it is refused (exit 64, nothing sent). Before, `--bio
    /// --dry-run` sent the edit with the bio "--dry-run", and `--location --offline` wrote past --offline.
    /// Written onto the option, it is the value.
    @Test(arguments: [
        ["me", "edit", "--bio", "--dry-run"], ["me", "edit", "--location", "--offline"],
        ["me", "edit", "--name", "--hireable"], ["me", "edit", "--company", "-h"],
        ["me", "edit", "--blog", "--format=json"], ["me", "edit", "--bio", "--dryrun"], ["me", "edit", "--bio", "--"],
    ])
    func aValueThatIsAnOptionIsRefusedAndSendsNothing(arguments: [String]) async {
        let harness = harness(token: true)
        let run = await harness.run(arguments)
        #expect(run.status == 64, "\(run.err)")
        let (option, value) = (arguments[2], arguments[3])
        #expect(
            run.err.contains("'\(value)' reads as an option: to give it as the value, write \(option)=\(value)"),
            "\(run.err)")
        #expect(run.out.isEmpty)
        #expect(harness.http.received.isEmpty)
        let written = await harness.run(["me", "edit", option + "=" + value, "--dry-run"])
        #expect(written.status == 0, "\(written.err)")
        #expect(written.out.contains(#": "\#(value)""#), "\(written.out)")
    }

    @Test(arguments: [
        (["me", "edit"], "me edit needs a field to change: --name, --bio"),
        (["me", "edit"], "--twitter-username, --hireable or --no-hireable\n"),
        (["me", "edit", "--dry-run"], "me edit needs a field to change"),
        (["me", "--bio", "x"], "--bio changes the profile: gh-users me edit --bio"),
        (["me", "--hireable"], "--hireable changes the profile"),
        // It changes nothing: it said it did (helper-361).
        (["me", "--dry-run"], "--dry-run shows what me edit would send: gh-users me edit --dry-run …"),
        (["me", "edit", "--hireable", "--no-hireable"], "give --hireable or --no-hireable, not both"),
        // `@` alone, stripped, would clear the field: it names no account.
        (["me", "edit", "--twitter-username", "@"], "--twitter-username @ names no account; give '' to clear"),
        (["me", "edit", "--twitter-username", "@@"], "--twitter-username @@ names no account"),
        (["me", "edit", "--twitter-username", "@ "], "--twitter-username @  names no account"),
        (["me", "edit", "--twitter-username", "  "], "--twitter-username '  ' names no account"),
        (["me", "edit", "now", "--bio", "x"], "unexpected argument 'now'"),
        (["me", "show"], "unknown action 'show'"),
    ])
    func badInputIsStatus64AndSendsNothing(arguments: [String], message: String) async {
        let harness = harness()
        let run = await harness.run(arguments)
        #expect(run.status == 64)
        #expect(run.err.contains(message), "\(run.err)")
        #expect(harness.http.received.isEmpty)
    }

    @Test func withoutATokenItIsStatusFourBeforeAnythingIsSent() async {
        let harness = harness(token: false)
        let run = await harness.run(["me", "edit", "--bio", "x"])
        #expect(run.status == 4)
        #expect(run.err.contains("me edit needs a token"))
        #expect(harness.http.received.isEmpty)
    }

    /// GitHub refuses a token without the `user` scope with 403 naming the scopes, or with 404.
    @Test(arguments: [
        (403, [("X-Accepted-OAuth-Scopes", "user"), ("X-OAuth-Scopes", "read:user")], "error-404"),
        (404, [], "error-404"),
    ])
    func aRefusalIsStatusFourNamingTheUserScope(status: Int, headers: [(String, String)], body: String) async {
        let harness = harness()
        harness.expect("PATCH /user", status: status, headers: headers, body: body)
        let run = await harness.run(["me", "edit", "--bio", "x"])
        #expect(run.status == 4)
        // A 403 carries GitHub's list of scopes; a 404 names none, so the row's scope is said as what is needed.
        #expect(run.err.contains(status == 403 ? "(GitHub accepts: user)" : "(this needs: user)"), "\(run.err)")
        #expect(run.out.isEmpty)
    }

    @Test func aWriteThatFailsIsNotSentAgain() async {
        let harness = harness()
        harness.expect("PATCH /user", status: 502, body: "error-404")
        let run = await harness.run(["me", "edit", "--bio", "x", "--retries", "3"])
        #expect(run.status == 1)
        #expect(harness.http.received.count == 1)
    }
}
