import Foundation
import TestSupport
import Testing

@testable import gh_users

/// A snapshot or state file its owner made read-only (`chmod a-w`, a baseline kept to compare with) is not
/// replaced: the run that would replace it stops there, exit 1, nothing written, the file byte for byte and still
/// read-only. Before, a rename (which needs only the folder's write permission) replaced it without a word. The
/// check is made where a replacement is prepared, so a finished shard's state, never replaced, still reads (a
/// regression review found the first version, which checked on reading, failing such a shard).
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
            + "left as it is: make it writable (chmod u+w -- \(file)) to go on from it, or give \(option) another file"
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

    /// A snapshot is replaced once the list is read: the changes are not written, and the next run (made
    /// writable) reports them.
    @Test func aReadOnlySnapshotIsNotReplacedAndItsChangesNotWritten() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let text = SnapshotServerTests.followers(root: nil)
        let file = try Self.readOnly(text, in: folder)
        let harness = CommandHarness.signedIn()
        harness.http.answer("GET /users/me", json: #"{"login":"me","id":9,"followers":2,"following":0}"#)
        harness.http.answer("GET /users/me/followers?per_page=100", accounts: [1, 2], logins: [1: "alice", 2: "bob"])
        let run = await harness.run(["followers", "me", "--changes", file, "--format", "tsv"])
        #expect(run.status == 1, "\(run.err)")
        #expect(run.out.isEmpty, "\(run.out)")
        #expect(
            run.err
                == Self.refusal("snapshot file", file, "--changes") + ". Nothing was written.\n"
                + "gh-users: the snapshot file '\(file)' was left as it was.\n", "\(run.err)")
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
