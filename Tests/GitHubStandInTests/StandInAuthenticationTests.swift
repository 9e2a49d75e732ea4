import Foundation
import GitHubStandIn
import Testing

/// GitHub's 401 for `GET /user` without credentials, in the shape of the stand-in's other error bodies.
private let requiresAuthentication =
    #"{"message":"Requires authentication","documentation_url":"https://docs.github.com/rest/users/users#get-the-authenticated-user","status":"401"}"#

private func bearer(_ token: String) -> [(String, String)] {
    [("Authorization", "Bearer \(token)")]
}

@Suite struct StandInAuthenticationTests {
    @Test func getUserWithoutATokenIsGitHubs401AndCarriesNoScopeHeaders() throws {
        try withStandInServer { server throws in
            let response = try fetch(server, "/user")
            #expect(response.status == 401)
            #expect(response.text == requiresAuthentication)
            #expect(response.header("X-OAuth-Scopes") == nil && response.header("X-Accepted-OAuth-Scopes") == nil)
            #expect(response.header("ETag") == nil)
            // The anonymous request was charged like any other.
            #expect(response.header("x-ratelimit-remaining") == "59")
        }
    }

    @Test func aTokenNamingALoginSignsInAsThatAccountIgnoringCase() throws {
        try withStandInServer { server throws in
            for (token, login) in [
                ("gho_octocat", "octocat"), ("ghp_OCTOCAT", "octocat"), ("github_pat_Yamada-Taro", "Yamada-Taro"),
                (StandInTokens.token(for: StandInPopulation.manyFollowsLogin), StandInPopulation.manyFollowsLogin),
            ] {
                let response = try fetch(server, "/user", headers: bearer(token))
                #expect(response.status == 200, "\(token)")
                #expect(try response.jsonObject()["login"] as? String == login, "\(token)")
                #expect(server.population.authenticatedAccount(forToken: token)?.login == login)
            }
        }
    }

    @Test func anyOtherTokenSignsInAsTheUserItsHashPicksTheSameEveryTime() throws {
        try withStandInServer { server throws in
            let population = server.population
            var logins = Set<String>()
            for token in ["test-token", "paging-token", "ghp_not-a-login-anywhere", "x", "gho_"] {
                let account = try #require(population.authenticatedAccount(forToken: token))
                #expect(account.type == "User", "\(token)")
                // Same token, same account, also in another population of the same size.
                #expect(StandInPopulation(userCount: 250).authenticatedAccount(forToken: token) == account)
                let response = try fetch(server, "/user", headers: bearer(token))
                #expect(try response.jsonObject()["login"] as? String == account.login, "\(token)")
                logins.insert(account.login)
            }
            // Spread over the population rather than all landing on one account.
            #expect(logins.count >= 4)
            let many = (0..<500).compactMap { population.authenticatedAccount(forToken: "token-\($0)") }
            #expect(many.count == 500 && many.allSatisfy { $0.type == "User" })
            #expect(Set(many.map(\.id)).count > 100)
            #expect(StandInPopulation(userCount: 0).authenticatedAccount(forToken: "test-token") == nil)
        }
    }

    @Test func aNoScopeTokenHasEmptyScopesAndSeesOnlyThePublicProfile() throws {
        try withStandInServer { server throws in
            let octocat = try #require(server.population.user(login: "octocat"))
            let response = try fetch(server, "/user", headers: bearer("gho_octocat_noscope"))
            #expect(response.status == 200)
            // Present and empty, as GitHub sends it for a token without scopes.
            #expect(response.header("X-OAuth-Scopes") == "")
            #expect(response.text == octocat.publicUserJSON())
            #expect(!response.text.contains("private_gists"))
            #expect(StandInTokens.scopes(forToken: "gho_octocat_NoScope") == [])
            #expect(StandInTokens.scopes(forToken: "gho_octocat") == ["repo", "user"])
        }
    }

    @Test func everyAnswerToATokenCarriesItsScopesAndWhatTheRowAccepts() throws {
        try withStandInServer { server throws in
            let token = bearer("test-token")
            for (target, accepted) in [
                ("/user", "user"), ("/users/octocat", "user"), ("/users/octocat/keys", ""),
                ("/users/octocat/starred", ""), ("/users/no-such-user/gists", ""), ("/nowhere", ""),
                ("/users/octocat/events/public?page=11", ""), ("/rate_limit", ""), ("/search/users?q=a", ""),
            ] {
                let response = try fetch(server, target, headers: token)
                #expect(response.header("X-OAuth-Scopes") == "repo, user", "\(target)")
                #expect(response.header("X-Accepted-OAuth-Scopes") == accepted, "\(target)")
            }
            // Faults imitate GitHub's front end but still answer a known token.
            server.injectFaults([.status(502, body: "{}")], forPath: "/users/octocat/orgs")
            let faulted = try fetch(server, "/users/octocat/orgs", headers: token)
            #expect(faulted.status == 502 && faulted.header("X-OAuth-Scopes") == "repo, user")
            // A 304 keeps them too.
            let first = try fetch(server, "/users/octocat/keys", headers: token)
            let revalidated = try fetch(
                server, "/users/octocat/keys", headers: token + [("If-None-Match", first.header("ETag") ?? "")])
            #expect(revalidated.status == 304 && revalidated.header("X-OAuth-Scopes") == "repo, user")
            // Anonymous callers have no token to describe.
            #expect(try fetch(server, "/users/octocat/keys").header("X-OAuth-Scopes") == nil)
        }
    }

    @Test func aRejectedTokenHasNoScopesToReport() throws {
        try withStandInServer(StandInConfiguration(userCount: 40, validTokens: ["gho_octocat"])) { server throws in
            let rejected = try fetch(server, "/user", headers: bearer("gho_intruder"))
            #expect(rejected.status == 401 && rejected.header("X-OAuth-Scopes") == nil)
            let accepted = try fetch(server, "/user", headers: bearer("gho_octocat"))
            #expect(accepted.status == 200 && accepted.header("X-OAuth-Scopes") == "repo, user")
        }
    }

    @Test func getUserRevalidatesAndTheTwoProfilesOfOneAccountHaveDifferentTags() throws {
        try withStandInServer { server throws in
            let full = try fetch(server, "/user", headers: bearer("gho_octocat"))
            let publicOnly = try fetch(server, "/user", headers: bearer("gho_octocat_noscope"))
            let tag = try #require(full.header("ETag"))
            #expect(publicOnly.header("ETag") != tag)
            let revalidated = try fetch(
                server, "/user", headers: bearer("gho_octocat") + [("If-None-Match", tag)])
            #expect(revalidated.status == 304 && revalidated.body.isEmpty)
            #expect(revalidated.header("Last-Modified") == full.header("Last-Modified"))
        }
    }
}
