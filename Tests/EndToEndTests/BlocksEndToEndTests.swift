import Foundation
import GitHubStandIn
import Testing

/// `block`, `unblock` and `blocks` through the built binary against the stand-in: two writes declared on the
/// write kind and a list declared on the list kind, with no runner of their own. What each prints, its refusals
/// and exit statuses are `BlocksCommandTests`'; here, what a block does on the server across runs.
private let signedInAsOctocat = ["GH_TOKEN": StandInTokens.token(for: "octocat")]

struct BlocksEndToEndTests {
    @Test func aBlockIsListedEndsTheFollowBothWaysAndAnUnblockTakesItOff() async throws {
        try await withStandIn(users: 200) { server in
            let octocat = try #require(server.population.user(login: "octocat"))
            let follower = try #require(server.followGraph.followers(of: octocat).first)
            let api = ["--format", "tsv", "--api-url", server.baseURL, "--no-cache"]
            func run(_ arguments: [String]) async throws -> RunResult {
                try await BinaryRunner.run(arguments + api, environment: signedInAsOctocat)
            }
            let blocked = try await run(["block", "--yes", follower.login])
            #expect(blocked.status == 0, "\(blocked.stderr)")
            #expect(blocked.stdout == "\(follower.login)\tblock\tblocked\n")
            #expect(!server.followGraph.follows(follower, octocat) && !server.followGraph.follows(octocat, follower))
            #expect(try await run(["blocks", "--fields", "login"]).stdout == follower.login + "\n")
            // The blocked account's follow is answered 204, as GitHub answers it, and changes nothing.
            let refollow = try await BinaryRunner.run(
                ["follow", "octocat"] + api, environment: ["GH_TOKEN": StandInTokens.token(for: follower.login)])
            #expect(refollow.status == 0 && !server.followGraph.follows(follower, octocat), "\(refollow.stderr)")
            let unblocked = try await run(["unblock", follower.login])
            #expect(unblocked.stdout == "\(follower.login)\tunblock\tunblocked\n")
            let none = try await run(["blocks"])
            #expect(none.status == 0 && none.stdout.isEmpty, "\(none.stderr)")
            #expect(
                server.requests.map { "\($0.method) \($0.path)" } == [
                    "PUT /user/blocks/\(follower.login)", "GET /user/blocks", "PUT /user/following/octocat",
                    "DELETE /user/blocks/\(follower.login)",
                    "GET /user/blocks",
                ])
        }
    }
}
