import Foundation
import GitHubStandIn
import Testing

/// `rate-limit` through the built binary.
struct RateLimitEndToEndTests: EndToEndSuite {
    let accounts = 1000

    @Test func rateLimitIsFreeNeverCachedAndShowsEachBucket() async throws {
        try await withServer { server in
            let token = ["GH_TOKEN": "rate-token-1234"]
            _ = try await BinaryRunner.run(["show", "octocat"] + api(server), environment: token)
            let before = server.rateLimitRemaining(token: "rate-token-1234")
            server.resetRequests()
            let cache = FileManager.default.temporaryDirectory.appendingPathComponent(
                "gh-users-rate-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: cache) }
            let table = try await BinaryRunner.run(
                ["rate-limit", "--cache-dir", cache.path] + api(server), environment: token)
            let json = try await BinaryRunner.run(
                ["rate-limit", "--json", "--cache-dir", cache.path] + api(server), environment: token)
            #expect(table.status == 0 && json.status == 0)
            #expect(column(table.stdout).prefix(2) == ["core", "search"])
            #expect(column(table.stdout, 2).first == String(before))
            let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
            let core = try #require((object["resources"] as? [String: Any])?["core"] as? [String: Any])
            #expect(core["remaining"] as? Int == before)
            #expect(server.rateLimitRemaining(token: "rate-token-1234") == before)
            #expect(server.requests.count == 2)
            #expect(server.requests.allSatisfy { $0.header("if-none-match") == nil })
            #expect(!FileManager.default.fileExists(atPath: cache.path))
        }
    }
}
