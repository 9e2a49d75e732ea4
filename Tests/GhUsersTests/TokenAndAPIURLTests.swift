import Foundation
import Networking
import TestSupport
import Testing

@testable import gh_users

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The connection settings: tokens that cannot be a header line, the enterprise variables, and API URLs.
struct TokenAndAPIURLTests {
    private func usageError(_ body: () throws(UsageError) -> ConnectionSettings) -> UsageError? {
        do {
            _ = try body()
            return nil
        } catch {
            return error
        }
    }

    @Test(arguments: [
        ("GH_TOKEN", "ghp_first\nX-Injected: 1", "holds a line break"),
        ("GH_TOKEN", "ghp_first\r\nsecond", "holds a line break"),
        ("GH_TOKEN", "ghp_first\rsecond", "holds a line break"),
        ("GITHUB_TOKEN", "ghp_first\u{0}second", "holds a control character"),
        ("GH_TOKEN", "ghp_first\u{1B}[31msecond", "holds a control character"),
        ("GH_TOKEN", "ghp_first\u{85}second", "holds a control character"),
        ("GH_TOKEN", "ghp_first\tsecond", "holds a control character"),
        ("GH_TOKEN", "ghp_first second", "holds more than one word"),
        ("GH_TOKEN", "ghp_first\u{200B}second", "holds a character outside ASCII"),
        ("GH_TOKEN", "\u{FEFF}\u{FEFF}ghp_firstsecond", "holds a character outside ASCII"),
        ("GH_TOKEN", "GH_TOKEN=ghp_firstsecond", "holds a variable's assignment (NAME=…)"),
        ("GH_TOKEN", "GITHUB_TOKEN=", "holds a variable's assignment (NAME=…)"),
        // Sent whole before, and GitHub's 401 blamed the token (helper-341's M3).
        ("GH_TOKEN", "\"ghp_firstsecond\"", "holds the token in quotes"),
        ("GITHUB_TOKEN", "'ghp_firstsecond'", "holds the token in quotes"),
    ])
    func aTokenThatCannotBeAHeaderIsRefusedNamingTheVariable(name: String, value: LoggedText, problem: String) throws {
        let error = try #require(
            usageError { () throws(UsageError) in
                try ConnectionSettings.resolve(apiURL: nil, environment: [name: value.text])
            })
        #expect(error.message.hasPrefix("\(name) \(problem)"))
        #expect(!error.message.contains("ghp_first"))
        #expect(!error.message.contains("second"))
    }

    /// A byte order mark before the token is removed from a variable as from a token file (helper-315: the file's
    /// was taken, the variable's refused), and so are the spaces around it.
    @Test func aVariablesByteOrderMarkIsRemovedAsAFilesIs() throws {
        let settings = try ConnectionSettings.resolve(apiURL: nil, environment: ["GH_TOKEN": "\u{FEFF}ghp_ab \n"])
        #expect(settings.token == "ghp_ab")
    }

    /// A token a server of one's own takes may end in base64's padding: no assignment, and taken as it is.
    @Test(arguments: ["dG9rZW4==", "dG9rZW4="])
    func aTokenEndingInPaddingIsTaken(token: String) throws {
        let settings = try ConnectionSettings.resolve(apiURL: nil, environment: ["GH_TOKEN": token])
        #expect(settings.token == token)
    }

    /// github.com's own hosts take github.com's tokens alone, however they are written: `https://api.github.com.`
    /// (a final dot), a capital, a mistyped `https://github.com/api/v3`, or a subdomain. Each was taken for an
    /// Enterprise host and sent GH_ENTERPRISE_TOKEN.
    @Test(arguments: [
        "https://api.github.com.", "https://API.github.com./", "https://github.com/api/v3",
        "https://www.github.com/api/v3", "https://api.github.com...",
    ])
    func githubComHostsNeverTakeAnEnterpriseToken(root: String) throws {
        let enterpriseOnly = try ConnectionSettings.resolve(apiURL: root, environment: ["GH_ENTERPRISE_TOKEN": "ent"])
        #expect(enterpriseOnly.token == nil)
        #expect(enterpriseOnly.unsentTokenVariable == "GH_ENTERPRISE_TOKEN")
        let both = try ConnectionSettings.resolve(
            apiURL: root, environment: ["GH_ENTERPRISE_TOKEN": "ent", "GH_TOKEN": "dotcom"])
        #expect(both.token == "dotcom")
    }

    /// GH_HOST of a github.com subdomain is github.com, as gh reads it (`NormalizeHostname`): the public API, with
    /// github.com's token, never the Enterprise form `https://www.github.com/api/v3` and its token.
    /// https's own port changes nothing: `github.com:443` was `https://github.com:443/api/v3`, no API of GitHub's.
    @Test(arguments: [
        "www.github.com", "gist.github.com", "GitHub.com.", "api.github.com", "github.com:443", "github.com:0443",
    ])
    func aGHHostUnderGitHubComIsThePublicAPI(host: String) throws {
        let settings = try ConnectionSettings.resolve(
            apiURL: nil, environment: ["GH_HOST": host, "GH_ENTERPRISE_TOKEN": "ent", "GH_TOKEN": "dotcom"])
        #expect(settings.apiRoot.absoluteString == "https://api.github.com")
        #expect(settings.token == "dotcom")
    }

    /// A host that merely ends in the letters `github.com` or `ghe.com` (another domain: `notgithub.com`,
    /// `api.notghe.com`) is an Enterprise Server host: never sent GH_TOKEN, and GH_HOST naming it is never the
    /// public API (helper-328: taking `hasSuffix("github.com")` or `"ghe.com"` for the dotted suffix went unseen).
    @Test(arguments: [("notgithub.com", "https://notgithub.com/api/v3"), ("notghe.com", "https://api.notghe.com")])
    func aHostEndingInGitHubsLettersIsAnotherHost(host: String, apiURL: String) throws {
        let byURL = try ConnectionSettings.resolve(apiURL: apiURL, environment: ["GH_TOKEN": "dotcom"])
        #expect(byURL.token == nil)
        #expect(byURL.unsentTokenVariable == "GH_TOKEN")
        let byHost = try ConnectionSettings.resolve(
            apiURL: nil, environment: ["GH_HOST": host, "GH_TOKEN": "dotcom", "GH_ENTERPRISE_TOKEN": "ent"])
        #expect(byHost.apiRoot.absoluteString == "https://\(host)/api/v3")
        #expect(byHost.token == "ent")
        #expect(!OriginPolicy.isGitHubCom(host) && !OriginPolicy.isTenancy(host))
    }

    /// A GH_HOST that is no host name is refused even where it ends in `.github.com` (a path, a user, an IPv6
    /// address), as it was before github.com's subdomains were read as github.com.
    /// A port that is no number (`github.com:443.`, `github.com:`) was sent to `https://github.com:443/api/v3`.
    @Test(arguments: [
        "evil.example/.github.com", "evil@x.github.com", "https://gist.github.com", "[::1].github.com",
        "github.com:443.", "github.com:", "ghe.example.com:70000", "-x", "ghe-.example.com",
    ])
    func aGHHostThatIsNoHostNameIsRefusedUnderGitHubComToo(host: String) throws {
        let error = try #require(
            usageError { () throws(UsageError) in
                try ConnectionSettings.resolve(apiURL: nil, environment: ["GH_HOST": host, "GH_TOKEN": "t"])
            })
        #expect(error.message.hasPrefix("GH_HOST="), "\(error.message)")
    }

    /// A host written with percent escapes was judged as one name and looked up as another (`localhost%2e.github.com`
    /// took github.com's token, and libcurl asked for `localhost..github.com`): refused.
    @Test(arguments: ["https://localhost%2e.github.com", "https://api.githu%62.com", "http://127.0.0.1%2e:8080"])
    func aPercentEncodedHostIsRefused(root: String) throws {
        let error = try #require(
            usageError { () throws(UsageError) in try ConnectionSettings.resolve(apiURL: root, environment: [:]) })
        #expect(error.message.hasSuffix(": its host holds a percent-encoded character: write the host name as it is"))
    }

    /// A punycode name, as the refusal of a name beyond ASCII asks for, is a name: URLComponents gives it
    /// percent-encoded (`b%C3%BCcher`), which was refused as a percent escape (a review's find).
    @Test func aPunycodeHostIsAName() throws {
        let byHost = try ConnectionSettings.resolve(apiURL: nil, environment: ["GH_HOST": "xn--bcher-kva.example:8443"])
        #expect(byHost.apiRoot.absoluteString == "https://xn--bcher-kva.example:8443/api/v3")
        let byURL = try ConnectionSettings.resolve(apiURL: "https://xn--bcher-kva.example/api/v3", environment: [:])
        #expect(byURL.apiRoot.host == "xn--bcher-kva.example")
    }

    /// A token given as the API URL is refused without repeating it.
    @Test func aTokenGivenAsTheAPIURLIsNotShown() throws {
        let error = try #require(
            usageError { () throws(UsageError) in
                try ConnectionSettings.resolve(apiURL: "ghp_SECRETSECRET1234", environment: [:])
            })
        #expect(error.message.hasPrefix("invalid API URL (it looks like a token, so it is not shown)"))
        #expect(!error.message.contains("SECRET"), "\(error.message)")
    }

    /// A token inside an API URL, or in GH_HOST, was echoed by the refusal of the URL, or taken and written into
    /// every state and snapshot file as the API root (helper-353's P-1, P-2): refused, unshown. A token's shape
    /// is enough; a classic token (40 hex digits) is found as the value of a token variable, escaped or not.
    @Test(
        arguments: [
            ("http://127.0.0.1:8080/?access_token=gho_abcdefghijklmnopqrstuvwxyz0123456789", [:]),
            ("http://127.0.0.1:8080/api/gho_abcdefghijklmnopqrstuvwxyz0123456789", [:]),
            (
                "http://127.0.0.1:8080/api/0123456789abcdef0123456789abcdef01234567/",
                ["GITHUB_TOKEN": "0123456789abcdef0123456789abcdef01234567"]
            ),
            (
                "http://127.0.0.1:8080/api/%30123456789abcdef0123456789abcdef01234567",
                ["GH_ENTERPRISE_TOKEN": " 0123456789abcdef0123456789abcdef01234567\n"]
            ),
        ] as [(String, [String: String])])
    func aTokenInsideTheAPIURLIsRefusedUnshown(root: String, environment: [String: String]) throws {
        for (apiURL, variables) in [(root, environment), (nil, environment.merging(["GH_USERS_API_URL": root]) { $1 })]
        {
            let error = try #require(
                usageError { () throws(UsageError) in
                    try ConnectionSettings.resolve(apiURL: apiURL, environment: variables)
                })
            #expect(error.message.hasPrefix("invalid API URL (it holds a token, so it is not shown): "))
            #expect(!error.message.contains("0123456789") && !error.message.contains("abcdefghij"), "\(error.message)")
        }
        let host = try #require(
            usageError { () throws(UsageError) in
                try ConnectionSettings.resolve(
                    apiURL: nil, environment: environment.merging(["GH_HOST": "ghe.example/" + root]) { $1 })
            })
        #expect(host.message.hasPrefix("GH_HOST holds a token, so it is not shown: "), "\(host.message)")
        // A root that holds no token is taken, with the token set.
        let plain = try ConnectionSettings.resolve(
            apiURL: "http://127.0.0.1:8080/api/ghost/v3",
            environment: ["GH_TOKEN": "gho_abcdefghijklmnopqrstuvwxyz0123456789"])
        #expect(plain.apiRoot.absoluteString == "http://127.0.0.1:8080/api/ghost/v3")
    }

    @Test func theEnterpriseVariablesAreNamedWhenTheyAreTheOnesUsed() throws {
        let error = try #require(
            usageError { () throws(UsageError) in
                try ConnectionSettings.resolve(
                    apiURL: "https://ghe.example/api/v3",
                    environment: ["GH_ENTERPRISE_TOKEN": "a\nb", "GH_TOKEN": "fine-token"])
            })
        #expect(error.message.hasPrefix("GH_ENTERPRISE_TOKEN holds a line break"))
        // A variable that is not used does not stop the command.
        let settings = try ConnectionSettings.resolve(
            apiURL: nil,
            environment: ["GH_TOKEN": "fine-token", "GH_ENTERPRISE_TOKEN": "a\nb", "GITHUB_TOKEN": "x\n y"]
        )
        #expect(settings.token == "fine-token")
    }

    @Test func whitespaceAroundATokenIsNotPartOfIt() throws {
        #expect(
            try ConnectionSettings.resolve(apiURL: nil, environment: ["GH_TOKEN": " tok-1234\r\n"]).token == "tok-1234")
        #expect(try ConnectionSettings.resolve(apiURL: nil, environment: ["GH_TOKEN": " \n"]).token == nil)
    }

    @Test(arguments: [
        ("\u{FEFF}tok-1234\n", "tok-1234"), ("tok-1234\r\n", "tok-1234"), ("\n  tok-1234  \n\n", "tok-1234"),
    ])
    func aTokenFileLosesItsByteOrderMarkAndLineBreak(contents: String, token: String) throws {
        let settings = try ConnectionSettings.resolve(apiURL: nil, tokenFileContents: contents, environment: [:])
        #expect(settings.token == token)
    }

    @Test(arguments: [
        ("tok\u{0}1234", "the token file holds a control character"),
        ("tok\n1234", "the token file holds a line break"),
        ("\u{FEFF}\u{FEFF}tok", "the token file holds a character outside ASCII"),
    ])
    func aTokenFileThatCannotBeAHeaderIsRefused(contents: LoggedText, message: String) throws {
        let error = try #require(
            usageError { () throws(UsageError) in
                try ConnectionSettings.resolve(apiURL: nil, tokenFileContents: contents.text, environment: [:])
            })
        #expect(error.message.hasPrefix(message))
        #expect(!error.message.contains("1234"))
    }

    @Test(arguments: [
        ("HTTP://127.0.0.1:8080", "http://127.0.0.1:8080"),
        ("Https://ghe.example/api/v3", "https://ghe.example/api/v3"),
        ("hTTp://localhost:9", "http://localhost:9"), ("http://127.0.0.1:65535", "http://127.0.0.1:65535"),
    ])
    func schemesAreCaseInsensitiveAndLoopbackMayHaveAToken(text: String, root: String) throws {
        // The enterprise variable: a host other than github.com's takes it, a server on this machine too.
        let settings = try ConnectionSettings.resolve(apiURL: text, environment: ["GH_ENTERPRISE_TOKEN": "tok-1234"])
        #expect(settings.apiRoot.absoluteString == root)
        #expect(settings.token == "tok-1234")
    }

    @Test(arguments: ["http://10.0.0.1:8080", "http://127.0.0.1.example:80", "http://localhost.example:80"])
    func onlyLoopbackGetsATokenOverPlainHTTP(text: String) throws {
        let error = try #require(
            usageError { () throws(UsageError) in
                try ConnectionSettings.resolve(apiURL: text, environment: ["GH_ENTERPRISE_TOKEN": "tok-1234"])
            })
        #expect(error.message.hasPrefix("refusing to send a token over plain http"))
    }

    /// Linux's URLSession refuses every IPv6 address before it connects (NSURLErrorBadURL): said before any request.
    /// One with its zone (`%25lo`) too, which was told its host held a percent-encoded character.
    @Test(arguments: [
        "http://[::1]:8080", "https://[2001:db8::1]/api/v3", "http://[::1%25lo]:1/", "http://[fe80::1%25eth0]",
    ])
    func anIPv6AddressIsAUsageErrorWithTheWayRound(text: String) throws {
        let error = try #require(
            usageError { () throws(UsageError) in try ConnectionSettings.resolve(apiURL: text, environment: [:]) })
        #expect(error.message.hasPrefix("invalid API URL '\(text)': URLSession on Linux cannot reach an IPv6 address"))
        #expect(error.message.hasSuffix("such as localhost"))
    }

    /// Brackets around something that is no IPv6 address keep the percent check (a regression review's find:
    /// `[127.0.0.1%25x]` went on to an NSURLError after the zone was let through).
    @Test(arguments: ["http://[127.0.0.1%25x]:1/", "http://[v1.x%41]:1/"])
    func aBracketedHostThatIsNoIPv6AddressKeepsThePercentCheck(text: String) throws {
        let error = try #require(
            usageError { () throws(UsageError) in try ConnectionSettings.resolve(apiURL: text, environment: [:]) })
        #expect(
            error.message
                == "invalid API URL '\(text)': its host holds a percent-encoded character: write the host name as it is"
        )
    }

    @Test(arguments: [
        "http://127.0.0.1:65536", "http://127.0.0.1:99999", "https://ghe.example:0/api", "http://h:1000000",
        "http://127.0.0.1:", "https://ghe.example:/api/v3",
    ])
    func aPortOutOfRangeIsAUsageError(text: String) throws {
        let error = try #require(
            usageError { () throws(UsageError) in try ConnectionSettings.resolve(apiURL: text, environment: [:]) })
        #expect(error.message == "invalid API URL '\(text)': the port must be from 1 to 65535")
    }

    /// A control character, a space or an invisible one in the root was sent percent-encoded (`GET
    /// /%01/users/octocat`), and GitHub's 404 said the account was not there (exit 3).
    @Test(arguments: [
        "http://127.0.0.1:8080/\u{01}", "https://ghe.example/api/v3\u{7F}", "https://ghe.example/a\u{85}",
        "http://127.0.0.1:8080/ x", "http://127.0.0.1:8080/\u{200B}", "https://ghe.example/api/v3\n",
    ])
    func aControlCharacterIsAUsageError(text: LoggedText) throws {
        let error = try #require(
            usageError { () throws(UsageError) in try ConnectionSettings.resolve(apiURL: text.text, environment: [:]) })
        #expect(
            error.message.hasSuffix("': it holds a control character, a space or an invisible character"),
            "\(error.message)")
        // Shown harmless to a terminal: a line break in the value is `\n`, never a line of its own.
        #expect(!error.message.contains("\n"), "\(error.message)")
    }

    /// An IPv6 loopback is named `localhost` in the suggestion, as an IPv6 API URL is refused.
    @Test(arguments: [
        ("127.0.0.1:8080", "127.0.0.1:8080"), ("localhost:3000", "localhost:3000"), ("[::1]:8080", "localhost:8080"),
        ("127.0.0.1", "127.0.0.1"),
    ])
    func aLoopbackGHHostIsExplainedBeforeAnyRequest(host: String, suggested: String) throws {
        let error = try #require(
            usageError { () throws(UsageError) in
                try ConnectionSettings.resolve(apiURL: nil, environment: ["GH_HOST": host])
            })
        #expect(
            error.message
                == "GH_HOST=\(host) would mean GitHub Enterprise at https://\(host)/api/v3, over https; for a "
                + "server on this machine give its URL instead, such as --api-url http://\(suggested) (or "
                + "GH_USERS_API_URL)"
        )
    }

    @Test func anIPv6GHHostIsAUsageErrorWithTheWayRound() throws {
        let error = try #require(
            usageError { () throws(UsageError) in
                try ConnectionSettings.resolve(apiURL: nil, environment: ["GH_HOST": "[2001:db8::1]"])
            })
        #expect(error.message.hasPrefix("GH_HOST='[2001:db8::1]': URLSession on Linux cannot reach an IPv6 address"))
    }

    @Test(arguments: ["http://127.0.0.1:8080", "ghe.example/api/v3", "https://ghe.example"])
    func aURLInGHHostIsExplained(host: String) throws {
        let error = try #require(
            usageError { () throws(UsageError) in
                try ConnectionSettings.resolve(apiURL: nil, environment: ["GH_HOST": host])
            })
        #expect(error.message.hasPrefix("GH_HOST='\(host)' is not a host name: GH_HOST takes a name such as"))
        #expect(error.message.contains("--api-url"))
    }

    /// A character that ends a URL's host (`#`, `?`) or none holds: `evil.net#.ghe.com` was read as a subdomain of
    /// ghe.com and asked of api.evil.net, the API's path in its fragment, never sent (its token withheld).
    @Test(arguments: [
        ("evil.net#.ghe.com", "#"), ("evil.net?.ghe.com", "?"), ("ghe.example%2fx", "%"), ("ghe.exa*mple", "*"),
    ])
    func aGHHostHoldingWhatNoHostNameHoldsIsRefused(host: String, odd: String) throws {
        let error = try #require(
            usageError { () throws(UsageError) in
                try ConnectionSettings.resolve(apiURL: nil, environment: ["GH_HOST": host])
            })
        #expect(error.message == "GH_HOST='\(host)' is not a host name: it holds '\(odd)', which no host name holds")
    }

    @Test func aGHHostWithAPortIsStillEnterprise() throws {
        let settings = try ConnectionSettings.resolve(apiURL: nil, environment: ["GH_HOST": "ghe.example:8443"])
        #expect(settings.apiRoot.absoluteString == "https://ghe.example:8443/api/v3")
        // --api-url wins, so a GH_HOST it overrides is never judged.
        let flag = try ConnectionSettings.resolve(
            apiURL: "http://127.0.0.1:8080", environment: ["GH_HOST": "127.0.0.1:8080"])
        #expect(flag.apiRoot.absoluteString == "http://127.0.0.1:8080")
    }
}
