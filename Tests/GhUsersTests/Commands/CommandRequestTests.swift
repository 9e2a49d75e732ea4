import Domain
import Foundation
import JSONBytes
import TestSupport
import Testing

@testable import gh_users

/// One command as a user runs it, against one GitHub operation: the request it must send and GitHub's answer.
struct CommandRow: Sendable, CustomTestStringConvertible {
    /// How `--format json` relates to the body: GitHub's records unchanged, or its search `items`.
    enum JSONOutput: Sendable {
        case body
        case searchItems
    }

    let endpoint: Endpoint
    let command: String
    /// `"GET /users/octocat/keys?per_page=30"`: what the command must send, the query in any order.
    let request: String
    /// A file in `Bodies/`.
    let body: String
    let headers: [(String, String)]
    let needsToken: Bool
    let json: JSONOutput
    /// `--format tsv --fields FIELDS` prints exactly `lines`.
    let fields: String
    let lines: String

    var arguments: [String] { command.split(separator: " ").map(String.init) }

    var testDescription: String { "\(endpoint) → gh-users \(command)" }

    init(
        _ endpoint: Endpoint, _ command: String, sends request: String, body: String,
        headers: [(String, String)] = [], needsToken: Bool = false, json: JSONOutput = .body,
        fields: String, lines: String
    ) {
        self.endpoint = endpoint
        self.command = command
        self.request = request
        self.body = body
        self.headers = headers
        self.needsToken = needsToken
        self.json = json
        self.fields = fields
        self.lines = lines
    }

    /// A harness that answers this row's request, with a token when the endpoint needs one.
    func harness() -> CommandHarness {
        var harness = CommandHarness()
        if needsToken { harness.environment["GH_TOKEN"] = CommandRequestTests.token }
        harness.expect(
            request, accept: endpoint.mediaType ?? "application/vnd.github+json", headers: headers, body: body)
        return harness
    }
}

/// Every command that reads GitHub, one row per operation it calls: the real repository and HTTP client run
/// over stubs that fail on any request not listed here and on any listed request not sent.
struct CommandRequestTests {
    static let token = "ghp_commandTestToken0000000000000000000"

    static let rows: [CommandRow] = [
        CommandRow(
            .listUsers, "list", sends: "GET /users?since=0&per_page=30", body: "users-list",
            fields: "login,id,type", lines: "octocat\t1\tUser\n"),
        CommandRow(
            .user, "show octocat", sends: "GET /users/octocat", body: "users-get-by-username",
            fields: "login,id,name", lines: "octocat\t1\tmonalisa octocat\n"),
        CommandRow(
            .userByID, "show --id 240830", sends: "GET /user/240830", body: "users-get-by-id",
            fields: "login,id", lines: "sigmavirus24\t240830\n"),
        CommandRow(
            .authenticatedUser, "me", sends: "GET /user", body: "users-get-authenticated",
            headers: [("X-OAuth-Scopes", "read:user, user:follow")], needsToken: true,
            fields: "login,id,total_private_repos", lines: "octocat\t1\t100\n"),
        // GitHub answers `PATCH /user` with the private profile as it now is, as `GET /user` answers.
        CommandRow(
            .updateAuthenticatedUser, "me edit --bio hello", sends: "PATCH /user", body: "users-get-authenticated",
            needsToken: true, fields: "login,id", lines: "octocat\t1\n"),
        CommandRow(
            .repos, "repos octocat", sends: "GET /users/octocat/repos?per_page=30", body: "repos-list-for-user",
            fields: "full_name,stargazers_count,fork", lines: "octocat/Hello-World\t80\tfalse\n"),
        CommandRow(
            .followers, "followers octocat", sends: "GET /users/octocat/followers?per_page=30",
            body: "users-list-followers-for-user", fields: "login,id", lines: "octocat\t1\n"),
        CommandRow(
            .following, "following octocat", sends: "GET /users/octocat/following?per_page=30",
            body: "users-list-following-for-user", fields: "login,id", lines: "octocat\t1\n"),
        CommandRow(
            .ownFollowers, "followers", sends: "GET /user/followers?per_page=30",
            body: "users-list-followers-for-authenticated-user", needsToken: true, fields: "login,id",
            lines: "octocat\t1\n"),
        CommandRow(
            .ownFollowing, "following", sends: "GET /user/following?per_page=30",
            body: "users-list-followed-by-authenticated-user", needsToken: true, fields: "login,id",
            lines: "octocat\t1\n"),
        // GitHub documents the same simple-user items for the accounts one blocks as for followers.
        CommandRow(
            .blocks, "blocks", sends: "GET /user/blocks?per_page=30", body: "users-list-followers-for-user",
            needsToken: true, fields: "login,id", lines: "octocat\t1\n"),
        CommandRow(
            .emails, "emails", sends: "GET /user/emails?per_page=30", body: "users-list-emails-for-authenticated-user",
            needsToken: true, fields: "email,primary,verified,visibility",
            lines: "octocat@github.com\ttrue\ttrue\tpublic\n1+octocat@users.noreply.github.com\tfalse\ttrue\t\n"),
        CommandRow(
            .hovercard, "hovercard octocat --subject-type repository --subject-id 1300192",
            sends: "GET /users/octocat/hovercard?subject_type=repository&subject_id=1300192",
            body: "users-get-context-for-user", needsToken: true, fields: "message,octicon",
            lines: "Owns this repository\trepo\n"),
        CommandRow(
            .keys, "keys octocat", sends: "GET /users/octocat/keys?per_page=30",
            body: "users-list-public-keys-for-user", fields: "id,key", lines: "1\tssh-rsa AAA...\n"),
        CommandRow(
            .signingKeys, "signing-keys octocat", sends: "GET /users/octocat/ssh_signing_keys?per_page=30",
            body: "users-list-ssh-signing-keys-for-user", fields: "id,title",
            lines: "2\tssh-rsa AAAAB3NzaC1yc2EAAA\n3\tssh-rsa AAAAB3NzaC1yc2EAAB\n"),
        CommandRow(
            .gpgKeys, "gpg-keys octocat", sends: "GET /users/octocat/gpg_keys?per_page=30",
            body: "users-list-gpg-keys-for-user", fields: "id,key_id", lines: "3\t3262EFF25BA0D270\n"),
        CommandRow(
            .socialAccounts, "social octocat", sends: "GET /users/octocat/social_accounts?per_page=30",
            body: "users-list-social-accounts-for-user", fields: "provider,url",
            lines: "twitter\thttps://twitter.com/github\n"),
        CommandRow(
            .orgs, "orgs sigmavirus24", sends: "GET /users/sigmavirus24/orgs?per_page=30", body: "orgs-list-for-user",
            fields: "login,id",
            lines: """
                yaml\t69535
                thechangelog\t161466
                pdfkit\t1521782
                github3py\t1782156
                requests\t2805331
                osap\t5306379
                chardet\t6211498
                certifi\t7292629
                hapy\t7295657

                """),
        CommandRow(
            .starred, "starred octocat", sends: "GET /users/octocat/starred?per_page=30",
            body: "activity-list-repos-starred-by-user", fields: "starred_at,repo.full_name",
            lines: "2011-01-16T19:06:43Z\toctocat/Hello-World\n"),
        // GitHub documents the same minimal-repository items for the repositories one watches as for its own.
        CommandRow(
            .subscriptions, "subscriptions octocat", sends: "GET /users/octocat/subscriptions?per_page=30",
            body: "repos-list-for-user", fields: "full_name,stargazers_count",
            lines: "octocat/Hello-World\t80\n"),
        // The token's own watched repositories, which GitHub still lists after retiring everyone else's.
        CommandRow(
            .ownSubscriptions, "subscriptions", sends: "GET /user/subscriptions?per_page=30",
            body: "repos-list-for-user", needsToken: true, fields: "full_name,stargazers_count",
            lines: "octocat/Hello-World\t80\n"),
        CommandRow(
            .gists, "gists octocat", sends: "GET /users/octocat/gists?per_page=30", body: "gists-list-for-user",
            fields: "id,public,description", lines: "aa5a315d61ae9438b18d\ttrue\tHello World Examples\n"),
        CommandRow(
            .publicEvents, "events octocat", sends: "GET /users/octocat/events/public?per_page=30",
            body: "activity-list-public-events-for-user", fields: "id,type",
            lines: "22249084947\tWatchEvent\n22249084964\tPushEvent\n"),
        // GitHub documents the same event items for the events an account received as for its own.
        CommandRow(
            .receivedPublicEvents, "events octocat --received",
            sends: "GET /users/octocat/received_events/public?per_page=30",
            body: "activity-list-public-events-for-user", fields: "id,type",
            lines: "22249084947\tWatchEvent\n22249084964\tPushEvent\n"),
        // GitHub documents the same simple-user items for an organization's members as for /users.
        CommandRow(
            .members, "members github --role admin", sends: "GET /orgs/github/members?role=admin&per_page=30",
            body: "orgs-list-members", needsToken: true, fields: "login,id", lines: "octocat\t1\n"),
        // GitHub documents the same simple-user items for an organization's public members as for /users.
        CommandRow(
            .publicMembers, "members github --public", sends: "GET /orgs/github/public_members?per_page=30",
            body: "orgs-list-public-members", fields: "login,id", lines: "octocat\t1\n"),
        CommandRow(
            .outsideCollaborators, "outside-collaborators github",
            sends: "GET /orgs/github/outside_collaborators?per_page=30", body: "orgs-list-outside-collaborators",
            needsToken: true, fields: "login,id", lines: "octocat\t1\n"),
        // A repository's name with dots is sent with them, as every client sends it (before: `octocat%2Egithub%2Eio`).
        CommandRow(
            .assignees, "assignees octocat/octocat.github.io",
            sends: "GET /repos/octocat/octocat.github.io/assignees?per_page=30", body: "issues-list-assignees",
            fields: "login,id", lines: "octocat\t1\n"),
        // GitHub documents the same simple-user items for a repository's watchers as for /users.
        CommandRow(
            .watchers, "watchers octocat/Hello-World", sends: "GET /repos/octocat/Hello-World/subscribers?per_page=30",
            body: "activity-list-watchers-for-repo", needsToken: true, fields: "login,id", lines: "octocat\t1\n"),
        // Asked in the star media type, each stargazer comes with when it starred.
        CommandRow(
            .stargazers, "stargazers octocat/Hello-World",
            sends: "GET /repos/octocat/Hello-World/stargazers?per_page=30", body: "activity-list-stargazers-for-repo",
            needsToken: true, fields: "starred_at", lines: "2011-01-16T19:06:43Z\n"),
        CommandRow(
            .collaborators, "collaborators octocat/Hello-World --affiliation direct --permission push",
            sends: "GET /repos/octocat/Hello-World/collaborators?affiliation=direct&permission=push&per_page=30",
            body: "repos-list-collaborators", needsToken: true, fields: "login,role_name", lines: "octocat\twrite\n"),
        CommandRow(
            .contributors, "contributors octocat/Hello-World --anon",
            sends: "GET /repos/octocat/Hello-World/contributors?anon=1&per_page=30", body: "repos-list-contributors",
            fields: "login,contributions", lines: "octocat\t32\n"),
        CommandRow(
            .forks, "forkers octocat/Hello-World", sends: "GET /repos/octocat/Hello-World/forks?per_page=30",
            body: "repos-list-forks", fields: "full_name,created_at",
            lines: "octocat/Hello-World\t2011-01-26T19:01:12Z\n"),
        CommandRow(
            .invitations, "invitations github", sends: "GET /orgs/github/invitations?per_page=30",
            body: "orgs-list-pending-invitations", needsToken: true, fields: "login,email,role",
            lines: "monalisa\toctocat@github.com\tdirect_member\n"),
        CommandRow(
            .teamMembers, "team-members github/justice-league --role member",
            sends: "GET /orgs/github/teams/justice-league/members?role=member&per_page=30",
            body: "teams-list-members-in-org", needsToken: true, fields: "login,role", lines: "octocat\tmember\n"),
        CommandRow(
            .searchUsers, "search tom", sends: "GET /search/users?q=tom&per_page=30", body: "search-users",
            json: .searchItems, fields: "login,id", lines: "mojombo\t1\n"),
        CommandRow(
            .rateLimitStatus, "rate-limit", sends: "GET /rate_limit", body: "rate-limit-get",
            fields: "resource,limit,remaining",
            lines: """
                core\t5000\t4999
                search\t30\t18
                actions_runner_registration\t10000\t10000
                code_scanning_autofix\t10\t10
                code_search\t10\t10
                dependency_snapshots\t100\t100
                graphql\t5000\t4993
                integration_manifest\t5000\t4999
                scim\t15000\t15000
                source_import\t100\t99

                """),
    ]

    @Test(arguments: rows)
    func sendsTheRequestAndPrintsGitHubsRecordsAsJSON(row: CommandRow) async throws {
        let harness = row.harness()
        let run = await harness.run(row.arguments + ["--format", "json"])
        #expect(run.status == 0)
        #expect(run.err.isEmpty)
        let body = Bodies.compact(row.body)
        switch row.json {
        case .body:
            #expect(Bodies.compact(Array(run.out.utf8)) == body)
        case .searchItems:
            let items = try #require(JSONText.value(at: ["items"], in: Array(body.utf8)))
            #expect(Bodies.compact(Array(run.out.utf8)) == Bodies.compact(items))
        }
        #expect(!run.out.contains(Self.token))
    }

    @Test(arguments: rows)
    func sendsTheRequestAndPrintsTheFieldsAsked(row: CommandRow) async {
        let harness = row.harness()
        let run = await harness.run(row.arguments + ["--format", "tsv", "--fields", row.fields])
        #expect(run.status == 0)
        #expect(run.out == row.lines)
        #expect(run.err.isEmpty)
    }

    @Test func everyRowsRequestIsItsEndpointsMethodAndPath() {
        for row in Self.rows {
            let matcher = RequestMatcher(row.request)
            #expect(matcher.method.rawValue == row.endpoint.method.rawValue, "\(row.testDescription)")
            let template = row.endpoint.path.split(separator: "/")
            let sent = matcher.path.split(separator: "/")
            let fits =
                template.count == sent.count
                && zip(template, sent).allSatisfy { $0.hasPrefix("{") || $0 == $1 }
            #expect(fits, "\(row.request) is not \(row.endpoint)")
        }
    }

    /// A row whose endpoint the table does not list is a command the stand-in does not serve.
    @Test func everyRowsEndpointIsInTheTable() {
        let listed = Set(Endpoint.all.map(\.operationID))
        let unlisted = Self.rows.map(\.endpoint.operationID).filter { !listed.contains($0) }
        #expect(unlisted.isEmpty, "rows whose endpoint Endpoint.all does not list: \(unlisted)")
    }

    @Test func everyEndpointHasARow() {
        let covered = Set(
            (Self.rows.map(\.endpoint) + FollowCommandTests.endpoints + StarHistoryCommandTests.endpoints
                + PeopleListCommandTests.endpoints)
                .map(\.operationID))
        let missing = Endpoint.all.map(\.operationID).filter { !covered.contains($0) }
        #expect(missing.isEmpty, "operations without a command row: \(missing)")
    }
}
