import Foundation
import Testing

@testable import gh_users

/// Tokens and API URLs that cannot be used: a usage error that says why, never a request, and never the
/// token's value. What a real token file or server makes of them is `TokenAndAPIURLEndToEndTests`'.
struct ConnectionSettingsCommandTests {
    @Test func aTokenWithALineBreakIsAUsageErrorThatNamesTheVariableNotTheValue() async {
        var harness = CommandHarness()
        harness.environment["GH_TOKEN"] = "ghp_secretvalue42\nX-Injected: 1"
        let run = await harness.run(["show", "octocat", "--debug"])
        #expect(run.status == 64)
        #expect(run.out.isEmpty)
        #expect(
            run.err
                == "Error: GH_TOKEN holds a line break; it should hold the token alone, on one line\n"
                + "See 'gh-users --help'.\n")
    }

    @Test func aPortAbove65535IsAUsageError() async {
        let run = await CommandHarness().run(["show", "octocat", "--api-url", "http://127.0.0.1:99999"])
        #expect(run.status == 64)
        #expect(run.out.isEmpty)
        #expect(
            run.err
                == "Error: invalid API URL 'http://127.0.0.1:99999': the port must be from 1 to 65535\n"
                + "See 'gh-users --help'.\n")
    }

    @Test func aLoopbackGHHostIsExplainedInsteadOfTimingOut() async {
        let host = "127.0.0.1:8080"
        var harness = CommandHarness()
        harness.environment["GH_HOST"] = host
        let run = await harness.run(["show", "octocat", "--timeout", "5"])
        #expect(run.status == 64)
        #expect(run.out.isEmpty)
        #expect(
            run.err
                == "Error: GH_HOST=\(host) would mean GitHub Enterprise at https://\(host)/api/v3, over https; "
                + "for a server on this machine give its URL instead, such as --api-url http://\(host) "
                + "(or GH_USERS_API_URL)\nSee 'gh-users --help'.\n")
    }

    @Test func graphQLWithoutATokenIsStatusFourWithAHint() async {
        let run = await CommandHarness().run(["show", "octocat", "--via", "graphql"])
        #expect(run.status == 4)
        #expect(run.out.isEmpty)
        #expect(run.err.contains("--via graphql needs a token"))
        #expect(run.err.contains("Hint:"))
    }
}
