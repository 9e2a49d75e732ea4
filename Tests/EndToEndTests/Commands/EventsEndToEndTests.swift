import Foundation
import GitHubStandIn
import Testing

/// `events LOGIN` through the built binary: GitHub's 300 most recent, and never the page past them.
struct EventsEndToEndTests: EndToEndSuite {
    let accounts = 2000

    @Test func eventsStopAtThreeHundredWithoutAskingForThePageGitHubRefuses() async throws {
        try await withServer { server in
            let many = try user(server, StandInPopulation.manyEventsLogin)
            #expect(server.population.publicEvents(of: many).count > 300)
            let result = try await BinaryRunner.run(
                ["events", many.login, "--all", "--format", "ndjson"] + api(server))
            #expect(result.status == 0)
            let expected = server.population.publicEvents(of: many).prefix(300).map { $0.json() }
            #expect(result.stdout.split(separator: "\n").map(String.init) == Array(expected))
            #expect(result.stderr.contains("only the 300 most recent public events"))
            #expect(server.requests.count == 3)
            // With pages of 7, the 43rd page would start past the 300th event: it is never asked for.
            let small = try await BinaryRunner.run(
                ["events", many.login, "--all", "--per-page", "7", "--format", "ndjson"] + api(server))
            #expect(small.status == 0, "\(small.stderr)")
            #expect(small.stdout.split(separator: "\n").count == 300)
            #expect(!small.stderr.contains("422"))
        }
    }
}
