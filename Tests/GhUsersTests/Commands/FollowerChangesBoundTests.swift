import Foundation
import TestSupport
import Testing

@testable import gh_users

/// A hostile or broken server cannot make `--changes` or `--mutual` hold a list without end, nor make
/// `--changes` write a snapshot its reader refuses. The answers are GitHub's documented octocat profile (its
/// count of followers or following changed to a claim) and a recorded two-page follower list (55 accounts; see
/// Bodies/NOTICE.md). The limits are lowered for the run, so no test pages millions of accounts.
struct FollowerChangesBoundTests {
    /// GitHub's documented octocat profile, counting `followers` and `following` as given.
    private static func profile(followers: String, following: String) -> Data {
        let text = String(decoding: Bodies.named("users-get-by-username"), as: UTF8.self)
            .replacingOccurrences(of: #""followers": 20,"#, with: #""followers": \#(followers),"#)
            .replacingOccurrences(of: #""following": 0,"#, with: #""following": \#(following),"#)
        return Data(text.utf8)
    }

    /// The recorded 55 accounts, in two pages, as `relation` of octocat.
    private static func expectTwoPages(_ harness: CommandHarness, _ relation: String) {
        harness.expect(
            "GET /users/octocat/\(relation)?per_page=100",
            headers: [("Link", #"<https://api.github.com/user/1/\#(relation)?page=2>; rel="next""#)],
            body: "followers-page-1")
        harness.expect("GET /user/1/\(relation)?page=2", body: "followers-page-2")
    }

    private func folder() throws -> (URL, () -> Void) {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("gh-users-bound-\(UUID())")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return (url, { try? FileManager.default.removeItem(at: url) })
    }

    /// A profile that claims `Int.max` followers does not lift the bound: the list stops at the most gh-users
    /// reads of one list, and nothing is written.
    @Test func aProfileClaimingIntMaxFollowersStillBindsChanges() async throws {
        let (directory, remove) = try folder()
        defer { remove() }
        let path = directory.appendingPathComponent("f.json").path
        let harness = CommandHarness()
        harness.http.register(
            RequestMatcher("GET /users/octocat"), body: Self.profile(followers: "\(Int.max)", following: "0"))
        Self.expectTwoPages(harness, "followers")
        let run = await FollowGraph.$maximumAccounts.withValue(40) {
            await harness.run(["followers", "octocat", "--changes", path])
        }
        #expect(run.status == 1)
        #expect(run.out.isEmpty)
        #expect(
            run.err
                == "gh-users: octocat's followers ran past 40 accounts (its profile counts \(Int.max); 40 is the most "
                + "gh-users reads of one list), so --changes stopped rather than read a list that does not end\n"
                + "gh-users: nothing was recorded: the snapshot file '\(path)' was not made.\n")
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    /// The same for a set operation: both counts claimed huge, the list held is bound all the same.
    @Test func aProfileClaimingHugeCountsStillBindsMutual() async {
        let harness = CommandHarness()
        harness.http.register(
            RequestMatcher("GET /users/octocat"),
            body: Self.profile(followers: "\(Int.max)", following: "\(Int.max)"))
        Self.expectTwoPages(harness, "following")
        let run = await FollowGraph.$maximumAccounts.withValue(40) {
            await harness.run(["followers", "octocat", "--mutual", "--json"])
        }
        #expect(run.status == 1)
        #expect(run.out.isEmpty)
        #expect(
            run.err
                == "gh-users: octocat's following ran past 40 accounts (its profile counts \(Int.max); 40 is the "
                + "most gh-users reads of one list), so --mutual stopped rather than read a list that does not end\n")
    }

    /// A snapshot larger than the reader takes is never written: the file is left byte for byte, so the next
    /// run is not refused.
    @Test func aSnapshotLargerThanTheReaderTakesIsNotWritten() async throws {
        let (directory, remove) = try folder()
        defer { remove() }
        let path = directory.appendingPathComponent("f.json").path
        let before = FollowSnapshot(
            subject: FollowSnapshotSubject(relation: .followers, account: .init(id: 1, login: "octocat"), filter: nil),
            accounts: [.init(id: 6939, login: "tadasv")]
        ).encoded
        try Data(before).write(to: URL(fileURLWithPath: path))
        let harness = CommandHarness()
        harness.expect("GET /users/octocat", body: "users-get-by-username")
        Self.expectTwoPages(harness, "followers")
        let run = await SnapshotFiles.$limitBytes.withValue(1_000) {
            await harness.run(["followers", "octocat", "--changes", path])
        }
        #expect(run.status == 1)
        #expect(run.out.isEmpty)
        #expect(
            run.err.hasPrefix("gh-users: the snapshot of followers octocat (55 accounts) would take "), "\(run.err)")
        #expect(
            run.err.hasSuffix(
                " bytes, more than the 1000 a snapshot file is read back with, so nothing was compared or written.\n"
                    + "gh-users: the snapshot file '\(path)' was left as it was.\n"), "\(run.err)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(before))
        #expect(!FileManager.default.fileExists(atPath: path + ".tmp"))
    }
}
