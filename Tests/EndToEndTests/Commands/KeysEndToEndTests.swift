import Foundation
import GitHubStandIn
import Testing

/// `keys LOGIN` through the built binary: the table of fingerprints.
struct KeysEndToEndTests: EndToEndSuite {
    let accounts = 2000

    @Test func aKeysTableShowsFingerprintsAndAQuestionMarkForAMalformedKey() async throws {
        try await withServer { server in
            let login = StandInPopulation.malformedKeysLogin
            let result = try await BinaryRunner.run(
                ["keys", login, "--format", "tsv", "--fields", "id,key"] + api(server))
            #expect(result.status == 0)
            let table = try await BinaryRunner.run(["keys", login, "--format", "table"] + api(server))
            #expect(table.status == 0, "\(table.stderr)")
            let rows = table.stdout.split(separator: "\n").dropFirst()
            #expect(rows.contains { $0.contains("SHA256:") })
            #expect(rows.contains { $0.split(separator: " ", omittingEmptySubsequences: true).contains("?") })
        }
    }
}
