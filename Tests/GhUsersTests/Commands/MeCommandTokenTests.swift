import AtomicCore
import Domain
import Foundation
import TestSupport
import Testing

@testable import gh_users

private func run(_ arguments: [String], _ env: AppEnvironment) async -> Int32 {
    await GhUsersApp(environment: env).run(arguments)
}

/// `me` over the stub transport: no token is exit 4 with nothing sent, and a terminal shows the token's scopes.
struct MeCommandTokenTests {
    @Test func meWithoutATokenIsExitFourAndSendsNothing() async {
        let github = StubTransport()
        let (env, out, err) = AppEnvironment.test(http: github)
        #expect(await run(["me"], env) == 4)
        #expect(out.text.isEmpty)
        #expect(err.text.hasPrefix("gh-users: me needs a token"))
        #expect(github.calls.isEmpty)
    }

    @Test func meOnATerminalShowsTheTokensScopes() async {
        let github = StubTransport()
        for _ in 0..<2 {
            github.answer("GET /user", headers: [("X-OAuth-Scopes", "read:user, repo")], json: account(1, "octocat"))
        }
        let (env, out, _) = AppEnvironment.test(http: github, stdoutTTY: true, environment: ["GH_TOKEN": "t"])
        #expect(await run(["me", "--color", "never"], env) == 0)
        #expect(out.text.contains("Scopes  read:user, repo"))
        let (piped, json, _) = AppEnvironment.test(http: github, environment: ["GH_TOKEN": "t"])
        #expect(await run(["me", "--json"], piped) == 0)
        #expect(json.text == "{\n  \"login\": \"octocat\",\n  \"id\": 1\n}\n")
    }
}
