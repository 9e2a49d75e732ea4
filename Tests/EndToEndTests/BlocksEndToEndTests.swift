import Foundation
import GitHubStandIn
import Testing

/// `block`, `unblock` and `blocks` through the built binary against the stand-in: two writes declared on the
/// write kind and a list declared on the list kind, with no runner of their own.
private let signedInAsOctocat = ["GH_TOKEN": StandInTokens.token(for: "octocat")]

struct BlocksEndToEndTests {
    /// One row per command and case: argv, the token, the exit status, how stdout starts (`BASE` is the
    /// stand-in's URL), what stderr says, and how many requests reached the stand-in; empty text: nothing.
    @Test(arguments: [
        (["block", "Yamada-Taro"], signedInAsOctocat, 64, "", "blocking 1 account needs --yes", 0),
        (
            ["block", "--yes", "octocat"], signedInAsOctocat, 1,
            "octocat\tblock\tfailed: GitHub answered HTTP 422: Validation Failed\n",
            "gh-users: GitHub answered HTTP 422: Validation Failed\nrequest id: ", 1
        ),
        (
            ["unblock", "--dry-run", "Yamada-Taro"], signedInAsOctocat, 0, "DELETE BASE/user/blocks/Yamada-Taro\n", "",
            0
        ),
        (
            ["unblock", "Yamada-Taro"], ["GH_TOKEN": "gho_octocat_readonly"], 4,
            "Yamada-Taro\tunblock\trefused: the token lacks the user scope\n", "the token needs the user scope", 1
        ),
        (["blocks"], [:], 4, "", "gh-users: blocks needs a token", 0),
    ])
    func eachCommandKeepsTheKindsPromises(
        arguments: [String], environment: [String: String], status: Int32, stdout: String, stderr: String,
        requests: Int
    ) async throws {
        try await withStandIn(users: 200) { server in
            let result = try await BinaryRunner.run(
                arguments + ["--format", "tsv", "--api-url", server.baseURL], environment: environment)
            #expect(result.status == status, "\(result.stderr)")
            let expected = stdout.replacingOccurrences(of: "BASE", with: server.baseURL)
            #expect(expected.isEmpty ? result.stdout.isEmpty : result.stdout.hasPrefix(expected), "\(result.stdout)")
            #expect(stderr.isEmpty ? result.stderr.isEmpty : result.stderr.contains(stderr), "\(result.stderr)")
            #expect(server.requests.count == requests)
        }
    }

    @Test func aBlockIsListedEndsTheFollowBothWaysAndAnUnblockTakesItOff() async throws {
        try await withStandIn(users: 200) { server in
            let octocat = try #require(server.population.user(login: "octocat"))
            let follower = try #require(server.followers(of: octocat).first)
            let api = ["--format", "tsv", "--api-url", server.baseURL, "--no-cache"]
            func run(_ arguments: [String]) async throws -> RunResult {
                try await BinaryRunner.run(arguments + api, environment: signedInAsOctocat)
            }
            let blocked = try await run(["block", "--yes", follower.login])
            #expect(blocked.status == 0, "\(blocked.stderr)")
            #expect(blocked.stdout == "\(follower.login)\tblock\tblocked\n")
            #expect(!server.follows(follower, octocat) && !server.follows(octocat, follower))
            #expect(try await run(["blocks", "--fields", "login"]).stdout == follower.login + "\n")
            let unblocked = try await run(["unblock", follower.login])
            #expect(unblocked.stdout == "\(follower.login)\tunblock\tunblocked\n")
            let none = try await run(["blocks"])
            #expect(none.status == 0 && none.stdout.isEmpty, "\(none.stderr)")
            #expect(
                server.requests.map { "\($0.method) \($0.path)" } == [
                    "PUT /user/blocks/\(follower.login)", "GET /user/blocks", "DELETE /user/blocks/\(follower.login)",
                    "GET /user/blocks",
                ])
        }
    }
}
