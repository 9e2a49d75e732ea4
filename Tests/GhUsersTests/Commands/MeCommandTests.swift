import Testing

@testable import gh_users

/// `me` through the real client: the token goes out as a bearer, and the scopes come back in a header.
struct MeCommandTests {
    @Test func onATerminalTheProfileEndsWithTheScopesGitHubReports() async {
        var harness = CommandHarness()
        harness.environment["GH_TOKEN"] = CommandRequestTests.token
        harness.stdoutTTY = true
        harness.width = 100
        harness.expect(
            "GET /user", headers: [("X-OAuth-Scopes", "read:user, user:follow")], body: "users-get-authenticated")
        let run = await harness.run(["me", "--color", "never"])
        #expect(run.status == 0)
        #expect(run.out.hasSuffix("\n  Scopes     read:user, user:follow\n"))
        #expect(!run.out.contains(CommandRequestTests.token))
        #expect(harness.http.received.map { $0.headers["Authorization"] } == ["Bearer \(CommandRequestTests.token)"])
    }
}
