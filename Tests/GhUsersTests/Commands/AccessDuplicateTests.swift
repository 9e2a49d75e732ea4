import Foundation
import TestSupport
import Testing

@testable import gh_users

/// One record per repository and person: a collaborators page that repeats an edge (or a repository's pages
/// that give one person twice) keeps the first, as a REST list keeps the first of an id.
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
}
