import AtomicCore
import Data
import Domain
import Foundation
import Networking
import TestSupport
import Testing

@testable import gh_users

private func people(_ rows: [(Int64, String, String?)]) -> [PeopleSnapshot.Entry] {
    rows.map { PeopleSnapshot.Entry(id: $0.0, login: $0.1, role: $0.2) }
}

/// The diff of a list with roles: a role that changed is one record, with the role it had.
struct PeopleChangeDiffTests {
    @Test func aRoleThatChangedIsChangedWithThePreviousRole() {
        let snapshot = people([(1, "alice", "admin"), (2, "bob", "member"), (3, "carol", "member")])
        let now = people([(1, "alice", "admin"), (2, "bob", "admin"), (4, "dave", "member")])
        #expect(
            ListChange.between(snapshot, now) == [
                ListChange(kind: .changed, id: 2, login: "bob", role: "admin", previousRole: "member"),
                ListChange(kind: .added, id: 4, login: "dave", role: "member"),
                ListChange(kind: .removed, id: 3, login: "carol", role: "member"),
            ])
    }

    /// A role is compared as GitHub spells it: a custom repository role's name is GitHub's words, and one it now
    /// spells otherwise is reported, not taken for the same (a role unknown then or now is still no change).
    @Test func aRoleSpeltOtherwiseIsAChange() {
        let snapshot = people([(1, "alice", "Security-Auditor"), (2, "bob", nil)])
        let now = people([(1, "alice", "security-auditor"), (2, "bob", "read")])
        #expect(
            ListChange.between(snapshot, now) == [
                ListChange(
                    kind: .changed, id: 1, login: "alice", role: "security-auditor", previousRole: "Security-Auditor")
            ])
    }

    @Test func aRenameWithTheSameRoleIsARenameAndWithAnotherIsOneChange() {
        let snapshot = people([(1, "old", "write"), (2, "was", "read")])
        let now = people([(1, "new", "write"), (2, "is", "admin")])
        #expect(
            ListChange.between(snapshot, now) == [
                ListChange(kind: .renamed, id: 1, login: "new", previousLogin: "old", role: "write"),
                ListChange(
                    kind: .changed, id: 2, login: "is", previousLogin: "was", role: "admin", previousRole: "read"),
            ])
    }

    @Test func recordsOfAListWithRolesCarryTheRoleAndThePreviousOneOnlyWhenItChanged() {
        let context = RenderContext(format: .ndjson, isTTY: false, colorEnabled: false, width: 80, now: Date())
        var writer = RecordStreamWriter(context: context, columns: ListChange.columns(context, roles: true))
        let changes = [
            ListChange(kind: .added, id: 4, login: "dave", role: "member"),
            ListChange(kind: .changed, id: 2, login: "bob", role: "admin", previousRole: "member"),
        ]
        #expect(
            String(decoding: writer.render(changes), as: UTF8.self) == """
                {"change":"added","login":"dave","id":4,"role":"member"}
                {"change":"changed","login":"bob","id":2,"role":"admin","previous_role":"member"}

                """)
        let table = RenderContext(format: .table, isTTY: true, colorEnabled: false, width: 80, now: Date())
        var tableWriter = RecordStreamWriter(context: table, columns: ListChange.columns(table, roles: true))
        let text = String(decoding: tableWriter.render(changes) + tableWriter.finish(completed: true), as: UTF8.self)
        #expect(text.contains("! bob"), "\(text)")
        #expect(text.hasPrefix("CHANGE  ID  ROLE    PREVIOUS ROLE"), "\(text)")
        // csv's columns are in JSON's order, which help lists (before: role and previous_role before
        // previous_login, so a script reading by position took one for the other).
        let csv = RenderContext(format: .csv, isTTY: false, colorEnabled: false, width: 80, now: Date())
        var csvWriter = RecordStreamWriter(context: csv, columns: ListChange.columns(csv, roles: true))
        let renamed = ListChange(kind: .renamed, id: 1, login: "new", previousLogin: "old", role: "write")
        #expect(
            String(decoding: csvWriter.render([renamed]), as: UTF8.self)
                == "change,login,id,previous_login,role,previous_role\r\nrenamed,new,1,old,write,\r\n")
        #expect(ListChange.roleFields == ["change", "login", "id", "previous_login", "role", "previous_role"])
    }
}

/// A people snapshot's bytes: what it holds, and what it refuses to take for one.
struct PeopleSnapshotTests {
    private let snapshot = PeopleSnapshot(
        subject: .init(command: "collaborators", owner: "octocat/Hello-World", filters: ["affiliation": "outside"]),
        people: people([(1, "octocat", "admin"), (7, "mona", "read")]))

    @Test func aSnapshotReadsBackAsItWasWrittenOnePersonALine() {
        #expect(PeopleSnapshot.decode(snapshot.encoded) == .success(snapshot))
        #expect(
            String(decoding: snapshot.encoded, as: UTF8.self) == """
                {"version":1,"command":"collaborators","of":"octocat/Hello-World","filters":{"affiliation":"outside"},"people":[
                {"id":1,"login":"octocat","role":"admin"},
                {"id":7,"login":"mona","role":"read"}
                ]}

                """)
    }

    @Test(arguments: [
        (#"{"version":2,"command":"members","of":"x","filters":{},"people":[]}"#, "has version 2"),
        (
            #"{"version":1,"command":"members","of":"x","filters":{},"people":[{"id":1,"login":"a"},{"id":1,"login":"b"}]}"#,
            "holds the id 1 twice"
        ),
        (#"{"version":1,"command":"members","of":"x","filters":{},"people":[{"id":0,"login":"a"}]}"#, "not positive"),
        // A role past 1,024 bytes is a hostile answer's (helper-237: a 2 MB `role_name` recorded).
        (
            #"{"version":1,"command":"members","of":"x","filters":{},"people":[{"id":1,"login":"a","role":""#
                + String(repeating: "r", count: 1_025) + #""}]}"#,
            "holds a role of 1025 bytes, longer than the 1024 a snapshot records"
        ),
        // Only invitations name people by address: an `@` in any other list's login is none (helper-237: read,
        // and reported as a member renamed to "octo@cat.com").
        (
            #"{"version":1,"command":"members","of":"x","filters":{},"people":[{"id":1,"login":"octo@cat.com"}]}"#,
            "holds a login of 12 bytes with an '@' (no login GitHub issues has one)"
        ),
        (
            #"{"version":2,"command":"followers","account_id":1,"login":"a","filter":null,"accounts":[]}"#,
            "does not hold"
        ),
    ])
    func whatIsNotASnapshotIsRefusedSayingWhy(text: String, saying: String) {
        guard case .failure(let problem) = PeopleSnapshot.decode(Array(text.utf8)) else {
            Issue.record("read \(text)")
            return
        }
        #expect(problem.detail.contains(saying), "\(problem.detail)")
    }

    @Test func theSameListIsTheSameCommandOwnerInAnyCaseAndFilters() {
        let subject = snapshot.subject
        #expect(
            subject.isSameList(
                as: .init(command: "collaborators", owner: "OctoCat/hello-world", filters: ["affiliation": "outside"])))
        #expect(!subject.isSameList(as: .init(command: "collaborators", owner: "octocat/Hello-World", filters: [:])))
        #expect(
            !subject.isSameList(as: .init(command: "assignees", owner: "octocat/Hello-World", filters: subject.filters))
        )
        #expect(subject.description == "collaborators octocat/Hello-World (affiliation=outside)")
    }

    /// A snapshot from before gh-users kept a filter at GitHub's default as none (`"affiliation":"all"`,
    /// `"role":"all"`) is of the same list as a run with no filter; another value still is not.
    /// (helper-328: comparing the filters as recorded went unseen.)
    @Test func aRecordedFilterAtItsDefaultIsTheSameListAsNone() {
        let recorded = PeopleSnapshot.Subject(
            command: "collaborators", owner: "octocat/Hello-World", filters: ["affiliation": "all"])
        let now = PeopleSnapshot.Subject(command: "collaborators", owner: "octocat/Hello-World", filters: [:])
        #expect(recorded.isSameList(as: now))
        #expect(
            PeopleSnapshot.Subject(command: "members", owner: "github", filters: ["role": "all"])
                .isSameList(as: .init(command: "members", owner: "github", filters: [:])))
        #expect(
            !PeopleSnapshot.Subject(
                command: "collaborators", owner: "octocat/Hello-World", filters: ["affiliation": "outside"]
            )
            .isSameList(as: now))
    }

    /// An invitation's address is a name up to 254 bytes and no further; an address is a name only where the list
    /// names people by address, never as a follower's or member's login (mutation round 10, M10-104, M10-105).
    @Test func anAddressIsANameOnlyInAnInvitationAndUpTo254Bytes() {
        let local = "@example.com"
        let longest = String(repeating: "a", count: ListChange.maximumAddressLength - local.utf8.count) + local
        #expect(longest.utf8.count == 254)
        #expect(ListChange.loginProblem(longest, orAddress: true) == nil)
        #expect(
            ListChange.loginProblem("a" + longest, orAddress: true)
                == "an email address of 255 bytes, longer than the 254 an address may be")
        #expect(ListChange.loginProblem("a@b.c", orAddress: true) == nil)
        #expect(ListChange.loginProblem("a@b.c")?.hasPrefix("a login of 5 bytes") == true)
    }

    /// A GitHub App's login is a login of up to 39 characters and its `[bot]`: 44 bytes are held, 45 refused.
    @Test func anAppsLoginOfTheLongestNameAndItsBotIsHeld() {
        let longest = String(repeating: "a", count: Login.maximumLength) + "[bot]"
        #expect(longest.utf8.count == 44)
        #expect(ListChange.loginProblem(longest) == nil)
        #expect(
            ListChange.loginProblem("a" + longest)
                == "a login of 45 bytes that GitHub cannot issue (a login is 1 to 39 letters, digits, '-' or '_')")
    }
}

/// How a record is read as a person, and which lists a run reads.
struct PeopleChangeKeyTests {
    @Test func aStargazerIsItsUserAndAnInvitationToAnEmailIsItsAddress() {
        let stargazer = Array(#"{"starred_at":"2026-01-01T00:00:00Z","user":{"login":"mona","id":7}}"#.utf8)
        #expect(PeopleChangeKey(account: ["user"]).entry(stargazer, role: nil) == .init(id: 7, login: "mona"))
        let invitation = Array(#"{"id":3,"login":null,"email":"x@example.com","role":"admin"}"#.utf8)
        #expect(
            PeopleChangeKey(role: "role", fallbackName: "email").entry(invitation, role: nil)
                == .init(id: 3, login: "x@example.com", role: "admin"))
        #expect(PeopleChangeKey().entry(Array(#"{"login":"a"}"#.utf8), role: nil) == nil)
        #expect(PeopleChangeKey().entry(Array(#"{"login":"a","id":-2}"#.utf8), role: nil) == nil)
    }

    @Test func membersAreTheWholeListWithTheOwnersRoleUnlessOneRoleOrThePublicOnesAreAsked() throws {
        let owner = ListOwner.organization(try Login(validating: "github"))
        let whole = PeopleListOptions(owner: owner)
        #expect(PeopleChangeKey.members.passes(whole).map(\.role) == ["member", "admin"])
        #expect(PeopleChangeKey.members.passes(whole).map { $0.options.filters["role"] } == [nil, "admin"])
        #expect(PeopleChangeKey.members.passes(whole).map(\.rolesOnly) == [false, true])
        var admins = whole
        admins.filters["role"] = "admin"
        #expect(PeopleChangeKey.members.passes(admins).map(\.role) == ["admin"])
        // `--role all`, GitHub's default, is kept as no role: the whole list, as without it.
        let everyone = try MembersCommand(
            ArgumentScanner.scan(["github", "--role", "all"], spec: MembersCommand.spec), spec: MembersCommand.spec)
        #expect(everyone.list.filters.isEmpty)
        #expect(PeopleChangeKey.members.passes(everyone.list).map(\.role) == ["member", "admin"])
        var publicOnes = whole
        publicOnes.publicOnly = true
        #expect(PeopleChangeKey.members.passes(publicOnes).map(\.role) == [nil])
        #expect(!PeopleChangeKey.members.hasRoles(publicOnes))
    }
}

/// `--changes` on the people lists, through the real request path against the strict stub.
struct PeopleChangesRunTests {
    private func run(_ github: StubTransport, _ arguments: [String]) async -> (Int32, String, String) {
        let (env, out, err) = AppEnvironment.test(http: github, environment: ["GH_TOKEN": "t"])
        let status = await GhUsersApp(environment: env).run(arguments)
        return (status, out.text, err.text)
    }

    /// `github`'s members as a member of it (`me`, id 9) sees them: the whole list (the owners, then the others,
    /// unless `whole` is given), then the owners' list.
    private func members(
        admins: [(Int64, String)], others: [(Int64, String)], whole: [(Int64, String)]? = nil, me: Int64 = 9,
        org: String = "github"
    ) -> StubTransport {
        let github = StubTransport()
        github.answer("GET /user", json: #"{"login":"me","id":\#(me)}"#)
        for (query, page) in [("", whole ?? admins + others), ("role=admin&", admins)] {
            github.answer(
                "GET /orgs/\(org)/members?\(query)per_page=100", accounts: page.map(\.0),
                logins: Dictionary(uniqueKeysWithValues: page))
        }
        return github
    }

    /// On a terminal, a run that found nothing changed says so, and one that wrote changes does not.
    @Test func aTerminalIsToldWhenNothingChangedAndOnlyThen() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        // The first run looks the repository up, to record its id; the later ones compare with that.
        func harness(_ ids: [Int64], first: Bool = false) -> CommandHarness {
            var harness = CommandHarness.signedIn()
            harness.stderrTTY = true
            if first { harness.expect("GET /repos/octocat/Hello-World", body: "repos-get") }
            harness.http.answer(
                "GET /repos/octocat/Hello-World/collaborators?permission=admin&per_page=100", accounts: ids)
            return harness
        }
        let arguments = [
            "collaborators", "octocat/Hello-World", "--permission", "admin", "--changes", folder("a.json"),
            "--format", "tsv",
        ]
        let first = await harness([1, 2], first: true).run(arguments)
        #expect(first.status == 0, "\(first.err)")
        let same = await harness([1, 2]).run(arguments)
        #expect(same.status == 0 && same.out.isEmpty, "\(same.err)")
        #expect(
            same.err.hasSuffix("gh-users: no changes since the last snapshot in '\(folder("a.json"))'.\n"),
            "\(same.err)")
        let changed = await harness([1, 3]).run(arguments)
        #expect(changed.status == 0, "\(changed.err)")
        #expect(!changed.out.isEmpty)
        #expect(!changed.err.contains("no changes since"), "\(changed.err)")
    }

    @Test func membersJoinedLeftAndChangedRoleBetweenRuns() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let arguments = ["members", "github", "--changes", folder("m.json"), "--format", "tsv"]
        let first = await run(members(admins: [(9, "me")], others: [(1, "alice"), (2, "bob")]), arguments)
        #expect(first.0 == 0, "\(first.2)")
        #expect(first.1.isEmpty)
        #expect(first.2.contains("recorded the 3 accounts of 'gh-users members github'"), "\(first.2)")
        // Members' changes are roles too, and the first run says so (before: "who came and went" alone); not with
        // one role chosen, where a role changed is someone come or gone.
        #expect(first.2.hasSuffix("--changes writes who came and went, and whose role changed.\n"), "\(first.2)")
        let admins = StubTransport()
        admins.answer("GET /repos/octocat/Hello-World/collaborators?permission=admin&per_page=100", accounts: [1])
        let chosen = await run(
            admins, ["collaborators", "octocat/Hello-World", "--permission", "admin", "--changes", folder("a.json")])
        #expect(chosen.2.hasSuffix("--changes writes who came and went.\n"), "\(chosen.2)")
        let second = await run(members(admins: [(9, "me"), (2, "bob")], others: [(3, "carol")]), arguments)
        #expect(second.0 == 0, "\(second.2)")
        #expect(
            second.1
                == "changed\tbob\t2\t\tadmin\tmember\nadded\tcarol\t3\t\tmember\t\nremoved\talice\t1\t\tmember\t\n")
        let recorded = try #require(try PeopleSnapshotFile(path: folder("m.json")).load())
        #expect(recorded.people == people([(9, "me", "admin"), (2, "bob", "admin"), (3, "carol", "member")]))
        #expect(recorded.subject == .init(command: "members", owner: "github", filters: [:]))
    }

    /// The organization typed in another case is the same list, and the file keeps its spelling: a run with no
    /// change leaves it byte for byte (before, `members GitHub` and `members github` rewrote "of" in turn; a
    /// review's find).
    @Test func theOwnerInAnotherCaseLeavesTheFileAsItWas() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let (admins, others): ([(Int64, String)], [(Int64, String)]) = ([(9, "me")], [(1, "alice")])
        let first = await run(
            members(admins: admins, others: others), ["members", "github", "--changes", folder("m.json")])
        #expect(first.0 == 0, "\(first.2)")
        let before = try Array(Data(contentsOf: URL(fileURLWithPath: folder("m.json"))))
        let again = await run(
            members(admins: admins, others: others, org: "GitHub"),
            ["members", "GitHub", "--changes", folder("m.json")])
        #expect(again.0 == 0, "\(again.2)")
        #expect(again.1.isEmpty, "\(again.1)")
        #expect(try Array(Data(contentsOf: URL(fileURLWithPath: folder("m.json")))) == before)
    }

    /// The owners' pass came back empty while the whole list was as before: an organization always has an owner,
    /// and recorded, every owner (the token's own account among them) would be demoted.
    @Test func anOwnersPassThatCameBackEmptyIsRefused() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let arguments = ["members", "github", "--changes", folder("m.json")]
        #expect(await run(members(admins: [(9, "me"), (1, "alice")], others: [(2, "bob")]), arguments).0 == 0)
        let before = try Array(Data(contentsOf: URL(fileURLWithPath: folder("m.json"))))
        let whole = [(9, "me"), (1, "alice"), (2, "bob")] as [(Int64, String)]
        let (status, out, err) = await run(members(admins: [], others: [], whole: whole), arguments)
        #expect(status == 1)
        #expect(out.isEmpty)
        #expect(
            err.hasPrefix(
                "gh-users: GitHub's list of members github --role admin came back empty while 2 accounts the snapshot "
                    + "holds as admin are still members, so the list was not compared"), "\(err)")
        #expect(try Array(Data(contentsOf: URL(fileURLWithPath: folder("m.json")))) == before)
    }

    /// A signal that comes as the last page arrives stops the run: no change is written or recorded, so the next
    /// run reports them. (helper-337's PC13 took out the check after the last page; the request's own check of
    /// cancellation still stops this run, so only a signal between the two would write the changes, then leave
    /// FILE as it was.)
    @Test func aSignalAsTheLastPageArrivesWritesAndRecordsNothing() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let arguments = ["members", "github", "--changes", folder("m.json"), "--format", "tsv"]
        #expect(await run(members(admins: [(9, "me")], others: [(1, "alice")]), arguments).0 == 0)
        let before = try Array(Data(contentsOf: URL(fileURLWithPath: folder("m.json"))))
        let github = StubTransport()
        github.answer("GET /user", json: #"{"login":"me","id":9}"#)
        github.answer(
            "GET /orgs/github/members?per_page=100", accounts: [9, 1, 2], logins: [9: "me", 1: "alice", 2: "bob"])
        // The owners' pass, the last page: the run's task is cancelled as its answer comes, as a signal cancels it.
        let running = RunningTask()
        github.answerEvery { request, _ in
            running.cancel()
            return HTTPResponse(
                status: 200, headers: HTTPHeaders(), body: Data(#"[{"login":"me","id":9}]"#.utf8), url: request.url)
        }
        let gate = AsyncStream<Void>.makeStream()
        let task = Task {
            for await _ in gate.stream { break }
            return await run(github, arguments)
        }
        running.set(task)
        gate.continuation.yield()
        let (status, out, _) = await task.value
        #expect(status != 0)
        #expect(out.isEmpty, "\(out)")
        #expect(try Array(Data(contentsOf: URL(fileURLWithPath: folder("m.json")))) == before)
    }

    /// An owners' pass that is empty because the only owner left (an organization GitHub leaves unowned) is a
    /// change, recorded: only owners who are still members make an empty pass a collapse (helper-337's PC7
    /// counted those gone as still there, and refused every run from then on).
    @Test func anOwnersPassEmptiedByTheOwnersLeavingIsRecorded() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let arguments = ["members", "github", "--changes", folder("m.json"), "--format", "tsv"]
        #expect(await run(members(admins: [(1, "alice")], others: [(9, "me"), (2, "bob")]), arguments).0 == 0)
        let whole = [(9, "me"), (2, "bob")] as [(Int64, String)]
        let (status, out, err) = await run(members(admins: [], others: [], whole: whole), arguments)
        #expect(status == 0, "\(err)")
        #expect(out == "removed\talice\t1\t\tadmin\t\n")
    }

    /// Through a 2FA filter an owner who turned two-factor on leaves the owners' pass and the whole list alike:
    /// removed, not refused (before the fix, refused on every run from then on).
    @Test func anOwnerWhoLeftAFilteredListIsRemovedNotRefused() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let arguments = ["members", "github", "--2fa-disabled", "--changes", folder("m.json"), "--format", "tsv"]
        func filtered(admins: [(Int64, String)], others: [(Int64, String)]) -> StubTransport {
            let github = StubTransport()
            for (query, page) in [("", admins + others), ("role=admin&", admins)] {
                github.answer(
                    "GET /orgs/github/members?filter=2fa_disabled&\(query)per_page=100", accounts: page.map(\.0),
                    logins: Dictionary(uniqueKeysWithValues: page))
            }
            return github
        }
        #expect(await run(filtered(admins: [(1, "alice")], others: [(2, "bob")]), arguments).0 == 0)
        let (status, out, err) = await run(filtered(admins: [], others: [(2, "bob")]), arguments)
        #expect(status == 0, "\(err)")
        #expect(out == "removed\talice\t1\t\tadmin\t\n")
        // An owner made a member, 2FA still off, stays on the filtered list alone: a change, not a refusal.
        #expect(await run(filtered(admins: [(3, "carol")], others: [(2, "bob")]), arguments).0 == 0)
        let demoted = await run(filtered(admins: [], others: [(2, "bob"), (3, "carol")]), arguments)
        #expect(demoted.0 == 0, "\(demoted.2)")
        #expect(demoted.1 == "changed\tcarol\t3\t\tmember\tadmin\n")
    }

    @Test func membersThatDoNotHoldTheTokensAccountAreRefusedAndNotRecorded() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let arguments = ["members", "github", "--changes", folder("m.json")]
        _ = await run(members(admins: [(9, "me")], others: [(1, "alice"), (2, "bob")]), arguments)
        let before = try Array(Data(contentsOf: URL(fileURLWithPath: folder("m.json"))))
        // A token that is not a member: GitHub lists the public members alone, and says nothing of it.
        let (status, out, err) = await run(members(admins: [], others: [(1, "alice")], me: 40), arguments)
        #expect(status == 4)
        #expect(out.isEmpty)
        #expect(
            err
                == "gh-users: the token's account (me) is not among the members GitHub listed of github, so GitHub "
                + "listed only the ones who show their membership: recorded, they would report every other member "
                + "as gone. --changes needs a member's token (read:org), or --public for the public members' changes\n"
                + "gh-users: the snapshot file '\(folder("m.json"))' was left as it was.\n")
        #expect(try Array(Data(contentsOf: URL(fileURLWithPath: folder("m.json")))) == before)
    }

    /// One role's list may leave the token's own account out (a member is no owner), so it asks GraphQL's
    /// `viewerIsAMember`: a non-member, sent the public owners alone, is refused and FILE left as it was (before:
    /// recorded, every private owner reported removed, and added again on the owner's next run).
    @Test(arguments: [(true, Int32(0)), (false, Int32(4))])
    func oneRolesListAsksWhetherTheTokenIsAMember(member: Bool, status expected: Int32) async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let arguments = ["members", "github", "--role", "admin", "--changes", folder("m.json"), "--format", "tsv"]
        func github(_ admins: [Int64], member: Bool) -> StubTransport {
            let github = StubTransport()
            github.answer("GET /user", json: #"{"login":"me","id":40}"#)
            github.answer("GET /orgs/github/members?role=admin&per_page=100", accounts: admins)
            github.answer(
                "POST /graphql", json: #"{"data":{"organization":{"viewerIsAMember":\#(member)}}}"#)
            return github
        }
        #expect(await run(github([1, 2, 3], member: true), arguments).0 == 0)
        let before = try Array(Data(contentsOf: URL(fileURLWithPath: folder("m.json"))))
        let publicOwners = github([1], member: member)
        let (status, out, err) = await run(publicOwners, arguments)
        #expect(status == expected, "\(err)")
        let query = String(decoding: publicOwners.received.first { $0.method == .post }?.body ?? Data(), as: UTF8.self)
        #expect(query.contains("viewerIsAMember") && query.contains(#""org":"github""#), "\(query)")
        if member {
            #expect(out.hasPrefix("removed\t"), "\(out)")
        } else {
            #expect(out.isEmpty)
            #expect(err.contains("the token's account (me) is no member of github"), "\(err)")
            #expect(try Array(Data(contentsOf: URL(fileURLWithPath: folder("m.json")))) == before)
        }
    }

    /// Someone promoted between the two passes is not "removed" then "added": presence comes from the whole list,
    /// and only the role from the owners' list; someone who joined between the passes waits for the next run.
    @Test func someonePromotedBetweenThePassesIsOneRoleChange() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let arguments = ["members", "github", "--changes", folder("m.json"), "--format", "tsv"]
        #expect(await run(members(admins: [(9, "me")], others: [(1, "alice")]), arguments).0 == 0)
        let promoted = members(
            admins: [(9, "me"), (1, "alice"), (5, "dave")], others: [], whole: [(9, "me"), (1, "alice")])
        let (status, out, err) = await run(promoted, arguments)
        #expect(status == 0, "\(err)")
        #expect(out == "changed\talice\t1\t\tadmin\tmember\n")
    }

    /// A GitHub App's installation token is no user: `GET /user` is its 403, and its list is recorded.
    @Test func anInstallationTokensMembersAreRecorded() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let github = StubTransport()
        github.answer(
            "GET /user", status: 403,
            json:
                #"{"message":"Resource not accessible by integration","documentation_url":"https://docs.github.com/rest/users/users#get-the-authenticated-user","status":"403"}"#
        )
        github.answer("GET /orgs/github/members?per_page=100", accounts: [1, 2])
        github.answer("GET /orgs/github/members?role=admin&per_page=100", accounts: [1])
        let (status, out, err) = await run(github, ["members", "github", "--changes", folder("m.json")])
        #expect(status == 0, "\(err)")
        #expect(out.isEmpty)
        #expect(err.contains("recorded the 2 accounts of 'gh-users members github'"), "\(err)")
    }

    /// A first run says how many it recorded in words that fit the count: before, one was "the 1 account" and
    /// none "the 0 accounts".
    @Test(arguments: [
        ([Int64](), "recorded no accounts of"), ([1], "recorded the one account of"),
        ([1, 2], "recorded the 2 accounts of"),
    ])
    func aFirstRunCountsWhatItRecordedInWords(accounts: [Int64], words: String) async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let github = StubTransport()
        github.answer("GET /repos/octocat/Hello-World/collaborators?per_page=100", accounts: accounts)
        let (status, out, err) = await run(
            github, ["collaborators", "octocat/Hello-World", "--changes", folder("c.json")])
        #expect(status == 0, "\(err)")
        #expect(out.isEmpty)
        #expect(err.hasPrefix("gh-users: \(words) 'gh-users collaborators octocat/Hello-World' in "), "\(err)")
    }

    /// A filter given at its default (`--affiliation all`) names the same list as none.
    @Test func aFilterAtItsDefaultIsTheSameListAsNone() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let without = StubTransport()
        without.answer("GET /repos/octocat/Hello-World/collaborators?per_page=100", accounts: [1])
        #expect(await run(without, ["collaborators", "octocat/Hello-World", "--changes", folder("c.json")]).0 == 0)
        let all = StubTransport()
        // Asked as the list with no filter, which it is.
        all.answer("GET /repos/octocat/Hello-World/collaborators?per_page=100", accounts: [1, 2])
        let (status, out, err) = await run(
            all,
            [
                "collaborators", "octocat/Hello-World", "--affiliation", "all", "--changes", folder("c.json"),
                "--format", "tsv",
            ])
        #expect(status == 0, "\(err)")
        #expect(out.hasPrefix("added\t"), "\(out)")
        let recorded = try #require(try PeopleSnapshotFile(path: folder("c.json")).load())
        #expect(recorded.subject.filters.isEmpty)
    }

    /// A collaborator's `role_name` is the role: a permission that changed is a change.
    @Test func aCollaboratorWhosePermissionChangedIsAChange() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        func collaborators(_ rows: [(Int64, String, String)]) -> StubTransport {
            let github = StubTransport()
            let body = rows.map { #"{"login":"\#($0.1)","id":\#($0.0),"type":"User","role_name":"\#($0.2)"}"# }
            github.answer(
                "GET /repos/octocat/Hello-World/collaborators?per_page=100",
                json: "[" + body.joined(separator: ",") + "]")
            return github
        }
        let arguments = ["collaborators", "octocat/Hello-World", "--changes", folder("c.json"), "--json"]
        _ = await run(collaborators([(1, "octocat", "admin"), (2, "mona", "read")]), arguments)
        let (status, out, err) = await run(collaborators([(1, "octocat", "admin"), (2, "mona", "write")]), arguments)
        #expect(status == 0, "\(err)")
        #expect(
            out == """
                [
                  {
                    "change": "changed",
                    "login": "mona",
                    "id": 2,
                    "role": "write",
                    "previous_role": "read"
                  }
                ]

                """)
    }

    /// A collaborator whose `role_name` GitHub did not send (an older server) is recorded without a role, not as
    /// "", and its role coming later is no change (before: `"role":""` in the snapshot, then everyone "changed").
    @Test func aRoleGitHubDidNotSendIsUnknownNotAChange() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        func collaborators(_ body: String) -> StubTransport {
            let github = StubTransport()
            github.answer("GET /repos/octocat/Hello-World/collaborators?per_page=100", json: body)
            return github
        }
        let arguments = ["collaborators", "octocat/Hello-World", "--changes", folder("c.json"), "--json"]
        let first = await run(collaborators(#"[{"login":"mona","id":2,"role_name":null}]"#), arguments)
        #expect(first.0 == 0, "\(first.2)")
        let recorded = try String(contentsOfFile: folder("c.json"), encoding: .utf8)
        #expect(recorded.contains(#"{"id":2,"login":"mona"}"#) && !recorded.contains("role"), "\(recorded)")
        let (status, out, err) = await run(
            collaborators(#"[{"login":"mona","id":2,"role_name":"write"},{"login":"bob","id":3}]"#), arguments)
        #expect(status == 0, "\(err)")
        #expect(out.contains(#""change": "added""#) && out.contains(#""login": "bob""#))
        #expect(!out.contains("changed") && !out.contains("mona"), "\(out)")
    }

    /// A stargazer change record has its `id`, which `--changes` offers: the list's own rule (a stargazer record's
    /// `id` is its user's) refused it (exit 64), though help and completion named it.
    @Test func aStargazerChangeTakesItsOwnFields() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let github = StubTransport()
        for _ in 0..<2 { github.answer("GET /repos/octocat/Hello-World", json: #"{"id":1,"stargazers_count":1}"#) }
        github.answer(
            "GET /repos/octocat/Hello-World/stargazers?per_page=100",
            json: #"[{"starred_at":"2026-01-01T00:00:00Z","user":{"login":"mona","id":7}}]"#)
        let arguments = ["stargazers", "octocat/Hello-World", "--changes", folder("s.json"), "--fields", "change,id"]
        let (status, _, err) = await run(github, arguments)
        #expect(status == 0, "\(err)")
        #expect(FileManager.default.fileExists(atPath: folder("s.json")))
    }

    @Test func aListGitHubWithholdsLeavesTheSnapshotByteForByte() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let arguments = ["stargazers", "octocat/Hello-World", "--changes", folder("s.json")]
        let allowed = StubTransport()
        // `--changes` reads the whole list, so stargazers first asks how many there are (REST stops at 40,000).
        allowed.answer("GET /repos/octocat/Hello-World", json: #"{"id":1,"stargazers_count":1}"#)
        // And once the list is read, the repository's id, which the snapshot records.
        allowed.answer("GET /repos/octocat/Hello-World", json: #"{"id":1,"stargazers_count":1}"#)
        allowed.answer(
            "GET /repos/octocat/Hello-World/stargazers?per_page=100",
            json: #"[{"starred_at":"2026-01-01T00:00:00Z","user":{"login":"mona","id":7}}]"#)
        #expect(await run(allowed, arguments).0 == 0)
        let before = try Array(Data(contentsOf: URL(fileURLWithPath: folder("s.json"))))
        let refused = StubTransport()
        refused.answer(
            "GET /repos/octocat/Hello-World/stargazers?per_page=100", status: 403,
            json: #"{"message":"Must have admin rights to Repository."}"#)
        // Asked for the count `--changes` holds the list to, the count before the list, and again to tell a
        // withheld list from a missing repository.
        for _ in 0..<3 { refused.answer("GET /repos/octocat/Hello-World", json: #"{"id":1,"stargazers_count":80}"#) }
        let (status, out, err) = await run(refused, arguments)
        #expect(status == 4)
        #expect(out.isEmpty)
        #expect(err.contains("since July 2026 GitHub lists a repository's stargazers only to"), "\(err)")
        #expect(err.hasSuffix("gh-users: the snapshot file '\(folder("s.json"))' was left as it was.\n"))
        #expect(try Array(Data(contentsOf: URL(fileURLWithPath: folder("s.json")))) == before)
    }

    @Test func aSnapshotOfTheListWithOtherFiltersIsRefusedBeforeAnythingIsSent() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let snapshot = PeopleSnapshot(
            subject: .init(command: "collaborators", owner: "octocat/Hello-World", filters: [:]), people: [])
        try Data(snapshot.encoded).write(to: URL(fileURLWithPath: folder("c.json")))
        let github = StubTransport()
        let (status, _, err) = await run(
            github, ["collaborators", "octocat/hello-world", "--affiliation", "outside", "--changes", folder("c.json")])
        #expect(status == 1)
        #expect(
            err
                == "gh-users: the snapshot file '\(folder("c.json"))' was made for 'gh-users collaborators "
                + "octocat/Hello-World', not for 'gh-users collaborators octocat/hello-world (affiliation=outside)'. "
                + "It was left as it is: give each list its own snapshot file\n")
        #expect(github.calls.isEmpty)
    }

    /// A team's own members (`--direct`) and all its members are two lists: one's snapshot is refused for the other.
    @Test func aTeamsDirectMembersAreAListOfTheirOwn() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let snapshot = PeopleSnapshot(
            subject: .init(command: "team-members", owner: "github/justice-league", filters: [:]), people: [])
        try Data(snapshot.encoded).write(to: URL(fileURLWithPath: folder("t.json")))
        let github = StubTransport()
        let (status, _, err) = await run(
            github, ["team-members", "github/justice-league", "--direct", "--changes", folder("t.json")])
        #expect(status == 1)
        #expect(err.contains("not for 'gh-users team-members github/justice-league (direct=true)'"), "\(err)")
        #expect(github.calls.isEmpty)
    }

    /// A list without roles has no `previous_role`.
    @Test(arguments: [
        (["stargazers", "--limit", "5"], "cannot be used with --limit"),
        (["collaborators", "--full"], "cannot be used with --full"),
        (["stargazers", "--fields", "login,previous_role"], "unknown field 'previous_role'"),
    ])
    func whatASnapshotCannotTakeIsAUsageError(arguments: [String], saying: String) async {
        let github = StubTransport()
        let (status, _, err) = await run(
            github,
            [arguments[0], "octocat/Hello-World", "--changes", "/tmp/never-written.json"] + arguments.dropFirst())
        #expect(status == 64)
        #expect(err.contains(saying), "\(err)")
        #expect(github.calls.isEmpty)
    }

    @Test func theChangesFieldsAreRefusedWithoutChangesAndAnonymousAuthorsWithThem() async {
        let github = StubTransport()
        let without = await run(github, ["collaborators", "octocat/Hello-World", "--fields", "login,previous_role"])
        #expect(without.0 == 64)
        #expect(without.2.contains("the field 'previous_role' exists only with --changes"), "\(without.2)")
        let anonymous = await run(github, ["contributors", "octocat/Hello-World", "--anon", "--changes", "f.json"])
        #expect(anonymous.0 == 64)
        #expect(anonymous.2.contains("--anon's authors"), "\(anonymous.2)")
        #expect(github.calls.isEmpty)
    }

    /// An empty answer (a `200 []`, contributors' `204`) for a list the snapshot holds people of is not everyone
    /// leaving: GitHub answers so for a list the token can no longer see. Refused, both numbers said, FILE as it was.
    @Test(arguments: [
        ("collaborators", "octocat/Hello-World", "/repos/octocat/Hello-World/collaborators", 200),
        ("contributors", "octocat/Hello-World", "/repos/octocat/Hello-World/contributors", 204),
        ("team-members", "github/justice-league", "/orgs/github/teams/justice-league/members", 200),
        ("outside-collaborators", "github", "/orgs/github/outside_collaborators", 200),
    ])
    func aListThatCameBackEmptyIsNotRecordedAsEveryoneLeaving(
        command: String, owner: String, path: String, status: Int
    ) async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let arguments = [command, owner, "--changes", folder("p.json"), "--format", "tsv"]
        let five = StubTransport()
        five.answer("GET \(path)?per_page=100", accounts: [1, 2, 3, 4, 5])
        #expect(await run(five, arguments).0 == 0)
        let before = try Array(Data(contentsOf: URL(fileURLWithPath: folder("p.json"))))
        let empty = StubTransport()
        empty.answer("GET \(path)?per_page=100", status: status, json: status == 204 ? "" : "[]")
        let (code, out, err) = await run(empty, arguments)
        #expect(code == 1)
        #expect(out.isEmpty)
        #expect(
            err
                == "gh-users: GitHub's list of \(command) \(owner) came back empty while the snapshot holds 5 "
                + "accounts, so the list was not compared: GitHub answers an empty list for one the token can no "
                + "longer see as well as for one everyone left. If everyone did leave, those the snapshot file holds "
                + "are who left: keep a copy of it, then remove it to start again\ngh-users: the snapshot file "
                + "'\(folder("p.json"))' was left as it was.\n")
        #expect(try Array(Data(contentsOf: URL(fileURLWithPath: folder("p.json")))) == before)
    }

    /// A list GitHub gives no count for, cut short (a page without the `Link` to the next: 100 of the 250 the
    /// snapshot holds), is not 150 people leaving: refused, both numbers said, FILE as it was (helper-225; before:
    /// exit 0, 150 "removed", and as many "added" on the next run). Short of less than a page, it is taken as it is.
    /// At the edge of a page, 99 of 199 is short by a whole page of 100, a cut, and 100 of 199 is not (helper-324:
    /// the edge was not tested, and `> 100` for `>= 100` recorded 100 false departures).
    @Test(arguments: [
        (Array(Int64(1)...250), Array(Int64(1)...100), Array(Int64(1)...160)),
        (Array(Int64(1)...199), Array(Int64(101)...199), Array(Int64(100)...199)),
    ])
    func aListWithoutACountCutShortIsNotRecorded(whole: [Int64], cut: [Int64], fewer: [Int64]) async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let arguments = ["collaborators", "octocat/Hello-World", "--changes", folder("p.json"), "--format", "tsv"]
        let path = "GET /repos/octocat/Hello-World/collaborators?per_page=100"
        let all = StubTransport()
        all.answer(path, accounts: whole)
        #expect(await run(all, arguments).0 == 0)
        let before = try Array(Data(contentsOf: URL(fileURLWithPath: folder("p.json"))))
        let part = StubTransport()
        part.answer(path, accounts: cut)
        let (code, out, err) = await run(part, arguments)
        #expect(code == 1)
        #expect(out.isEmpty)
        #expect(
            err.hasPrefix(
                "gh-users: GitHub's list of collaborators octocat/Hello-World came back with \(cut.count) accounts "
                    + "while the snapshot holds \(whole.count), so the list was not compared"), "\(err)")
        #expect(try Array(Data(contentsOf: URL(fileURLWithPath: folder("p.json")))) == before)
        let most = StubTransport()
        most.answer(path, accounts: fewer)
        let (kept, changes, said) = await run(most, arguments)
        #expect(kept == 0, "\(said)")
        #expect(changes.split(separator: "\n").count == whole.count - fewer.count, "\(changes)")
    }

    /// Through a 2FA filter, which GitHub answers 422 to anyone but an owner, an empty list is the list: the last
    /// member without 2FA turned it on, and is written as gone (before: refused every run, "remove the snapshot
    /// file", so the change that emptied the list was never written).
    @Test func aTwoFactorListThatEmptiedIsRecordedAsIs() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let arguments = ["members", "github", "--2fa-disabled", "--changes", folder("m.json"), "--format", "tsv"]
        // --changes reads the owners (`role=admin`) in a pass of their own, for the ROLE column.
        let (path, owners) = (
            "GET /orgs/github/members?filter=2fa_disabled&per_page=100",
            "GET /orgs/github/members?filter=2fa_disabled&role=admin&per_page=100"
        )
        let one = StubTransport()
        one.answer(path, accounts: [5])
        one.answer(owners, json: "[]")
        let first = await run(one, arguments)
        #expect(first.0 == 0, "\(first.2)")
        let empty = StubTransport()
        empty.answer(path, json: "[]")
        empty.answer(owners, json: "[]")
        let (code, out, err) = await run(empty, arguments)
        #expect(code == 0, "\(err)")
        #expect(out.hasPrefix("removed\t"), "\(out)")
        #expect(try PeopleSnapshotFile(path: folder("m.json")).load()?.people.isEmpty == true)
    }

    /// An organization's invitations are answered to its owners alone and expire after 7 days: a weekly run that
    /// finds most of them gone, or all, has the list as it is (before: refused as a collapse on every run from
    /// then on, so a cron audit of invitations stopped the week they all expired or were accepted).
    @Test func invitationsThatExpiredAreRecordedAsGone() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let arguments = ["invitations", "github", "--changes", folder("i.json"), "--format", "tsv"]
        let path = "GET /orgs/github/invitations?per_page=100"
        let week = StubTransport()
        week.answer(path, accounts: Array(Int64(1)...250))
        #expect(await run(week, arguments).0 == 0)
        // A list that ends exactly at a page is what a cut list looks like: refused, FILE as it was (helper-342).
        let cut = StubTransport()
        cut.answer(path, accounts: Array(Int64(1)...100))
        let (refused, _, why) = await run(cut, arguments)
        #expect(refused == 1 && why.contains("came back with 100 accounts while the snapshot holds 250"), "\(why)")
        let next = StubTransport()
        next.answer(path, accounts: Array(Int64(201)...299))
        let (fewer, changed, said) = await run(next, arguments)
        #expect(fewer == 0, "\(said)")
        #expect(changed.split(separator: "\n").filter { $0.hasPrefix("removed\t") }.count == 200, "\(changed)")
        #expect(changed.split(separator: "\n").filter { $0.hasPrefix("added\t") }.count == 49, "\(changed)")
        let empty = StubTransport()
        empty.answer(path, json: "[]")
        let (code, out, err) = await run(empty, arguments)
        #expect(code == 0, "\(err)")
        #expect(out.split(separator: "\n").count == 99 && out.hasPrefix("removed\t"), "\(out)")
        #expect(try PeopleSnapshotFile(path: folder("i.json")).load()?.people.isEmpty == true)
    }

    /// Invitations that end exactly at a page of the run's page size, `--per-page`'s where it is given, not 100's,
    /// are a cut list (helper-351's R2: at 30 a page, 60 of 250 were recorded as the rest gone, exit 0); 59 are
    /// invitations gone.
    @Test func invitationsCutAtAPageOfPerPageAreNotRecorded() async throws {
        let (command, path, whole, fewer): (String, String, Int64, Int64) = (
            "invitations", "/orgs/github/invitations", 250, 59
        )
        let folder = try Folder()
        defer { folder.remove() }
        let arguments = [command, "github", "--changes", folder("p.json"), "--format", "tsv", "--per-page", "30"]
        let request = "GET \(path)?per_page=30"
        let all = StubTransport()
        all.answer(request, accounts: Array(Int64(1)...whole))
        #expect(await run(all, arguments).0 == 0)
        let before = try Array(Data(contentsOf: URL(fileURLWithPath: folder("p.json"))))
        let cut = StubTransport()
        cut.answer(request, accounts: Array(Int64(1)...60))
        let (code, out, err) = await run(cut, arguments)
        #expect(code == 1 && out.isEmpty, "\(err)")
        #expect(err.contains("came back with 60 accounts while the snapshot holds \(whole)"), "\(err)")
        #expect(try Array(Data(contentsOf: URL(fileURLWithPath: folder("p.json")))) == before)
        let short = StubTransport()
        short.answer(request, accounts: Array(Int64(1)...fewer))
        let (taken, changes, said) = await run(short, arguments)
        #expect(taken == 0, "\(said)")
        #expect(changes.split(separator: "\n").count == Int(whole - fewer))
    }

    /// So through the outside collaborators' 2FA filter: the last without 2FA turned it on (before: the 2FA rule
    /// held for members alone, and this was refused every run).
    @Test func anOutsideCollaboratorsTwoFactorListThatEmptiedIsRecordedAsIs() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let arguments = [
            "outside-collaborators", "github", "--2fa-disabled", "--changes", folder("o.json"), "--format", "tsv",
        ]
        let path = "GET /orgs/github/outside_collaborators?filter=2fa_disabled&per_page=100"
        let one = StubTransport()
        one.answer(path, accounts: [5])
        #expect(await run(one, arguments).0 == 0)
        let empty = StubTransport()
        empty.answer(path, json: "[]")
        let (code, out, err) = await run(empty, arguments)
        #expect(code == 0, "\(err)")
        #expect(out.hasPrefix("removed\t"), "\(out)")
        #expect(try PeopleSnapshotFile(path: folder("o.json")).load()?.people.isEmpty == true)
    }

    /// Forks far fewer than the repository's `forks_count` are a list GitHub answered in part: refused, both
    /// numbers said; half of them or more is people leaving.
    @Test func forksFarBelowTheRepositorysCountAreRefused() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let arguments = ["forkers", "octocat/Hello-World", "--changes", folder("f.json"), "--format", "tsv"]
        func forks(_ owners: [Int64], counted: Int) -> StubTransport {
            let github = StubTransport()
            github.answer("GET /repos/octocat/Hello-World", json: #"{"id":1296269,"forks_count":\#(counted)}"#)
            let body = owners.map { #"{"id":\#($0 + 100),"owner":{"login":"u\#($0)","id":\#($0)}}"# }
            github.answer(
                "GET /repos/octocat/Hello-World/forks?per_page=100", json: "[" + body.joined(separator: ",") + "]")
            return github
        }
        #expect(await run(forks([1, 2, 3, 4, 5], counted: 5), arguments).0 == 0)
        let before = try Array(Data(contentsOf: URL(fileURLWithPath: folder("f.json"))))
        let (code, out, err) = await run(forks([1, 2], counted: 5), arguments)
        #expect(code == 1)
        #expect(out.isEmpty)
        #expect(
            err
                == "gh-users: GitHub's list of forkers octocat/Hello-World came back with 2 accounts while the "
                + "repository's forks_count counts 5, so the list was not compared: GitHub answered only part of it; "
                + "run again later\ngh-users: the snapshot file '\(folder("f.json"))' was left as it was.\n")
        #expect(try Array(Data(contentsOf: URL(fileURLWithPath: folder("f.json")))) == before)
        let (kept, changes, _) = await run(forks([1, 2, 3], counted: 5), arguments)
        #expect(kept == 0)
        #expect(changes == "removed\tu4\t4\t\nremoved\tu5\t5\t\n")
    }

    /// A stargazer's or a fork's account is read from its bytes, not decoded: an id that is a string, zero or a
    /// fraction, or a login that is a number, is no account of GitHub's, and was recorded as one. The refusal says
    /// what is wrong with it (before: "without an id (a number)" of an id that is a number; helper-367).
    @Test(arguments: [
        ("stargazers", "stargazers", #"{"starred_at":"2026-01-01T00:00:00Z","user":{"login":"mona","id":"7"}}"#),
        ("stargazers", "stargazers", #"{"starred_at":"2026-01-01T00:00:00Z","user":{"login":"mona","id":0}}"#),
        ("stargazers", "stargazers", #"{"starred_at":"2026-01-01T00:00:00Z","user":{"login":"mona","id":7.5}}"#),
        ("stargazers", "stargazers", #"{"starred_at":"2026-01-01T00:00:00Z","user":{"login":12345,"id":7}}"#),
        ("forkers", "forks", #"{"id":100,"owner":{"login":"mona","id":"7"}}"#),
        ("forkers", "forks", #"{"id":100,"owner":{"login":true,"id":7}}"#),
    ])
    func anAccountOfTheWrongTypesIsNotRecorded(command: String, path: String, record: String) async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let github = StubTransport()
        let repository = #"{"id":1296269,"stargazers_count":1,"forks_count":1}"#
        for _ in 0..<3 { github.answer("GET /repos/octocat/Hello-World", json: repository) }
        github.answer("GET /repos/octocat/Hello-World/\(path)?per_page=100", json: "[" + record + "]")
        let (status, out, err) = await run(github, [command, "octocat/Hello-World", "--changes", folder("s.json")])
        #expect(status == 1)
        #expect(out.isEmpty)
        #expect(err.contains("holds a record whose id is no positive whole number or whose login is no text"), "\(err)")
        #expect(!FileManager.default.fileExists(atPath: folder("s.json")))
    }

    /// Stargazers and watchers far fewer than the repository counts (`stargazers_count`, `subscribers_count`)
    /// are a list GitHub answered in part, as forks are: before, a page that came back empty recorded 150 of 250
    /// stargazers as removed.
    @Test(arguments: [
        ("stargazers", "stargazers_count", #"{"starred_at":"2026-01-01T00:00:00Z","user":{"login":"u%d","id":%d}}"#),
        ("watchers", "subscribers_count", #"{"login":"u%d","id":%d}"#),
    ])
    func stargazersAndWatchersFarBelowTheRepositorysCountAreRefused(command: String, key: String, record: String)
        async throws
    {
        let folder = try Folder()
        defer { folder.remove() }
        let arguments = [command, "octocat/Hello-World", "--changes", folder("s.json"), "--format", "tsv"]
        let path = command == "stargazers" ? "stargazers" : "subscribers"
        func people(_ ids: [Int], counted: Int) -> StubTransport {
            let github = StubTransport()
            let repository = #"{"id":1296269,"stargazers_count":\#(counted),"subscribers_count":\#(counted)}"#
            for _ in 0..<3 { github.answer("GET /repos/octocat/Hello-World", json: repository) }
            let body = ids.map { String(format: record, $0, $0) }
            github.answer(
                "GET /repos/octocat/Hello-World/\(path)?per_page=100", json: "[" + body.joined(separator: ",") + "]")
            return github
        }
        #expect(await run(people([1, 2, 3, 4, 5], counted: 5), arguments).0 == 0)
        let before = try Array(Data(contentsOf: URL(fileURLWithPath: folder("s.json"))))
        let (code, out, err) = await run(people([1, 2], counted: 5), arguments)
        #expect(code == 1)
        #expect(out.isEmpty)
        #expect(
            err.hasPrefix(
                "gh-users: GitHub's list of \(command) octocat/Hello-World came back with 2 accounts while the "
                    + "repository's \(key) counts 5, so the list was not compared"), "\(err)")
        #expect(try Array(Data(contentsOf: URL(fileURLWithPath: folder("s.json")))) == before)
        let (kept, changes, _) = await run(people([1, 2, 3], counted: 5), arguments)
        #expect(kept == 0)
        #expect(changes == "removed\tu4\t4\t\nremoved\tu5\t5\t\n")
    }

    /// A login GitHub cannot issue (its are at most 39 characters) is refused at the first one, never held: a
    /// hostile list of 200 KB logins took the run to 2 GB. The message gives its length, not the login.
    @Test func aLoginGitHubCannotIssueIsRefusedAndNeverRecorded() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let long = String(repeating: "a", count: 200_000)
        let github = StubTransport()
        github.answer(
            "GET /repos/octocat/Hello-World/collaborators?per_page=100",
            json: #"[{"login":"octocat","id":1,"role_name":"admin"},{"login":"\#(long)","id":2,"role_name":"read"}]"#)
        let (status, out, err) = await run(
            github, ["collaborators", "octocat/Hello-World", "--changes", folder("c.json")])
        #expect(status == 1)
        #expect(out.isEmpty)
        #expect(
            err
                == "gh-users: GitHub's list of collaborators octocat/Hello-World holds a login of 200000 bytes that "
                + "GitHub cannot issue (a login is 1 to 39 letters, digits, '-' or '_'), which a snapshot cannot "
                + "record, so nothing was compared\ngh-users: nothing was recorded: the snapshot file "
                + "'\(folder("c.json"))' was not made.\n")
        #expect(!FileManager.default.fileExists(atPath: folder("c.json")))
    }

    /// An invitation whose name went from an address to a login, or back, is renamed with the address under
    /// `email` or `previous_email`: no login field ever holds an address (a review's find). Other lists keep
    /// `previous_login` whatever it holds.
    @Test func anInvitationRenamedBetweenAnAddressAndALoginKeepsEachInItsField() throws {
        let address = PeopleSnapshot.Entry(id: 2, login: "new@example.com", role: "direct_member")
        let account = PeopleSnapshot.Entry(id: 2, login: "newuser", role: "admin")
        let signedUp = ListChange.between([address], [account], namesAddresses: true)
        #expect(
            String(decoding: try #require(signedUp.first).raw.bytes, as: UTF8.self)
                == #"{"change":"changed","login":"newuser","id":2,"role":"admin","previous_role":"direct_member","#
                + #""previous_email":"new@example.com"}"#)
        let back = ListChange.between([account], [address], namesAddresses: true)
        #expect(
            String(decoding: try #require(back.first).raw.bytes, as: UTF8.self)
                == #"{"change":"changed","login":null,"id":2,"previous_login":"newuser","role":"direct_member","#
                + #""previous_role":"admin","email":"new@example.com"}"#)
        let context = RenderContext(format: .csv, isTTY: false, colorEnabled: false, width: 80, now: .now)
        var writer = RecordStreamWriter(
            context: context, columns: ListChange.columns(context, roles: true, addresses: true))
        #expect(
            String(decoding: writer.render(signedUp + back), as: UTF8.self)
                == "change,login,id,previous_login,role,previous_role,email,previous_email\r\n"
                + "changed,newuser,2,,admin,direct_member,,new@example.com\r\n"
                + "changed,,2,newuser,direct_member,admin,new@example.com,\r\n")
        let elsewhere = ListChange.between([address], [account])
        #expect(elsewhere.first?.previousLogin == "new@example.com")
        #expect(!String(decoding: try #require(elsewhere.first).raw.bytes, as: UTF8.self).contains("email\""))
    }

    /// A login never holds an `@` and an address always does, which is how a change record tells them apart: a
    /// hostile answer's login with an `@`, or address without one, is refused, never recorded under the wrong
    /// name; an address past 254 bytes is said to be one (a review's finds).
    @Test func aNameThatIsNeitherALoginNorAnAddressIsRefused() throws {
        let key = PeopleChangeKey(role: "role", fallbackName: "email")
        let login = try #require(key.entry(Array(#"{"id":3,"login":"mal@lory","email":"a@x.com"}"#.utf8), role: nil))
        #expect(login.problem == "a login of 8 bytes with an '@' (no login GitHub issues has one)")
        let address = try #require(key.entry(Array(#"{"id":3,"login":null,"email":"noatsign"}"#.utf8), role: nil))
        #expect(address.problem == "an email address of 8 bytes without an '@'")
        let member = try #require(PeopleChangeKey().entry(Array(#"{"id":4,"login":"a@b"}"#.utf8), role: nil))
        #expect(member.problem == "a login of 3 bytes with an '@' (no login GitHub issues has one)")
        let fine = try #require(key.entry(Array(#"{"id":5,"login":null,"email":"x@y.org"}"#.utf8), role: nil))
        #expect(fine.problem == nil && fine.login == "x@y.org")
        let long = PeopleSnapshot.Entry(id: 6, login: String(repeating: "a", count: 250) + "@x.org")
        #expect(long.problem == "an email address of 256 bytes, longer than the 254 an address may be")
    }

    /// An invitation to an email address is named by the address, up to RFC 5321's 254 bytes; a login of 40
    /// characters is no login, and a snapshot file holding one is refused as GitHub's list is.
    @Test func anInvitationsAddressIsANameAndALoginOfFortyIsNot() {
        #expect(PeopleSnapshot.Entry(id: 3, login: "x@example.com").problem == nil)
        let invited = #"{"version":1,"command":"invitations","of":"x","filters":{},"people":[{"id":1,"login":"x@y"}]}"#
        #expect(throws: Never.self) { try PeopleSnapshot.decode(Array(invited.utf8)).get() }
        #expect(PeopleSnapshot.Entry(id: 3, login: "dependabot[bot]").problem == nil)
        #expect(PeopleSnapshot.Entry(id: 3, login: String(repeating: "a", count: 39)).problem == nil)
        #expect(PeopleSnapshot.Entry(id: 3, login: String(repeating: "a", count: 40)).problem != nil)
        #expect(PeopleSnapshot.Entry(id: 3, login: String(repeating: "a", count: 250) + "@x.org").problem != nil)
        let text = #"{"version":1,"command":"members","of":"x","filters":{},"people":[{"id":1,"login":"a b"}]}"#
        guard case .failure(let problem) = PeopleSnapshot.decode(Array(text.utf8)) else {
            Issue.record("read a login with a space")
            return
        }
        #expect(problem.detail.contains("a login of 3 bytes that GitHub cannot issue"), "\(problem.detail)")
    }

    /// Two forks of one account (the list's ids are the forks', so nothing before drops the second) are one
    /// forker: recorded once, never refused as an id held twice (helper-328: keeping both went unseen).
    @Test func anAccountWithTwoForksIsRecordedOnce() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let github = StubTransport()
        github.answer("GET /repos/octocat/Hello-World", json: #"{"id":1296269,"forks_count":2}"#)
        github.answer(
            "GET /repos/octocat/Hello-World/forks?per_page=100",
            json: #"[{"id":101,"owner":{"login":"u1","id":1}},{"id":102,"owner":{"login":"u1","id":1}}]"#)
        let (code, out, err) = await run(
            github, ["forkers", "octocat/Hello-World", "--changes", folder("f.json"), "--format", "tsv"])
        #expect(code == 0, "\(err)")
        #expect(out.isEmpty)
        #expect(try PeopleSnapshotFile(path: folder("f.json")).load()?.people.map(\.id) == [1])
    }

    /// The public members and all the members are two lists: a snapshot of one is refused for the other.
    /// (helper-328: leaving `--public` out of the list's filters went unseen.)
    @Test func thePublicMembersAreAListOfTheirOwn() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let snapshot = PeopleSnapshot(subject: .init(command: "members", owner: "github", filters: [:]), people: [])
        try Data(snapshot.encoded).write(to: URL(fileURLWithPath: folder("m.json")))
        let github = StubTransport()
        let (status, _, err) = await run(github, ["members", "github", "--public", "--changes", folder("m.json")])
        #expect(status == 1)
        #expect(
            err
                == "gh-users: the snapshot file '\(folder("m.json"))' was made for 'gh-users members github', not for "
                + "'gh-users members github (public=true)'. It was left as it is: give each list its own snapshot file\n"
        )
        #expect(github.calls.isEmpty)
    }
}

/// A stdout whose write fails as a closed pipe's (OutputClosedError) while nothing else says the reader left.
private final class ClosedWritesSink: OutputSink, @unchecked Sendable {
    func write(_ bytes: [UInt8]) throws {
        if !bytes.isEmpty { throw OutputClosedError() }
    }
    var readerHasLeft: Bool { false }
    var unreadBytes: Int? { 0 }
}

/// A snapshot file whose changes could not all be written is left as it was.
struct PeopleSnapshotRecordTests {
    /// Changes whose write failed as a closed reader's are never recorded, whatever the reader's state says after
    /// (helper-328: recording them when the reader's state said nothing went unseen).
    @Test func changesWhoseWriteFoundTheReaderGoneAreNotRecorded() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let err = CapturedOutput()
        var context = CommandContext(
            io: IOStreams(
                out: ClosedWritesSink(), err: err, stdoutIsTTY: false, stderrIsTTY: false, terminalWidth: 80,
                colorPolicy: .auto),
            render: RenderContext.resolve(requested: .tsv, isTTY: false, colorEnabled: false, width: 80, now: .now),
            presenter: ErrorPresenter(now: .now, hasToken: true))
        context.sleep = { _ in }
        let snapshot = PeopleSnapshot(
            subject: .init(command: "collaborators", owner: "octocat/Hello-World", filters: [:]),
            people: [.init(id: 1, login: "octocat", role: "admin")])
        let outcome = await PeopleSnapshotFile(path: folder("c.json")).record(
            snapshot, problem: nil, listed: "collaborators octocat/Hello-World", count: 1,
            changes: [ListChange(kind: .added, id: 1, login: "octocat", role: "admin")],
            roles: true, command: context)
        #expect(outcome == .setupFailed)
        #expect(
            err.text.hasPrefix("gh-users: the reader of stdout went away before it took every change"), "\(err.text)")
        #expect(!FileManager.default.fileExists(atPath: folder("c.json")))
    }

    /// A snapshot of exactly the bytes the reader takes is written (the reader takes a file of that size); one
    /// byte more is not. (helper-328: `<` for `<=` went unseen.)
    @Test func aSnapshotOfExactlyTheReadLimitIsWritten() throws {
        let snapshot = PeopleSnapshot(
            subject: .init(command: "collaborators", owner: "octocat/Hello-World", filters: [:]),
            people: [.init(id: 1, login: "octocat", role: "admin")])
        let size = snapshot.encoded.count
        let exact = SnapshotFiles.$limitBytes.withValue(size) {
            PeopleSnapshotFile(path: "/nonexistent/c.json").encode(snapshot)
        }
        #expect((try? exact.get()) == snapshot.encoded)
        let under = SnapshotFiles.$limitBytes.withValue(size - 1) {
            PeopleSnapshotFile(path: "/nonexistent/c.json").encode(snapshot)
        }
        #expect((try? under.get()) == nil)
    }
}

/// The task a run goes on in, for a stub to cancel as a signal would.
private final class RunningTask: @unchecked Sendable {
    private let lock = NSLock()
    private var task: Task<(Int32, String, String), Never>?

    func set(_ task: Task<(Int32, String, String), Never>) { lock.withLock { self.task = task } }
    func cancel() { lock.withLock { task }?.cancel() }
}
