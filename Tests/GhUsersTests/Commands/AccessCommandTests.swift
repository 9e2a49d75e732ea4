import Domain
import Foundation
import Networking
import TestSupport
import Testing

@testable import gh_users

/// `access ORG`: the organization's access map through GraphQL, run in process from argv through the real
/// `GitHubRepository` to the strict stub, answered by `AccessWorld` (GitHub's schema, a few lines of it) or by
/// the answers `AccessBodies` writes.
struct AccessCommandTests {
    private static let members = [
        AccessBodies.Member("Mona", 1, "ADMIN", twoFactor: true),
        AccessBodies.Member("hubot", 2, "MEMBER", twoFactor: nil),
        AccessBodies.Member("octocat", 3, "MEMBER", twoFactor: false),
    ]

    private static let org = AccessBodies.Source("Organization", "octo-org", "READ", roleName: "read")

    /// `api`'s people: the owner through ownership, a member through a team, an outside collaborator directly.
    private static let api = [
        AccessBodies.Collaborator(
            "outsider", 9, "WRITE", [AccessBodies.Source("Repository", "octo-org/api", "WRITE", roleName: "write")]),
        AccessBodies.Collaborator(
            "Mona", 1, "ADMIN", [AccessBodies.Source("Organization", "octo-org", "ADMIN", roleName: "admin"), org]),
        AccessBodies.Collaborator(
            "hubot", 2, "MAINTAIN", [org, AccessBodies.Source("Team", "core", "WRITE", roleName: "maintain")]),
    ]

    /// Two repositories: `api` and `web` (a member through the base permission alone).
    private static func world(forbidden: Set<String> = [], renamed: [String: String] = [:]) -> AccessWorld {
        AccessWorld(
            organization: "octo-org", members: members,
            collaborators: ["web": [AccessBodies.Collaborator("octocat", 3, "READ", [org])], "api": api, "docs": []],
            forbidden: forbidden, renamed: renamed)
    }

    private static func harness(_ world: AccessWorld) -> CommandHarness {
        let harness = CommandHarness.signedIn()
        harness.http.answerEvery { request, _ in world.answer(request) }
        return harness
    }

    @Test func ndjsonIsOneRecordPerRepositoryAndPersonInOrder() async {
        let world = Self.world()
        let run = await Self.harness(world).run(["access", "octo-org", "--format", "ndjson"])
        #expect(run.status == 0, "\(run.err)")
        #expect(run.err.isEmpty)
        let lines = run.out.split(separator: "\n").map(String.init)
        #expect(lines.count == 4)
        #expect(
            lines[0]
                == #"{"repository":"octo-org/api","login":"hubot","id":2,"permission":"maintain","#
                + #""affiliation":"member","sources":[{"kind":"organization","name":"octo-org","permission":"read"},"#
                + #"{"kind":"team","name":"core","permission":"maintain"}],"two_factor":null}"#)
        #expect(lines[1].contains(#""login":"Mona""#) && lines[1].contains(#""affiliation":"owner""#))
        #expect(lines[1].hasSuffix(#""two_factor":true}"#))
        #expect(lines[2].contains(#""login":"outsider""#) && lines[2].contains(#""affiliation":"outside""#))
        #expect(lines[2].hasSuffix(#""two_factor":null}"#))
        #expect(lines[3].hasPrefix(#"{"repository":"octo-org/web","login":"octocat""#))
        #expect(lines[3].hasSuffix(#""two_factor":false}"#))
    }

    /// CSV's header names its columns, and each holds what the record holds under that name: `sources` its JSON
    /// array, as JSON and `--fields` write it, not the table's words (VIA).
    @Test func csvHasAHeaderNamingTheColumns() async {
        let run = await Self.harness(Self.world()).run(["access", "octo-org", "--format", "csv", "--repo", "web"])
        #expect(run.status == 0, "\(run.err)")
        #expect(
            run.out
                == "repository,login,permission,affiliation,sources,two_factor\r\n"
                + #"octo-org/web,octocat,read,member,"[{""kind"":""organization"",""name"":""octo-org"","#
                + #"""permission"":""read""}]",false"# + "\r\n")
    }

    /// Without `--fields`, csv and tsv are what `--fields` naming their columns writes, byte for byte.
    @Test(arguments: ["csv", "tsv"])
    func theDefaultColumnsAreTheirFields(format: String) async {
        let fields = "repository,login,permission,affiliation,sources,two_factor"
        let plain = await Self.harness(Self.world()).run(["access", "octo-org", "--format", format])
        let chosen = await Self.harness(Self.world()).run([
            "access", "octo-org", "--format", format, "--fields", fields,
        ])
        #expect(plain.status == 0 && chosen.status == 0, "\(plain.err)\(chosen.err)")
        #expect(plain.out == chosen.out)
        let team = #"{"kind":"team","name":"core","permission":"maintain"}"#
        #expect(plain.out.contains(format == "csv" ? team.replacing("\"", with: "\"\"") : team))
    }

    @Test func jsonIsAnArrayOfRecords() async throws {
        let run = await Self.harness(Self.world()).run(["access", "octo-org", "--json"])
        #expect(run.status == 0, "\(run.err)")
        let records = try #require(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [[String: Any]])
        #expect(records.count == 4)
        #expect(records.map { $0["login"] as? String } == ["hubot", "Mona", "outsider", "octocat"])
        let sources = try #require(records[1]["sources"] as? [[String: Any]])
        #expect(sources.map { $0["kind"] as? String } == ["organization", "organization"])
    }

    @Test func fieldsChooseTheColumns() async {
        let run = await Self.harness(Self.world()).run([
            "access", "octo-org", "--format", "tsv", "--fields", "repository,login,two_factor",
        ])
        #expect(run.status == 0, "\(run.err)")
        #expect(
            run.out
                == "octo-org/api\thubot\t\nocto-org/api\tMona\ttrue\nocto-org/api\toutsider\t\nocto-org/web\toctocat\tfalse\n"
        )
    }

    @Test func theTableShowsWhereAccessComesFrom() async {
        var harness = Self.harness(Self.world())
        harness.stdoutTTY = true
        harness.width = 200
        let run = await harness.run(["access", "octo-org", "--repo", "api", "--person", "hubot"])
        #expect(run.status == 0, "\(run.err)")
        let lines = run.out.split(separator: "\n").map(String.init)
        #expect(lines.first?.contains("REPOSITORY") == true && lines.first?.contains("VIA") == true)
        #expect(lines.count == 2)
        // The organization is ORG: the table leaves its name out, which at 80 columns cut VIA to "organization g…";
        // and what grants the permission comes first, so a cut VIA still names it.
        #expect(lines.last?.contains("  team core: maintain, org: read") == true, "\(run.out)")
        #expect(!run.out.contains("organization"))
    }

    /// VIA names the strongest source first, GitHub's order kept between equals; a custom role ranks at the level
    /// GitHub says it grants (helper-346's R2: it went last, after `org: read`), and one of no known level last.
    @Test func viaNamesTheStrongestSourceFirst() {
        let sources: [AccessRecord.Source] = [
            .init(kind: .organization, name: "octo-org", permission: "read", base: .read),
            .init(kind: .team, name: "auditors", permission: "security-manager", base: .write),
            .init(kind: .team, name: "core", permission: "write"),
            .init(kind: .team, name: "legacy", permission: "custom"),
            .init(kind: .repository, name: "octo-org/api", permission: "admin"),
            .init(kind: .team, name: "web", permission: "write"),
            .init(kind: .team, name: "triagers", permission: "triage"),
        ]
        #expect(
            AccessCommand.via(sources)
                == "repo: admin, team auditors: security-manager, team core: write, team web: write, "
                + "team triagers: triage, org: read, team legacy: custom")
        #expect(AccessCommand.via([]) == "")
    }

    /// GitHub gives a custom role's name with the level it grants: the table ranks it there.
    @Test func aCustomRoleIsRankedAtTheLevelGitHubSaysItGrants() async {
        let auditors = AccessBodies.Source("Team", "auditors", "WRITE", roleName: "security-manager")
        let world = AccessWorld(
            organization: "octo-org", members: Self.members,
            collaborators: ["web": [AccessBodies.Collaborator("octocat", 3, "WRITE", [Self.org, auditors])]])
        var harness = Self.harness(world)
        harness.stdoutTTY = true
        harness.width = 200
        let run = await harness.run(["access", "octo-org", "--repo", "web"])
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out.contains("  team auditors: security-manager, org: read"), "\(run.out)")
    }

    /// A table's widths come from its first repositories, not the first alone: the records arrive one repository
    /// at a time, and `octo-org/api`'s width cut every longer name after it (`octo-org/zz-the-lo…`).
    @Test func theTableIsSizedByItsFirstRepositoriesTogether() async {
        let long = "zz-the-long-named-repository"
        let world = AccessWorld(
            organization: "octo-org", members: Self.members,
            collaborators: ["api": Self.api, long: [AccessBodies.Collaborator("octocat", 3, "READ", [Self.org])]])
        var harness = Self.harness(world)
        harness.stdoutTTY = true
        harness.width = 80
        let run = await harness.run(["access", "octo-org"])
        #expect(run.status == 0, "\(run.err)")
        let lines = run.out.split(separator: "\n").map(String.init)
        #expect(lines.count == 5 && lines.dropFirst().allSatisfy { $0.count <= 80 }, "\(run.out)")
        #expect(lines.last?.hasPrefix("octo-org/\(long)  octocat") == true, "\(run.out)")
    }

    /// `--person`, `--permission` (that level or higher, in either word for it) and `--affiliation` filter the map; `--repo` reads only
    /// the repositories named, without listing the organization's.
    @Test(arguments: [
        (["--person", "mona"], ["octo-org/api Mona"]),
        (["--permission", "write"], ["octo-org/api hubot", "octo-org/api Mona", "octo-org/api outsider"]),
        // REST's words, as collaborators takes them: push is write, pull is read.
        (["--permission", "push"], ["octo-org/api hubot", "octo-org/api Mona", "octo-org/api outsider"]),
        (["--permission", "pull", "--repo", "web"], ["octo-org/web octocat"]),
        // The same level twice, in both words, and the same repository in two cases, are one each.
        (["--permission", "pull", "--permission", "read", "--repo", "web", "--repo", "WEB"], ["octo-org/web octocat"]),
        (["--permission", "admin"], ["octo-org/api Mona"]),
        (["--affiliation", "outside"], ["octo-org/api outsider"]),
        (["--affiliation", "member", "--repo", "web"], ["octo-org/web octocat"]),
    ])
    func filters(arguments: [String], expected: [String]) async {
        let world = Self.world()
        let run = await Self.harness(world).run(
            ["access", "octo-org", "--format", "tsv", "--fields", "repository,login"] + arguments)
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out.split(separator: "\n").map { $0.replacingOccurrences(of: "\t", with: " ") } == expected)
        if arguments.contains("--repo") { #expect(world.batches == [["web@"]]) }
    }

    /// Triage is above read and below write (GitHub's order of repository roles): `--permission triage` keeps a
    /// triager and leaves a reader out, `--permission write` leaves the triager out (helper-324: with no triager in
    /// the map, triage and write could swap places unseen).
    @Test(arguments: [
        ("triage", ["octo-org/web triager"]), ("write", []),
        ("read", ["octo-org/web octocat", "octo-org/web triager"]),
    ])
    func triageIsBetweenReadAndWrite(level: String, expected: [String]) async {
        let triager = AccessBodies.Collaborator(
            "triager", 4, "TRIAGE", [AccessBodies.Source("Repository", "octo-org/web", "READ", roleName: "triage")])
        let world = AccessWorld(
            organization: "octo-org", members: Self.members,
            collaborators: ["web": [AccessBodies.Collaborator("octocat", 3, "READ", [Self.org]), triager]])
        let run = await Self.harness(world).run([
            "access", "octo-org", "--repo", "web", "--permission", level, "--format", "tsv", "--fields",
            "repository,login",
        ])
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out.split(separator: "\n").map { $0.replacingOccurrences(of: "\t", with: " ") } == expected)
    }

    /// `--repo` writes each repository as GitHub names it (`nameWithOwner`), however it was typed and through a
    /// rename (`zeta` is now `api`), in the map's order by those names: the records are the full map's, byte for
    /// byte. `--changes` and `--state` record those names too.
    @Test func namedRepositoriesAreWrittenAsGitHubNamesThem() async throws {
        let world = Self.world(renamed: ["zeta": "api"])
        let full = await Self.harness(world).run(["access", "octo-org", "--format", "ndjson"])
        #expect(full.status == 0, "\(full.err)")
        let named = await Self.harness(world).run([
            "access", "OCTO-ORG", "--repo", "WEB", "--repo", "zeta", "--format", "ndjson",
        ])
        #expect(named.status == 0, "\(named.err)")
        #expect(named.out == full.out)
        #expect(world.lookups == [["WEB", "zeta"]])
        #expect(world.batches.last == ["api@", "web@"])

        let folder = try Folder()
        defer { folder.remove() }
        let changes = await Self.harness(world).run(["access", "Octo-Org", "--repo", "WEB", "--changes", folder("c")])
        #expect(changes.status == 0, "\(changes.err)")
        #expect(try String(contentsOfFile: folder("c"), encoding: .utf8).contains(#"{"repository":"octo-org/web","#))
        let state = await Self.harness(world).run([
            "access", "Octo-Org", "--repo", "WEB", "--state", folder("s"), "--format", "ndjson",
        ])
        #expect(state.status == 0, "\(state.err)")
        #expect(state.out.hasPrefix(#"{"repository":"octo-org/web","#))
        #expect(try String(contentsOfFile: folder("s"), encoding: .utf8).contains(#""after":"octo-org/web","#))
    }

    /// A token that is no member is shown only the members who show their membership: nobody it was not shown
    /// is called an outside collaborator. A member through a team it was not shown, and a direct collaborator who
    /// may be a member hiding it, have a null affiliation (empty in CSV); `--affiliation outside` keeps neither,
    /// and stderr counts the one it may have missed (a team's member is no outside collaborator). One with the
    /// base permission (the organization's read) is a member: an owner's is the organization's admin (before:
    /// null; a review's find). `--changes` does not record such a map: that one would be recorded as removed; a
    /// map with none such is recorded.
    @Test func aNonMembersTokenCallsNobodyItWasNotShownOutside() async throws {
        let teamOnly = AccessBodies.Collaborator(
            "teamonly", 5, "WRITE", [AccessBodies.Source("Team", "core", "WRITE", roleName: "write")])
        let world = AccessWorld(
            organization: "octo-org", members: [AccessBodies.Member("Mona", 1, "ADMIN", twoFactor: nil)],
            collaborators: ["api": Self.api + [teamOnly]], viewer: .outsider)
        let csv = await Self.harness(world).run([
            "access", "octo-org", "--format", "csv", "--fields", "login,affiliation",
        ])
        #expect(csv.status == 0, "\(csv.err)")
        #expect(csv.out == "login,affiliation\r\nhubot,member\r\nMona,owner\r\noutsider,\r\nteamonly,\r\n")
        #expect(
            csv.err
                == "gh-users: 2 records have a null affiliation: GitHub did not list those people among octo-org's "
                + "members to this token, and lists every member only to a member (a member's token with read:org "
                + "tells owners, members and outside collaborators apart).\n")
        let json = await Self.harness(world).run(["access", "octo-org", "--format", "ndjson", "--person", "outsider"])
        #expect(json.out.contains(#""affiliation":null,"#))
        let outside = await Self.harness(world).run(["access", "octo-org", "--affiliation", "outside"])
        #expect(outside.status == 0, "\(outside.err)")
        #expect(outside.out.isEmpty)
        #expect(outside.err.hasPrefix("gh-users: --affiliation outside left out 1 record whose affiliation is null: "))
        // An owner has the organization's admin: teamonly, a null affiliation without it, cannot be one, so
        // nothing was left out and the map can be compared (before: "left out 1 record"; a review's find).
        let owner = await Self.harness(world).run([
            "access", "octo-org", "--affiliation", "owner", "--format", "tsv", "--fields", "login",
        ])
        #expect(owner.status == 0 && owner.out == "Mona\n" && owner.err.isEmpty, "\(owner.err)")
        let folder = try Folder()
        defer { folder.remove() }
        let changes = await Self.harness(world).run([
            "access", "octo-org", "--affiliation", "outside", "--changes", folder("c.json"),
        ])
        #expect(changes.status == 1)
        #expect(changes.out.isEmpty)
        #expect(changes.err.contains("\ngh-users: with them unknown, the map was not compared"), "\(changes.err)")
        #expect(!FileManager.default.fileExists(atPath: folder("c.json")))
        let teamMember = await Self.harness(world).run([
            "access", "octo-org", "--affiliation", "outside", "--person", "teamonly", "--changes", folder("c.json"),
        ])
        #expect(teamMember.status == 0, "\(teamMember.err)")
        #expect(FileManager.default.fileExists(atPath: folder("c.json")))
    }

    /// Someone the token was not shown as a member, reached through the organization's admin (an owner's, or a
    /// base permission of admin: a null affiliation) as well as directly, is no outside collaborator:
    /// `--affiliation outside` leaves them out without counting them as one it may have missed (an outsider's
    /// every source is the repository).
    @Test func aNullAffiliationReachedThroughTheOrganizationTooIsNoOutsiderLeftOut() async {
        let direct = AccessBodies.Source("Repository", "octo-org/api", "ADMIN", roleName: "admin")
        let ownership = AccessBodies.Source("Organization", "octo-org", "ADMIN", roleName: "admin")
        let world = AccessWorld(
            organization: "octo-org", members: [AccessBodies.Member("Mona", 1, "ADMIN", twoFactor: nil)],
            collaborators: ["api": [AccessBodies.Collaborator("hubot", 2, "ADMIN", [ownership, direct])]],
            viewer: .outsider)
        let run = await Self.harness(world).run(["access", "octo-org", "--affiliation", "outside"])
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out.isEmpty)
        #expect(run.err.isEmpty, "\(run.err)")
    }

    /// A login is one person in any case: `--person` given twice in two cases is that person, not two refused.
    @Test func onePersonNamedTwiceInTwoCasesIsThatPerson() async {
        let once = await Self.harness(Self.world()).run(["access", "octo-org", "--person", "hubot", "--format", "tsv"])
        let twice = await Self.harness(Self.world()).run([
            "access", "octo-org", "--person", "hubot", "--person", "HUBOT", "--format", "tsv",
        ])
        #expect(once.status == 0 && twice.status == 0, "\(once.err)\(twice.err)")
        #expect(twice.out == once.out)
        #expect(twice.out.hasPrefix("octo-org/api\thubot\t"), "\(twice.out)")
    }

    /// `--person` asks GitHub for that person's access alone (`collaborators(first: 1, login:)`), fifty
    /// repositories a request: 25 repositories of three people take one POST, where the whole map takes three.
    @Test func onePersonIsAskedForByLoginFiftyRepositoriesARequest() async {
        var collaborators: [String: [AccessBodies.Collaborator]] = [:]
        for index in 0..<25 {
            collaborators[String(format: "r%02d", index)] = ["hubot", "Mona", "octocat"].enumerated().map {
                AccessBodies.Collaborator($0.element, Int64($0.offset + 1), "READ", [Self.org])
            }
        }
        let world = AccessWorld(organization: "octo-org", members: Self.members, collaborators: collaborators)
        let harness = Self.harness(world)
        let run = await harness.run([
            "access", "octo-org", "--person", "MONA", "--concurrency", "1", "--fields", "repository,login",
        ])
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out == (0..<25).map { String(format: "octo-org/r%02d\tMona\n", $0) }.joined())
        #expect(world.batches.map(\.count) == [25])
        let queries = harness.http.received.map(AccessWorld.query(of:)).filter { $0.contains(": repository(") }
        #expect(queries.count == 1)
        #expect(queries.first?.contains(#"collaborators(first: 1, affiliation: ALL, login: "MONA")"#) == true)
    }

    /// `access --help` at 80 columns, within help's 50 lines, says what the command needs (a token with read:org
    /// and repo, push access to a repository to see its collaborators) and what `sources` is; so does its man
    /// page, and the completions that describe commands name the token's scopes.
    @Test func itsHelpSaysWhatItNeedsAndWhatSourcesAre() {
        let help = HelpRenderer.render(.command("access"), width: 80)
        #expect(help.split(separator: "\n", omittingEmptySubsequences: false).dropLast().count <= 50)
        let page = ManPageRenderer.render("access", version: "9.9", date: Date(timeIntervalSince1970: 0))
        for text in [help, page.replacing("\\-", with: "-")] {
            let words = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            #expect(words.contains("a token with read:org and repo"), "\(text)")
            #expect(words.contains("push access to it"), "\(text)")
            #expect(words.contains("sources is every source GitHub gives for that access"), "\(text)")
        }
        #expect(help.contains("--person") && help.contains("--changes"))
        for shell in [CompletionOptions.Shell.fish, .zsh] {
            let script = CompletionScripts.script(for: shell, commands: CommandCatalog.specs)
            #expect(script.contains("read:org and repo") || script.contains(#"read\:org\ and\ repo"#), "\(shell)")
        }
    }

    /// Without a token nothing is sent, and exit 4 says what the token needs.
    @Test func withoutATokenItNamesTheScopes() async {
        let run = await CommandHarness().run(["access", "octo-org"])
        #expect(run.status == 4)
        #expect(run.out.isEmpty)
        #expect(run.err.contains("access needs a token"))
        #expect(run.err.contains("read:org") && run.err.contains("repo"))
    }

    /// A repository GitHub refuses is named, with how many, after the others' records: exit 1.
    @Test func aRefusedRepositoryIsNamedAndTheRunIsPartial() async {
        let run = await Self.harness(Self.world(forbidden: ["api", "docs"])).run([
            "access", "octo-org", "--format", "tsv", "--fields", "repository,login",
        ])
        #expect(run.status == 1)
        #expect(run.out == "octo-org/web\toctocat\n")
        #expect(
            run.err
                == "gh-users: GitHub did not show the collaborators of 2 repositories of 3 (it shows them only to "
                + "those with push access): octo-org/api, octo-org/docs; the map above leaves them out.\n")
    }

    /// GitHub refusing every repository it was asked about is no map, and no partial one: exit 4, as a GraphQL
    /// refusal of the token is, saying what the token needs. Before: exit 1, "2 repositories of 2 … the map above
    /// leaves them out", with no map above. A --repo that is not there is no repository the token was refused.
    /// Only repositories `--repo` named were "asked about" (before: said of the whole organization's too).
    @Test(arguments: [
        (
            [String](),
            "could read the collaborators of none of the 3 repositories of octo-org "
                + "(octo-org/api, octo-org/docs, octo-org/web)"
        ),
        (
            ["--repo", "api", "--repo", "nope"],
            "could not read the collaborators of the one repository of "
                + "octo-org asked about (octo-org/api)"
        ),
    ])
    func everyRepositoryRefusedIsExit4(options: [String], what: String) async {
        // No map is written in any format: no csv header, no empty JSON array (before: both, and a rerun with
        // --state appending to the same file wrote the header twice).
        for format in ["csv", "json"] {
            let run = await Self.harness(Self.world(forbidden: ["api", "docs", "web"])).run(
                ["access", "octo-org", "--format", format] + options)
            #expect(run.status == 4 && run.out.isEmpty, "\(format): \(run.out)")
        }
        let run = await Self.harness(Self.world(forbidden: ["api", "docs", "web"])).run(
            ["access", "octo-org", "--format", "tsv"] + options)
        #expect(run.status == 4, "\(run.err)")
        #expect(run.out.isEmpty)
        #expect(
            run.err.contains(
                "gh-users: the token \(what): GitHub shows them only to those with push access, so there is no map. "
                    + "The map needs a token with push access to a repository, or an owner's token with read:org "
                    + "and repo.\n"), "\(run.err)")
        #expect(!run.err.contains("the map above"))
        #expect(options.isEmpty || run.err.hasPrefix("gh-users: no repository 'octo-org/nope' (GraphQL: not found)\n"))
    }

    /// On a terminal, a map with no one in it says so; a map of a `--repo` that is not there is no map, and only
    /// its failure is said.
    @Test func onATerminalNothingFoundIsSaidOnlyOfAMapThatIsThere() async {
        var empty = Self.harness(Self.world())
        empty.stdoutTTY = true
        let none = await empty.run(["access", "octo-org", "--repo", "docs"])
        #expect(none.status == 0, "\(none.err)")
        #expect(none.err == "gh-users: no access records found\n")
        var missing = Self.harness(Self.world())
        missing.stdoutTTY = true
        let nope = await missing.run(["access", "octo-org", "--repo", "nope"])
        #expect(nope.status == 3)
        #expect(nope.err == "gh-users: no repository 'octo-org/nope' (GraphQL: not found)\n")
    }

    /// A table's columns are sized on its first ten repositories' records, then fixed: an eleventh's longer login
    /// is written whole but widens nothing, so the header is the one the first ten alone have.
    @Test func aTableIsSizedOnItsFirstTenRepositories() async {
        let long = "a" + String(repeating: "b", count: 38)
        func table(_ count: Int) async -> [String] {
            var collaborators: [String: [AccessBodies.Collaborator]] = [:]
            for index in 1...count {
                collaborators[String(format: "r%02d", index)] = [
                    AccessBodies.Collaborator(index == 11 ? long : "a", Int64(100 + index), "READ", [Self.org])
                ]
            }
            var harness = Self.harness(
                AccessWorld(organization: "octo-org", members: Self.members, collaborators: collaborators))
            harness.stdoutTTY = true
            harness.width = 60
            let run = await harness.run(["access", "octo-org"])
            #expect(run.status == 0, "\(run.err)")
            return run.out.split(separator: "\n").map(String.init)
        }
        let ten = await table(10)
        let eleven = await table(11)
        #expect(eleven.count == 12)
        #expect(eleven.first == ten.first, "\(eleven.joined(separator: "\n"))")
        #expect(eleven.last?.contains(long) == true)
    }

    /// A --repo that is not there is not counted among the repositories a refusal is of: before, "1 repository
    /// of 3" for two that are there.
    @Test func aRefusalCountsOnlyTheRepositoriesThatAreThere() async {
        let run = await Self.harness(Self.world(forbidden: ["api"])).run([
            "access", "octo-org", "--repo", "api", "--repo", "web", "--repo", "nope", "--format", "tsv",
            "--fields", "repository,login",
        ])
        #expect(run.status == 1)
        #expect(run.out == "octo-org/web\toctocat\n")
        #expect(
            run.err.hasSuffix(
                "gh-users: GitHub did not show the collaborators of 1 repository of 2 (it shows them only to those "
                    + "with push access): octo-org/api; the map above leaves it out.\n"), "\(run.err)")
    }

    /// A repository `--repo` names that is not there is exit 3, after the others' records.
    @Test func aRepositoryThatIsNotThereIsExit3() async {
        let run = await Self.harness(Self.world()).run([
            "access", "octo-org", "--repo", "nope", "--repo", "web", "--format", "tsv", "--fields", "login",
        ])
        #expect(run.status == 3)
        #expect(run.out == "octocat\n")
        #expect(run.err == "gh-users: no repository 'octo-org/nope' (GraphQL: not found)\n")
    }

    /// Every repository `--repo` names not there: each is named, exit 3, and nothing is written, not even an empty
    /// array or a csv header, which a script would take for a whole map of nobody (as a review did). Before
    /// that, no request was ever in flight, so the read stopped before it handed the missing ones on: "malformed
    /// response from POST /graphql: … pages still to ask", exit 1.
    @Test(arguments: ["tsv", "json", "csv"])
    func repositoriesThatAreAllNotThereAreExit3(format: String) async {
        let run = await Self.harness(Self.world()).run([
            "access", "octo-org", "--repo", "nope", "--repo", "gone", "--format", format, "--fields", "login",
        ])
        #expect(run.status == 3)
        #expect(run.out.isEmpty)
        #expect(
            run.err
                == "gh-users: no repository 'octo-org/gone' (GraphQL: not found)\n"
                + "gh-users: no repository 'octo-org/nope' (GraphQL: not found)\n"
        )
    }

    /// A listed repository gone before its read is no failure, and the map without it is the map: when every one
    /// went, an empty map (`[]`, exit 0), not the nothing of a map of `--repo`s none of which is there. stderr
    /// names them: before, they went without a word, and a `--changes` reported their people removed unexplained.
    @Test func repositoriesAllGoneSinceTheirListingAreAnEmptyMap() async {
        let world = AccessWorld(
            organization: "octo-org", members: Self.members, collaborators: [:], listing: ["gone", "went"])
        let run = await Self.harness(world).run(["access", "octo-org", "--json"])
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out == "[]\n")
        #expect(
            run.err.hasPrefix(
                "gh-users: left out of the map, gone when their collaborators were read (deleted or moved since they "
                    + "were listed): octo-org/gone, octo-org/went.\n"), "\(run.err)")
    }

    /// Of many gone, stderr names the first five and counts the rest.
    @Test func manyRepositoriesGoneAreFiveNamedAndTheRestCounted() async {
        let names = (1...7).map { "gone\($0)" }
        let world = AccessWorld(organization: "octo-org", members: Self.members, collaborators: [:], listing: names)
        let run = await Self.harness(world).run(["access", "octo-org", "--json"])
        #expect(run.status == 0, "\(run.err)")
        #expect(
            run.err.hasPrefix(
                "gh-users: left out of the map, gone when their collaborators were read (deleted or moved since they "
                    + "were listed): octo-org/gone1, octo-org/gone2, octo-org/gone3, octo-org/gone4, octo-org/gone5 "
                    + "and 2 more.\n"), "\(run.err)")
    }

    /// A permission or a kind of permission source GitHub adds (a new role, an enterprise's teams) fails the map,
    /// as an answer gh-users cannot read does, naming what it is: before, "without its login, id, permission or
    /// sources", of a collaborator that had all four (a review's find).
    @Test(arguments: [
        (
            AccessBodies.Collaborator("hubot", 2, "SECURITY_MANAGER", [org]),
            "the collaborator 'hubot' has the permission 'SECURITY_MANAGER', none of read, triage, write, maintain, admin"
        ),
        (
            AccessBodies.Collaborator("hubot", 2, "READ", [AccessBodies.Source("Enterprise", "acme", "READ")]),
            "the collaborator 'hubot' has a permission source of the kind 'Enterprise', none of Organization, "
                + "Team, Repository"
        ),
    ])
    func aPermissionGitHubAddedIsNamed(collaborator: AccessBodies.Collaborator, flaw: String) async {
        let world = AccessWorld(organization: "octo-org", members: Self.members, collaborators: ["api": [collaborator]])
        let run = await Self.harness(world).run(["access", "octo-org"])
        #expect(run.status == 1)
        #expect(run.out.isEmpty)
        #expect(
            run.err.hasPrefix(
                "gh-users: malformed response from POST /graphql: \(flaw), in octo-org/api's collaborators"),
            "\(run.err)")
    }

    /// GraphQL answers 200 for an organization there is none of: the message says so, not HTTP 404.
    @Test func anUnknownOrganizationIsExit3() async {
        let harness = CommandHarness.signedIn()
        harness.http.register(
            RequestMatcher("POST /graphql"), body: Data(AccessBodies.unknownOrganization("nope").utf8))
        let run = await harness.run(["access", "nope"])
        #expect(run.status == 3)
        #expect(run.out.isEmpty)
        #expect(run.err.hasPrefix("gh-users: no organization 'nope' (GraphQL: not found)\n"), "\(run.err)")
    }

    @Test func aSpentGraphQLLimitIsExit5() async {
        let harness = CommandHarness.signedIn()
        harness.http.register(
            RequestMatcher("POST /graphql"),
            headers: [("x-ratelimit-remaining", "0"), ("x-ratelimit-reset", "1800000600")],
            body: Data(AccessBodies.rateLimited.utf8))
        let run = await harness.run(["access", "octo-org"])
        #expect(run.status == 5)
        #expect(run.err.contains("rate limit"))
        #expect(!run.err.contains("incomplete"), "nothing was written: \(run.err)")
    }

    /// A map the rate limit stops half-way says that what came is part of it, and what goes on next time (a
    /// review's find: exit 5 and the limit's reset were all stderr said of 180 repositories out of 1,000).
    @Test func aMapStoppedHalfWaySaysItIsIncomplete() async {
        let names = (0..<25).map { String(format: "r%02d", $0) }
        let world = AccessWorld(
            organization: "octo-org", members: Self.members,
            collaborators: Dictionary(uniqueKeysWithValues: names.map { ($0, [Self.api[1]]) }))
        let harness = CommandHarness.signedIn()
        harness.http.answerEvery { request, _ in
            guard AccessWorld.query(of: request).contains("collaborators("), !world.batches.isEmpty else {
                return world.answer(request)
            }
            let headers = HTTPHeaders([("x-ratelimit-remaining", "0"), ("x-ratelimit-reset", "1800000600")])
            return HTTPResponse(
                status: 200, headers: headers, body: Data(AccessBodies.rateLimited.utf8), url: request.url)
        }
        let run = await harness.run(["access", "octo-org", "--concurrency", "1", "--format", "tsv"])
        #expect(run.status == 5, "\(run.err)")
        #expect(run.out.split(separator: "\n").count == 10, "the first batch's 10: \(run.out)")
        #expect(
            run.err.hasSuffix(
                "The output holds the map of the first 10 repositories only: it is incomplete. With --state FILE "
                    + "(tsv, csv or ndjson), a run that stops goes on where it stopped when run again.\n"), "\(run.err)"
        )
    }

    @Test(arguments: [["--concurrency", "0"], ["--permission", "owner"], ["--repo", "a/b"], ["--affiliation", "x"]])
    func badValuesAreUsageErrors(arguments: [String]) async {
        let run = await CommandHarness.signedIn().run(["access", "octo-org"] + arguments)
        #expect(run.status == 64)
        #expect(run.out.isEmpty)
    }

    /// A bad --person names the option (a review's find: "a login cannot be empty" did not say which).
    @Test func aBadPersonNamesTheOption() async {
        for (person, says) in [("", "--person: a login cannot be empty"), ("a b", "--person: invalid login 'a b'")] {
            let run = await CommandHarness.signedIn().run(["access", "octo-org", "--person", person])
            #expect(run.status == 64)
            #expect(run.err.hasPrefix("Error: " + says), "\(run.err)")
        }
    }
}
