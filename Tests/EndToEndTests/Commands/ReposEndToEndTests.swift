import Foundation
import GitHubStandIn
import Testing

/// `repos LOGIN` through the built binary: paging by the Link header, sorting and the fork filter. An unknown
/// login is `CommandErrorTests`'.
struct ReposEndToEndTests: EndToEndSuite {
    let accounts = 1000

    @Test func reposPagesThroughEveryRepositoryByTheLinkHeader() async throws {
        try await withServer { server in
            let result = try await BinaryRunner.run(["repos", "Otter-Labs-7", "--all"] + api(server))
            #expect(result.status == 0, "\(result.stderr)")
            let expected = server.population.repositories(ofUserID: 9).map(\.fullName)
            #expect(expected.count == 280)
            #expect(column(result.stdout) == expected)
            let requests = server.requests
            #expect(requests.count == 3)
            #expect(requests[0].path == "/users/Otter-Labs-7/repos")
            #expect(requests[1].path == "/user/9/repos")
            #expect(requests.allSatisfy { $0.query["per_page"] == "100" })
        }
    }

    @Test func reposSortsAndFiltersForks() async throws {
        try await withServer { server in
            let owner = try #require(server.population.user(id: 9))
            let pushed = server.population.repositories(of: owner, type: .owner, sort: .pushed, ascending: false)
            let sources = try await BinaryRunner.run(
                ["repos", "Otter-Labs-7", "--sort", "pushed", "--sources", "--limit", "150", "--format", "ndjson"]
                    + api(server)
            )
            #expect(sources.status == 0)
            #expect(try ids(sources.stdout) == pushed.filter { !$0.fork }.prefix(150).map(\.id))
            #expect(server.requests.first?.query["sort"] == "pushed")
            let forks = try await BinaryRunner.run(
                ["repos", "Otter-Labs-7", "--forks", "--all", "--format", "ndjson"] + api(server))
            #expect(try ids(forks.stdout) == server.population.repositories(ofUserID: 9).filter(\.fork).map(\.id))
            #expect(try ids(forks.stdout).count == 70)
        }
    }

    @Test func reposOfOctocatAndAsMember() async throws {
        try await withServer { server in
            let own = try await BinaryRunner.run(["repos", "octocat"] + api(server))
            #expect(column(own.stdout) == ["octocat/Hello-World", "octocat/Spoon-Knife"])
            let member = try await BinaryRunner.run(["repos", "octocat", "--type", "member", "--json"] + api(server))
            let names = try #require(
                try JSONSerialization.jsonObject(with: Data(member.stdout.utf8)) as? [[String: Any]]
            )
            .compactMap { $0["full_name"] as? String }
            #expect(names.count == 3)
            #expect(names.allSatisfy { !$0.hasPrefix("octocat/") })
        }
    }
}
