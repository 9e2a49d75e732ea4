import Foundation
import TestSupport
import Testing

@testable import gh_users

/// `members ORG`: the members the token can see (`GET /orgs/{org}/members`), or without a token and with `--public`
/// the public ones (`GET /orgs/{org}/public_members`), and which of the two on a terminal's stderr. The bodies are
/// GitHub's documented `simple-user-items` (Sources/GitHubStandIn/Bodies/NOTICE.md).
struct MembersCommandTests {
    private static func harness(token: Bool) -> CommandHarness {
        var harness = CommandHarness()
        harness.stderrTTY = true
        if token { harness.environment["GH_TOKEN"] = CommandRequestTests.token }
        return harness
    }

    @Test func withATokenTheMembersAreListedWithTheFilters() async {
        let harness = Self.harness(token: true)
        harness.expect(
            "GET /orgs/github/members?filter=2fa_disabled&role=member&per_page=30", body: "orgs-list-members")
        let run = await harness.run(
            ["members", "github", "--2fa-disabled", "--role", "member", "--format", "tsv", "--fields", "login"])
        #expect(run.status == 0)
        #expect(run.out == "octocat\n")
        #expect(
            run.err
                == "Members as the token sees them: every member for a member of the organization, only the public "
                + "ones for anyone else.\n")
    }

    @Test func withoutATokenThePublicMembersAreListedAndSaidSo() async {
        let harness = Self.harness(token: false)
        harness.expect("GET /orgs/github/public_members?per_page=30", body: "orgs-list-public-members")
        let run = await harness.run(["members", "github", "--format", "tsv", "--fields", "login"])
        #expect(run.status == 0)
        #expect(run.out == "octocat\n")
        #expect(
            run.err
                == "Public members only: without a token GitHub lists only the members who show their membership.\n")
    }

    @Test func publicAsksForThePublicMembersWithAToken() async {
        let harness = Self.harness(token: true)
        harness.expect("GET /orgs/github/public_members?per_page=30", body: "orgs-list-public-members")
        let run = await harness.run(["members", "github", "--public", "--format", "tsv", "--fields", "login"])
        #expect(run.status == 0)
        #expect(run.out == "octocat\n")
        #expect(run.err == "Public members only (--public): the members who show their membership.\n")
    }

    /// Piped, stderr carries no note where the list is the one asked for (a script reads the records alone), with
    /// a token or not; the public members listed for want of a token are said, since a cron job that lost its
    /// token would take them for every member (before: nothing said, exit 0; helper-365). The records are the
    /// same either way.
    @Test(arguments: [(true, true), (false, true), (false, false)])
    func theNoteIsForATerminalOrARunWithoutAToken(token: Bool, public: Bool) async {
        var harness = Self.harness(token: token)
        harness.stderrTTY = false
        harness.expect("GET /orgs/github/public_members?per_page=30", body: "orgs-list-public-members")
        let run = await harness.run(
            ["members", "github", "--format", "tsv", "--fields", "login"] + (`public` ? ["--public"] : []))
        #expect(run.status == 0)
        #expect(run.out == "octocat\n")
        let said = "Public members only: without a token GitHub lists only the members who show their membership.\n"
        #expect(run.err == (`public` ? "" : said))
    }

    /// The strict stub answers nothing here: a request would fail the test.
    @Test(arguments: [
        (["--role", "admin"], "members --role (read:org)"),
        (["--2fa-insecure"], "members --2fa-insecure (read:org, as an owner of the organization)"),
        // Without a token GitHub lists only the public members: recorded, every private member would be gone
        // (before: exit 0, the public list recorded as the members'; a review's find).
        (
            ["--changes", "/nonexistent-gh-users-test/members.json"],
            "members --changes (read:org, as a member; --public for the public members' changes)"
        ),
    ])
    func aFilterWithoutATokenIsRefusedBeforeAnythingIsSent(options: [String], named: String) async {
        let run = await Self.harness(token: false).run(["members", "github"] + options)
        #expect(run.status == 4)
        #expect(run.out.isEmpty)
        #expect(run.err.hasPrefix("gh-users: \(named) needs a token"))
    }

    /// `--role all` is GitHub's default, the list with no role: without a token the public members (before: exit 4,
    /// "members --role (read:org) needs a token"), with `--public` the public ones (before: exit 64, "--role and
    /// the 2FA filters need the whole list"), with a token the members, asked for with no role.
    @Test(arguments: [
        (false, [String](), "GET /orgs/github/public_members?per_page=30", "orgs-list-public-members"),
        (true, ["--public"], "GET /orgs/github/public_members?per_page=30", "orgs-list-public-members"),
        (true, [], "GET /orgs/github/members?per_page=30", "orgs-list-members"),
    ])
    func roleAllIsTheListWithNoRole(token: Bool, options: [String], request: String, body: String) async {
        var runs: [CommandHarness.Outcome] = []
        for role in [[], ["--role", "all"]] {
            let harness = Self.harness(token: token)
            harness.expect(request, body: body)
            runs.append(
                await harness.run(["members", "github"] + role + options + ["--format", "tsv", "--fields", "login"]))
        }
        #expect(runs[1].status == 0, "\(runs[1].err)")
        #expect(runs[1].out == "octocat\n")
        #expect(runs[1].status == runs[0].status && runs[1].out == runs[0].out && runs[1].err == runs[0].err)
    }

    @Test(arguments: [
        ["--2fa-disabled", "--2fa-insecure"],
        ["--public", "--role", "admin"],
        ["--2fa-disabled", "--public"],
    ])
    func filtersThatCannotGoTogetherAreAUsageError(options: [String]) async {
        let run = await Self.harness(token: true).run(["members", "github"] + options)
        #expect(run.status == 64)
        #expect(run.out.isEmpty)
        #expect(run.err.hasPrefix("Error: "))
    }

    /// A filter given twice with two values is refused, as `access`'s are: the second was sent in place of the
    /// first without a word (helper-287); the same value twice, or an alias of it, is one.
    @Test(arguments: [
        (
            ["members", "github", "--role", "admin", "--role", "member"],
            "--role takes one value, and was given 'admin' and 'member'"
        ),
        (
            ["collaborators", "octocat/Hello-World", "--permission", "admin", "--permission", "pull"],
            "--permission takes one value, and was given 'admin' and 'pull'"
        ),
        (
            ["collaborators", "octocat/Hello-World", "--affiliation", "direct", "--affiliation", "outside"],
            "--affiliation takes one value, and was given 'direct' and 'outside'"
        ),
        (["team-members", "github/justice-league", "--role", "maintainer", "--role", "all"], "--role takes one value"),
        // A value that is none is said as such first (helper-289: "was given 'admin' and 'bogus'").
        (
            ["collaborators", "octocat/Hello-World", "--permission", "admin", "--permission", "bogus"],
            "invalid value 'bogus' for '--permission'"
        ),
    ])
    func aFilterGivenTwiceWithTwoValuesIsRefused(arguments: [String], message: String) async {
        let run = await Self.harness(token: true).run(arguments)
        #expect(run.status == 64)
        #expect(run.out.isEmpty)
        #expect(run.err.hasPrefix("Error: " + message), "\(run.err)")
    }

    @Test func aFilterGivenTwiceWithOneValueIsOne() async {
        let harness = Self.harness(token: true)
        harness.expect("GET /repos/octocat/Hello-World/collaborators?permission=push&per_page=30", body: "empty-list")
        let run = await harness.run(
            ["collaborators", "octocat/Hello-World", "--permission", "write", "--permission", "push"])
        #expect(run.status == 0, "\(run.err)")
    }

    /// GitHub filters by 2FA for the organization's owners only: its refusal of anyone else says so (exit 4).
    @Test(arguments: [(422, "error-422-validation"), (403, "error-403-forbidden")])
    func aTwoFactorFilterRefusedToANonOwnerSaysSo(status: Int, body: String) async {
        let harness = Self.harness(token: true)
        harness.expect("GET /orgs/github/members?filter=2fa_disabled&per_page=30", status: status, body: body)
        let run = await harness.run(["members", "github", "--2fa-disabled"])
        #expect(run.status == 4)
        #expect(run.out.isEmpty)
        #expect(run.err.hasPrefix("gh-users: GitHub refused the request (HTTP \(status): the 2FA filters are for"))
        #expect(run.err.contains("the organization's owners only"))
    }

    /// GitHub's outside collaborators take its 2FA filters too, one at a time (helper-333: an owner had no way to
    /// list which of them have no 2FA, and `access` cannot tell).
    @Test(arguments: [("--2fa-disabled", "2fa_disabled"), ("--2fa-insecure", "2fa_insecure")])
    func outsideCollaboratorsTakeTheTwoFactorFilters(option: String, value: String) async {
        let harness = Self.harness(token: true)
        harness.expect(
            "GET /orgs/github/outside_collaborators?filter=\(value)&per_page=30",
            body: "orgs-list-outside-collaborators")
        let run = await harness.run([
            "outside-collaborators", "github", option, "--format", "tsv", "--fields", "login,id",
        ])
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out == "octocat\t1\n")
        let both = await Self.harness(token: true).run(
            ["outside-collaborators", "github", "--2fa-disabled", "--2fa-insecure"])
        #expect(both.status == 64)
        #expect(both.err.contains("--2fa-disabled and --2fa-insecure are two filters"), "\(both.err)")
    }

    /// GitHub documents that a non-member's `GET /orgs/{org}/members` "will be redirected to the public members
    /// list", which has no filters: its answer is not the filtered list, so it is refused (exit 4), not printed.
    @Test(arguments: [
        (["--2fa-disabled"], "filter=2fa_disabled&"), (["--2fa-insecure"], "filter=2fa_insecure&"),
        (["--role", "admin"], "role=admin&"),
    ])
    func aFilteredListAnsweredFromThePublicMembersIsRefused(options: [String], query: String) async {
        let harness = Self.harness(token: true)
        harness.expect(
            "GET /orgs/github/members?\(query)per_page=30", body: "orgs-list-public-members",
            redirectedTo: "/orgs/github/public_members?\(query)per_page=30")
        let run = await harness.run(["members", "github"] + options)
        #expect(run.status == 4)
        #expect(run.out.isEmpty)
        #expect(
            run.err.hasPrefix(
                "gh-users: GitHub refused the request (HTTP 302: GitHub answered with the public members "
                    + "(/orgs/github/public_members), where it sends a token that is not a member of github, and they "
                    + "have no filters: \(query.dropLast()) needs a member's token (read:org))"), "\(run.err)")
    }

    /// `--changes` reads the owners apart (`role=admin`, a filter it adds itself); a non-member's token sent to the
    /// public members is told what --changes needs, not of a role=admin the user never gave.
    @Test func changesWithANonMembersTokenSayWhatTheyNeed() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let harness = Self.harness(token: true)
        harness.expect(
            "GET /orgs/github/members?per_page=100", body: "orgs-list-public-members",
            redirectedTo: "/orgs/github/public_members?per_page=100")
        harness.expect(
            "GET /orgs/github/members?role=admin&per_page=100", body: "orgs-list-public-members",
            redirectedTo: "/orgs/github/public_members?role=admin&per_page=100")
        let run = await harness.run(["members", "github", "--changes", folder("m.json")])
        #expect(run.status == 4)
        #expect(
            run.err.contains(
                "gh-users: GitHub sends a token that is not a member of github to the public members, so --changes "
                    + "cannot tell the owners from the others: it needs a member's token (read:org), or --public for "
                    + "the public members' changes\n"), "\(run.err)")
        #expect(!FileManager.default.fileExists(atPath: folder("m.json")))
    }

    /// Without filters the public members are the answer, and stderr says so whether piped or not.
    @Test(arguments: [true, false])
    func membersAnsweredFromThePublicListSaySoPipedOrNot(terminal: Bool) async {
        var harness = Self.harness(token: true)
        harness.stderrTTY = terminal
        harness.expect(
            "GET /orgs/github/members?per_page=30", body: "orgs-list-public-members",
            redirectedTo: "/orgs/github/public_members?per_page=30")
        let run = await harness.run(["members", "github", "--format", "tsv", "--fields", "login"])
        #expect(run.status == 0)
        #expect(run.out == "octocat\n")
        #expect(
            run.err.hasSuffix(
                "Public members only: GitHub answered with the members of github who show their membership, as it "
                    + "does for a token that is not a member.\n"), "\(run.err)")
    }

    /// The public members a non-member is sent to may run to several pages: the next is the redirected answer's
    /// `Link` (GitHub's name the organization by its id), every account of every page is written, and the note
    /// is said once. The second page is a recorded page of accounts (`followers-page-2`).
    @Test func publicMembersOfSeveralPagesAreAllWrittenAndSaidOnce() async throws {
        let harness = Self.harness(token: true)
        let next = "https://api.github.com/organizations/9919/public_members?per_page=30&page=2"
        harness.expect(
            "GET /orgs/github/members?per_page=30", headers: [("Link", "<\(next)>; rel=\"next\"")],
            body: "orgs-list-public-members", redirectedTo: "/orgs/github/public_members?per_page=30")
        harness.expect("GET /organizations/9919/public_members?per_page=30&page=2", body: "followers-page-2")
        let run = await harness.run(["members", "github", "--format", "tsv", "--fields", "login"])
        #expect(run.status == 0, "\(run.err)")
        let second = try #require(
            try JSONSerialization.jsonObject(with: Bodies.named("followers-page-2")) as? [[String: Any]])
        let logins = ["octocat"] + second.compactMap { $0["login"] as? String }
        #expect(logins.count > 2)
        #expect(run.out == logins.map { $0 + "\n" }.joined())
        #expect(run.err.components(separatedBy: "Public members only").count == 2, "\(run.err)")
    }

    /// With --changes a filtered list answered from the public members records nothing.
    @Test func aSnapshotOfAdminsAnsweredFromThePublicMembersIsNotWritten() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let harness = Self.harness(token: true)
        harness.expect(
            "GET /orgs/github/members?role=admin&per_page=100", body: "orgs-list-public-members",
            redirectedTo: "/orgs/github/public_members?role=admin&per_page=100")
        let run = await harness.run(["members", "github", "--role", "admin", "--changes", folder("a.json")])
        #expect(run.status == 4)
        #expect(run.out.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: folder("a.json")))
    }
}
