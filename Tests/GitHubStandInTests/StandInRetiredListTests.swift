import Domain
import Foundation
import Testing

@testable import GitHubStandIn

/// Issue 26, item 2: the stand-in answers the repositories an account watches as GitHub has since July 2026.
/// GitHub's REST page for watching (docs.github.com/rest/activity/watching, "New access restrictions", read with
/// the search tool) deprecates the endpoint that lists another user's watched repositories: it answers empty and
/// is removed later. python-github-backup pull request #521 and issue #522 (2026-07-05) recorded `GET
/// /users/{username}/subscriptions?per_page=100` answering `HTTP 204: No Content`, with a valid token, and `GET
/// /user/subscriptions?per_page=100` answering 200 with the watched repositories.
@Suite struct StandInRetiredListTests {
    @Test func anotherAccountsWatchedRepositoriesAre204WithNoBodyWithOrWithoutAToken() throws {
        try withStandInServer { server throws in
            let account = try #require(server.population.users.first { $0.type == "User" })
            for headers in [[], [("Authorization", "Bearer " + StandInTokens.token(for: account.login))]] {
                for target in [
                    "/users/\(account.login)/subscriptions?per_page=100", "/users/no-such-user/subscriptions",
                ] {
                    let response = try fetch(server, target, headers: headers)
                    #expect(response.status == 204, "\(target)")
                    #expect(response.body.isEmpty, "\(target)")
                }
            }
        }
    }
}
