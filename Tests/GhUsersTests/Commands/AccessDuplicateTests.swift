import Foundation
import TestSupport
import Testing

@testable import gh_users

/// One record per repository and person: a collaborators page that repeats an edge (or a repository's pages
/// that give one person twice) keeps the first, as a REST list keeps the first of an id; and an `access
/// --changes` snapshot that holds a repository and person twice is refused, as a people snapshot with an id
/// twice is.
struct AccessDuplicateTests {
    private static let org = AccessBodies.Source("Organization", "octo-org", "READ", roleName: "read")
    private static let octocat = AccessBodies.Collaborator("octocat", 3, "READ", [org])

    /// `docs` lists octocat twice, the second time with another permission: on one page, or (`pageSize` 1)
    /// on two.
    private static func harness(pageSize: Int = 100) -> CommandHarness {
        let world = AccessWorld(
            organization: "octo-org", members: [AccessBodies.Member("octocat", 3, "MEMBER", twoFactor: false)],
            collaborators: [
                "docs": [
                    octocat, AccessBodies.Collaborator("hubot", 2, "WRITE", [org]),
                    AccessBodies.Collaborator("octocat", 3, "ADMIN", [org]),
                ]
            ],
            pageSize: pageSize)
        let harness = CommandHarness.signedIn()
        harness.http.answerEvery { request, _ in world.answer(request) }
        return harness
    }

    /// Before, octocat was written twice for octo-org/docs.
    @Test(arguments: [100, 1])
    func aRepeatedEdgeIsOneRecordTheFirst(pageSize: Int) async {
        let run = await Self.harness(pageSize: pageSize).run([
            "access", "octo-org", "--format", "tsv", "--fields", "repository,login,permission",
        ])
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out == "octo-org/docs\thubot\twrite\nocto-org/docs\toctocat\tread\n")
    }

    /// The snapshot `--changes` records holds the person once, so it reads back.
    @Test func theSnapshotRecordsThePersonOnce() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let file = folder("a.json")
        let arguments = ["access", "octo-org", "--changes", file]
        let first = await Self.harness().run(arguments)
        #expect(first.status == 0, "\(first.err)")
        #expect(first.err.contains("recorded the 2 records of 'gh-users access octo-org'"), "\(first.err)")
        let again = await Self.harness().run(arguments)
        #expect(again.status == 0, "\(again.err)")
        #expect(again.out.isEmpty)
    }

    /// Two accounts whose logins differ in case alone (ids 7 and 8) in one repository: GitHub's logins are
    /// unique case aside, so one answer is wrong (or a rename came between two pages). The map writes both, but
    /// `--changes` records no snapshot its next run refuses: exit 1, no file. Before, it recorded the file, and
    /// every later run refused it.
    @Test func aSnapshotThatWouldHoldALoginTwiceIsNotRecorded() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let file = folder("a.json")
        let world = AccessWorld(
            organization: "octo-org", members: [AccessBodies.Member("octocat", 3, "MEMBER", twoFactor: false)],
            collaborators: [
                "docs": [
                    Self.octocat, AccessBodies.Collaborator("Mona", 7, "WRITE", [Self.org]),
                    AccessBodies.Collaborator("mona", 8, "READ", [Self.org]),
                ]
            ])
        let harness = CommandHarness.signedIn()
        harness.http.answerEvery { request, _ in world.answer(request) }
        let run = await harness.run(["access", "octo-org", "--changes", file])
        #expect(run.status == 1)
        #expect(run.out.isEmpty)
        #expect(
            run.err.contains("holds the access of mona to octo-org/docs twice, which a snapshot cannot record"),
            "\(run.err)")
        #expect(!FileManager.default.fileExists(atPath: file))
    }

    /// An account id GitHub gave as 0 (or less) is no id a snapshot can hold: the map is written, but not recorded,
    /// since every later run would refuse the file (helper-337's AC4 and ST8: before the guard, it was recorded).
    @Test func aSnapshotThatWouldHoldAnIdThatIsNotPositiveIsNotRecorded() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let file = folder("a.json")
        let world = AccessWorld(
            organization: "octo-org", members: [AccessBodies.Member("octocat", 3, "MEMBER", twoFactor: false)],
            collaborators: ["docs": [Self.octocat, AccessBodies.Collaborator("ghost", 0, "READ", [Self.org])]])
        let harness = CommandHarness.signedIn()
        harness.http.answerEvery { request, _ in world.answer(request) }
        let run = await harness.run(["access", "octo-org", "--changes", file])
        #expect(run.status == 1)
        #expect(run.err.contains("which a snapshot cannot record, so nothing was written"), "\(run.err)")
        #expect(!FileManager.default.fileExists(atPath: file))
    }

    /// A snapshot that holds octocat's access to docs twice, as gh-users writes a line or in any other layout
    /// (by id, or by login with another id), is refused and left as it is, as a `members` snapshot with an id
    /// twice is: exit 1, nothing asked. Before, it was read, and the second entry silently took the first's place.
    @Test(arguments: [
        #"{"repository":"octo-org/docs","login":"octocat","id":3,"permission":"read","sources":[]}"#,
        #"{"repository":"octo-org/DOCS","login":"octocat","id":3,"permission":"admin","sources":[]}"#,
        #"{"repository":"octo-org/docs","login":"OctoCat","id":4,"permission":"read","sources":[]}"#,
        // The same id under another login: a rename recorded twice (helper-337's AC5).
        #"{"repository":"octo-org/docs","login":"hubot","id":3,"permission":"read","sources":[]}"#,
    ])
    func aSnapshotWithAnEntryTwiceIsRefused(repeated: String) async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let file = folder("a.json")
        let text =
            #"{"version":1,"command":"access","of":"octo-org","filters":{},"access":["# + "\n"
            + #"{"repository":"octo-org/docs","login":"octocat","id":3,"permission":"read","sources":[]},"# + "\n"
            + repeated + "\n]}\n"
        try Data(text.utf8).write(to: URL(fileURLWithPath: file))
        let harness = CommandHarness.signedIn()
        let run = await harness.run(["access", "octo-org", "--changes", file])
        #expect(run.status == 1)
        #expect(run.out.isEmpty)
        #expect(
            run.err.hasPrefix("gh-users: the snapshot file '\(file)' holds the access of "), "\(run.err)")
        #expect(run.err.contains(" to octo-org/"), "\(run.err)")
        #expect(run.err.contains(" twice"), "\(run.err)")
        #expect(harness.http.received.isEmpty)
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == Data(text.utf8))
    }

    /// GitHub's member roles are ADMIN and MEMBER: a member of any other role is an answer not as documented,
    /// refused, never mapped as a plain member (whose affiliation would then be said wrongly). helper-328: taking any role went unseen.
    @Test func aMemberOfAnUnknownRoleIsAMalformedAnswer() async throws {
        let org = AccessBodies.Source("Organization", "octo-org", "READ", roleName: "read")
        let world = AccessWorld(
            organization: "octo-org",
            members: [
                AccessBodies.Member("Mona", 1, "ADMIN", twoFactor: true),
                AccessBodies.Member("Hubot", 2, "BILLING_MANAGER", twoFactor: true),
            ],
            collaborators: ["api": [AccessBodies.Collaborator("Mona", 1, "ADMIN", [org])]])
        let harness = CommandHarness.signedIn()
        harness.http.answerEvery { request, _ in world.answer(request) }
        let run = await harness.run(["access", "octo-org", "--format", "json"])
        #expect(run.status != 0, "\(run.out)")
        #expect(run.err.contains("a member without its id or its role (ADMIN or MEMBER)"), "\(run.err)")
    }

    /// A collaborator with an empty login, or a repository listed as `octo-org/` (no name), is an answer not as
    /// documented: exit 1, said so. Before the checks (helper-337's GR4, GR6), the first was written as a record
    /// and the second asked for, then said to be gone.
    @Test(arguments: [
        (
            [String](), ["api": [AccessBodies.Collaborator("", 5, "READ", [Self.org])]],
            "a collaborator without its login or id"
        ),
        ([""], ["api": [Self.octocat]], "a repository without its nameWithOwner"),
    ])
    func aNamelessCollaboratorOrRepositoryIsAMalformedAnswer(
        listing: [String], collaborators: [String: [AccessBodies.Collaborator]], says: String
    ) async {
        let world = AccessWorld(
            organization: "octo-org", members: [AccessBodies.Member("octocat", 3, "MEMBER", twoFactor: false)],
            collaborators: collaborators, listing: listing.isEmpty ? nil : listing)
        let harness = CommandHarness.signedIn()
        harness.http.answerEvery { request, _ in world.answer(request) }
        let run = await harness.run(["access", "octo-org", "--format", "tsv"])
        #expect(run.status == 1, "\(run.out)")
        #expect(run.err.contains(says), "\(run.err)")
    }
}
