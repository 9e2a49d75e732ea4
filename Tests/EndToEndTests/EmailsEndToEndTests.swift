import Foundation
import GitHubStandIn
import Testing

/// `emails` through the built binary against the stand-in: the signed-in account's addresses. The refusals of a
/// token that may not read them are `EmailsCommandTests`'.
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
}
