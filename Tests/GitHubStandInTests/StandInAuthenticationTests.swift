import Foundation
import GitHubStandIn
import Testing

@Suite struct StandInAuthenticationTests {
    /// A token naming a login signs in as it, ignoring case; any other as a User its hash picks, the same every
    /// time and in every population of the same size, spread over the population.
    @Test func aTokenSignsInAsTheLoginItNamesOrTheUserItsHashPicks() throws {
        let server = try standIn()
        let population = server.population
        for (token, login) in [
            ("gho_octocat", "octocat"), ("ghp_OCTOCAT", "octocat"), ("github_pat_Yamada-Taro", "Yamada-Taro"),
            (StandInTokens.token(for: StandInPopulation.manyFollowsLogin), StandInPopulation.manyFollowsLogin),
            ("test-token", population.authenticatedAccount(forToken: "test-token")?.login ?? "?"),
        ] {
            #expect(try fetch(server, "/user", headers: bearer(token)).jsonObject()["login"] as? String == login)
        }
        let many = (0..<500).compactMap { population.authenticatedAccount(forToken: "token-\($0)") }
        #expect(many.count == 500 && many.allSatisfy { $0.type == "User" } && Set(many.map(\.id)).count > 100)
        #expect(StandInPopulation(userCount: 250).authenticatedAccount(forToken: "token-1") == many[1])
        #expect(StandInPopulation(userCount: 0).authenticatedAccount(forToken: "test-token") == nil)
    }

    /// `noscope` tokens have no scopes (the header is present and empty) and see only the public profile, whose
    /// ETag differs from the private one's.
    @Test func aNoScopeTokenSeesThePublicProfileAndEachFormRevalidates() throws {
        let server = try standIn()
        let publicOnly = try fetch(server, "/user", headers: bearer("gho_octocat_noscope"))
        #expect(publicOnly.status == 200 && publicOnly.header("X-OAuth-Scopes") == "")
        #expect(
            publicOnly.text == String(decoding: server.population.users[0].userJSONBytes(), as: UTF8.self))
        let full = try fetch(server, "/user", headers: bearer("gho_octocat"))
        #expect(publicOnly.header("ETag") != full.header("ETag"))
        #expect(StandInTokens.scopes(forToken: "gho_octocat_NoScope") == [])
        #expect(StandInTokens.scopes(forToken: "gho_octocat_HIDE404") == ["read:user"])
    }

    @Test func everyAnswerToATokenCarriesItsScopesAndWhatTheRowAccepts() throws {
        let server = try standIn()
        let token = bearer("test-token")
        for (target, accepted) in [
            ("/user", "user"), ("/users/octocat", "user"), ("/users/octocat/keys", ""),
            ("/users/no-such-user/gists", ""), ("/nowhere", ""), ("/rate_limit", ""), ("/search/users?q=a", ""),
        ] {
            let response = try fetch(server, target, headers: token)
            #expect(response.header("X-OAuth-Scopes") == "repo, user", "\(target)")
            #expect(response.header("X-Accepted-OAuth-Scopes") == accepted, "\(target)")
        }
        // Faults imitate GitHub's front end but still answer a known token.
        server.injectFaults([.status(502, body: "{}")], forPath: "/users/octocat/orgs")
        #expect(try fetch(server, "/users/octocat/orgs", headers: token).header("X-OAuth-Scopes") == "repo, user")
        // Anonymous callers have no token to describe, even where one is needed (GitHub's 401 is a refusal, in
        // `StandInRouteTableTests.refusals`, charged like any other request).
        for target in ["/users/octocat/keys", "/user"] {
            let response = try fetch(server, target)
            #expect(response.header("X-OAuth-Scopes") == nil && response.header("X-Accepted-OAuth-Scopes") == nil)
            #expect(response.header("x-ratelimit-remaining") == (target == "/user" ? "58" : "59"))
        }
    }
}
