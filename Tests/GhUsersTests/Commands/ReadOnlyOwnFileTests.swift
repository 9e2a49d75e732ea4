import Foundation
import TestSupport
import Testing

@testable import gh_users

/// A snapshot or state file its owner made read-only (`chmod a-w`, a baseline kept to compare with) is not
/// replaced: the run that would replace it stops there, exit 1, nothing written, the file byte for byte and still
/// read-only. Before, a rename (which needs only the folder's write permission) replaced it without a word. The
/// check is made where a replacement is prepared, and by `--changes` once the file is known to be its list's, so a
/// finished shard's state, never replaced, still reads, and another list's file is called that (a regression
/// review found the first version, which checked on reading, failing such a shard).
struct ReadOnlyOwnFileTests {
    static func readOnly(_ text: String, in folder: Folder) throws -> String {
        let file = folder("kept.json")
        try SnapshotServerTests.write(text, to: file)
        #expect(chmod(file, 0o444) == 0)
        return file
    }

    static func expectKept(_ file: String, _ text: String) throws {
        #expect(String(decoding: try SnapshotServerTests.bytes(file), as: UTF8.self) == text)
        var info = stat()
        #expect(stat(file, &info) == 0 && info.st_mode & 0o777 == 0o444)
    }

    static func refusal(_ kind: String, _ file: String, _ option: String) -> String {
        "gh-users: the \(kind) '\(file)' is read-only (mode 0444), and a run replaces it with what it finds. It was "
            + "left as it is: make it writable (chmod u+w -- \(ShellWord.quote(file))) to go on from it, or give \(option) "
            + "another file"
    }

    /// A crawl's state is written before its first request: none is sent.
    @Test func aReadOnlyStateIsRefusedBeforeTheFirstRequest() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let text = #"{"version":1,"since":5,"format":"csv"}"#
        let file = try Self.readOnly(text, in: folder)
        let harness = CommandHarness.signedIn()
        let run = await harness.run(["list", "--format", "csv", "--state", file])
        #expect(run.status == 1, "\(run.err)")
        #expect(run.out.isEmpty, "\(run.out)")
        #expect(run.err.hasPrefix(Self.refusal("state file", file, "--state")), "\(run.err)")
        #expect(harness.http.calls.isEmpty, "\(harness.http.calls)")
        try Self.expectKept(file, text)
    }

    /// A state that needs nothing added, so the run did not rewrite it before its first request: a crawl's, and an
    /// access map's begun. Read-only, each is refused before any request (a review found a page, and a
    /// repository's records, written before the refusal).
    @Test(arguments: [
        (["list", "--format", "csv"], #"{"version":1,"since":5,"format":"csv","api_url":"https://api.github.com"}"#),
        (
            ["access", "octo-org", "--format", "tsv"],
            String(
                decoding: AccessState(
                    organization: "octo-org", filters: [:], format: .tsv, fields: nil, apiURL: "https://api.github.com"
                ).encoded, as: UTF8.self)
        ),
    ])
    func aCompleteReadOnlyStateIsRefusedBeforeTheFirstRequest(arguments: [String], text: String) async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let file = try Self.readOnly(text, in: folder)
        let harness = CommandHarness.signedIn()
        let run = await harness.run(arguments + ["--state", file])
        #expect(run.status == 1, "\(run.err)")
        #expect(run.out.isEmpty, "\(run.out)")
        #expect(run.err == Self.refusal("state file", file, "--state") + "\n", "\(run.err)")
        #expect(harness.http.calls.isEmpty, "\(harness.http.calls)")
        try Self.expectKept(file, text)
    }

    static let access =
        #"{"version":1,"command":"access","of":"octo-org","filters":{},"access":["# + "\n"
        + #"{"repository":"octo-org/api","login":"octocat","id":3,"permission":"read","sources":[]}"# + "\n]}\n"

    /// A snapshot of the list asked for is refused before the first request: no change is written, and the next
    /// run (made writable) reports them.
    @Test(arguments: [
        (["members", "github"], SnapshotServerTests.people("members", "github", root: nil)),
        (["followers", "me"], SnapshotServerTests.followers(root: nil)), (["access", "octo-org"], Self.access),
    ])
    func aReadOnlySnapshotIsRefusedBeforeTheFirstRequest(arguments: [String], text: String) async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let file = try Self.readOnly(text, in: folder)
        let harness = CommandHarness.signedIn()
        let run = await harness.run(arguments + ["--changes", file, "--format", "csv"])
        #expect(run.status == 1, "\(run.err)")
        #expect(run.out.isEmpty, "\(run.out)")
        #expect(run.err == Self.refusal("snapshot file", file, "--changes") + "\n", "\(run.err)")
        #expect(harness.http.calls.isEmpty, "\(harness.http.calls)")
        try Self.expectKept(file, text)
    }

    /// An immutable snapshot (`chattr +i`, which root's writes cannot pass either) is refused before the first
    /// request too: its rename failed after the changes were written, and every later run wrote them again
    /// (helper-343's find 8).
    @Test(.enabled(if: UnwritableFolder.available, "needs a file that can be locked against whoever runs this"))
    func anImmutableSnapshotIsRefusedBeforeTheFirstRequest() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let file = folder("kept.json")
        let text = SnapshotServerTests.followers(root: nil)
        try SnapshotServerTests.write(text, to: file)
        let url = URL(fileURLWithPath: file)
        try #require(UnwritableFolder.lock(url))
        defer { UnwritableFolder.unlock(url) }
        let harness = CommandHarness.signedIn()
        let run = await harness.run(["followers", "me", "--changes", file])
        #expect(run.status == 1, "\(run.err)")
        #expect(run.out.isEmpty, "\(run.out)")
        let fix = geteuid() == 0 ? "chattr -i" : "chmod u+w"
        let how = geteuid() == 0 ? "immutable (chattr +i)" : "read-only (mode 0500)"
        #expect(
            run.err
                == "gh-users: the snapshot file '\(file)' is \(how), and a run replaces it with what it finds. It was "
                + "left as it is: make it writable (\(fix) -- \(ShellWord.quote(file))) to go on from it, or give "
                + "--changes another file\n", "\(run.err)")
        #expect(harness.http.calls.isEmpty, "\(harness.http.calls)")
    }

    /// Another list's snapshot is called that, read-only or not: making it writable would not let this run use it.
    @Test func anotherListsReadOnlySnapshotIsCalledAnotherListsFirst() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let text = SnapshotServerTests.followers(root: nil)
        let file = try Self.readOnly(text, in: folder)
        let harness = CommandHarness.signedIn()
        let run = await harness.run(["following", "me", "--changes", file])
        #expect(run.status == 1, "\(run.err)")
        #expect(run.err.contains("was made for 'gh-users followers me'"), "\(run.err)")
        #expect(!run.err.contains("read-only"), "\(run.err)")
        try Self.expectKept(file, text)
    }

    /// A follower snapshot names its account by login, which only the profile ties to an account: one named by
    /// another login is called another account's when the profile says so, read-only or not, and one of a renamed
    /// account is refused as read-only after its profile, before its list is asked for.
    @Test(arguments: [
        ("octocat", 3, "was made for the followers of me (account id 9)"), ("me-renamed", 9, "read-only"),
    ])
    func aReadOnlyFollowerSnapshotNamedByAnotherLoginIsCheckedOnceItsProfileIsRead(
        login: String, id: Int, said: String
    ) async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let text = SnapshotServerTests.followers(root: nil)
        let file = try Self.readOnly(text, in: folder)
        let harness = CommandHarness.signedIn()
        harness.http.answer(
            "GET /users/\(login)", json: #"{"login":"\#(login)","id":\#(id),"followers":1,"following":0}"#)
        let run = await harness.run(["followers", login, "--changes", file])
        #expect(run.status == 1, "\(run.err)")
        #expect(run.out.isEmpty, "\(run.out)")
        #expect(run.err.contains(said), "\(run.err)")
        #expect(run.err.components(separatedBy: "gh-users:").count == 2, "one refusal: \(run.err)")
        #expect(harness.http.calls == ["GET /users/\(login)"], "\(harness.http.calls)")
        try Self.expectKept(file, text)
    }

    /// A shard crawled to its end replaces nothing: read-only, it is still nothing to do, exit 0.
    @Test func aFinishedShardsReadOnlyStateIsNothingToDo() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let text = String(decoding: CrawlState(since: 5, outputBytes: nil, output: nil).encoded, as: UTF8.self)
        let file = try Self.readOnly(text, in: folder)
        let harness = CommandHarness.signedIn()
        let run = await harness.run(["list", "--since", "0", "--until", "5", "--format", "csv", "--state", file])
        #expect(run.status == 0, "\(run.err)")
        #expect(harness.http.calls.isEmpty, "\(harness.http.calls)")
        try Self.expectKept(file, text)
    }
}
