import Foundation
import GitHubStandIn
import Testing

/// `me` through the built binary: the token's own account, and exit 4 without a token.
struct MeEndToEndTests: EndToEndSuite {
    let accounts = 2000

    @Test func meIsTheTokensAccountAndNeedsAToken() async throws {
        try await withServer { server in
            let token = StandInTokens.token(for: "octocat")
            let octocat = try user(server, "octocat")
            let json = try await BinaryRunner.run(
                ["me", "--format", "ndjson"] + api(server), environment: ["GH_TOKEN": token])
            #expect(json.status == 0, "\(json.stderr)")
            #expect(json.stdout == octocat.privateUserJSON() + "\n")
            #expect(!json.stdout.contains(token) && !json.stderr.contains(token))
            let before = server.requests.count
            let anonymous = try await BinaryRunner.run(["me"] + api(server))
            #expect(anonymous.status == 4)
            #expect(anonymous.stdout.isEmpty)
            #expect(anonymous.stderr.hasPrefix("gh-users: me needs a token"))
            #expect(server.requests.count == before)
        }
    }
}
