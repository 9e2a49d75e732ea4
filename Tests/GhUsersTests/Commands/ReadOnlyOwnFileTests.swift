import Foundation
import TestSupport
import Testing

@testable import gh_users

/// A snapshot or state file its owner made read-only (`chmod a-w`, a baseline kept to compare with) is refused
/// before anything is asked: exit 1, nothing written, the file byte for byte and still read-only. Before, the run
/// compared with it and renamed its new snapshot over it, since a rename needs only the folder's write permission,
/// and the baseline was gone without a word.
struct ReadOnlyOwnFileTests {
    static let access =
        #"{"version":1,"command":"access","of":"octo-org","filters":{},"access":["# + "\n"
        + #"{"repository":"octo-org/api","login":"octocat","id":3,"permission":"read","sources":[]}"# + "\n]}\n"

    @Test(arguments: [
        (
            ["members", "github", "--changes"], "snapshot file", "--changes",
            SnapshotServerTests.people("members", "github", root: nil)
        ),
        (["followers", "me", "--changes"], "snapshot file", "--changes", SnapshotServerTests.followers(root: nil)),
        (["access", "octo-org", "--changes"], "snapshot file", "--changes", Self.access),
        (
            ["list", "--format", "csv", "--state"], "state file", "--state",
            String(decoding: CrawlState(since: 5, outputBytes: nil, output: nil).encoded, as: UTF8.self)
        ),
    ])
    func aReadOnlyFileIsRefusedAndKept(arguments: [String], kind: String, option: String, text: String) async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let file = folder("kept.json")
        try SnapshotServerTests.write(text, to: file)
        #expect(chmod(file, 0o444) == 0)
        let harness = CommandHarness.signedIn()
        let run = await harness.run(arguments + [file])
        #expect(run.status == 1, "\(run.err)")
        #expect(run.out.isEmpty, "\(run.out)")
        #expect(
            run.err
                == "gh-users: the \(kind) '\(file)' is read-only (mode 0444), and a run replaces it with what it "
                + "finds. It was left as it is: make it writable (chmod u+w \(file)) to go on from it, or give "
                + "\(option) another file\n", "\(run.err)")
        #expect(harness.http.calls.isEmpty, "\(harness.http.calls)")
        #expect(String(decoding: try SnapshotServerTests.bytes(file), as: UTF8.self) == text)
        var info = stat()
        #expect(stat(file, &info) == 0 && info.st_mode & 0o777 == 0o444)
    }
}
