import AtomicCore
import Domain
import Foundation
import TestSupport
import Testing

@testable import gh_users

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

private func accounts(_ pairs: [(Int64, String)]) -> [FollowSnapshot.Account] {
    pairs.map { FollowSnapshot.Account(id: $0.0, login: $0.1) }
}

/// The diff between a snapshot and the list now: accounts matched by id, so a rename is one record.
struct FollowerChangeDiffTests {
    @Test func addedRemovedRenamedAndUnchanged() {
        let snapshot = accounts([(1, "alice"), (2, "bob"), (3, "carol"), (4, "dave")])
        let now = accounts([(5, "erin"), (1, "alice"), (3, "carol-new"), (6, "frank")])
        #expect(
            ListChange.between(snapshot, now) == [
                ListChange(kind: .added, id: 5, login: "erin"),
                ListChange(kind: .renamed, id: 3, login: "carol-new", previousLogin: "carol"),
                ListChange(kind: .added, id: 6, login: "frank"),
                ListChange(kind: .removed, id: 2, login: "bob"),
                ListChange(kind: .removed, id: 4, login: "dave"),
            ])
    }

    @Test func nothingChangedIsNoRecordWhateverTheOrder() {
        let snapshot = accounts([(1, "a"), (2, "b"), (3, "c")])
        #expect(ListChange.between(snapshot, snapshot.reversed()).isEmpty)
        #expect(ListChange.between([FollowSnapshot.Account](), []).isEmpty)
    }

    @Test func aLoginThatOnlyChangedCaseIsARename() {
        #expect(
            ListChange.between(accounts([(1, "Octocat")]), accounts([(1, "octocat")])) == [
                ListChange(kind: .renamed, id: 1, login: "octocat", previousLogin: "Octocat")
            ])
    }

    @Test func aRemovedAccountKeepsTheLoginTheSnapshotHad() {
        #expect(
            ListChange.between(accounts([(7, "gone-now")]), []) == [
                ListChange(kind: .removed, id: 7, login: "gone-now")
            ])
    }

    /// Every tenth account replaced, every 100th renamed: the changes are exact, and the comparison reads each
    /// account's id and login a few times, not once for every other account (`CountedEntry`): looking each one up
    /// in the other list would read them about N² times, 2,000 per account for the 4,000 here.
    @Test func largeSetsAreComparedInLinearTime() {
        let count = 4_000
        let reads = ReadCount()
        let before = (1...count).map { CountedEntry(id: Int64($0), login: "user\($0)", reads: reads) }
        let after = (1...count).map { index -> CountedEntry in
            if index % 10 == 0 { return CountedEntry(id: Int64(count + index), login: "new\(index)", reads: reads) }
            return CountedEntry(
                id: Int64(index), login: index % 100 == 1 ? "renamed\(index)" : "user\(index)", reads: reads)
        }
        let changes = ListChange.between(before, after)
        let perAccount = reads.count / (before.count + after.count)
        #expect(changes.filter { $0.kind == .added }.count == count / 10)
        #expect(changes.filter { $0.kind == .removed }.count == count / 10)
        #expect(changes.filter { $0.kind == .renamed }.count == count / 100)
        #expect(changes.first { $0.kind == .removed } == ListChange(kind: .removed, id: 10, login: "user10"))
        #expect(perAccount <= 8, "comparing read each account's id or login \(perAccount) times")
    }
}

/// How many times the accounts of a comparison had their id or login read. Only the test's thread touches it.
private final class ReadCount: @unchecked Sendable {
    var count = 0
}

/// An account that counts the reads of its id and login into `reads`.
private struct CountedEntry: ChangeEntry {
    private let storedID: Int64
    private let storedLogin: String
    let reads: ReadCount

    init(id: Int64, login: String, reads: ReadCount) {
        storedID = id
        storedLogin = login
        self.reads = reads
    }

    var id: Int64 {
        reads.count += 1
        return storedID
    }
    var login: String {
        reads.count += 1
        return storedLogin
    }
    var role: String? { nil }
    var problem: String? { nil }
}

/// How change records are written: every format, and the table's marks.
struct FollowerChangeOutputTests {
    private let changes = [
        ListChange(kind: .added, id: 5, login: "erin"),
        ListChange(kind: .removed, id: 2, login: "bob"),
        ListChange(kind: .renamed, id: 3, login: "carol-new", previousLogin: "carol"),
    ]

    private func render(_ format: OutputFormat, isTTY: Bool = false, fields: [String]? = nil) -> String {
        let context = RenderContext(
            format: format, isTTY: isTTY, colorEnabled: false, width: 80, now: Date(), fields: fields)
        var writer = RecordStreamWriter(
            context: context, columns: ListChange.columns(context))
        return String(decoding: writer.render(changes) + writer.finish(completed: true), as: UTF8.self)
    }

    @Test func jsonRecordsCarryThePreviousLoginOnlyForARename() {
        #expect(
            render(.ndjson) == """
                {"change":"added","login":"erin","id":5}
                {"change":"removed","login":"bob","id":2}
                {"change":"renamed","login":"carol-new","id":3,"previous_login":"carol"}

                """)
        #expect(render(.json).hasPrefix("[\n  {\n    \"change\": \"added\",\n    \"login\": \"erin\",\n"))
    }

    @Test func tsvAndCsvNameTheChangeInWords() {
        #expect(render(.tsv) == "added\terin\t5\t\nremoved\tbob\t2\t\nrenamed\tcarol-new\t3\tcarol\n")
        #expect(
            render(.csv)
                == "change,login,id,previous_login\r\nadded,erin,5,\r\nremoved,bob,2,\r\nrenamed,carol-new,3,carol\r\n")
        #expect(render(.tsv, fields: ["login", "change"]) == "erin\tadded\nbob\tremoved\ncarol-new\trenamed\n")
    }

    @Test func aTableMarksEachLoginAsADiffDoes() {
        // A row with no rename ends after its last cell: no column is padded with nothing after it.
        #expect(
            render(.table, isTTY: true)
                == "CHANGE       ID  RENAMED FROM\n" + "+ erin       5\n" + "\u{2212} bob        2\n"
                + "~ carol-new  3   carol\n")
    }

    @Test func aLoginFromGitHubIsMadeHarmlessOnATerminal() {
        let hostile = ListChange(kind: .added, id: 9, login: "evil\u{1B}]0;owned\u{07}")
        let context = RenderContext(format: .table, isTTY: true, colorEnabled: false, width: 80, now: Date())
        var writer = RecordStreamWriter(
            context: context, columns: ListChange.columns(context))
        let text = String(decoding: writer.render([hostile]), as: UTF8.self)
        #expect(!text.contains("\u{1B}"))
        #expect(!text.contains("\u{07}"))
    }
}

/// The snapshot's bytes: what it holds, and what it refuses to take for one.
struct FollowSnapshotTests {
    private let snapshot = FollowSnapshot(
        subject: FollowSnapshotSubject(
            relation: .followers, account: .init(id: 583231, login: "octocat"), filter: "mutual"),
        accounts: accounts([(1, "alice"), (2, "bob \"quoted\" \\ é")]))

    @Test func aSnapshotReadsBackAsItWasWritten() {
        let written = FollowSnapshot(
            subject: snapshot.subject, accounts: accounts([(1, "alice"), (2, "bob_2-x[bot]")]))
        #expect(FollowSnapshot.decode(written.encoded) == .success(written))
        // A login GitHub cannot issue is escaped as JSON is, and never read back as one (see `itIsOneAccountALine`).
        guard case .failure(let problem) = FollowSnapshot.decode(snapshot.encoded) else {
            Issue.record("read a login with quotes and a space")
            return
        }
        #expect(problem.detail.contains("a login of 17 bytes that GitHub cannot issue"), "\(problem.detail)")
        let empty = FollowSnapshot(
            subject: FollowSnapshotSubject(relation: .following, account: .init(id: 1, login: "a"), filter: nil),
            accounts: [])
        #expect(FollowSnapshot.decode(empty.encoded) == .success(empty))
    }

    @Test func itIsOneAccountALine() {
        #expect(
            String(decoding: snapshot.encoded, as: UTF8.self) == """
                {"version":2,"command":"followers","account_id":583231,"login":"octocat","filter":"mutual","accounts":[
                {"id":1,"login":"alice"},
                {"id":2,"login":"bob \\"quoted\\" \\\\ é"}
                ]}

                """)
    }

    @Test(arguments: [
        "", "garbage", "[]", #"{"version":2,"since":5}"#,
        #"{"version":1,"command":"followers","login":null,"filter":null,"accounts":[]}"#,
        #"{"version":1,"command":"followers","login":"bad login","filter":null,"accounts":[]}"#,
        #"{"version":1,"command":"followers","account_id":1,"login":"a","filter":null,"accounts":[]}"#,
        #"{"version":1,"command":"followers","login":"a","filter":null,"accounts":[{"id":0,"login":"b"}]}"#,
        #"{"version":2,"command":"followers","login":"a","filter":null,"accounts":[]}"#,
        #"{"version":2,"command":"followers","account_id":1,"login":null,"filter":null,"accounts":[]}"#,
        #"{"version":2,"command":"followers","account_id":0,"login":"a","filter":null,"accounts":[]}"#,
        #"{"version":2,"command":"followers","account_id":-4,"login":"a","filter":null,"accounts":[]}"#,
        #"{"version":2,"command":"stars","account_id":1,"login":"a","filter":null,"accounts":[]}"#,
        #"{"version":2,"command":"following","account_id":1,"login":"a","filter":"mutual","accounts":[]}"#,
        #"{"version":2,"command":"followers","account_id":1,"login":"bad login","filter":null,"accounts":[]}"#,
        #"{"version":2,"command":"followers","account_id":1,"login":"a","filter":null,"accounts":[{"id":"1","login":"a"}]}"#,
        #"{"version":2,"command":"followers","account_id":1,"login":"a","filter":null,"accounts":[{"id":0,"login":"a"}]}"#,
        #"{"version":2,"command":"followers","account_id":1,"login":"a","filter":null,"accounts":[{"id":1,"login":""}]}"#,
        #"{"version":2,"command":"followers","account_id":1,"login":"a","filter":null,"accounts":[{"id":1,"login":"a"},{"id":1,"login":"b"}]}"#,
        #"{"version":2,"command":"followers","account_id":1,"login":"a","filter":null,"accounts":[{"id":1}]}"#,
    ])
    func anythingElseIsNotASnapshot(text: String) {
        guard case .failure = FollowSnapshot.decode(Array(text.utf8)) else {
            Issue.record("\(text) was read as a snapshot")
            return
        }
    }

    /// A popular account's followers: 30,000 accounts, about 1.3 MB on disk, read back as they were written.
    /// (The largest snapshot the bound allows is `theMostAccountsTheBoundAllowsFitWhatTheReaderTakes`'s; encoding
    /// and decoding are one pass each, so ten times the accounts is ten times the same work.)
    @Test func aLargeSnapshotReadsBack() {
        let large = FollowSnapshot(
            subject: FollowSnapshotSubject(
                relation: .followers, account: .init(id: 1024025, login: "torvalds"), filter: nil),
            accounts: (1...30_000).map { FollowSnapshot.Account(id: Int64($0) * 7, login: "account-\($0)") })
        let bytes = large.encoded
        #expect(bytes.count > 1_000_000)
        #expect(FollowSnapshot.decode(bytes) == .success(large))
    }

    /// The most accounts a list may bring, each with the largest id and the longest login GitHub allows, make
    /// a snapshot the reader takes: the bound never lets a run write what every later run refuses.
    @Test func theMostAccountsTheBoundAllowsFitWhatTheReaderTakes() {
        let widest = FollowSnapshot.Account(id: Int64.max, login: String(repeating: "a", count: 39))
        func size(_ count: Int) -> Int {
            FollowSnapshot(
                subject: FollowSnapshotSubject(relation: .followers, account: widest, filter: "mutual"),
                accounts: Array(repeating: widest, count: count)
            ).encoded.count
        }
        let perAccount = size(3) - size(2)
        let largest = size(1) + (FollowGraph.maximumAccounts - 1) * perAccount
        #expect(perAccount == 78)
        #expect(FollowGraph.bound(forCount: Int.max) == FollowGraph.maximumAccounts)
        #expect(largest <= SnapshotFiles.limitBytes, "\(largest) bytes")
    }

    /// A later version is a newer gh-users's, left to it with no advice to mend or remove it (helper-309).
    @Test func anotherVersionIsNamed() {
        let text = #"{"version":3,"command":"followers","accounts":"whatever"}"#
        #expect(
            FileContentProblem.reading(Array(text.utf8), as: FollowSnapshot.kindName, option: "--changes") {
                FollowSnapshot.decode($0)
            }
                == .failure(
                    FileContentProblem(
                        "has version 3, which a newer gh-users writes; this one reads versions 1 and 2",
                        remedy: "run it with that newer gh-users, or give this run another file")))
        #expect(
            FollowSnapshot.decode(Array(#"{"version":0,"command":"followers","accounts":[]}"#.utf8))
                == .failure(FileContentProblem("has version 0; this gh-users reads versions 1 and 2")))
    }

    /// Version 1 recorded the login the list was asked for, not the account id: read, the account is known by
    /// that login alone, in any case.
    @Test func aVersion1SnapshotIsKnownByItsLogin() throws {
        let text =
            #"{"version":1,"command":"following","login":"Octocat","filter":null,"accounts":[{"id":2,"login":"b"}]}"#
        let read = try FollowSnapshot.decode(Array(text.utf8)).get()
        #expect(read.subject.loginOnly)
        #expect(read.subject.relation == .following)
        #expect(read.accounts == accounts([(2, "b")]))
        let octocat = FollowSnapshotSubject(
            relation: .following, account: .init(id: 583231, login: "octocat"), filter: nil)
        #expect(read.subject.isSameAccount(as: octocat))
        #expect(
            !read.subject.isSameAccount(
                as: FollowSnapshotSubject(relation: .following, account: .init(id: 583231, login: "hubot"), filter: nil)
            ))
    }

    /// The account is its id: a rename is the same account, another id is another account whatever its login.
    @Test func anAccountIsItsIdWhateverItsLogin() {
        func subject(_ id: Int64, _ login: String, _ relation: UserRelation = .followers, filter: String? = nil)
            -> FollowSnapshotSubject
        {
            FollowSnapshotSubject(relation: relation, account: .init(id: id, login: login), filter: filter)
        }
        let octocat = subject(583231, "octocat")
        #expect(octocat.isSameAccount(as: subject(583231, "octo-renamed")))
        #expect(!octocat.isSameAccount(as: subject(2, "octocat")))
        #expect(octocat.isSameList(as: subject(2, "other")))
        #expect(!octocat.isSameList(as: subject(583231, "octocat", .following)))
        #expect(!octocat.isSameList(as: subject(583231, "octocat", filter: "mutual")))
    }

    private static func refused(_ id: Int64, _ login: String, _ list: [(Int64, String)]) -> FollowSnapshot {
        FollowSnapshot(
            subject: FollowSnapshotSubject(relation: .followers, account: .init(id: id, login: login), filter: nil),
            accounts: accounts(list))
    }

    /// What the reader refuses is never written: `problem` says why, in the reader's words.
    @Test(arguments: [
        refused(0, "a", [(1, "b")]), refused(-3, "a", []), refused(1, "", []), refused(1, "bad login", []),
        refused(1, "a", [(0, "b")]), refused(1, "a", [(-1, "b")]), refused(1, "a", [(2, "")]),
        refused(1, "a", [(2, "b"), (2, "c")]),
    ])
    func whatTheReaderRefusesIsAProblemBeforeWriting(snapshot: FollowSnapshot) {
        let problem = snapshot.problem
        #expect(problem != nil)
        #expect(FollowSnapshot.decode(snapshot.encoded) == .failure(problem ?? FileContentProblem("")))
    }
}

extension Folder {
    fileprivate func bytes(_ name: String) throws -> [UInt8] {
        Array(try Foundation.Data(contentsOf: URL(fileURLWithPath: self(name))))
    }

    fileprivate func mode(_ name: String) throws -> Int {
        try #require(try FileManager.default.attributesOfItem(atPath: self(name))[.posixPermissions] as? Int)
    }
}

/// The snapshot on disk: private, replaced whole, one run at a time, never overwritten when unreadable.
struct FollowSnapshotFileTests {
    private let snapshot = FollowSnapshot(
        subject: FollowSnapshotSubject(relation: .followers, account: .init(id: 9, login: "me"), filter: nil),
        accounts: accounts([(1, "a")]))

    @Test func aMissingFileIsTheFirstRun() throws {
        let folder = try Folder()
        defer { folder.remove() }
        #expect(try FollowSnapshotFile(path: folder("f.json")).load() == nil)
    }

    @Test func aReplacementIsWholeAndPrivateWhateverTheUmaskAndLeavesNoTemporaryFile() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let file = FollowSnapshotFile(path: folder("f.json"))
        let old = umask(0)
        defer { umask(old) }
        try file.replace(with: snapshot.encoded)
        #expect(try folder.mode("f.json") == 0o600)
        #expect(try file.load() == snapshot)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: folder("f.json"))
        try file.replace(with: snapshot.encoded)
        #expect(try folder.mode("f.json") == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["f.json"])
    }

    /// A replacement that fails after its temporary file was made (here the rename: FILE is a directory) takes
    /// the temporary file with it.
    @Test func aFailedReplacementLeavesNoTemporaryFile() throws {
        let folder = try Folder()
        defer { folder.remove() }
        #expect(mkdir(folder("f.json"), 0o700) == 0)
        let file = FollowSnapshotFile(path: folder("f.json"))
        #expect {
            try file.replace(with: snapshot.encoded)
        } throws: { error in
            (error as? LocalFileError)?.message.hasPrefix("cannot replace the snapshot file") == true
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["f.json"])
    }

    @Test func aCorruptFileIsAnErrorNamingItAndIsLeftByteForByte() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let text = #"{"version":2,"accounts":5}"#
        try Foundation.Data(text.utf8).write(to: URL(fileURLWithPath: folder("f.json")))
        let file = FollowSnapshotFile(path: folder("f.json"))
        #expect {
            _ = try file.load()
        } throws: { error in
            (error as? LocalFileError)?.message.hasPrefix(
                "the snapshot file '\(folder("f.json"))' does not hold \"version\", \"api_url\" (a string or absent), "
                    + "\"command\"") == true
        }
        #expect(try folder.bytes("f.json") == Array(text.utf8))
    }

    @Test func aSecondRunIsRefusedWhileTheFirstHoldsTheLock() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let file = FollowSnapshotFile(path: folder("f.json"))
        var first: OwnedFileLock? = try file.lock()
        #expect(try folder.mode("f.json.lock") == 0o600)
        #expect {
            _ = try file.lock()
        } throws: { error in
            (error as? LocalFileError)?.message
                == "another gh-users run is using the snapshot file '\(folder("f.json"))' (it holds "
                + "'\(file.file.lockPath)'); wait for it to end, or give each command its own snapshot file"
        }
        withExtendedLifetime(first) {}
        first = nil
        _ = try file.lock()
    }

    @Test func aFIFOIsNeverWaitedOn() throws {
        let folder = try Folder()
        defer { folder.remove() }
        #expect(mkfifo(folder("f.json"), 0o600) == 0)
        #expect {
            _ = try FollowSnapshotFile(path: folder("f.json")).load()
        } throws: { error in
            (error as? LocalFileError)?.message.contains("it is a FIFO (named pipe), not a regular file") == true
        }
    }
}

/// `--changes` as the parser takes it: what it implies and what it refuses, before anything is sent.
struct FollowerChangesParsingTests {
    private func route(_ arguments: [String]) -> Route {
        CommandRouter().route(arguments)
    }

    private func usageMessage(_ arguments: [String]) -> String? {
        guard case .usageError(let error) = route(arguments) else { return nil }
        return error.message
    }

    /// Help says --limit, --full and --offline cannot be used with --changes, as the parser refuses them, and explains
    /// --changes in the description, which names the man page with more.
    @Test(arguments: ["followers", "following"])
    func helpSaysWhatIsRefusedAndWhere(name: String) {
        #expect(usageMessage([name, "octocat", "--changes", "f.json", "--limit", "5"]) != nil)
        #expect(usageMessage([name, "octocat", "--changes", "f.json", "--full"]) != nil)
        #expect(usageMessage([name, "octocat", "--changes", "f.json", "--offline"]) != nil)
        let help = HelpRenderer.render(.command(name), width: 400)
        let description = help.components(separatedBy: "\nARGUMENTS\n")[0]
        #expect(description.contains("(--all is implied; --limit, --full and --offline cannot be used with it)"))
        #expect(description.contains("--changes FILE writes who came and went"))
        let options = help.components(separatedBy: "\nOPTIONS\n").last ?? ""
        #expect(options.contains("then record the list in FILE."))
        // Where the description is cut to one screen, it names the page with the rest; the option's own words
        // would say so in that page too.
        #expect(HelpRenderer.render(.command(name), width: 80).contains("More in 'man gh-users-\(name)'."))
        #expect(!help.contains("more in the man page"))
    }

    @Test func theWholeListIsRead() throws {
        guard case .run(let invocation) = route(["followers", "octocat", "--changes", "f.json"]) else {
            Issue.record("not a run")
            return
        }
        let options = try #require((invocation.options as? FollowersCommand)?.list)
        #expect(options.changes == "f.json")
        #expect(options.plan.limit == .all)
        #expect(options.plan.perPage == 100)
    }

    @Test(arguments: [
        (["followers", "--changes", "f", "--limit", "5"], "cannot be used with --limit (--all is implied)"),
        (["followers", "--changes", "f", "--full"], "cannot be used with --full"),
        (["followers", "--changes", ""], "--changes needs a file path"),
        (["followers", "--changes", "-"], "--changes takes a file, not '-'"),
        (["followers", "--changes", "state/"], "--changes takes a file, and 'state/' ends in a slash"),
        (
            ["members", "github", "--changes", "m", "--changes", "o"],
            "--changes is given more than once, naming 'm' and 'o'"
        ),
        (["following", "--changes", "f", "--fields", "login,avatar_url"], "unknown field 'avatar_url'"),
        (
            ["following", "--fields", "login,previous_login"],
            "the field 'previous_login' exists only with --changes, whose records have change, login, id, "
                + "previous_login"
        ),
    ])
    func whatDoesNotGoWithItIsAUsageError(arguments: [String], message: String) {
        let text = usageMessage(arguments)
        #expect(text?.contains(message) == true, "\(arguments): \(text ?? "no usage error")")
    }

    /// One file written two ways (an alias's absolute path, the same file typed relative) is one file.
    @Test func oneFileWrittenTwoWaysIsTakenOnce() {
        let absolute = FileManager.default.currentDirectoryPath + "/m.json"
        #expect(usageMessage(["members", "github", "--changes", "m.json", "--changes", "./m.json"]) == nil)
        #expect(usageMessage(["members", "github", "--changes", absolute, "--changes", "m.json"]) == nil)
    }

    /// A field only a change record has is a usage error without --changes: exit 64, before anything is sent.
    @Test(arguments: ["change", "previous_login", "login,change"])
    func aChangeFieldWithoutChangesIsExit64(fields: String) async {
        let github = StubTransport()
        let (env, out, err) = AppEnvironment.test(http: github)
        #expect(await GhUsersApp(environment: env).run(["followers", "octocat", "--fields", fields]) == 64)
        #expect(out.text.isEmpty)
        #expect(err.text.hasPrefix("Error: the field '"))
        #expect(err.text.contains("' exists only with --changes"))
        #expect(github.calls.isEmpty)
    }

    /// Help and the man page list an account's fields as FIELDS, and a change record's apart, on a line of
    /// their own that names --changes; a profile's apart too, naming --full.
    @Test(arguments: ["followers", "following"])
    func helpAndTheManPageSayWhichFieldsNeedChanges(name: String) throws {
        let help = HelpRenderer.render(.command(name), width: 400)
        let section = try #require(help.components(separatedBy: "\nFIELDS\n").last)
        let lines = section.components(separatedBy: "\n\n")[0].split(separator: "\n").map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        #expect(lines.count == 3, "\(lines)")
        #expect(lines.first == FieldCatalog.account.joined(separator: ", "))
        #expect(lines.contains("With --changes: change, login, id, previous_login"))
        #expect(lines.contains { $0.hasPrefix("With --full, also: name, company, blog,") })
        let page = ManPageRenderer.render(name, version: "9.9", date: Date(timeIntervalSince1970: 0))
        let fields = try #require(page.components(separatedBy: ".SH \"FIELDS\"\n").last)
        let manLines = fields.components(separatedBy: ".SH")[0].split(separator: "\n").map(String.init)
            .filter { $0 != ".PP" }
        #expect(manLines.first == Roff.escape(FieldCatalog.account.joined(separator: ", ")))
        #expect(manLines.contains(Roff.escape("With --changes: change, login, id, previous_login")), "\(manLines)")
    }

    @Test func itsFieldsAreAccepted() {
        guard case .run = route(["followers", "--changes", "f", "--fields", "change,login,previous_login,id"]) else {
            Issue.record("refused")
            return
        }
    }
}

/// Whole runs in process against a scripted GitHub: the snapshot is replaced only after the changes are written.
struct FollowerChangesRunTests {
    /// The followers of `login` in pages (nil: the token's own account, at `/user`), and the profile it has: `id`
    /// (9), `profileLogin` (the login asked for) and a count of followers (the list's, unless given).
    /// The connection is lost on page `lostAt` (from 1) instead of its answer, when given.
    private func github(
        _ pages: [[(Int64, String)]], login: String? = "me", id: Int64 = 9, profileLogin: String? = nil,
        followers: Int? = nil, lostAt lost: Int? = nil
    ) -> StubTransport {
        let github = StubTransport()
        let account = login.map { "/users/" + $0 } ?? "/user"
        github.answer(
            "GET " + account,
            json:
                #"{"login":"\#(profileLogin ?? login ?? "me")","id":\#(id),"followers":\#(followers ?? pages.map(\.count).reduce(0, +)),"following":0}"#
        )
        let list = account + "/followers?per_page=100"
        for (index, page) in pages.enumerated() {
            let target = index == 0 ? list : list + "&page=\(index + 1)"
            guard index + 1 != lost else {
                for _ in 0..<StubTransport.attemptsWithDefaultRetries {
                    github.fail(StubTransport.apiRoot + target, with: .connectionLost)
                }
                continue
            }
            let ids = page.map(\.0)
            github.answer(
                "GET " + target, accounts: ids, logins: Dictionary(uniqueKeysWithValues: page),
                next: index + 1 < pages.count ? list + "&page=\(index + 2)" : nil)
        }
        return github
    }

    private func run(_ github: StubTransport, _ arguments: [String], token: Bool = true) async -> (
        Int32, String, String
    ) {
        let (env, out, err) = AppEnvironment.test(http: github, environment: token ? ["GH_TOKEN": "t"] : [:])
        let status = await GhUsersApp(environment: env).run(arguments)
        return (status, out.text, err.text)
    }

    @Test func theFirstRunRecordsAndTheNextWritesWhoCameAndWent() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let arguments = ["followers", "me", "--changes", folder("f.json"), "--format", "tsv"]
        let first = await run(github([[(1, "alice"), (2, "bob")], [(3, "carol")]]), arguments)
        #expect(first.0 == 0, "\(first.2)")
        #expect(first.1.isEmpty)
        #expect(
            first.2
                == "gh-users: recorded the 3 accounts of 'gh-users followers me' in '\(folder("f.json"))'; from the "
                + "next run on, --changes writes who came and went.\n")
        let second = await run(github([[(4, "dave"), (1, "alice")], [(3, "carol2")]]), arguments)
        #expect(second.0 == 0, "\(second.2)")
        #expect(second.1 == "added\tdave\t4\t\nrenamed\tcarol2\t3\tcarol\nremoved\tbob\t2\t\n")
        #expect(second.2.isEmpty)
        let recorded = try #require(try FollowSnapshotFile(path: folder("f.json")).load())
        #expect(recorded.accounts == accounts([(4, "dave"), (1, "alice"), (3, "carol2")]))
    }

    /// A first run whose folder is not there yet (help's nightly `--changes ~/.local/state/gh-users/…` on a
    /// fresh account) says to make it (before: "no such file or directory" alone), and makes nothing.
    @Test func aSnapshotInAFolderNotThereSaysToMakeIt() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let file = folder("state/gh-users/f.json")
        let (status, out, err) = await run(
            github([[(1, "alice")]]), ["followers", "me", "--changes", file, "--format", "tsv"])
        #expect(status == 1, "\(err)")
        #expect(out.isEmpty)
        #expect(
            err.hasPrefix(
                "gh-users: cannot create the lock beside the snapshot file '\(file)': no such file or directory (a "
                    + "folder on its path is not there: mkdir -p -- \(ShellWord.quote(folder("state/gh-users"))))"),
            "\(err)")
        #expect(!FileManager.default.fileExists(atPath: folder("state")))
    }

    /// A FIFO where the snapshot's temporary file goes is refused before anything is written: before, the
    /// changes were printed and the replacement then failed, so the next run printed them again.
    @Test func aFIFOAtTheTemporaryFileIsRefusedBeforeAnyChangeIsWritten() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let arguments = ["followers", "me", "--changes", folder("f.json"), "--format", "tsv"]
        _ = await run(github([[(1, "alice")]]), arguments)
        let before = try folder.bytes("f.json")
        #expect(mkfifo(folder("f.json.tmp"), 0o600) == 0)
        let (status, out, err) = await run(github([[(2, "bob")]]), arguments)
        #expect(status == 1, "\(err)")
        #expect(out.isEmpty, "\(out)")
        #expect(err.contains("its temporary file '\(folder("f.json.tmp"))' is a FIFO (named pipe)"), "\(err)")
        #expect(try folder.bytes("f.json") == before)
    }

    @Test func aFailureOnPageTwoLeavesTheSnapshotByteForByte() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let arguments = ["followers", "me", "--changes", folder("f.json"), "--json"]
        _ = await run(github([[(1, "alice")]]), arguments)
        let before = try folder.bytes("f.json")
        let broken = github([[(2, "bob")], [(3, "carol")]], lostAt: 2)
        let (status, out, err) = await run(broken, arguments)
        #expect(status == 1)
        #expect(out.isEmpty)
        #expect(err.hasSuffix("gh-users: the snapshot file '\(folder("f.json"))' was left as it was.\n"), "\(err)")
        #expect(try folder.bytes("f.json") == before)
    }

    @Test func aReaderThatLeftBeforeTheEndLeavesTheSnapshotByteForByte() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let arguments = ["followers", "me", "--changes", folder("f.json"), "--format", "tsv"]
        _ = await run(github([[(1, "alice")]]), arguments)
        let before = try folder.bytes("f.json")
        // The changes go out in one write, which a reader that takes one byte and leaves (`| head -c1`) accepts.
        let (env, out, err) = AppEnvironment.test(http: github([[(2, "bob"), (3, "carol")]]))
        out.closeAfter(bytes: 1)
        let status = await GhUsersApp(environment: env).run(arguments)
        // Said, and a failure: a nightly `| grep -q` would otherwise see the same changes every night in silence.
        #expect(status == 1, "\(err.text)")
        #expect(out.text == "added\tbob\t2\t\nadded\tcarol\t3\t\nremoved\talice\t1\t\n")
        #expect(
            err.text
                == "gh-users: the reader of stdout went away before it took every change, so they were not "
                + "recorded and the next run reports them again.\ngh-users: the snapshot file '\(folder("f.json"))' "
                + "was left as it was.\n")
        #expect(try folder.bytes("f.json") == before)
    }

    @Test func aSnapshotOfAnotherListIsRefusedAndLeftAlone() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        _ = await run(github([[(1, "alice")]]), ["followers", "me", "--changes", folder("f.json")])
        let before = try folder.bytes("f.json")
        let other = StubTransport()
        let (status, out, err) = await run(other, ["following", "me", "--changes", folder("f.json")])
        #expect(status == 1)
        #expect(out.isEmpty)
        #expect(
            err == "gh-users: the snapshot file '\(folder("f.json"))' was made for 'gh-users followers me', not for "
                + "'gh-users following me'. It was left as it is: give each list its own snapshot file\n")
        #expect(other.calls.isEmpty)
        #expect(try folder.bytes("f.json") == before)
    }

    /// A `--mutual` snapshot is another list than the plain one: refused, left alone, nothing asked. Before the
    /// check (helper-337's FC1, killed by an end-to-end test alone), everyone not mutual was reported added.
    @Test func aMutualSnapshotIsNotThePlainLists() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let mutual = StubTransport()
        mutual.answer("GET /users/me", json: #"{"login":"me","id":9,"followers":2,"following":1}"#)
        mutual.answer("GET /users/me/followers?per_page=100", accounts: [1, 2])
        mutual.answer("GET /users/me/following?per_page=100", accounts: [1])
        #expect(await run(mutual, ["followers", "me", "--mutual", "--changes", folder("f.json")]).0 == 0)
        let before = try folder.bytes("f.json")
        let plain = StubTransport()
        plain.answer("GET /users/me", json: #"{"login":"me","id":9,"followers":2,"following":1}"#)
        plain.answer("GET /users/me/followers?per_page=100", accounts: [1, 2])
        let (status, out, err) = await run(plain, ["followers", "me", "--changes", folder("f.json")])
        #expect(status == 1)
        #expect(out.isEmpty)
        #expect(err.contains("was made for 'gh-users followers me --mutual'"), "\(err)")
        #expect(try folder.bytes("f.json") == before)
    }

    @Test func theTokensOwnListNeedsAToken() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let github = StubTransport()
        let (status, _, err) = await run(github, ["followers", "--changes", folder("f.json")], token: false)
        #expect(status == 4)
        #expect(err.contains("needs a token"))
        #expect(!FileManager.default.fileExists(atPath: folder("f.json")))
    }

    /// Without LOGIN the list is the token's own account's: a snapshot of one token's account is never compared
    /// with, nor replaced by, another's.
    @Test func anotherTokensAccountIsRefusedAndTheFileIsLeftByteForByte() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let arguments = ["followers", "--changes", folder("f.json"), "--format", "tsv"]
        let first = await run(github([[(1, "a"), (2, "b")]], login: nil, id: 9, profileLogin: "mona"), arguments)
        #expect(first.0 == 0, "\(first.2)")
        let before = try folder.bytes("f.json")
        #expect(
            String(decoding: before, as: UTF8.self).hasPrefix(
                #"{"version":2,"api_url":"https://api.github.com","command":"followers","account_id":9,"#
                    + #""login":"mona","#))
        let other = github([[(3, "c")]], login: nil, id: 10, profileLogin: "hubot")
        let (status, out, err) = await run(other, arguments)
        #expect(status == 1)
        #expect(out.isEmpty)
        #expect(
            err == "gh-users: the snapshot file '\(folder("f.json"))' was made for the followers of mona (account id "
                + "9), but the token's account is hubot (account id 10). It was left as it is: give each account its "
                + "own snapshot file\n")
        #expect(other.calls == ["GET /user"])
        #expect(try folder.bytes("f.json") == before)
    }

    /// A login that now belongs to another account (another id) is another account's list.
    @Test func aLoginTakenByAnotherAccountIsRefused() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let arguments = ["followers", "me", "--changes", folder("f.json")]
        _ = await run(github([[(1, "a")]], id: 9), arguments)
        let before = try folder.bytes("f.json")
        let (status, _, err) = await run(github([[(1, "a")]], id: 77), arguments)
        #expect(status == 1)
        #expect(err.contains("but the account me is me (account id 77)"), "\(err)")
        #expect(try folder.bytes("f.json") == before)
    }

    /// The account is its id: renamed, its snapshot carries on under the new login, and the run says so.
    @Test func aRenamedAccountCarriesOnAndSaysSo() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        _ = await run(github([[(1, "a"), (2, "b")]], id: 9), ["followers", "me", "--changes", folder("f.json")])
        let (status, out, err) = await run(
            github([[(1, "a"), (3, "c")]], login: "me-renamed", id: 9),
            ["followers", "me-renamed", "--changes", folder("f.json"), "--format", "tsv"])
        #expect(status == 0, "\(err)")
        #expect(out == "added\tc\t3\t\nremoved\tb\t2\t\n")
        #expect(
            err == "gh-users: me (account id 9) is now me-renamed; the snapshot in '\(folder("f.json"))' carries on "
                + "under the new login.\n")
        let recorded = try #require(try FollowSnapshotFile(path: folder("f.json")).load())
        #expect(recorded.subject.account == FollowSnapshot.Account(id: 9, login: "me-renamed"))
    }

    /// A version 1 snapshot (written before the account id was) whose login is the profile's, in any case,
    /// carries on: its changes are compared, and it is written back as version 2 with the profile's id.
    @Test func aVersion1SnapshotOfTheSameLoginCarriesOnAsVersion2() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        try Data(
            (#"{"version":1,"command":"followers","login":"ME","filter":null,"accounts":["#
                + "\n" + #"{"id":1,"login":"a"},"# + "\n" + #"{"id":2,"login":"b"}"# + "\n]}\n").utf8
        ).write(to: URL(fileURLWithPath: folder("f.json")))
        let (status, out, err) = await run(
            github([[(1, "a"), (3, "c")]], id: 9),
            ["followers", "me", "--changes", folder("f.json"), "--format", "tsv"])
        #expect(status == 0, "\(err)")
        #expect(out == "added\tc\t3\t\nremoved\tb\t2\t\n")
        #expect(
            err == "gh-users: the version 1 snapshot in '\(folder("f.json"))' is now version 2, which records the "
                + "account id too (me (account id 9)).\n")
        let recorded = try #require(try FollowSnapshotFile(path: folder("f.json")).load())
        #expect(
            recorded.subject
                == FollowSnapshotSubject(relation: .followers, account: .init(id: 9, login: "me"), filter: nil))
        #expect(recorded.accounts == accounts([(1, "a"), (3, "c")]))
    }

    /// A version 1 snapshot of another login is another account's list: refused, left byte for byte.
    @Test func aVersion1SnapshotOfAnotherLoginIsRefused() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let before = Array(#"{"version":1,"command":"followers","login":"hubot","filter":null,"accounts":[]}"#.utf8)
        try Data(before).write(to: URL(fileURLWithPath: folder("f.json")))
        let (status, out, err) = await run(
            github([[(1, "a")]], id: 9), ["followers", "me", "--changes", folder("f.json")])
        #expect(status == 1)
        #expect(out.isEmpty)
        #expect(
            err == "gh-users: the snapshot file '\(folder("f.json"))' was made for the followers of hubot, but the "
                + "account me is me (account id 9). It was left as it is: give each account its own snapshot file\n")
        #expect(try folder.bytes("f.json") == before)
    }

    /// A version 1 snapshot of the token's own account named no account ("login": null): it cannot be checked,
    /// so it is refused before any request, saying why and how to carry it on.
    @Test func aVersion1SnapshotWithoutALoginSaysWhyAndWhatToDo() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let before = Array(#"{"version":1,"command":"followers","login":null,"filter":null,"accounts":[]}"#.utf8)
        try Data(before).write(to: URL(fileURLWithPath: folder("f.json")))
        let other = StubTransport()
        let (status, out, err) = await run(other, ["followers", "--changes", folder("f.json")])
        #expect(status == 1)
        #expect(out.isEmpty)
        #expect(
            err == "gh-users: the snapshot file '\(folder("f.json"))' is a version 1 snapshot of the token's own "
                + "account (\"login\": null), which does not say whose account it is, so it cannot be checked "
                + "against this one. It was left as it is: if you know the account it was made for, write its login "
                + "in the file's \"login\" (\"login\": \"octocat\") and run again, and its changes carry on; "
                + "otherwise remove it to start again\n")
        #expect(other.calls.isEmpty)
        #expect(try folder.bytes("f.json") == before)
    }

    /// A list far below its profile's count (GitHub answered part of it) is not taken for everyone leaving.
    @Test(arguments: [0, 2])
    func aListThatCollapsedBelowItsProfilesCountIsRefused(left: Int) async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let arguments = ["followers", "me", "--changes", folder("f.json"), "--format", "tsv"]
        let five: [(Int64, String)] = [(1, "a"), (2, "b"), (3, "c"), (4, "d"), (5, "e")]
        _ = await run(github([five]), arguments)
        let before = try folder.bytes("f.json")
        let (status, out, err) = await run(github([Array(five.prefix(left))], followers: 5), arguments)
        #expect(status == 1)
        #expect(out.isEmpty)
        #expect(
            err == "gh-users: me's followers came back with \(Counted.text(left, "account")) while its profile "
                + "counts 5, so the list was not compared: GitHub answered only part of it; run again later\n"
                + "gh-users: the snapshot file '\(folder("f.json"))' was left as it was.\n")
        #expect(try folder.bytes("f.json") == before)
        // Three of five is more than half: people do leave.
        let (kept, changes, _) = await run(github([Array(five.prefix(3))], followers: 5), arguments)
        #expect(kept == 0)
        #expect(changes == "removed\td\t4\t\nremoved\te\t5\t\n")
    }

    /// A follower whose login GitHub cannot issue is refused at the first, never held, and never recorded.
    @Test func aFollowerWithALoginGitHubCannotIssueIsRefused() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let long = String(repeating: "z", count: 100_000)
        let (status, out, err) = await run(
            github([[(1, "a"), (2, long)]]), ["followers", "me", "--changes", folder("f.json")])
        #expect(status == 1)
        #expect(out.isEmpty)
        #expect(
            err == "gh-users: me's followers holds a login of 100000 bytes that GitHub cannot issue (a login is 1 to "
                + "39 letters, digits, '-' or '_'), which a snapshot cannot record, so nothing was compared\n"
                + "gh-users: nothing was recorded: the snapshot file '\(folder("f.json"))' was not made.\n")
        #expect(!FileManager.default.fileExists(atPath: folder("f.json")))
    }

    /// A set operation has no count of its own, but the lists it is worked out from have their profile's: one
    /// that came back empty while the profile counts people in it is refused, the numbers said, FILE as it was.
    /// A set that is empty because of what the lists hold (everyone not following back was unfollowed) is the
    /// set as it is (before: refused, "came back empty while the snapshot holds 2", every night after a clean-up).
    @Test func aSetFromAListThatCameBackEmptyIsRefusedAndAnEmptySetIsNot() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let arguments = ["followers", "me", "--mutual", "--changes", folder("m.json"), "--format", "tsv"]
        func graph(followers: [Int64] = [1, 2], following: [Int64], counted: Int, followed: Int = 2) -> StubTransport {
            let github = StubTransport()
            github.answer(
                "GET /users/me", json: #"{"login":"me","id":9,"followers":\#(followed),"following":\#(counted)}"#)
            github.answer("GET /users/me/followers?per_page=100", accounts: followers)
            github.answer("GET /users/me/following?per_page=100", accounts: following)
            return github
        }
        #expect(await run(graph(following: [1, 2], counted: 2), arguments).0 == 0)
        let before = try folder.bytes("m.json")
        // The list the set streams past (whom me follows), or the one it writes (me's followers), empty; or the
        // one it streams past cut short, 1 of the 3 its profile counts (before: the set {1}, "removed 2", exit 0).
        // Or either empty while the profile counts none either, where FILE's two were in both (helper-237: before,
        // recorded as both removed, exit 0).
        let cameBackEmpty =
            " came back empty while the snapshot holds 2 accounts, so the list was not compared: GitHub answers an "
            + "empty list for one the token can no longer see as well as for one everyone left. If everyone did "
            + "leave, those the snapshot file holds are who left: keep a copy of it, then remove it to start again"
        for (followers, following, counted, followed, said) in [
            (
                [Int64(1), 2], [Int64](), 2, 2,
                "me's following came back empty while the profile counts 2, so the set was not "
                    + "worked out: GitHub answers an empty list for one the token may not see"
            ),
            (
                [], [1, 2], 2, 2,
                "me's followers came back with 0 accounts while its profile counts 2, so the list was not "
                    + "compared: GitHub answered only part of it; run again later"
            ),
            (
                [1, 2], [1], 3, 2,
                "me's following came back with 1 account while its profile counts 3, so the list was not "
                    + "compared: GitHub answered only part of it; run again later"
            ),
            ([], [1, 2], 2, 0, "me's followers" + cameBackEmpty),
            ([1, 2], [], 0, 2, "me's following" + cameBackEmpty),
        ] {
            let (status, out, err) = await run(
                graph(followers: followers, following: following, counted: counted, followed: followed), arguments)
            #expect(status == 1)
            #expect(out.isEmpty)
            #expect(err == "gh-users: \(said)\ngh-users: the snapshot file '\(folder("m.json"))' was left as it was.\n")
            #expect(try folder.bytes("m.json") == before)
        }

        // me follows someone else now: no one is mutual, and both left the set.
        let (emptied, changes, said) = await run(graph(following: [3], counted: 1), arguments)
        #expect(emptied == 0, "\(said)")
        #expect(changes.split(separator: "\n").count == 2 && changes.hasPrefix("removed"), "\(changes)")
        #expect(try folder.bytes("m.json") != before)
    }

    /// What the reader would refuse (an id that is not positive, an empty login) is never written: the first run
    /// makes no file, a later one leaves it as it was.
    @Test(arguments: [Int64(0), -7])
    func anAccountTheReaderWouldRefuseIsNeverWritten(id: Int64) async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let arguments = ["followers", "me", "--changes", folder("f.json")]
        let (status, out, err) = await run(github([[(1, "a"), (id, "b")]]), arguments)
        #expect(status == 1)
        #expect(out.isEmpty)
        #expect(
            err == "gh-users: GitHub's list of followers me holds an account whose id is not positive or whose "
                + "login is empty, which a snapshot cannot record, so nothing was written.\n"
                + "gh-users: nothing was recorded: the snapshot file '\(folder("f.json"))' was not made.\n")
        #expect(!FileManager.default.fileExists(atPath: folder("f.json")))
        let empty = await run(github([[(1, "a"), (2, "")]]), arguments)
        #expect(empty.0 == 1)
        let profile = await run(github([[(1, "a")]], id: id), arguments)
        #expect(profile.0 == 1)
        #expect(profile.2.hasPrefix("gh-users: GitHub's profile of the account me has an id that is not positive"))
        #expect(!FileManager.default.fileExists(atPath: folder("f.json")))
        // A profile whose login is no GitHub login is refused before its list is read (helper-337's FC8 took out
        // one of the two checks that say so; the other, the snapshot account's own, is enough alone).
        let named = github([[(1, "a")]], login: nil, profileLogin: "a b")
        let badLogin = await run(named, ["followers", "--changes", folder("f.json")])
        #expect(badLogin.0 == 1)
        #expect(badLogin.2.contains("or a login that is no GitHub login"), "\(badLogin.2)")
        #expect(named.calls == ["GET /user"], "\(named.calls)")
        #expect(!FileManager.default.fileExists(atPath: folder("f.json")))
    }

    /// The list is bound as the set operations bind theirs: its profile's count and a margin.
    @Test func aListPastItsProfilesCountAndMarginStopsAndWritesNothing() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let endless = (1...1_100).map { (Int64($0), "u\($0)") }
        let (status, out, err) = await run(
            github([endless], followers: 2), ["followers", "me", "--changes", folder("f.json")])
        #expect(status == 1)
        #expect(out.isEmpty)
        #expect(
            err == "gh-users: me's followers ran past 1002 accounts (the 2 its profile counts, plus a margin of 1000), "
                + "so --changes stopped rather than read a list that does not end\n"
                + "gh-users: nothing was recorded: the snapshot file '\(folder("f.json"))' was not made.\n")
        #expect(!FileManager.default.fileExists(atPath: folder("f.json")))
    }

    /// `--not-followed-back` of an account that follows no one (its profile counts 0): every follower is in the
    /// set, and the empty following list is no collapse of the set FILE holds, so the run compares and records
    /// (helper-328: holding FILE's set for any empty list went unseen).
    @Test func aDifferenceWhoseOtherListIsTrulyEmptyIsCompared() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let arguments = ["followers", "me", "--not-followed-back", "--changes", folder("n.json"), "--format", "tsv"]
        func graph(followers: [Int64]) -> StubTransport {
            let github = StubTransport()
            github.answer(
                "GET /users/me",
                json: #"{"login":"me","id":9,"followers":\#(followers.count),"following":0}"#)
            github.answer("GET /users/me/followers?per_page=100", accounts: followers)
            github.answer("GET /users/me/following?per_page=100", accounts: [])
            return github
        }
        let first = await run(graph(followers: [1, 2]), arguments)
        #expect(first.0 == 0, "\(first.2)")
        let (status, out, err) = await run(graph(followers: [1, 2, 3]), arguments)
        #expect(status == 0, "\(err)")
        #expect(out.hasPrefix("added\t"), "\(out)")
    }
}
