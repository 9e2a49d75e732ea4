import Foundation
import Networking
import TestSupport
import Testing

@testable import gh_users

/// `access ORG --person LOGIN` for a login that matched no record: GitHub is asked once (`GET /users/{login}`)
/// whether it knows the login. One it does not is exit 3, named as `show` names it, with nothing written as if
/// the map were complete and no `--changes` snapshot recorded; a person with no access is the empty map, exit 0.
struct AccessPersonTests {
    private static let org = AccessBodies.Source("Organization", "octo-org", "READ", roleName: "read")

    private static func harness() -> CommandHarness {
        let world = AccessWorld(
            organization: "octo-org", members: [AccessBodies.Member("Mona", 1, "ADMIN", twoFactor: true)],
            collaborators: [
                "api": [AccessBodies.Collaborator("Mona", 1, "ADMIN", [org])],
                "web": [AccessBodies.Collaborator("Mona", 1, "READ", [org])],
            ])
        let harness = CommandHarness.signedIn()
        harness.http.answerEvery { request, _ in world.answer(request) }
        return harness
    }

    /// Before, the unknown login was the empty map: `[]` and exit 0, as for a person with no access.
    @Test func aLoginGitHubDoesNotKnowIsExit3NamingIt() async {
        let harness = Self.harness()
        harness.expect(
            "GET /users/nosuch-zz", status: 404, headers: [CommandHarness.requestID], body: "error-404")
        let run = await harness.run(["access", "octo-org", "--person", "nosuch-zz", "--format", "json"])
        #expect(run.status == 3)
        #expect(run.out.isEmpty)
        #expect(run.err == "gh-users: no user 'nosuch-zz' (HTTP 404)\nrequest id: CF25:41C0:C9E976\n")
        #expect(harness.http.problems.isEmpty, "\(harness.http.problems)")
        #expect(harness.http.received.count { $0.method == .get } == 1)
    }

    /// A real account with no access to any repository of ORG is the empty map: GitHub was asked, and knows it.
    @Test func aPersonWithNoAccessIsTheEmptyMap() async {
        let harness = Self.harness()
        harness.expect("GET /users/octocat", body: "users-get-by-username")
        let run = await harness.run(["access", "octo-org", "--person", "octocat", "--format", "json"])
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out == "[]\n")
        #expect(run.err.isEmpty)
        #expect(harness.http.problems.isEmpty, "\(harness.http.problems)")
    }

    /// With `--changes`, an unknown login records no snapshot: before, the empty map was recorded, and every
    /// later run compared against it.
    @Test func anUnknownLoginRecordsNoSnapshot() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let file = folder("a.json")
        let harness = Self.harness()
        harness.expect("GET /users/nosuch-zz", status: 404, body: "error-404")
        let run = await harness.run(["access", "octo-org", "--person", "nosuch-zz", "--changes", file])
        #expect(run.status == 3)
        #expect(run.out.isEmpty)
        #expect(run.err.hasPrefix("gh-users: no user 'nosuch-zz' (HTTP 404)\n"), "\(run.err)")
        #expect(!FileManager.default.fileExists(atPath: file))
    }

    /// With `--state`, an unknown login does not mark the map read to its end: a rerun asks again, and says
    /// the same, where it said "nothing to do" before.
    @Test func anUnknownLoginLeavesTheStateUnfinished() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let arguments = ["access", "octo-org", "--person", "nosuch-zz", "--state", folder("s.json")]
        for _ in 0..<2 {
            let harness = Self.harness()
            harness.expect("GET /users/nosuch-zz", status: 404, body: "error-404")
            let run = await harness.run(arguments)
            #expect(run.status == 3)
            #expect(run.err == "gh-users: no user 'nosuch-zz' (HTTP 404)\n")
        }
    }
}
