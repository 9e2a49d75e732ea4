import Foundation
import GitHubStandIn
import Testing

@testable import gh_users

/// The follow graph through the built binary: the token's own lists, follows A B, the set operations on an
/// account with thousands on each side, and follow/unfollow whose effect every later read sees. A dry run and a
/// token without the follow scope are `FollowCommandTests`'.
struct FollowGraphEndToEndTests {
    private func withServer<T>(users: Int = 1000, _ body: (StandInServer) async throws -> T) async throws -> T {
        let server = try StandInServer(configuration: StandInConfiguration(userCount: users))
        try server.start()
        defer { server.stop() }
        return try await body(server)
    }

    private func api(_ server: StandInServer) -> [String] { ["--api-url", server.baseURL] }

    private func logins(_ tsv: String) -> [String] {
        tsv.split(separator: "\n").map { String($0.split(separator: "\t")[1]) }
    }

    private func user(_ server: StandInServer, _ login: String) throws -> StandInUser {
        try #require(server.population.user(login: login))
    }

    @Test func withoutALoginTheListsAreTheTokensOwn() async throws {
        try await withServer { server in
            let octocat = try user(server, "octocat")
            let token = ["GH_TOKEN": StandInTokens.token(for: "octocat")]
            let result = try await BinaryRunner.run(["followers", "--all"] + api(server), environment: token)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(logins(result.stdout) == server.followGraph.followers(of: octocat).map(\.login))
            #expect(server.requests.first?.path == "/user/followers")
            let before = server.requests.count
            let anonymous = try await BinaryRunner.run(["following"] + api(server))
            #expect(anonymous.status == 4)
            #expect(anonymous.stdout.isEmpty)
            #expect(anonymous.stderr.contains("needs a token"))
            #expect(server.requests.count == before)
        }
    }

    @Test func followsAnswersWithItsStatus() async throws {
        try await withServer { server in
            let follower = try #require(server.population.users.first { !server.followGraph.following(of: $0).isEmpty })
            let followed = try #require(server.followGraph.following(of: follower).first)
            let yes = try await BinaryRunner.run(["follows", follower.login, followed.login, "--json"] + api(server))
            #expect(yes.status == 0, "\(yes.stderr)")
            #expect(
                yes.stdout
                    == "{\n  \"follower\": \"\(follower.login)\",\n  \"followed\": \"\(followed.login)\",\n  \"follows\": true\n}\n"
            )
            #expect(server.requests.count == 1)
            let stranger = try #require(
                server.population.users.first {
                    $0.type == "User" && $0.id != follower.id && !server.followGraph.follows(follower, $0)
                })
            let no = try await BinaryRunner.run(["follows", follower.login, stranger.login] + api(server))
            #expect(no.status == 1, "\(no.stderr)")
            #expect(no.stdout == "\(follower.login)\t\(stranger.login)\tfalse\n")
            let unknown = try await BinaryRunner.run(["follows", follower.login, "no-such-user"] + api(server))
            #expect(unknown.status == 3)
            #expect(unknown.stderr.hasPrefix("gh-users: no user 'no-such-user' (HTTP 404)\nrequest id: "))
            let down = try await BinaryRunner.run(
                ["follows", "a", "b", "--api-url", "http://127.0.0.1:9", "--retries", "0"])
            #expect(down.status == 2)
        }
    }

    @Test func setOperationsOnAnAccountWithThousandsOnEachSide() async throws {
        try await withServer(users: StandInPopulation.manyFollowsMinimumUserCount) { server in
            let many = try user(server, StandInPopulation.manyFollowsLogin)
            // Anonymous callers get 60 requests an hour; each of these runs takes 56.
            let token = ["GH_TOKEN": StandInTokens.token(for: many.login)]
            let followers = server.followGraph.followers(of: many)
            let following = Set(server.followGraph.following(of: many).map(\.id))
            #expect(followers.count == 3000 && following.count == 2500)
            for (arguments, expected) in [
                (["followers", many.login, "--mutual"], followers.filter { following.contains($0.id) }),
                (["followers", many.login, "--not-followed-back"], followers.filter { !following.contains($0.id) }),
            ] {
                let started = server.requests.count
                let result = try await BinaryRunner.run(
                    arguments + ["--all", "--format", "tsv"] + api(server), environment: token)
                #expect(result.status == 0, "\(arguments): \(result.stderr)")
                let written = logins(result.stdout)
                #expect(written.count == expected.count, "\(arguments)")
                #expect(written == expected.map(\.login), "\(arguments): the logins differ")
                // The profile, then every page of both lists: 30 + 25 pages of 100.
                #expect(server.requests.count - started == 1 + 30 + 25, "\(arguments)")
                report(arguments.joined(separator: " "), result, requests: server.requests.count - started)
            }
            let followersIDs = Set(followers.map(\.id))
            let back = try await BinaryRunner.run(
                ["following", many.login, "--not-following-back", "--all", "--format", "tsv"] + api(server),
                environment: token)
            #expect(back.status == 0)
            #expect(
                logins(back.stdout)
                    == server.followGraph.following(of: many).filter { !followersIDs.contains($0.id) }.map(\.login))
        }
    }

    @Test func aPipedUnfollowTakesEffectOneWriteASecondAndEveryReadSeesIt() async throws {
        try await withServer { server in
            let account = try #require(
                server.population.users.first { server.followGraph.following(of: $0).count >= 5 })
            let token = StandInTokens.token(for: account.login)
            let cache = FileManager.default.temporaryDirectory.appendingPathComponent(
                "gh-users-graph-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: cache) }
            let common = ["--api-url", server.baseURL, "--cache-dir", cache.path]
            // The first listing fills the cache, so the one after the writes must revalidate, not reuse it.
            let before = try await BinaryRunner.run(
                ["following", "--all", "--format", "tsv"] + common, environment: ["GH_TOKEN": token])
            let targets = Array(logins(before.stdout).prefix(3))
            #expect(targets.count == 3)
            let script =
                ##"printf '%s\n' '# drop these' '' \##(targets.joined(separator: " ")) | "$GH_USERS" unfollow --yes - "##
                + "--format tsv " + ShellWord.line(common)
            let result = try await BinaryRunner.shell(script, environment: ["GH_TOKEN": token])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout == targets.map { "\($0)\tunfollow\tunfollowed\n" }.joined())
            let writes = server.requests.filter { $0.method == "DELETE" }
            #expect(writes.map(\.path) == targets.map { "/user/following/\($0)" })
            for (earlier, later) in zip(writes, writes.dropFirst()) {
                #expect(later.receivedAt - earlier.receivedAt >= .seconds(1))
            }
            #expect(Set(server.followGraph.following(of: account).map(\.login)).isDisjoint(with: targets))
            let after = try await BinaryRunner.run(
                ["following", "--all", "--format", "tsv"] + common, environment: ["GH_TOKEN": token])
            #expect(after.status == 0)
            #expect(logins(after.stdout) == logins(before.stdout).filter { !targets.contains($0) })
            for target in targets {
                let check = try await BinaryRunner.run(["follows", account.login, target] + common)
                #expect(check.status == 1, "\(target)")
            }
        }
    }

    private func report(_ name: String, _ result: RunResult, requests: Int) {
        print("[measure] \(name): \(requests) requests in \(String(format: "%.2f", result.seconds)) s")
    }
}
