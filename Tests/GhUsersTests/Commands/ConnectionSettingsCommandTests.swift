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
                + "See 'gh-users help environment'.\n")
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
                + "(or GH_USERS_API_URL)\nSee 'gh-users help environment'.\n")
    }

    /// A user name and password in GH_HOST or an API URL are refused, masked (`***@`), and a GH_HOST is named
    /// as GH_HOST, not as an API URL; the password never reaches stderr. Before, both were echoed whole.
    @Test(arguments: [
        (
            "GH_HOST", "user:s3cretpw@ghe.example.com",
            "GH_HOST='***@ghe.example.com' is not a host name: it holds a user name or password, which gh-users "
                + "never sends; give a token in GH_ENTERPRISE_TOKEN or GITHUB_ENTERPRISE_TOKEN, or with --token-file"
        ),
        (
            "--api-url", "http://user:s3cretpw@127.0.0.1:47412",
            "invalid API URL 'http://***@127.0.0.1:47412': it holds a user name or password, which gh-users never "
                + "sends; give a token in GH_ENTERPRISE_TOKEN, GITHUB_ENTERPRISE_TOKEN, GH_TOKEN or GITHUB_TOKEN, "
                + "or with --token-file"
        ),
        (
            "GH_USERS_API_URL", "https://:s3cretpw@ghe.example.com/api/v3",
            "invalid API URL 'https://***@ghe.example.com/api/v3': it holds a user name or password, which "
                + "gh-users never sends; give a token in GH_ENTERPRISE_TOKEN or GITHUB_ENTERPRISE_TOKEN, or with "
                + "--token-file"
        ),
        (
            // The variables the host takes: an Enterprise host's advice named GH_TOKEN, never sent there
            // (helper-336); github.com's names GH_TOKEN.
            "--api-url", "https://user:s3cretpw@api.github.com",
            "invalid API URL 'https://***@api.github.com': it holds a user name or password, which gh-users never "
                + "sends; give a token in GH_TOKEN or GITHUB_TOKEN, or with --token-file"
        ),
        (
            "GH_HOST", "user:s3cretpw@ghe.example.com/api",
            "GH_HOST='***@ghe.example.com/api' is not a host name: GH_HOST takes a name such as ghe.example.com, "
                + "which means https://HOST/api/v3; give a URL with --api-url or GH_USERS_API_URL instead"
        ),
        (
            "GH_HOST", "user:s3c/retpw@ghe.example.com",
            "GH_HOST='***@ghe.example.com' is not a host name: GH_HOST takes a name such as ghe.example.com, "
                + "which means https://HOST/api/v3; give a URL with --api-url or GH_USERS_API_URL instead"
        ),
    ])
    func aPasswordInTheHostOrURLIsMaskedAndRefused(source: String, value: String, message: String) async {
        var harness = CommandHarness()
        var arguments = ["show", "octocat"]
        if source == "--api-url" { arguments += [source, value] } else { harness.environment[source] = value }
        let run = await harness.run(arguments)
        #expect(run.status == 64)
        #expect(run.out.isEmpty)
        // A setting's refusal points at the help that explains settings; an option's at the commands'.
        let help = source == "--api-url" ? "--help" : "help environment"
        #expect(run.err == "Error: \(message)\nSee 'gh-users \(help)'.\n")
        #expect(!run.err.contains("s3c"), "\(run.err)")
    }

    @Test func maskingLeavesNoPartOfAPasswordWhateverItHolds() {
        #expect(ConnectionSettings.masked("https://ghe.example.com/api/v3") == "https://ghe.example.com/api/v3")
        #expect(ConnectionSettings.masked("u:a://b@host") == "***@host")
        #expect(ConnectionSettings.masked("HTTP://u:p@w@host:1/x") == "HTTP://***@host:1/x")
        #expect(ConnectionSettings.masked("host") == "host")
    }

    @Test func graphQLWithoutATokenIsStatusFourWithAHint() async {
        let run = await CommandHarness().run(["show", "octocat", "--via", "graphql"])
        #expect(run.status == 4)
        #expect(run.out.isEmpty)
        #expect(run.err.contains("--via graphql needs a token"))
        #expect(run.err.contains("Hint:"))
    }
}
