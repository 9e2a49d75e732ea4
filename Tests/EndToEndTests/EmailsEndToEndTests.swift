import Foundation
import GitHubStandIn
import Testing

/// `emails` through the built binary against the stand-in: the signed-in account's addresses, for a token with
/// `user:email` or `user`, and status 4 naming the scope for any other, whether GitHub refuses with 403 or 404.
struct EmailsEndToEndTests {
    @Test func theTokensAccountsAddressesAreListedWithTheirColumns() async throws {
        try await withStandIn(users: 200) { server in
            let octocat = try #require(server.population.user(login: "octocat"))
            let result = try await BinaryRunner.run(
                ["emails", "--format", "tsv", "--api-url", server.baseURL],
                environment: ["GH_TOKEN": StandInTokens.token(for: "octocat")])
            #expect(result.status == 0, "\(result.stderr)")
            let expected = octocat.emails.map {
                [$0.email, "\($0.primary)", "\($0.verified)", $0.visibility ?? ""].joined(separator: "\t") + "\n"
            }
            #expect(result.stdout == expected.joined())
            #expect(server.requests.map(\.path) == ["/user/emails"])
        }
    }

    /// argv's token, the exit status, what stderr says, and how many requests reached the stand-in.
    @Test(arguments: [
        ([String: String](), "emails needs a token", 0),
        (["GH_TOKEN": "gho_octocat_readonly"], "(GitHub accepts: user, user:email)", 1),
        (["GH_TOKEN": "gho_octocat_hide404"], "(GitHub accepts: user:email)", 1),
    ])
    func aTokenThatMayNotReadThemIsStatusFourNamingTheScope(
        environment: [String: String], stderr: String, requests: Int
    ) async throws {
        try await withStandIn(users: 200) { server in
            let result = try await BinaryRunner.run(
                ["emails", "--api-url", server.baseURL], environment: environment)
            #expect(result.status == 4)
            #expect(result.stdout.isEmpty)
            #expect(result.stderr.contains(stderr), "\(result.stderr)")
            #expect(server.requests.count == requests)
        }
    }
}
