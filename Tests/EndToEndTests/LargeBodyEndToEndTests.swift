import Foundation
import GitHubStandIn
import Testing

/// Large answers through the built binary: reading them costs time linear in their size.
struct LargeBodyEndToEndTests {
    /// A 10 MB description of 100,000 lines, each break a `\n` escape: tsv took 399 s for a message like it while
    /// the escapes were unescaped in quadratic time; now it is one row, well inside the runner's 120 s.
    @Test func aLargeEscapedBodyInTSVFinishes() async throws {
        try await withStandIn(users: 10) { server in
            let line = String(repeating: "x", count: 100)
            let description = String(repeating: line + #"\n"#, count: 100_000)
            let body = #"[{"login":"github","id":1,"description":""# + description + #""}]"#
            server.injectFaults([.status(200, body: body)], forPath: "/users/octocat/orgs")
            let result = try await BinaryRunner.run(
                ["orgs", "octocat", "--format", "tsv", "--api-url", server.baseURL, "--no-cache"], timeout: 120)
            #expect(result.status == 0, "\(result.stderr)")
            let rows = result.stdout.split(separator: "\n")
            #expect(rows.count == 1)
            #expect(rows.first?.hasSuffix(String(repeating: line + #"\n"#, count: 3)) == true)
        }
    }
}
