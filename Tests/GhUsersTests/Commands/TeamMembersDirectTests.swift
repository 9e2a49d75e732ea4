import Foundation
import TestSupport
import Testing

@testable import gh_users

/// `team-members --direct`: the team's own members through GraphQL `Team.members(membership: IMMEDIATE)`.
/// The answers below are written to GitHub's public GraphQL schema (`Organization.team`, `Team.members`,
/// `TeamMemberConnection`, `TeamMemberEdge.role` MEMBER|MAINTAINER, `PageInfo`); no recording of this query
/// exists, and the values are octocat's and hubot's public ids and logins.
struct TeamMembersDirectTests {
    private static func member(_ id: Int, _ login: String, role: String) -> String {
        #"{"role":"\#(role)","node":{"databaseId":\#(id),"id":"MDQ6VXNlcj\#(id)=","login":"\#(login)","#
            + #""url":"https://github.com/\#(login)","avatarUrl":"https://avatars.githubusercontent.com/u/\#(id)?v=4","#
            + #""isSiteAdmin":false}}"#
    }

    private static func page(_ edges: [String], next: String?) -> Data {
        let info =
            next.map { #"{"hasNextPage":true,"endCursor":"\#($0)"}"# } ?? #"{"hasNextPage":false,"endCursor":null}"#
        return Data(
            (#"{"data":{"organization":{"team":{"members":{"totalCount":2,"edges":["# + edges.joined(separator: ",")
                + #"],"pageInfo":\#(info)}}}}}"#).utf8)
    }

    private static func graphQL(_ harness: CommandHarness, _ body: Data) {
        harness.http.register(RequestMatcher("POST /graphql"), body: body)
    }

    /// The sent query's variables and text, in the order sent.
    private static func sent(_ harness: CommandHarness) -> [String] {
        harness.http.received.map { String(decoding: $0.body ?? Data(), as: UTF8.self) }
    }

    @Test func directPagesTheTeamsOwnMembersThroughGraphQLInRESTsShape() async throws {
        let harness = CommandHarness.signedIn()
        Self.graphQL(harness, Self.page([Self.member(1, "octocat", role: "MAINTAINER")], next: "Y3Vyc29yOjE="))
        Self.graphQL(harness, Self.page([Self.member(2, "hubot", role: "MEMBER")], next: nil))
        let run = await harness.run([
            "team-members", "github/justice-league", "--direct", "--all", "--format", "ndjson",
        ])
        #expect(run.status == 0, "\(run.err)")
        let lines = run.out.split(separator: "\n").map(String.init)
        #expect(lines.count == 2)
        let first = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        #expect(first["login"] as? String == "octocat")
        #expect(first["id"] as? Int == 1)
        #expect(first["html_url"] as? String == "https://github.com/octocat")
        #expect(first["type"] as? String == "User")
        #expect(first["role"] as? String == "maintainer")
        #expect(lines[1].contains(#""login":"hubot""#) && lines[1].hasSuffix(#""role":"member","inherited":false}"#))
        // REST's team-member keys, as the documented example has them, with `user_view_type` as GitHub's answers
        // have it since 2024; `inherited` is false, as --direct lists no child team's member.
        let documented = try #require(
            try JSONSerialization.jsonObject(with: Bodies.named("teams-list-members-in-org")) as? [[String: Any]])
        #expect(Set(first.keys) == Set(documented[0].keys).union(["user_view_type"]))
        #expect(first["inherited"] as? Bool == false)
        #expect(first["user_view_type"] as? String == "public")
        let sent = Self.sent(harness)
        #expect(sent.count == 2)
        #expect(sent.allSatisfy { $0.contains("membership: IMMEDIATE") })
        #expect(sent[0].contains(#""after":null"#) && sent[0].contains(#""org":"github""#))
        #expect(sent[1].contains(#""after":"Y3Vyc29yOjE=""#))
        #expect(sent[0].contains(#""role":null"#))
    }

    /// `--role` is GraphQL's role filter, not a filter of the answer.
    @Test func roleIsSentAsGraphQLsRoleArgument() async {
        let harness = CommandHarness.signedIn()
        Self.graphQL(harness, Self.page([Self.member(1, "octocat", role: "MAINTAINER")], next: nil))
        let run = await harness.run([
            "team-members", "github/justice-league", "--direct", "--role", "maintainer", "--format", "tsv",
            "--fields", "login,role",
        ])
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out == "octocat\tmaintainer\n")
        #expect(Self.sent(harness).first?.contains(#""role":"MAINTAINER""#) == true)
    }

    /// GraphQL refuses anonymous callers: without a token nothing is sent, and exit 4 says what needs one.
    @Test func directWithoutATokenIsRefusedBeforeAnythingIsSent() async {
        let run = await CommandHarness().run(["team-members", "github/justice-league", "--direct"])
        #expect(run.status == 4)
        #expect(run.out.isEmpty)
        #expect(run.err.contains("team-members --direct"))
    }

    /// A team or organization GraphQL does not show is REST's 404 for the list: the organization is asked for
    /// (`GET /orgs/{org}`, which answers anyone). As it exists: exit 4, naming both what it may be (no such team,
    /// or a secret one the token's account is not in) and read:org, as neither API tells them apart. As it does
    /// not: exit 3, naming it.
    @Test(arguments: [
        (#"{"data":{"organization":{"team":null}}}"#, true),
        (
            #"{"data":{"organization":null},"errors":[{"type":"NOT_FOUND","path":["organization"],"#
                + #""message":"Could not resolve to an Organization with the login of 'github'."}]}"#, true
        ),
        (
            #"{"data":{"organization":null},"errors":[{"type":"NOT_FOUND","path":["organization"],"#
                + #""message":"Could not resolve to an Organization with the login of 'github'."}]}"#, false
        ),
        // `data` itself null beside the NOT_FOUND (before: "no data and no errors", exit 1; helper-294).
        (
            #"{"data":null,"errors":[{"type":"NOT_FOUND","path":["organization"],"#
                + #""message":"Could not resolve to an Organization with the login of 'github'."}]}"#, false
        ),
    ])
    func anUnknownTeamIsRefusedAsRESTRefusesIt(body: String, organizationExists: Bool) async {
        let harness = CommandHarness.signedIn()
        Self.graphQL(harness, Data(body.utf8))
        if organizationExists {
            harness.expect("GET /orgs/github", body: "orgs-get")
        } else {
            harness.expect("GET /orgs/github", status: 404, body: "error-404")
        }
        let run = await harness.run(["team-members", "github/justice-league", "--direct"])
        #expect(run.status == (organizationExists ? 4 : 3))
        #expect(run.out.isEmpty)
        if organizationExists {
            #expect(
                run.err
                    == "gh-users: no team 'justice-league' in github that the token can see (GraphQL: not found): it "
                    + "does not exist, or it is secret and the token's account is not in it (this needs: read:org)\n")
        } else {
            #expect(run.err == "gh-users: no organization 'github' (HTTP 404)\n")
        }
    }

    /// A team gone between two pages is not found on the later page: that is the failure, and the organization
    /// is not asked about (a token that saw the first page can see the team), so nothing but the pages is sent.
    @Test func aTeamGoneAfterItsFirstPageIsNotFoundWithoutAskingTheOrganization() async {
        let harness = CommandHarness.signedIn()
        Self.graphQL(harness, Self.page([Self.member(1, "octocat", role: "MEMBER")], next: "Y3Vyc29yOjE="))
        Self.graphQL(harness, Data(#"{"data":{"organization":{"team":null}}}"#.utf8))
        let run = await harness.run(["team-members", "github/justice-league", "--direct", "--all", "--format", "tsv"])
        #expect(run.status == 3, "\(run.err)")
        #expect(run.err.contains("no team 'github/justice-league'"), "\(run.err)")
        #expect(harness.http.calls == ["POST /graphql", "POST /graphql"])
    }

    /// An organization whose lookup fails (not a 404) is that failure: a spent REST limit is exit 5 with its
    /// reset, never exit 3, which would say the team does not exist.
    @Test func aFailedOrganizationLookupIsThatFailure() async {
        let harness = CommandHarness.signedIn()
        Self.graphQL(harness, Data(#"{"data":{"organization":{"team":null}}}"#.utf8))
        let reset = ("x-ratelimit-reset", "\(Int(CommandHarness.now.timeIntervalSince1970) + 600)")
        harness.expect(
            "GET /orgs/github", status: 403,
            headers: [("x-ratelimit-remaining", "0"), ("x-ratelimit-resource", "core"), reset],
            body: "error-403-rate-limit")
        let run = await harness.run(["team-members", "github/justice-league", "--direct", "--max-wait", "0"])
        #expect(run.status == 5, "\(run.err)")
        #expect(!run.err.contains("no team"), "\(run.err)")
    }

    /// A page of members beside an error (SAML enforcement hiding some) is not the team: with --changes it would
    /// record everyone hidden as removed. It is a failure naming GitHub's error, and FILE stays as it was; SAML's
    /// is a refusal of the token, exit 4 with the single sign-on hint, as over REST (before: exit 1).
    @Test func membersBesideAGraphQLErrorAreAFailureAndRecordNothing() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let file = folder("t.json")
        let arguments = ["team-members", "github/justice-league", "--direct", "--changes", file]
        let first = CommandHarness.signedIn()
        Self.graphQL(
            first,
            Self.page([Self.member(1, "octocat", role: "MEMBER"), Self.member(2, "hubot", role: "MEMBER")], next: nil))
        // The first run records the team's organization's id; the second, of the same name, asks nothing more.
        first.expect("GET /orgs/github", body: "orgs-get")
        #expect(await first.run(arguments).status == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: file))
        let forbidden = CommandHarness.signedIn()
        let page = String(decoding: Self.page([Self.member(1, "octocat", role: "MEMBER")], next: nil), as: UTF8.self)
        Self.graphQL(
            forbidden,
            Data(
                (page.dropLast() + #","errors":[{"type":"FORBIDDEN","path":["organization","team","members"],"#
                    + #""message":"Resource protected by organization SAML enforcement."}]}"#).utf8))
        let run = await forbidden.run(arguments)
        #expect(run.status == 4)
        #expect(run.out.isEmpty)
        #expect(run.err.contains("GraphQL: Resource protected by organization SAML enforcement."), "\(run.err)")
        #expect(run.err.contains("SAML single sign-on wants the token authorized"), "\(run.err)")
        #expect(run.err.hasSuffix("gh-users: the snapshot file '\(file)' was left as it was.\n"), "\(run.err)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == before)
    }

    /// A page that does not say whether there is more, or holds no edges, is no page of GitHub's: before, it
    /// ended the list (100 of 250 members, exit 0; with --changes, 150 recorded as removed).
    @Test(arguments: [
        (#","pageInfo":{"hasNextPage":false,"endCursor":null}"#, "", "a page without pageInfo.hasNextPage"),
        (
            #""pageInfo":{"hasNextPage":false,"endCursor":null}"#, #""pageInfo":null"#,
            "a page without pageInfo.hasNextPage"
        ),
        (#""hasNextPage":false"#, #""hasNextPage":null"#, "a page without pageInfo.hasNextPage"),
        (#""edges":["#, #""edges":null,"x":["#, "a page of members without its edges"),
    ])
    func aPageWithoutItsPageInfoOrEdgesIsMalformedNotTheEnd(field: String, replacement: String, reason: String) async {
        let harness = CommandHarness.signedIn()
        let page = String(decoding: Self.page([Self.member(1, "octocat", role: "MEMBER")], next: nil), as: UTF8.self)
        #expect(page.contains(field))
        Self.graphQL(harness, Data(page.replacing(field, with: replacement).utf8))
        let run = await harness.run(["team-members", "github/justice-league", "--direct", "--all"])
        #expect(run.status == 1)
        #expect(run.out.isEmpty)
        #expect(run.err.contains(reason), "\(run.err)")
    }

    /// A page holds at most 100, whatever `first:` asked: a page of 101 is no answer GitHub gives (a review's
    /// server sent 264,433 stargazers on one page, held at 500 MB).
    @Test func aPageOfMoreThanAHundredIsMalformed() async {
        let harness = CommandHarness.signedIn()
        let edges = (1...101).map { Self.member($0, "u\($0)", role: "MEMBER") }
        Self.graphQL(harness, Self.page(edges, next: nil))
        let run = await harness.run(["team-members", "github/justice-league", "--direct", "--all"])
        #expect(run.status == 1)
        #expect(
            run.err.contains("a page of the team's members holds 101, where a page holds at most 100"), "\(run.err)")
    }

    /// A `FORBIDDEN` that is not about SAML ("Resource not accessible by personal access token", a fine-grained
    /// token without the permission) refuses the token, exit 4, as REST's 403 for it does (before: exit 1).
    @Test func aForbiddenErrorRefusesTheToken() async {
        let harness = CommandHarness.signedIn()
        Self.graphQL(
            harness,
            Data(
                (#"{"data":{"organization":{"team":null}},"errors":[{"type":"FORBIDDEN","#
                    + #""path":["organization","team"],"message":"Resource not accessible by personal access token"}]}"#)
                    .utf8))
        let run = await harness.run(["team-members", "github/justice-league", "--direct"])
        #expect(run.status == 4, "\(run.err)")
        #expect(run.err.contains("GraphQL: Resource not accessible by personal access token"), "\(run.err)")
    }

    /// A page that says there is more without saying where does not end the list: it is a malformed answer.
    @Test func moreWithoutACursorIsMalformedNotTheEnd() async {
        let harness = CommandHarness.signedIn()
        let page = String(decoding: Self.page([Self.member(1, "octocat", role: "MEMBER")], next: nil), as: UTF8.self)
        Self.graphQL(
            harness, Data(page.replacing(#""hasNextPage":false"#, with: #""hasNextPage":true"#).utf8))
        let run = await harness.run(["team-members", "github/justice-league", "--direct", "--all"])
        #expect(run.status == 1)
        #expect(run.err.contains("hasNextPage is true but endCursor is missing"), "\(run.err)")
    }
}
