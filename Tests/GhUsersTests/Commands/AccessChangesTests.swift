import Foundation
import TestSupport
import Testing

@testable import gh_users

/// `access ORG --changes FILE`: the first run records the map, later runs write what was added, removed and
/// changed (another permission, or the same from other sources) and replace FILE; a map of another organization
/// or other filters, or a partial one, leaves FILE as it was.
struct AccessChangesTests {
    private static let org = AccessBodies.Source("Organization", "octo-org", "READ", roleName: "read")

    private static func team(_ slug: String, _ permission: String, role: String) -> AccessBodies.Source {
        AccessBodies.Source("Team", slug, permission, roleName: role)
    }

    private static func world(
        _ collaborators: [String: [AccessBodies.Collaborator]], members: [AccessBodies.Member] = [],
        forbidden: Set<String> = [], listing: [String]? = nil, counted: Int? = nil
    ) -> CommandHarness {
        let world = AccessWorld(
            organization: "octo-org", members: members, collaborators: collaborators, forbidden: forbidden,
            listing: listing, counted: counted)
        let harness = CommandHarness.signedIn()
        harness.http.answerEvery { request, _ in world.answer(request) }
        return harness
    }

    private static let first: [String: [AccessBodies.Collaborator]] = [
        "api": [
            AccessBodies.Collaborator("hubot", 2, "WRITE", [org, team("core", "WRITE", role: "write")]),
            AccessBodies.Collaborator("octocat", 3, "READ", [org]),
        ],
        "web": [AccessBodies.Collaborator("octocat", 3, "READ", [org])],
    ]

    /// A collaborator added to web, the core team's grant raised to maintain (for hubot, through it), and
    /// octocat no longer a member: gone from both repositories.
    private static let second: [String: [AccessBodies.Collaborator]] = [
        "api": [AccessBodies.Collaborator("hubot", 2, "MAINTAIN", [org, team("core", "WRITE", role: "maintain")])],
        "web": [
            AccessBodies.Collaborator(
                "mona", 4, "WRITE", [AccessBodies.Source("Repository", "octo-org/web", "WRITE", roleName: "write")])
        ],
    ]

    /// A repository named twice in two cases is one filter: the map it records is the map of it named once
    /// (before: "repo=web,web" recorded, and the same map refused as another's; a review's find).
    @Test func aRepositoryNamedInTwoCasesIsOneFilter() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let file = folder("web.access.json")
        let first = await Self.world(Self.first).run([
            "access", "octo-org", "--repo", "web", "--repo", "Web", "--changes", file,
        ])
        #expect(first.status == 0, "\(first.err)")
        #expect(try String(contentsOfFile: file, encoding: .utf8).contains(#""repo":"web""#))
        let again = await Self.world(Self.first).run(["access", "octo-org", "--repo", "WEB", "--changes", file])
        #expect(again.status == 0, "\(again.err)")
    }

    /// A `--repo` that is no longer there (deleted, renamed) is exit 3, and FILE is left as it was: compared
    /// without it, everyone FILE holds there would be reported removed and recorded so (helper-337's AC10).
    @Test func aNamedRepositoryGoneIsExit3AndFileIsLeftAsItWas() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let file = folder("two.access.json")
        let arguments = ["access", "octo-org", "--repo", "web", "--repo", "api", "--changes", file]
        #expect(await Self.world(Self.first).run(arguments).status == 0)
        let recorded = try Data(contentsOf: URL(fileURLWithPath: file))
        let gone = await Self.world(["web": Self.first["web"] ?? []]).run(arguments)
        #expect(gone.status == 3, "\(gone.err)")
        #expect(gone.out.isEmpty)
        #expect(gone.err.hasPrefix("gh-users: no repository 'octo-org/api' (GraphQL: not found)\n"), "\(gone.err)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == recorded)
    }

    /// A repository listed and gone before its read (deleted meanwhile) is left out of the map, so its people's
    /// access is removed: stderr says which repository went, where before the removals came without a word.
    @Test func aRepositoryGoneSinceItsListingIsNamedBesideItsRemovals() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let file = folder("octo-org.access.json")
        #expect(await Self.world(Self.first).run(["access", "octo-org", "--changes", file]).status == 0)
        let gone = await Self.world(["api": Self.first["api"] ?? []], listing: ["api", "web"]).run([
            "access", "octo-org", "--changes", file, "--format", "tsv", "--fields", "change,repository,login",
        ])
        #expect(gone.status == 0, "\(gone.err)")
        #expect(gone.out == "removed\tocto-org/web\toctocat\n")
        #expect(
            gone.err.hasSuffix(
                "gh-users: left out of the map, gone when its collaborators were read (deleted or moved since they "
                    + "were listed): octo-org/web.\n"), "\(gone.err)")
    }

    /// The organization typed in another case is the same map, and the file keeps its spelling: a run with no
    /// change leaves it byte for byte (before, `access Octo-Org` and `access octo-org` rewrote "of" in turn; a
    /// review's find).
    @Test func theOrganizationInAnotherCaseLeavesTheFileAsItWas() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let file = folder("octo-org.access.json")
        #expect(await Self.world(Self.first).run(["access", "octo-org", "--changes", file]).status == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: file))
        let again = await Self.world(Self.first).run(["access", "Octo-Org", "--changes", file, "--format", "ndjson"])
        #expect(again.status == 0, "\(again.err)")
        #expect(again.out.isEmpty)
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == before)
    }

    /// A map that collapsed is never recorded as everyone's access removed (before, each of these recorded all
    /// of it removed, exit 0): a listing far short of the repositories it counts, a repository that lists no one
    /// (its owners reach every one), and a map with no one where FILE holds records.
    @Test(arguments: [
        (
            [String: [AccessBodies.Collaborator]](), [String]?.some([]), Int?.some(2),
            "GitHub's listing of octo-org's repositories came back with 0 repositories while its totalCount counts 2"
        ),
        (
            ["api": first["api"] ?? [], "web": []], nil, nil,
            "GitHub listed no one with access to 1 repository (octo-org/web), where an organization's owners"
        ),
        (
            [:], nil, nil,
            "GitHub's access map of octo-org came back empty while the snapshot holds 3 records, so the list was "
        ),
    ])
    func aMapThatCollapsedIsNotRecorded(
        collaborators: [String: [AccessBodies.Collaborator]], listing: [String]?, counted: Int?, message: String
    ) async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let file = folder("octo-org.access.json")
        let arguments = ["access", "octo-org", "--changes", file, "--format", "ndjson"]
        #expect(await Self.world(Self.first).run(arguments).status == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: file))
        let collapsed = await Self.world(collaborators, listing: listing, counted: counted).run(arguments)
        #expect(collapsed.status == 1)
        #expect(collapsed.out.isEmpty)
        #expect(collapsed.err.hasPrefix("gh-users: " + message), "\(collapsed.err)")
        #expect(collapsed.err.hasSuffix("gh-users: the snapshot file '\(file)' was left as it was.\n"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == before)
    }

    /// The collapse guard counts the map as read, before `--permission` and `--affiliation` (USAGE.md): a filter
    /// that leaves no one, the last writer gone while everyone else is still listed, is a change to record, not
    /// a collapse (helper-267 asked which the docs meant).
    @Test func aFilterThatLeavesNoOneIsRecordedAsRemoved() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let file = folder("octo-org.writers.json")
        let arguments = ["access", "octo-org", "--permission", "write", "--changes", file, "--format", "ndjson"]
        #expect(await Self.world(Self.first).run(arguments).status == 0)
        let readers: [String: [AccessBodies.Collaborator]] = [
            "api": [
                AccessBodies.Collaborator("hubot", 2, "READ", [Self.org]),
                AccessBodies.Collaborator("octocat", 3, "READ", [Self.org]),
            ],
            "web": [AccessBodies.Collaborator("octocat", 3, "READ", [Self.org])],
        ]
        let run = await Self.world(readers).run(arguments)
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out.hasPrefix(#"{"change":"removed","repository":"octo-org/api","login":"hubot""#), "\(run.out)")
        #expect(run.out.split(separator: "\n").count == 1)
        #expect(try String(contentsOfFile: file, encoding: .utf8).contains(#""hubot""#) == false)
    }

    @Test func theFirstRunRecordsAndTheNextWritesWhatChanged() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let file = folder("octo-org.access.json")
        let arguments = ["access", "octo-org", "--changes", file, "--format", "ndjson"]
        let recorded = await Self.world(Self.first).run(arguments)
        #expect(recorded.status == 0, "\(recorded.err)")
        #expect(recorded.out.isEmpty)
        #expect(recorded.err.contains("recorded the 3 records of 'gh-users access octo-org'"))
        // An access map's changes are access, not people coming and going.
        #expect(recorded.err.hasSuffix("--changes writes the access added, removed or changed.\n"), "\(recorded.err)")
        let attributes = try FileManager.default.attributesOfItem(atPath: file)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)

        let changed = await Self.world(Self.second).run(arguments)
        #expect(changed.status == 0, "\(changed.err)")
        let lines = changed.out.split(separator: "\n").map(String.init)
        #expect(lines.count == 4)
        #expect(
            lines[0]
                == #"{"change":"changed","repository":"octo-org/api","login":"hubot","id":2,"#
                + #""old_permission":"write","new_permission":"maintain","#
                + #""old_sources":[{"kind":"organization","name":"octo-org","permission":"read"},"#
                + #"{"kind":"team","name":"core","permission":"write"}],"#
                + #""new_sources":[{"kind":"organization","name":"octo-org","permission":"read"},"#
                + #"{"kind":"team","name":"core","permission":"maintain"}]}"#)
        #expect(lines[1].hasPrefix(#"{"change":"removed","repository":"octo-org/api","login":"octocat""#))
        #expect(lines[1].contains(#""new_permission":null"#) && lines[1].hasSuffix(#""new_sources":null}"#))
        #expect(lines[2].hasPrefix(#"{"change":"added","repository":"octo-org/web","login":"mona""#))
        #expect(lines[2].contains(#""old_permission":null,"new_permission":"write""#))
        #expect(lines[3].hasPrefix(#"{"change":"removed","repository":"octo-org/web","login":"octocat""#))

        // The third run, of the same map, has nothing to say.
        let same = await Self.world(Self.second).run(arguments)
        #expect(same.status == 0, "\(same.err)")
        #expect(same.out.isEmpty)
    }

    /// Without `--fields`, the changes' csv and tsv hold in `old_sources` and `new_sources` what the change
    /// records hold there (the JSON array, empty for null), as `--fields` writes them; the table says them in
    /// words.
    @Test(arguments: ["csv", "tsv"])
    func theChangesColumnsHoldTheirFields(format: String) async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let (plain, chosen) = (folder("plain.json"), folder("chosen.json"))
        for file in [plain, chosen] {
            #expect(await Self.world(Self.first).run(["access", "octo-org", "--changes", file]).status == 0)
        }
        // Every field, id too, in help's order (before: no id, so csv read by position as help lists it was off).
        let fields = "change,repository,login,id,old_permission,new_permission,old_sources,new_sources"
        let written = await Self.world(Self.second).run(["access", "octo-org", "--changes", plain, "--format", format])
        let asked = await Self.world(Self.second).run([
            "access", "octo-org", "--changes", chosen, "--format", format, "--fields", fields,
        ])
        #expect(written.status == 0 && asked.status == 0, "\(written.err)\(asked.err)")
        #expect(written.out == asked.out)
        let added = written.out.split(whereSeparator: \.isNewline).first { $0.hasPrefix("added") }
        let separator = format == "csv" ? "," : "\t"
        let start = ["added", "octo-org/web", "mona", "[0-9]+", "", "write", ""].joined(separator: separator)
        let pattern = try Regex("^" + start)
        #expect(added.map { String($0).contains(pattern) } == true, "\(added ?? "")")
        #expect(added?.contains("kind") == true)
    }

    /// The table says which sources came and went, in one column: with the old and the new lists whole, a narrow
    /// table cut them short, and a change of sources alone ("changed admin admin") showed nothing that changed.
    @Test func theChangesTableSaysWhichSourcesCameAndWent() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let file = folder("a.json")
        #expect(await Self.world(Self.first).run(["access", "octo-org", "--changes", file]).status == 0)
        var harness = Self.world(Self.second)
        harness.stdoutTTY = true
        harness.width = 100
        let run = await harness.run(["access", "octo-org", "--changes", file])
        #expect(run.status == 0, "\(run.err)")
        let lines = run.out.split(separator: "\n").map(String.init)
        let header = try #require(lines.first)
        #expect(header.contains("VIA") && !header.contains("OLD VIA") && !header.contains("NEW VIA"), "\(header)")
        let hubot = try #require(lines.first { $0.hasPrefix("changed") && $0.contains("hubot") }, "\(run.out)")
        #expect(hubot.hasSuffix("+ team core: maintain, − team core: write"), "\(hubot)")
        // Where nothing went, the sources that came; where nothing came, those that went.
        #expect(lines.contains { $0.hasPrefix("added") && $0.hasSuffix("+ repo: write") }, "\(run.out)")
        #expect(lines.contains { $0.hasPrefix("removed") && $0.hasSuffix("  − org: read") })
    }

    /// The same permission from other sources is a change too; the same sources in another order are not.
    @Test func otherSourcesAreAChangeAndAnotherOrderIsNot() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let file = folder("a.json")
        let arguments = ["access", "octo-org", "--changes", file, "--format", "tsv", "--fields", "change,login"]
        let two = [Self.org, Self.team("core", "WRITE", role: "write")]
        #expect(
            await Self.world(["api": [AccessBodies.Collaborator("hubot", 2, "WRITE", two)]]).run(arguments).status
                == 0)
        let reordered = await Self.world(["api": [AccessBodies.Collaborator("hubot", 2, "WRITE", two.reversed())]])
            .run(arguments)
        #expect(reordered.status == 0)
        #expect(reordered.out.isEmpty)
        let other = await Self.world([
            "api": [
                AccessBodies.Collaborator("hubot", 2, "WRITE", [Self.org, Self.team("web", "WRITE", role: "write")])
            ]
        ]).run(arguments)
        #expect(other.status == 0)
        #expect(other.out == "changed\thubot\n")
    }

    /// A source's name is GitHub's login or slug, which it reads in any case: the same sources named in another
    /// case are no change.
    @Test func aSourceNamedInAnotherCaseIsNoChange() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let arguments = [
            "access", "octo-org", "--changes", folder("a.json"), "--format", "tsv", "--fields", "change,login",
        ]
        let first = await Self.world([
            "api": [
                AccessBodies.Collaborator("hubot", 2, "WRITE", [Self.org, Self.team("Core", "WRITE", role: "write")])
            ]
        ]).run(arguments)
        #expect(first.status == 0, "\(first.err)")
        let again = await Self.world([
            "api": [
                AccessBodies.Collaborator("hubot", 2, "WRITE", [Self.org, Self.team("core", "WRITE", role: "write")])
            ]
        ]).run(arguments)
        #expect(again.status == 0, "\(again.err)")
        #expect(again.out.isEmpty)
    }

    /// A file made for another organization, or for the same with other filters, is refused and left as it was.
    /// Another organization may be this one renamed, which a map keyed by names cannot follow: the message says
    /// how to start again (helper-348's F2; before, only "give each map its own snapshot file").
    @Test(arguments: [
        (["access", "other-org"], true), (["access", "octo-org", "--permission", "write"], false),
        (["access", "other-org", "--permission", "write"], false),  // no rename makes other filters (helper-351)
    ])
    func aSnapshotOfAnotherMapIsRefused(arguments: [String], renamed: Bool) async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let file = folder("a.json")
        #expect(await Self.world(Self.first).run(["access", "octo-org", "--changes", file]).status == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: file))
        let harness = CommandHarness.signedIn()
        let run = await harness.run(arguments + ["--changes", file])
        #expect(run.status != 0)
        #expect(run.out.isEmpty)
        #expect(run.err.contains("was made for 'gh-users access octo-org'"), "\(run.err)")
        let hint = "snapshot file (if the organization was renamed, keep a copy of the file, then remove it to start "
        #expect(run.err.contains(hint) == renamed, "\(run.err)")
        #expect(harness.http.received.isEmpty)
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == before)
    }

    /// The first map recorded in FILE, then the second read with GitHub refusing `forbidden`: that run, FILE's
    /// path, and whether FILE is byte for byte as the first run left it.
    private static func recordThenRefuse(_ forbidden: Set<String>) async throws -> (
        run: CommandHarness.Outcome, file: String, kept: Bool
    ) {
        let folder = try Folder()
        defer { folder.remove() }
        let file = folder("a.json")
        let arguments = ["access", "octo-org", "--changes", file]
        #expect(await world(first).run(arguments).status == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: file))
        let run = await world(second, forbidden: forbidden).run(arguments)
        return (run, file, try Data(contentsOf: URL(fileURLWithPath: file)) == before)
    }

    /// A map with a repository GitHub refused is never compared or recorded: exit 1, FILE as it was.
    @Test func aPartialMapIsNeverRecorded() async throws {
        let (run, file, kept) = try await Self.recordThenRefuse(["web"])
        #expect(run.status == 1)
        #expect(run.out.isEmpty)
        #expect(run.err.contains("octo-org/web; a partial map is never compared or recorded."), "\(run.err)")
        #expect(run.err.hasSuffix("gh-users: the snapshot file '\(file)' was left as it was.\n"))
        #expect(kept)
    }

    /// A map of which GitHub refused every repository is no map: exit 4, as a GraphQL refusal of the token is,
    /// saying what the token needs, and FILE as it was (before: exit 1, "2 repositories of 2 … a partial map").
    @Test func aMapOfNoReadableRepositoryIsExit4AndNeverRecorded() async throws {
        let (run, file, kept) = try await Self.recordThenRefuse(["api", "web"])
        #expect(run.status == 4, "\(run.err)")
        #expect(run.out.isEmpty)
        #expect(
            run.err.hasPrefix(
                "gh-users: the token could read the collaborators of none of the 2 repositories of octo-org "
                    + "(octo-org/api, octo-org/web): GitHub shows them only to those with push access, so there "
                    + "is no map. The map needs a token with push access to a repository, or an owner's token with "
                    + "read:org and repo.\n"), "\(run.err)")
        #expect(!run.err.contains("partial"))
        #expect(run.err.hasSuffix("gh-users: the snapshot file '\(file)' was left as it was.\n"))
        #expect(kept)
    }

    /// An organization's base permission raised changes everyone's access: the changes, megabytes of them, go
    /// to stdout a piece at a time as they are written, each read back from the maps' texts as the file and
    /// the new map have it (before, all of them were held decoded, about 600 bytes each, and written as one
    /// buffer: 259 MB for the 150,000 of the bench organization).
    @Test func everyonesAccessChangedGoesOutInPiecesAndWhole() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let file = folder("octo-org.access.json")
        func map(_ permission: String) -> [String: [AccessBodies.Collaborator]] {
            let base = AccessBodies.Source("Organization", "octo-org", permission, roleName: permission.lowercased())
            return Dictionary(
                uniqueKeysWithValues: (0..<80).map { repository in
                    let people = (1...100).map {
                        AccessBodies.Collaborator("member-\($0)", Int64($0), permission, [base])
                    }
                    return (String(format: "repo-%02d", repository), people)
                })
        }
        let arguments = ["access", "octo-org", "--changes", file, "--format", "ndjson"]
        let recorded = await Self.world(map("READ")).run(arguments)
        #expect(recorded.status == 0, "\(recorded.err)")
        let raised = await Self.world(map("WRITE")).run(arguments)
        #expect(raised.status == 0, "\(raised.err)")
        let lines = raised.out.split(separator: "\n")
        #expect(lines.count == 8_000)
        #expect(raised.out.utf8.count > 2 * RecordStreamWriter<AccessChange>.chunkSize)
        #expect(raised.largestWrite <= RecordStreamWriter<AccessChange>.chunkSize + 1_024, "\(raised.largestWrite)")
        let old = #"[{"kind":"organization","name":"octo-org","permission":"read"}]"#
        let new = #"[{"kind":"organization","name":"octo-org","permission":"write"}]"#
        #expect(
            lines.last.map(String.init)
                == #"{"change":"changed","repository":"octo-org/repo-79","login":"member-99","id":99,"#
                + #""old_permission":"read","new_permission":"write","old_sources":\#(old),"new_sources":\#(new)}"#)
        #expect(lines.allSatisfy { $0.hasPrefix(#"{"change":"changed","#) && $0.hasSuffix(new + "}") })
    }

    /// A change record's field is refused without --changes, and a map's field with it.
    @Test(arguments: [
        ["access", "octo-org", "--fields", "old_permission"],
        ["access", "octo-org", "--changes", "x.json", "--fields", "affiliation"],
    ])
    func fieldsOfTheOtherRecordAreUsageErrors(arguments: [String]) async {
        let run = await CommandHarness.signedIn().run(arguments)
        #expect(run.status == 64, "\(run.err)")
    }

    /// With `--person`, a repository the person has no access to lists no one for them: that is no part of the
    /// map GitHub left out, so `--changes` records the map (before the rule, every such repository was refused
    /// as "GitHub listed no one with access"; helper-328: dropping
    /// the rule went unseen).
    @Test func aRepositoryThePersonCannotReachIsNoCollapse() async throws {
        let org = AccessBodies.Source("Organization", "octo-org", "READ", roleName: "read")
        let world = AccessWorld(
            organization: "octo-org", members: [AccessBodies.Member("Mona", 1, "ADMIN", twoFactor: true)],
            collaborators: [
                "api": [AccessBodies.Collaborator("Mona", 1, "ADMIN", [org])],
                "web": [AccessBodies.Collaborator("Hubot", 2, "WRITE", [])],
            ])
        let folder = try Folder()
        defer { folder.remove() }
        let file = folder("a.json")
        let harness = CommandHarness.signedIn()
        harness.http.answerEvery { request, _ in world.answer(request) }
        let run = await harness.run(["access", "octo-org", "--person", "mona", "--changes", file])
        #expect(run.status == 0, "\(run.err)")
        #expect(FileManager.default.fileExists(atPath: file))
    }
}
