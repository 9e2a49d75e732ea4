import Foundation
import Networking
import TestSupport
import Testing

@testable import gh_users

/// GraphQL's refusals of the token come with HTTP 200, and are what a 403 is over REST: exit 4, with the scopes
/// GitHub names or the organization's SAML single sign-on, whichever GraphQL command met them (before: exit 1,
/// "GitHub answered HTTP 200: GraphQL: …", no hint).
///
/// The shapes are GitHub's as users recorded them (the facts only; the bodies here are written for the tests):
/// - `INSUFFICIENT_SCOPES`: no `data`, `errors` each with `type`, `locations` and the sentence "Your token has not
///   been granted the required scopes to execute this query. The '…' field requires one of the following scopes:
///   ['…'], but your token has only been granted the: ['…'] scopes. …", status 200: antfu-collective/sponsorkit
///   pull request #6 (the answer it quotes) and raycast/extensions issue #3881 (one error per refused field); an
///   older answer, `"data": null` and no `type`, in mntnr/name-your-contributors issue #67 (2018).
/// - SAML: the field null in `data`, beside an error `{"type":"FORBIDDEN","path":[…],"extensions":{"saml_failure":
///   true},"message":"Resource protected by organization SAML enforcement. You must grant your Personal Access
///   token access to this organization."}`, status 200, with an `X-GitHub-SSO` header that names no URL:
///   fwouts/prmonitor issue #1042 and jasperapp/jasper issue #187.
/// Issue threads, quoted for what GitHub sent; no code of those projects is used.
struct GraphQLRefusalCommandTests {
    static let scopes =
        #"{"errors":[{"type":"INSUFFICIENT_SCOPES","locations":[{"line":1,"column":1}],"message":"Your token has "#
        + #"not been granted the required scopes to execute this query. The 'login' field requires one of the "#
        + #"following scopes: ['read:org'], but your token has only been granted the: ['repo'] scopes. Please "#
        + #"modify your token's scopes at: https://github.com/settings/tokens."}]}"#

    static let samlMessage =
        "Resource protected by organization SAML enforcement. You must grant your Personal Access token access to "
        + "this organization."

    /// The SAML refusal at `path`, its field null in `data`.
    static func saml(_ data: String, path: String) -> String {
        #"{"data":\#(data),"errors":[{"type":"FORBIDDEN","path":\#(path),"extensions":{"saml_failure":true},"#
            + #""message":"\#(samlMessage)"}]}"#
    }

    /// Each GraphQL command and where its query's SAML refusal is: `access` at the organization (the whole run
    /// refused), `contributions` at the account, `stargazers --via graphql` at the repository.
    static let commands: [(arguments: [String], saml: String)] = [
        (["access", "octo-org"], saml(#"{"organization":null}"#, path: #"["organization"]"#)),
        (
            ["contributions", "octocat", "--from", "2023-11-26", "--to", "2023-11-28"],
            saml(#"{"repositoryOwner":null}"#, path: #"["repositoryOwner"]"#)
        ),
        (
            ["stargazers", "octocat/Hello-World", "--via", "graphql"],
            saml(#"{"repository":null}"#, path: #"["repository"]"#)
        ),
    ]

    private static func run(_ arguments: [String], body: String, headers: [(String, String)] = [])
        async -> CommandHarness.Outcome
    {
        let harness = CommandHarness.signedIn()
        harness.http.register(
            RequestMatcher("POST /graphql"), headers: headers + [CommandHarness.requestID], body: Data(body.utf8))
        return await harness.run(arguments)
    }

    @Test(arguments: commands.map(\.arguments))
    func aMissingScopeIsExit4NamingIt(arguments: [String]) async {
        let run = await Self.run(arguments, body: Self.scopes, headers: [("X-OAuth-Scopes", "repo")])
        #expect(run.status == 4, "\(run.err)")
        #expect(run.out.isEmpty)
        #expect(
            run.err
                == "gh-users: GitHub refused the request (HTTP 200: GraphQL: Your token has not been granted the required "
                + "scopes to execute this query. The 'login' field requires one of the following scopes: ['read:org'], "
                + "but your token has only been granted the: ['repo'] scopes. Please modify your token's scopes at: "
                + "https://github.com/settings/tokens.)\n"
                + "The token may lack a scope or access to this resource (GitHub accepts: read:org).\n"
                + "request id: CF25:41C0:C9E976\n")
    }

    @Test(arguments: commands)
    func samlEnforcementIsExit4SayingToAuthorizeTheToken(arguments: [String], saml: String) async {
        let run = await Self.run(
            arguments, body: saml, headers: [("X-GitHub-SSO", "partial-results; organizations=21955855")])
        #expect(run.status == 4, "\(run.err)")
        #expect(run.out.isEmpty)
        #expect(
            run.err
                == "gh-users: GitHub refused the request (HTTP 200: GraphQL: \(Self.samlMessage))\n"
                + "An organization's SAML single sign-on wants the token authorized (GitHub settings, Personal access "
                + "tokens, Configure SSO).\nrequest id: CF25:41C0:C9E976\n")
    }

    /// A refusal after another error is still the token's (exit 4, with the scope GitHub names), whatever error
    /// comes first (helper-327: the first error alone, exit 1, went unseen).
    @Test(arguments: commands.map(\.arguments))
    func aRefusalAfterAnotherErrorIsStillTheTokens(arguments: [String]) async {
        let other = #"{"type":"SERVICE_UNAVAILABLE","message":"Something went wrong while executing your query."}"#
        let body = Self.scopes.replacingOccurrences(of: #"{"errors":["#, with: #"{"errors":["# + other + ",")
        let run = await Self.run(arguments, body: body, headers: [("X-OAuth-Scopes", "repo")])
        #expect(run.status == 4, "\(run.err)")
        #expect(run.out.isEmpty)
        #expect(run.err.contains("(GitHub accepts: read:org)"), "\(run.err)")
    }

    /// A schema without a field the query asks (an older GitHub Enterprise Server) is said to be one: the answer
    /// said "GitHub answered HTTP 200" and GitHub's words alone (helper-336). Still exit 1: nothing to fall back to.
    @Test(arguments: commands.map(\.arguments))
    func aFieldTheServersSchemaLacksIsSaidToBeOne(arguments: [String]) async {
        let body =
            #"{"errors":[{"path":["query"],"extensions":{"code":"undefinedField","typeName":"User","#
            + #""fieldName":"hasTwoFactorEnabled"},"locations":[{"line":1,"column":9}],"#
            + #""message":"Field 'hasTwoFactorEnabled' doesn't exist on type 'OrganizationMemberEdge'"}]}"#
        let run = await Self.run(arguments, body: body)
        #expect(run.status == 1, "\(run.err)")
        #expect(
            run.err.hasPrefix(
                "gh-users: GitHub answered HTTP 200: GraphQL: Field 'hasTwoFactorEnabled' doesn't exist on type "
                    + "'OrganizationMemberEdge' (this server's GraphQL schema lacks a field gh-users asks for: an older "
                    + "server?)\n"), "\(run.err)")
    }

    /// Every field a query asks that needs the scope is refused, each naming what it accepts: all are named,
    /// once each; the untyped sentence of older answers is the same refusal.
    @Test func everyScopeNamedIsGivenOnce() async {
        let refusal = { (field: String, scopes: String, type: String) in
            #"{\#(type)"message":"Your token has not been granted the required scopes to execute this query. The "#
                + #"'\#(field)' field requires one of the following scopes: [\#(scopes)], but your token has only "#
                + #"been granted the: ['repo'] scopes."}"#
        }
        let body =
            #"{"data":null,"errors":["# + refusal("id", "'read:org', 'read:discussion'", "")
            + "," + refusal("name", "'read:org'", #""type":"INSUFFICIENT_SCOPES","#) + "]}"
        let run = await Self.run(["access", "octo-org"], body: body)
        #expect(run.status == 4, "\(run.err)")
        #expect(run.err.contains("(GitHub accepts: read:org, read:discussion).\n"), "\(run.err)")
    }

    /// GitHub's text is the server's: what it names as scopes is kept to words a scope can be, and the message
    /// is printed sanitised, with no escape sequence reaching the terminal.
    @Test func theRefusalsTextIsSanitised() async {
        let body = Self.scopes.replacing(
            "['read:org']", with: #"['read:org', '\u001b]52;c;aGk=\u0007', 'x y']"#, maxReplacements: 1)
        #expect(body != Self.scopes)
        let run = await Self.run(["access", "octo-org"], body: body)
        #expect(run.status == 4, "\(run.err)")
        #expect(run.err.contains("(GitHub accepts: read:org).\n"), "\(run.err)")
        #expect(!run.err.contains("\u{1B}") && !run.err.contains("\u{7}"), "\(run.err)")
    }
}
