import Foundation
import GitHubStandIn
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `followers --changes FILE` through the built binary, as a nightly job runs it: runs across a follow, an
/// unfollow and a rename on the stand-in, a run that fails part-way and leaves FILE as it was, and the set
/// operations.
struct FollowerChangesEndToEndTests {
    /// Any token: the stand-in grants it 5,000 requests an hour, where anonymous callers get 60.
    private let reader = ["GH_TOKEN": "ghp_followerchanges"]
    private let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("gh-users-changes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    private var snapshot: String { folder.appendingPathComponent("followers.json").path }

    private func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    /// An account with a few pages of followers (at 5 a page), and people to follow it and to leave.
    private func account(_ server: StandInServer) throws -> StandInUser {
        try #require(
            server.population.users.first { user in
                user.type == "User" && (12...60).contains(server.followGraph.followers(of: user).count)
            })
    }

    private func changes(_ server: StandInServer, _ login: String, _ extra: [String] = []) async throws -> RunResult {
        try await BinaryRunner.run(
            ["followers", login, "--changes", snapshot, "--per-page", "5", "--api-url", server.baseURL, "--no-cache"]
                + extra,
            environment: reader)
    }

    /// The followers of an account recorded in the snapshot, then three of them gone: the account, and the
    /// snapshot's bytes.
    private func recordThenThreeLeave(_ server: StandInServer) async throws -> (StandInUser, Data) {
        let target = try account(server)
        let leavers = Array(server.followGraph.followers(of: target).prefix(3))
        #expect(try await changes(server, target.login).status == 0)
        let before = try bytes(snapshot)
        for leaver in leavers { try await asUser(leaver.login, ["unfollow", "--yes", target.login], server) }
        return (target, before)
    }

    private func asUser(_ login: String, _ arguments: [String], _ server: StandInServer) async throws {
        let result = try await BinaryRunner.run(
            arguments + ["--api-url", server.baseURL], environment: ["GH_TOKEN": StandInTokens.token(for: login)])
        #expect(result.status == 0, "\(arguments): \(result.stderr)")
    }

    @Test func threeRunsAcrossAFollowAnUnfollowAndARename() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try await withStandIn(users: 1000) { server in
            let target = try account(server)
            let followers = server.followGraph.followers(of: target)
            let first = try await changes(server, target.login, ["--format", "tsv"])
            #expect(first.status == 0, "\(first.stderr)")
            #expect(first.stdout.isEmpty)
            #expect(
                first.stderr
                    == "gh-users: recorded the \(followers.count) accounts of 'gh-users followers \(target.login)' in "
                    + "'\(snapshot)'; from the next run on, --changes writes who came and went.\n")
            let attributes = try FileManager.default.attributesOfItem(atPath: snapshot)
            #expect(attributes[.posixPermissions] as? Int == 0o600)
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["followers.json"])

            let newcomer = try #require(
                server.population.users.first { user in
                    user.type == "User" && user.id != target.id && !followers.contains { $0.id == user.id }
                })
            let leaver = followers[3]
            try await asUser(newcomer.login, ["follow", target.login], server)
            try await asUser(leaver.login, ["unfollow", "--yes", target.login], server)
            let second = try await changes(server, target.login, ["--format", "tsv"])
            #expect(second.status == 0, "\(second.stderr)")
            #expect(
                second.stdout
                    == "added\t\(newcomer.login)\t\(newcomer.id)\t\nremoved\t\(leaver.login)\t\(leaver.id)\t\n")
            #expect(second.stderr.isEmpty)

            let renamed = followers[7]
            server.followGraph.rename(renamed, to: "renamed-since")
            let third = try await changes(server, target.login, ["--format", "ndjson"])
            #expect(third.status == 0, "\(third.stderr)")
            #expect(
                third.stdout
                    == #"{"change":"renamed","login":"renamed-since","id":\#(renamed.id),"previous_login":"\#(renamed.login)"}"#
                    + "\n")
            // Nothing changed since: nothing written, and a pipe hears nothing on stderr either.
            let fourth = try await changes(server, target.login, ["--json"])
            #expect(fourth.status == 0)
            #expect(fourth.stdout == "[]\n")
            #expect(fourth.stderr.isEmpty)
        }
    }

    @Test(arguments: [
        ("a server error", StandInFault.status(502, body: #"{"message":"Bad Gateway"}"#), Int32(1)),
        ("a spent rate limit", StandInFault.primaryRateLimitExhausted(resetAfterSeconds: 600), Int32(5)),
    ])
    func aRunThatFailsOnPageTwoLeavesTheSnapshotAsItWas(name: String, fault: StandInFault, status: Int32) async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try await withStandIn(users: 1000) { server in
            let target = try account(server)
            let followers = server.followGraph.followers(of: target)
            #expect(try await changes(server, target.login).status == 0)
            let before = try bytes(snapshot)
            try await asUser(followers[0].login, ["unfollow", "--yes", target.login], server)
            server.injectFaults([fault], forPath: "/user/\(target.id)/followers")
            let failed = try await changes(server, target.login, ["--retries", "0"])
            #expect(failed.status == status, "\(name): \(failed.stderr)")
            #expect(failed.stdout.isEmpty)
            #expect(failed.stderr.hasSuffix("gh-users: the snapshot file '\(snapshot)' was left as it was.\n"))
            #expect(try bytes(snapshot) == before, "\(name)")
            // The change the failed run could not report is not lost: the next one reports it.
            let next = try await changes(server, target.login)
            #expect(next.status == 0, "\(next.stderr)")
            #expect(next.stdout == "removed\t\(followers[0].login)\t\(followers[0].id)\t\n")
        }
    }

    @Test func changesThatCannotBeWrittenAreNotRecorded() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try await withStandIn(users: 1000) { server in
            let target = try account(server)
            let leaver = server.followGraph.followers(of: target)[0]
            #expect(try await changes(server, target.login).status == 0)
            let before = try bytes(snapshot)
            try await asUser(leaver.login, ["unfollow", "--yes", target.login], server)
            let full = try await BinaryRunner.shell(
                #""$GH_USERS" followers \#(target.login) --changes '\#(snapshot)' --api-url \#(server.baseURL) > /dev/full"#,
                environment: reader)
            #expect(full.status == 1, "\(full.stderr)")
            #expect(full.stderr.hasPrefix("gh-users: cannot write"), "\(full.stderr)")
            #expect(full.stderr.hasSuffix("gh-users: the snapshot file '\(snapshot)' was left as it was.\n"))
            #expect(try bytes(snapshot) == before)
            let next = try await changes(server, target.login)
            #expect(next.stdout == "removed\t\(leaver.login)\t\(leaver.id)\t\n")
        }
    }

    @Test func aClosedPipeBeforeTheLastChangeLeavesTheSnapshotAsItWas() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try await withStandIn(users: 1000) { server in
            let (target, before) = try await recordThenThreeLeave(server)
            let head = try await BinaryRunner.shell(
                #""$GH_USERS" followers \#(target.login) --changes '\#(snapshot)' --per-page 5 --api-url \#(server.baseURL) --no-cache --format tsv | head -1"#,
                environment: reader)
            #expect(head.status == 0, "\(head.stderr)")
            #expect(head.stdout.split(separator: "\n").count == 1)
            #expect(try bytes(snapshot) == before)
            // The changes the pipe never showed are not lost: the next run reports them all.
            let next = try await changes(server, target.login)
            #expect(next.status == 0, "\(next.stderr)")
            #expect(next.stdout.split(separator: "\n").count == 3)
        }
    }

    @Test func anInterruptLeavesTheSnapshotAsItWas() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try await withStandIn(users: 1000) { server in
            let target = try account(server)
            #expect(try await changes(server, target.login).status == 0)
            let before = try bytes(snapshot)
            // The announcement of the wait is the first output; the interrupt comes while it waits.
            server.injectFaults([.secondaryRateLimit(retryAfterSeconds: 30)], forPath: "/user/\(target.id)/followers")
            let result = try await BinaryRunner.run(
                ["followers", target.login, "--changes", snapshot, "--per-page", "5", "--api-url", server.baseURL],
                environment: reader, interruptAfter: 0.3)
            #expect(result.status == 130, "\(result.stderr)")
            #expect(result.stdout.isEmpty)
            #expect(result.stderr.contains("was left as it was"))
            #expect(try bytes(snapshot) == before)
        }
    }

    /// `… --changes F | grep -q removed`: the reader leaves once it has what it wants. F is not advanced, and
    /// stderr says so and why (exit 1), rather than the same alert every night in silence.
    @Test func aReaderThatLeavesIsToldFileWasNotUpdated() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try await withStandIn(users: 1000) { server in
            let (target, before) = try await recordThenThreeLeave(server)
            let grep = try await BinaryRunner.shell(
                #"{ "$GH_USERS" followers \#(target.login) --changes '\#(snapshot)' --per-page 5 --api-url \#(server.baseURL) --no-cache --format tsv; echo "exit $?" >&2; } | grep -q removed"#,
                environment: reader)
            #expect(grep.status == 0)
            #expect(
                grep.stderr.contains("the reader of stdout went away before it took every change"), "\(grep.stderr)")
            #expect(grep.stderr.hasSuffix("was left as it was.\nexit 1\n"), "\(grep.stderr)")
            #expect(try bytes(snapshot) == before)
        }
    }

    /// stdout a socket (systemd's `StandardOutput=socket`, the journal's stream) whose peer leaves without
    /// reading the changes: F is not advanced, exit 1, as for a pipe's reader (before: exit 0 and F replaced, the
    /// changes lost; helper-365).
    @Test func aSocketsPeerThatLeavesUnreadLeavesTheSnapshot() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try await withStandIn(users: 1000) { server in
            let (target, before) = try await recordThenThreeLeave(server)
            var ends: [Int32] = [0, 0]
            try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0)
            let errors = folder.appendingPathComponent("stderr").path
            let stderr = open(errors, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
            try #require(stderr >= 0)
            let process = try SpawnedProcess(
                executable: BinaryRunner.binary.path,
                arguments: [
                    "followers", target.login, "--changes", snapshot, "--per-page", "5", "--api-url", server.baseURL,
                    "--no-cache", "--format", "tsv",
                ],
                environment: reader.merging(["PATH": "/usr/bin:/bin", "HOME": folder.path]) { $1 },
                directory: folder.path, stdout: ends[0], stderr: stderr)
            close(ends[0])
            close(stderr)
            let peer = ends[1]
            let status: Int32 = await withCheckedContinuation { continuation in
                process.onExit { continuation.resume(returning: $0) }
                // The peer waits for the changes to be written whole (none more for 300 ms, or the run ended),
                // then leaves without reading them.
                DispatchQueue.global().async {
                    var poller = pollfd(fd: peer, events: Int16(POLLIN), revents: 0)
                    _ = poll(&poller, 1, 30_000)
                    var held: Int32 = -1
                    var count: Int32 = 0
                    while process.isRunning, ioctl(peer, UInt(FIONREAD), &count) == 0, count != held {
                        held = count
                        usleep(300_000)
                    }
                    close(peer)
                }
            }
            let said = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
            #expect(status == 1, "\(said)")
            #expect(said.hasSuffix("was left as it was.\n"), "\(said)")
            #expect(try bytes(snapshot) == before)
        }
    }

    /// SIGTERM while the changes wait in the pipe for their reader: exit 143, F as it was. The shell holds the
    /// FIFO's reading end and takes one byte, so the run has written its changes and waits for the rest.
    @Test func aSigtermWhileTheReaderHasTheChangesLeavesTheSnapshot() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try await withStandIn(users: 1000) { server in
            let (target, before) = try await recordThenThreeLeave(server)
            let fifo = folder.appendingPathComponent("out").path
            let run = try await BinaryRunner.shell(
                #"mkfifo '\#(fifo)'; exec 3<>'\#(fifo)'; "$GH_USERS" followers \#(target.login) --changes '\#(snapshot)' --per-page 5 --api-url \#(server.baseURL) --no-cache --format tsv > '\#(fifo)' & pid=$!; head -c 1 <&3 > /dev/null; kill -TERM $pid; wait $pid; echo "exit $?""#,
                environment: reader)
            #expect(run.stdout == "exit 143\n", "\(run.stderr)")
            #expect(run.stderr.contains("was left as it was"), "\(run.stderr)")
            #expect(try bytes(snapshot) == before)
        }
    }

    @Test func mutualFollowersAreTheSetTheSnapshotHolds() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try await withStandIn(users: 1000) { server in
            let target = try #require(
                server.population.users.first { user in
                    let followers = server.followGraph.followers(of: user)
                    return user.type == "User" && followers.count >= 5
                        && followers.contains { server.followGraph.follows(user, $0) }
                        && followers.contains { $0.type == "User" && !server.followGraph.follows(user, $0) }
                })
            let followers = server.followGraph.followers(of: target)
            let mutual = followers.filter { server.followGraph.follows(target, $0) }
            let first = try await changes(server, target.login, ["--mutual"])
            #expect(first.status == 0, "\(first.stderr)")
            #expect(
                first.stderr.contains(
                    "recorded the \(mutual.count) accounts of 'gh-users followers \(target.login) --mutual'"))
            let recorded = try #require(try JSONSerialization.jsonObject(with: bytes(snapshot)) as? [String: Any])
            #expect(recorded["filter"] as? String == "mutual")
            #expect((recorded["accounts"] as? [[String: Any]])?.compactMap { $0["id"] as? Int } == mutual.map(\.id))

            // Following a follower back makes a mutual follower.
            let followedBack = try #require(
                followers.first { $0.type == "User" && !server.followGraph.follows(target, $0) })
            try await asUser(target.login, ["follow", followedBack.login], server)
            let second = try await changes(server, target.login, ["--mutual"])
            #expect(second.status == 0, "\(second.stderr)")
            #expect(second.stdout == "added\t\(followedBack.login)\t\(followedBack.id)\t\n")

            // The same file for the whole list is another list's snapshot: refused, and left alone.
            let before = try bytes(snapshot)
            let whole = try await changes(server, target.login)
            #expect(whole.status == 1)
            #expect(whole.stdout.isEmpty)
            #expect(
                whole.stderr
                    == "gh-users: the snapshot file '\(snapshot)' was made for 'gh-users followers \(target.login) "
                    + "--mutual', not for 'gh-users followers \(target.login)'. It was left as it is: give each list "
                    + "its own snapshot file\n")
            #expect(try bytes(snapshot) == before)
        }
    }

    /// Without LOGIN the snapshot is of the token's own account, known by its id: another token's account is
    /// refused, and FILE is left byte for byte.
    @Test func anotherTokensAccountIsRefusedAndTheSnapshotLeftAsItWas() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try await withStandIn(users: 1000) { server in
            let first = try account(server)
            let second = try #require(
                server.population.users.first { user in
                    user.type == "User" && user.id != first.id && !server.followGraph.followers(of: user).isEmpty
                })
            func own(_ user: StandInUser) async throws -> RunResult {
                try await BinaryRunner.run(
                    ["followers", "--changes", snapshot, "--api-url", server.baseURL, "--no-cache"],
                    environment: ["GH_TOKEN": StandInTokens.token(for: user.login)])
            }
            let recorded = try await own(first)
            #expect(recorded.status == 0, "\(recorded.stderr)")
            let before = try bytes(snapshot)
            let other = try await own(second)
            #expect(other.status == 1)
            #expect(other.stdout.isEmpty)
            #expect(
                other.stderr
                    == "gh-users: the snapshot file '\(snapshot)' was made for the followers of \(first.login) "
                    + "(account id \(first.id)), but the token's account is \(second.login) (account id "
                    + "\(second.id)). It was left as it is: give each account its own snapshot file\n")
            #expect(try bytes(snapshot) == before)
            #expect(!server.requests.contains { $0.path.hasSuffix("/followers") && $0.path.contains("\(second.id)") })
        }
    }

    @Test func aHeldLockOrACorruptFileIsExitOneWithNothingSent() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try await withStandIn(users: 100) { server in
            let lock = open(snapshot + ".lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
            #expect(lock >= 0 && flock(lock, LOCK_EX | LOCK_NB) == 0)
            let locked = try await changes(server, "octocat")
            close(lock)
            #expect(locked.status == 1)
            #expect(locked.stderr.hasPrefix("gh-users: another gh-users run is using the snapshot file '\(snapshot)'"))
            #expect(!FileManager.default.fileExists(atPath: snapshot))

            try Data("{\"version\":2,\"accounts\":42}\n".utf8).write(to: URL(fileURLWithPath: snapshot))
            let corrupt = try await changes(server, "octocat")
            #expect(corrupt.status == 1)
            #expect(corrupt.stderr.contains("so it is not a gh-users follower snapshot"))
            #expect(try bytes(snapshot) == Data("{\"version\":2,\"accounts\":42}\n".utf8))
            #expect(server.requests.isEmpty)
        }
    }
}
