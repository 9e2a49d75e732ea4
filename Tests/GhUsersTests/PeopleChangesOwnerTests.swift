import AtomicCore
import Data
import Domain
import Foundation
import TestSupport
import Testing

@testable import gh_users

/// A people snapshot records its owner's id (`GET /orgs/{org}`, `GET /repos/{owner}/{repo}`): a renamed
/// organization's or repository's snapshot carries on under the new name, and says so, as a renamed account's
/// follower snapshot does. The id is asked for only when FILE's owner name differs from the one given (or FILE has
/// none yet), through the strict stub with GitHub's documented bodies: `orgs-get` (the organization `github`, id
/// 1) and `repos-get` (`octocat/Hello-World`, id 1296269).
struct PeopleChangesOwnerTests {
    private func run(_ github: StubTransport, _ arguments: [String]) async -> (Int32, String, String) {
        let (env, out, err) = AppEnvironment.test(http: github, environment: ["GH_TOKEN": "t"])
        let status = await GhUsersApp(environment: env).run(arguments)
        return (status, out.text, err.text)
    }

    private func body(_ name: String) -> String {
        String(decoding: Bodies.named(name), as: UTF8.self)
    }

    /// FILE made for `owner`, with its id (nil: a file written before ids were), everyone in it of `role`.
    private func write(
        _ path: String, command: String, owner: String, id: Int64?, people: [(Int64, String)], role: String? = nil,
        filters: [String: String] = [:]
    ) throws {
        let snapshot = PeopleSnapshot(
            subject: .init(command: command, owner: owner, filters: filters),
            people: people.map { PeopleSnapshot.Entry(id: $0.0, login: $0.1, role: role) }, ownerID: id)
        try Data(snapshot.encoded).write(to: URL(fileURLWithPath: path))
    }

    private func bytes(_ path: String) throws -> [UInt8] {
        try Array(Data(contentsOf: URL(fileURLWithPath: path)))
    }

    @Test func aRenamedOrganizationsSnapshotCarriesOnAndSaysSo() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        try write(folder("o.json"), command: "outside-collaborators", owner: "old-org", id: 1, people: [(1, "octocat")])
        let github = StubTransport()
        github.answer("GET /orgs/github", json: body("orgs-get"))
        github.answer(
            "GET /orgs/github/outside_collaborators?per_page=100", accounts: [1, 2], logins: [1: "octocat", 2: "mona"])
        let (status, out, err) = await run(
            github, ["outside-collaborators", "github", "--changes", folder("o.json"), "--format", "tsv"])
        #expect(status == 0, "\(err)")
        #expect(out == "added\tmona\t2\t\n", "\(out)")
        #expect(
            err
                == "gh-users: old-org (organization id 1) is now github; the snapshot in '\(folder("o.json"))' "
                + "carries on under the new name.\n")
        #expect(github.problems.isEmpty, "\(github.problems)")
        let recorded = try #require(try PeopleSnapshotFile(path: folder("o.json")).load())
        #expect(recorded.subject.owner == "github")
        #expect(recorded.ownerID == 1)
    }

    /// A team's id is its organization's: the organization renamed carries on; another team of it does not.
    @Test func aTeamOfARenamedOrganizationCarriesOnAndAnotherTeamIsRefused() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        try write(folder("t.json"), command: "team-members", owner: "old-org/justice-league", id: 1, people: [])
        let github = StubTransport()
        github.answer("GET /orgs/github", json: body("orgs-get"))
        github.answer("GET /orgs/github/teams/justice-league/members?per_page=100", accounts: [1])
        let (status, _, err) = await run(
            github, ["team-members", "github/justice-league", "--changes", folder("t.json")])
        #expect(status == 0, "\(err)")
        #expect(err.contains("old-org/justice-league (organization id 1) is now github/justice-league"), "\(err)")
        #expect(github.problems.isEmpty, "\(github.problems)")
        let before = try bytes(folder("t.json"))
        let other = StubTransport()
        let (refused, _, message) = await run(
            other, ["team-members", "github/avengers", "--changes", folder("t.json")])
        #expect(refused == 1)
        #expect(message.contains("not for 'gh-users team-members github/avengers'"), "\(message)")
        #expect(other.calls.isEmpty)
        #expect(try bytes(folder("t.json")) == before)
    }

    @Test func aRenamedRepositorysSnapshotCarriesOnAndSaysSo() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        try write(
            folder("c.json"), command: "collaborators", owner: "octocat/Old-Name", id: 1_296_269,
            people: [(1, "octocat")], role: "admin"
        )
        let github = StubTransport()
        github.answer("GET /repos/octocat/Hello-World", json: body("repos-get"))
        github.answer(
            "GET /repos/octocat/Hello-World/collaborators?per_page=100",
            json: #"[{"login":"octocat","id":1,"type":"User","role_name":"admin"}]"#)
        let (status, out, err) = await run(
            github, ["collaborators", "octocat/Hello-World", "--changes", folder("c.json"), "--format", "tsv"])
        #expect(status == 0, "\(err)")
        #expect(out.isEmpty)
        #expect(
            err
                == "gh-users: octocat/Old-Name (repository id 1296269) is now octocat/Hello-World; the snapshot in "
                + "'\(folder("c.json"))' carries on under the new name.\n")
        #expect(github.problems.isEmpty, "\(github.problems)")
        let recorded = try #require(try PeopleSnapshotFile(path: folder("c.json")).load())
        #expect(recorded.subject.owner == "octocat/Hello-World")
        #expect(recorded.ownerID == 1_296_269)
    }

    /// Another owner, whose id is another, is another list; so is one whose id GitHub does not give (a 404). Both
    /// are refused before the list is read, naming both, and FILE is left as it was.
    @Test func anotherOwnerWithAnotherIdOrNoneIsRefusedNamingBoth() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        try write(folder("o.json"), command: "outside-collaborators", owner: "other-org", id: 99, people: [(1, "a")])
        let before = try bytes(folder("o.json"))
        let github = StubTransport()
        github.answer("GET /orgs/github", json: body("orgs-get"))
        let (status, out, err) = await run(github, ["outside-collaborators", "github", "--changes", folder("o.json")])
        #expect(status == 1)
        #expect(out.isEmpty)
        #expect(
            err
                == "gh-users: the snapshot file '\(folder("o.json"))' was made for 'gh-users outside-collaborators "
                + "other-org' (organization id 99), not for 'gh-users outside-collaborators github' (organization id "
                + "1). It was left as it is: give each list its own snapshot file\n")
        #expect(github.problems.isEmpty, "\(github.problems)")
        #expect(try bytes(folder("o.json")) == before)

        let missing = StubTransport()
        missing.answer(
            "GET /orgs/nosuchorg", status: 404,
            json:
                #"{"message":"Not Found","documentation_url":"https://docs.github.com/rest/orgs/orgs#get-an-organization","status":"404"}"#
        )
        // No such organization is exit 3, as without a snapshot; before, exit 1 with a refusal of another list
        // that contradicted the 404 said above it (a review's find).
        let (code, _, said) = await run(missing, ["outside-collaborators", "nosuchorg", "--changes", folder("o.json")])
        #expect(code == 3)
        #expect(
            said
                == "gh-users: no organization 'nosuchorg' (HTTP 404)\ngh-users: the snapshot file "
                + "'\(folder("o.json"))' was left as it was.\n", "\(said)")
        #expect(missing.problems.isEmpty, "\(missing.problems)")
        #expect(try bytes(folder("o.json")) == before)
    }

    /// A snapshot with its owner's id, of the same owner but another list (another command, other filters, the
    /// public members only) is refused before anything is asked, and left as it was: the id says the owner is the
    /// same, not the list.
    @Test(arguments: [
        ("watchers", "octocat/Hello-World", [String: String](), ["collaborators", "octocat/Hello-World"]),
        (
            "collaborators", "octocat/Hello-World", [:],
            ["collaborators", "octocat/Hello-World", "--affiliation", "outside"]
        ),
        ("members", "github", [:], ["members", "github", "--role", "admin"]),
        ("members", "github", ["public": "true"], ["members", "github"]),
        ("members", "github", [:], ["invitations", "github"]),
    ])
    func anotherListOfTheSameOwnerIsRefusedWhateverItsId(
        command: String, owner: String, filters: [String: String], arguments: [String]
    ) async throws {
        let folder = try Folder()
        defer { folder.remove() }
        try write(folder("s.json"), command: command, owner: owner, id: 1, people: [(1, "octocat")], filters: filters)
        let before = try bytes(folder("s.json"))
        let github = StubTransport()
        let (status, out, err) = await run(github, arguments + ["--changes", folder("s.json")])
        #expect(status == 1, "\(err)")
        #expect(out.isEmpty)
        #expect(err.contains("was made for 'gh-users \(command) \(owner)"), "\(err)")
        #expect(github.calls.isEmpty, "\(github.calls)")
        #expect(try bytes(folder("s.json")) == before)
    }

    /// The words a snapshot file holds (its command, owner, filters) reach stderr made safe, in the refusal of
    /// another owner's id too, which is written after GitHub answered.
    @Test func aFilesWordsAreShownSafelyWhenItsIdIsAnothers() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        try write(
            folder("o.json"), command: "outside-collaborators", owner: "evil\u{1B}]0;pwned\u{07}org", id: 99,
            people: [(1, "a")])
        let github = StubTransport()
        github.answer("GET /orgs/github", json: body("orgs-get"))
        let (status, _, err) = await run(github, ["outside-collaborators", "github", "--changes", folder("o.json")])
        #expect(status == 1)
        #expect(!err.contains("\u{1B}") && !err.contains("\u{07}"), "\(err)")
        #expect(err.contains(#"evil\e]0;pwned\aorg"#), "\(err)")
    }

    /// The first run records the id; a run whose owner name is FILE's (in any case) asks for nothing but the list.
    @Test func theFirstRunRecordsTheIdAndMatchingNamesMakeNoLookup() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let first = StubTransport()
        first.answer("GET /orgs/github/outside_collaborators?per_page=100", accounts: [1])
        first.answer("GET /orgs/github", json: body("orgs-get"))
        #expect(await run(first, ["outside-collaborators", "github", "--changes", folder("o.json")]).0 == 0)
        #expect(first.problems.isEmpty, "\(first.problems)")
        #expect(try PeopleSnapshotFile(path: folder("o.json")).load()?.ownerID == 1)
        // The strict stub answers the list alone: a lookup would be a request it has no answer for.
        let second = StubTransport()
        second.answer("GET /orgs/GitHub/outside_collaborators?per_page=100", accounts: [1, 2])
        let (status, out, err) = await run(
            second, ["outside-collaborators", "GitHub", "--changes", folder("o.json"), "--format", "tsv"])
        #expect(status == 0, "\(err)")
        #expect(out.hasPrefix("added\t"), "\(out)")
        #expect(second.problems.isEmpty, "\(second.problems)")
        #expect(second.calls.count == 1)
        #expect(try PeopleSnapshotFile(path: folder("o.json")).load()?.ownerID == 1)
    }

    /// An owner id GitHub gives as 0 or less is none: the list is recorded without it, where keeping it made FILE
    /// one every later run refused (helper-337's PC10).
    @Test(arguments: [0, -5])
    func anOwnerIdThatIsNotPositiveIsNotRecorded(id: Int) async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let github = StubTransport()
        github.answer("GET /orgs/github/outside_collaborators?per_page=100", accounts: [1])
        github.answer("GET /orgs/github", json: #"{"login":"github","id":\#(id)}"#)
        let arguments = ["outside-collaborators", "github", "--changes", folder("o.json")]
        let (status, _, err) = await run(github, arguments)
        #expect(status == 0, "\(err)")
        #expect(try PeopleSnapshotFile(path: folder("o.json")).load()?.ownerID == nil)
        let again = StubTransport()
        again.answer("GET /orgs/github/outside_collaborators?per_page=100", accounts: [1])
        again.answer("GET /orgs/github", json: body("orgs-get"))
        #expect(await run(again, arguments).0 == 0)
    }

    /// A file written before the id was recorded still reads; its run asks for the id and records it, and a lookup
    /// that fails then only leaves it unrecorded.
    @Test func aSnapshotWithoutAnIdStillReadsAndGainsOne() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let old = #"""
            {"version":1,"command":"outside-collaborators","of":"github","filters":{},"people":[
            {"id":1,"login":"octocat"}
            ]}

            """#
        try Data(old.utf8).write(to: URL(fileURLWithPath: folder("o.json")))
        let failing = StubTransport()
        failing.answer("GET /orgs/github/outside_collaborators?per_page=100", accounts: [1])
        failing.answer("GET /orgs/github", status: 404, json: #"{"message":"Not Found","status":"404"}"#)
        let arguments = ["outside-collaborators", "github", "--changes", folder("o.json"), "--format", "tsv"]
        let (code, _, said) = await run(failing, arguments)
        #expect(code == 0, "\(said)")
        #expect(try PeopleSnapshotFile(path: folder("o.json")).load()?.ownerID == nil)
        let github = StubTransport()
        github.answer("GET /orgs/github/outside_collaborators?per_page=100", accounts: [1, 2])
        github.answer("GET /orgs/github", json: body("orgs-get"))
        let (status, out, err) = await run(github, arguments)
        #expect(status == 0, "\(err)")
        #expect(out.hasPrefix("added\t"), "\(out)")
        #expect(github.problems.isEmpty, "\(github.problems)")
        let recorded = try #require(try PeopleSnapshotFile(path: folder("o.json")).load())
        #expect(recorded.ownerID == 1)
        #expect(
            String(decoding: try bytes(folder("o.json")), as: UTF8.self).hasPrefix(
                #"{"version":1,"api_url":"https://api.github.com","command":"outside-collaborators","of":"github","#
                    + #""owner_id":1,"filters":{}"#))
    }
}
