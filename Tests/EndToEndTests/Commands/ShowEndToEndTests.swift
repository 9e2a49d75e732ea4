import Foundation
import GitHubStandIn
import Testing

/// `show --id` through the built binary.
struct ShowEndToEndTests: EndToEndSuite {
    let accounts = 1000

    @Test func showByID() async throws {
        try await withServer { server in
            let found = try await BinaryRunner.run(["show", "--id", "9", "--json"] + api(server))
            #expect(found.status == 0)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(found.stdout.utf8)) as? [String: Any])
            #expect(object["login"] as? String == "Otter-Labs-7")
            #expect(server.requests.first?.path == "/user/9")
            let missing = try await BinaryRunner.run(["show", "--id", "6"] + api(server))
            #expect(missing.status == 3)
            #expect(missing.stderr.hasPrefix("gh-users: no account with id 6 (HTTP 404)\nrequest id: "))
        }
    }
}
