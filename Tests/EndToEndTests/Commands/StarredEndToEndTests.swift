import Foundation
import GitHubStandIn
import Testing

/// `starred LOGIN` through the built binary: when each was starred, in the order asked.
struct StarredEndToEndTests: EndToEndSuite {
    let accounts = 2000

    @Test func starredCarriesWhenEachWasStarredAndSortsAsAsked() async throws {
        try await withServer { server in
            let many = try user(server, StandInPopulation.manyStarsLogin)
            try await expectEveryRecord(
                ["starred", many.login], server.population.starred(by: many).map { $0.starJSON() }, server: server)
            #expect(server.requests.allSatisfy { $0.header("Accept") == "application/vnd.github.star+json" })
        }
        try await withServer { server in
            let many = try user(server, StandInPopulation.manyStarsLogin)
            let expected = server.population.starred(by: many, sort: .updated, direction: .asc).map { $0.starJSON() }
            try await expectEveryRecord(
                ["starred", many.login, "--sort", "updated", "--direction", "asc"], expected, server: server)
        }
    }
}
