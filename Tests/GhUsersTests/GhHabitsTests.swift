import Foundation
import TestSupport
import Testing

@testable import gh_users

/// Issue 26.16: what someone used to gh types gets an answer that says how gh-users does it.
struct GhHabitsTests {
    private func usage(_ arguments: [String]) async -> CommandHarness.Outcome {
        let run = await CommandHarness().run(arguments)
        #expect(run.status == 64, "\(run.err)")
        #expect(run.out.isEmpty)
        return run
    }

    /// Before: "invalid login 'login,name'"; then "--json takes no list of fields, as gh's does", which read as
    /// if gh's --json took none either.
    @Test func jsonWithAFieldListPointsToFields() async {
        let run = await usage(["show", "octocat", "--json", "login,name"])
        #expect(
            run.err.hasPrefix(
                "Error: gh-users's --json takes no list of fields, unlike gh's --json login,name: give --json "
                    + "--fields login,name, or pipe --json into jq\n"), "\(run.err)")
        #expect(!run.err.contains("as gh's does"))
    }

    /// One of the command's fields after `--json`, gh's habit with one field: refused with the same advice
    /// (before: `followers --json login` listed the followers of an account named login, and `subscriptions
    /// --json name` printed `[]`). The word as the argument, before --json, is read as one.
    @Test(arguments: [["followers", "--json", "login"], ["subscriptions", "--json", "name"]])
    func jsonWithOneFieldPointsToFields(arguments: [String]) async {
        let run = await usage(arguments)
        #expect(
            run.err.hasPrefix(
                "Error: gh-users's --json takes no field, unlike gh's --json \(arguments[2]): give --json --fields "
                    + "\(arguments[2]), or pipe --json into jq (a word meant as the command's argument goes before "
                    + "--json)\n"), "\(run.err)")
    }

    /// A login after `--json` is the command's argument, not a list of fields (mutation round 8's M8-8: one name
    /// counted as a list refused `followers --json octocat`).
    @Test func aLoginAfterJSONIsTheArgument() async {
        #expect(!ArgumentScanner.isFieldList("octocat"))
        #expect(ArgumentScanner.isFieldList("login,name"))
        let harness = CommandHarness.signedIn()
        harness.http.register(
            RequestMatcher("GET /users/octocat/followers?per_page=30"), status: 200, headers: [], body: Data("[]".utf8))
        let run = await harness.run(["followers", "--json", "octocat"])
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out == "[]\n")
    }

    /// gh's `-R, --repo OWNER/REPO`. Before: "unknown option '-R'", with no way on.
    @Test(arguments: [
        (
            ["collaborators", "-R", "cli/cli"],
            "gh-users takes the repository as the command's argument, not as -R: gh-users collaborators OWNER/REPO"
        ),
        (
            ["stargazers", "--repo", "cli/cli"],
            "gh-users takes the repository as the command's argument, not as -R: gh-users stargazers OWNER/REPO"
        ),
        (
            ["members", "-R", "cli/cli"],
            "gh-users has no -R; a repository's lists take it as their argument (gh-users collaborators "
                + "OWNER/REPO), and members takes none"
        ),
        // Before: "… and access takes none", though access takes --repo NAME.
        (
            ["access", "-R", "github/docs", "github"],
            "gh-users has no -R; access takes a repository of ORG as --repo NAME: gh-users access ORG --repo docs"
        ),
        (
            ["access", "-R"],
            "gh-users has no -R; access takes a repository of ORG as --repo NAME: gh-users access ORG --repo NAME"
        ),
    ])
    func repoOptionPointsToTheArgument(arguments: [String], hint: String) async {
        let run = await usage(arguments)
        #expect(run.err.hasPrefix("Error: unknown option '\(arguments[1])': \(hint)\n"), "\(run.err)")
    }

    /// OWNER/REPO where an organization's command takes ORG. Before: "invalid login 'github/docs'" and nothing
    /// more.
    @Test(arguments: [
        ("access", "Did you mean 'gh-users access github --repo docs'?"),
        ("members", Self.organizationHint("members")),
        ("outside-collaborators", Self.organizationHint("outside-collaborators")),
        ("invitations", Self.organizationHint("invitations")),
    ])
    func aRepositoryForAnOrganizationPointsToWhereOneIsTaken(command: String, hint: String) async {
        let run = await usage([command, "github/docs"])
        #expect(run.err.hasPrefix("Error: invalid login 'github/docs': "), "\(run.err)")
        #expect(run.err.contains("'[bot]'\n\(hint)\n"), "\(run.err)")
    }

    /// ORG/NAME names a team as often as a repository (a review found `members github/justice-league` pointed to
    /// collaborators alone).
    private static func organizationHint(_ command: String) -> String {
        "\(command) takes an organization: for a team's members, 'gh-users team-members github/docs'; for a "
            + "repository's people, a repository command such as 'gh-users collaborators github/docs'"
    }

    /// `gh api`'s habit. Before: "unknown command 'api'" and nothing more.
    @Test func apiPointsToGhAPI() async {
        let run = await usage(["api", "/users/octocat"])
        #expect(
            run.err.hasPrefix(
                "Error: unknown command 'api'\ngh-users has no api command: for any other request of GitHub's API, "
                    + "use GitHub CLI's gh api (gh api /users/octocat)\n"), "\(run.err)")
    }

    /// A query with a comma after `--json` is a query, not a list of fields (a review found it refused).
    @Test func aQueryWithACommaAfterJSONIsSearched() async {
        let harness = CommandHarness()
        harness.expect("GET /search/users?q=location%3A%22Portland%2C+OR%22&per_page=30", body: "search-users")
        let run = await harness.run(["search", "--json", #"location:"Portland, OR""#])
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out.hasPrefix("["))
    }

    /// An option's name is matched as typed: `--ALL` is a typo of list's own `--all`, not another command's.
    @Test func anOptionInCapitalsIsATypo() async {
        let run = await usage(["list", "--ALL"])
        #expect(run.err.hasPrefix("Error: unknown option '--ALL'\n"), "\(run.err)")
        #expect(run.err.contains("Did you mean '--all'?"), "\(run.err)")
    }

    /// Before: "unknown option '--jq'" and "unknown option '--template'", with no way on.
    @Test(arguments: [
        (
            ["followers", "octocat", "--jq", ".login"],
            "gh-users has no jq of its own; gh's --jq EXPR is --json | jq -r .login here, on the JSON gh would give "
                + "(a list is one array: '.[].login'; --format ndjson | jq -r .login reads one record a line)"
        ),
        // `show LOGIN --json` is one object, as gh's: the user's own expression is what works, not '.[].login',
        // and the hint repeats it; gh's `-q` is its `--jq`.
        (["show", "octocat", "--jq", ".name"], "gh's --jq EXPR is --json | jq -r .name here"),
        (["show", "octocat", "-q", ".name | ascii_upcase"], "--json | jq -r '.name | ascii_upcase' here"),
        (["followers", "octocat", "--template", "{{.login}}"], "pick keys with --json --fields login,name"),
    ])
    func jqAndTemplateSayHow(arguments: [String], hint: String) async {
        let run = await usage(arguments)
        #expect(run.err.hasPrefix("Error: unknown option '\(arguments[2])': "), "\(run.err)")
        #expect(run.err.contains(hint), "\(run.err)")
        // jq's `.login` fails on a list, which is one JSON array: the hint never suggests it after --json.
        #expect(!run.err.contains("--json | jq '.login'"), "\(run.err)")
    }

    /// Before: "option '--not-following-back' does not apply to followers", and no more. The command's own option
    /// of nearly that name is what was likely meant, and is named too (before, only "following takes it", which
    /// lists another set of accounts; helper-341's M2). An option with none near it names none.
    @Test func anotherCommandsOptionNamesTheCommandAndTheNearestOwn() async {
        let run = await usage(["followers", "octocat", "--not-following-back"])
        #expect(
            run.err.hasPrefix(
                "Error: option '--not-following-back' does not apply to followers; following takes it\n"
                    + "Did you mean '--not-followed-back'?\n"),
            "\(run.err)")
        let back = await usage(["following", "octocat", "--not-followed-back"])
        #expect(back.err.contains("followers takes it\nDid you mean '--not-following-back'?\n"), "\(back.err)")
        let none = await usage(["show", "octocat", "--limit", "3"])
        #expect(none.err.hasPrefix("Error: option '--limit' does not apply to show\nUsage:"), "\(none.err)")
    }

    /// Before: "gh-users: no user '9' (HTTP 404)", with no word of --id.
    @Test func aLoginOfDigitsThatIsNobodySuggestsID() async {
        let harness = CommandHarness()
        harness.expect("GET /users/9", status: 404, body: "error-404")
        let run = await harness.run(["show", "9"])
        #expect(run.status == 3)
        #expect(run.err == "gh-users: no user '9' (for the account with id 9: --id 9) (HTTP 404)\n")
    }

    /// Before: `--id 9 --id 4` showed the account with id 4 alone.
    @Test func severalIDsAreEachShown() async throws {
        let harness = CommandHarness()
        harness.expect("GET /user/240830", body: "users-get-by-id")
        harness.expect("GET /user/1", body: "users-get-by-username")
        let run = await harness.run(["show", "--id", "240830", "--id", "1", "--id", "240830", "--json"])
        #expect(run.status == 0, "\(run.err)")
        let array = try #require(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [[String: Any]])
        #expect(array.compactMap { $0["id"] as? Int } == [240830, 1])
    }

    /// The same id twice is looked up once, and several given are still an array, as two logins are (before: one
    /// object, so `jq '.[]'` over a script's `--id $a --id $b` broke when a was b).
    @Test func theSameIDTwiceIsStillAnArray() async throws {
        let harness = CommandHarness()
        harness.expect("GET /user/240830", body: "users-get-by-id")
        let run = await harness.run(["show", "--id", "240830", "--id", "240830", "--json"])
        #expect(run.status == 0, "\(run.err)")
        let array = try #require(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [Any])
        #expect(array.count == 1)
    }

    /// GitHub answers `GET /user/{id}` with that account: an answer of another id is no answer (exit 1), never
    /// shown as the account asked for (before: `show --id 9` showed id 240830, exit 0; helper-367).
    @Test func anAnswerOfAnotherIDIsRefused() async {
        let harness = CommandHarness()
        harness.expect("GET /user/9", body: "users-get-by-id")
        let run = await harness.run(["show", "--id", "9", "--format", "tsv", "--fields", "login"])
        #expect(run.status == 1)
        #expect(run.out.isEmpty)
        #expect(run.err.contains("the answer is the account with id 240830"), "\(run.err)")
    }

    /// Before: "a date as YYYY-MM-DD, such as 2025-01-31" for a date of that very form.
    @Test(arguments: [
        ("2026-02-30", "invalid value '2026-02-30' for '--from': 2026-02 has no day 30: it has 28 days"),
        ("2024-02-30", "invalid value '2024-02-30' for '--from': 2024-02 has no day 30: it has 29 days"),
        ("2026-13-01", "invalid value '2026-13-01' for '--from': there is no month 13: months are 01 to 12"),
        ("2026-2-3", "invalid value '2026-2-3' for '--from': a date as YYYY-MM-DD, such as 2025-01-31"),
    ])
    func aDayThatDoesNotExistIsSaidSo(date: String, message: String) async {
        var harness = CommandHarness()
        harness.environment["GH_TOKEN"] = CommandRequestTests.token
        let run = await harness.run(["contributions", "octocat", "--from", date])
        #expect(run.status == 64, "\(run.err)")
        #expect(run.err.hasPrefix("Error: \(message)\n"), "\(run.err)")
    }
}
