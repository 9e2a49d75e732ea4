import Foundation
import GitHubStandIn
import Testing

/// `followers LOGIN` and `following LOGIN` through the built binary. An empty list is `FollowersCommandTests`'.
struct FollowersEndToEndTests: EndToEndSuite {
    let accounts = 1000

    @Test func followersPageByTheLinkUnderTheNumericID() async throws {
        try await withServer { server in
            let result = try await BinaryRunner.run(
                ["followers", "Yamada-Taro", "--all", "--format", "ndjson"] + api(server))
            #expect(result.status == 0)
            let expected = server.population.followers(ofUserID: 2).map(\.id)
            #expect(expected.count == 999)
            #expect(try ids(result.stdout) == expected)
            let requests = server.requests
            #expect(requests.count == 10)
            #expect(requests[0].path == "/users/Yamada-Taro/followers")
            #expect(requests.dropFirst().allSatisfy { $0.path == "/user/2/followers" })
        }
    }

    @Test func aLimitAboveTheCountGivesEveryFollower() async throws {
        try await withServer { server in
            let twenty = try await BinaryRunner.run(["followers", "octocat", "--limit", "100"] + api(server))
            #expect(column(twenty.stdout, 1).count == 20)
        }
    }
}
