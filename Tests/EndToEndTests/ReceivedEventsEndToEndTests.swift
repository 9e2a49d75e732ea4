import Foundation
import GitHubStandIn
import Testing

/// `events LOGIN --received` through the built binary against the stand-in, which serves the row from the
/// generator of its item kind: the events flag chooses the row, and the row brings the 300 cap with it. An
/// unknown login is `EventsCommandTests`'.
struct ReceivedEventsEndToEndTests {
    @Test func receivedEventsAskTheirOwnRowAndStopAtThreeHundred() async throws {
        try await withStandIn(users: 2000) { server in
            let many = try #require(server.population.user(login: StandInPopulation.manyEventsLogin))
            let result = try await BinaryRunner.run(
                ["events", many.login, "--received", "--all", "--format", "ndjson", "--api-url", server.baseURL])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.split(separator: "\n").count == 300)
            #expect(result.stderr.contains("only the 300 most recent public events an account received"))
            #expect(server.requests.count == 3)
            #expect(server.requests.first?.path == "/users/\(many.login)/received_events/public")
            #expect(server.requests.allSatisfy { $0.path.hasSuffix("/received_events/public") })
        }
    }
}
