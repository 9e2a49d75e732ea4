import AtomicCore
import Domain
import Foundation
import TestSupport
import Testing

@testable import gh_users

/// The people of organizations, repositories and teams beyond their rows in `CommandRequestTests`: what GitHub
/// refuses, what it answers besides a page of accounts, and names that are refused before anything is sent.
struct PeopleListCommandTests {
    /// The operations these tests cover that no command row does: `GET /repos/{owner}/{repo}` and `GET
    /// /orgs/{org}`, asked only when GitHub refuses a list of a repository's or an organization's people.
    static let endpoints: [Endpoint] = [.repository, .organization]

    /// A harness signed in with a token, as these lists need one.
    private static func signedIn() -> CommandHarness {
        var harness = CommandHarness()
        harness.environment["GH_TOKEN"] = CommandRequestTests.token
        return harness
    }

    /// The lists GitHub answers 404 both for an owner that does not exist and for a token that may not see them,
    /// each with the owner's own lookup (a team's is its organization's) and the scope its row needs.
    static let hiddenLists: [(command: String, request: String, lookup: String, body: String, scope: String)] = [
        ("members github", "GET /orgs/github/members", "GET /orgs/github", "orgs-get", "read:org"),
        (
            "outside-collaborators github", "GET /orgs/github/outside_collaborators", "GET /orgs/github", "orgs-get",
            "read:org"
        ),
        ("invitations github", "GET /orgs/github/invitations", "GET /orgs/github", "orgs-get", "admin:org"),
        (
            "collaborators octocat/Hello-World", "GET /repos/octocat/Hello-World/collaborators",
            "GET /repos/octocat/Hello-World", "repos-get", "read:org and repo"
        ),
        (
            "team-members github/justice-league", "GET /orgs/github/teams/justice-league/members", "GET /orgs/github",
            "orgs-get", "read:org"
        ),
    ]

    /// GitHub answers 404 to a token that may not see a list (an organization's outside collaborators, the
    /// collaborators of a repository it cannot push to): its owner is asked for once, and as it exists, the 404
    /// is a refusal that names what is needed and the owner that exists (exit 4). A team's 404 under an
    /// organization that exists may be a mistyped slug as well as a secret team: it names both.
    @Test(arguments: hiddenLists)
    func aListGitHubHidesNamesWhatIsNeeded(
        command: String, request: String, lookup: String, body: String, scope: String
    ) async {
        let harness = Self.signedIn()
        harness.expect(request + "?per_page=30", status: 404, headers: [CommandHarness.requestID], body: "error-404")
        harness.expect(lookup, body: body)
        let run = await harness.run(command.split(separator: " ").map(String.init))
        #expect(run.status == 4)
        #expect(run.out.isEmpty)
        #expect(run.err.contains("(this needs: \(scope))"))
        #expect(run.err.hasSuffix("request id: CF25:41C0:C9E976\n"))
        guard !command.hasPrefix("team-members") else {
            #expect(
                run.err
                    == "gh-users: no team 'justice-league' in github that the token can see (HTTP 404): it does not "
                    + "exist, or it is secret and the token's account is not in it (this needs: read:org)\n"
                    + "request id: CF25:41C0:C9E976\n")
            return
        }
        let owner = command.hasPrefix("collaborators") ? "repository 'octocat/Hello-World'" : "organization 'github'"
        #expect(run.err.contains("though \(owner) exists"), "\(run.err)")
    }

    /// helper-357: GitHub names the scopes on a 404 as well (github3.py's `GitHub_is_blocking` cassette:
    /// `X-OAuth-Scopes` and `X-Accepted-OAuth-Scopes` on one). A token that holds a scope GitHub accepts is short of
    /// a role, not a scope: the refusal names none to add (exit 4 still). Before, it said "(this needs: read:org)"
    /// to a token with read:org, as it does to one without (`aListGitHubHidesNamesWhatIsNeeded`).
    @Test(arguments: hiddenLists)
    func aListHiddenFromATokenWithTheScopeNamesNoScope(
        command: String, request: String, lookup: String, body: String, scope: String
    ) async {
        let harness = Self.signedIn()
        let scopes = "admin:org, read:org, repo"
        harness.expect(
            request + "?per_page=30", status: 404,
            headers: [CommandHarness.requestID, ("X-OAuth-Scopes", scopes), ("X-Accepted-OAuth-Scopes", scopes)],
            body: "error-404")
        harness.expect(lookup, body: body)
        let run = await harness.run(command.split(separator: " ").map(String.init))
        #expect(run.status == 4)
        #expect(run.out.isEmpty)
        #expect(!run.err.contains("this needs") && !run.err.contains("lack a scope"), "\(run.err)")
        guard !command.hasPrefix("team-members") else {
            #expect(
                run.err
                    == "gh-users: no team 'justice-league' in github that the token can see (HTTP 404): it does not "
                    + "exist, or it is secret and the token's account is not in it\nrequest id: CF25:41C0:C9E976\n")
            return
        }
        #expect(
            run.err.hasSuffix(
                "exists)\nThe token has a scope GitHub accepts here: its account lacks the role or access it needs.\n"
                    + "request id: CF25:41C0:C9E976\n"), "\(run.err)")
    }

    /// A mistyped owner: GitHub's 404 for the list and for the owner's lookup (its documented 404 body, as
    /// recorded). Before, this was "authentication failed (HTTP 404) … this needs: read:org", exit 4, never naming
    /// the owner; now it is exit 3 naming what does not exist, and no scope.
    @Test(arguments: hiddenLists)
    func aMistypedOwnerIsNotFoundNotATokenProblem(
        command: String, request: String, lookup: String, body: String, scope: String
    ) async {
        let mistyped = { (text: String) in
            text.replacing("/orgs/github", with: "/orgs/nosuchorg").replacing("Hello-World", with: "nosuchrepo")
        }
        let harness = Self.signedIn()
        harness.expect(mistyped(request) + "?per_page=30", status: 404, body: "error-404")
        harness.expect(mistyped(lookup), status: 404, headers: [CommandHarness.requestID], body: "error-404")
        let argv = command.split(separator: " ").map {
            String($0).replacing("github", with: "nosuchorg").replacing("Hello-World", with: "nosuchrepo")
        }
        let run = await harness.run(argv)
        let missing =
            command.hasPrefix("collaborators") ? "repository 'octocat/nosuchrepo'" : "organization 'nosuchorg'"
        #expect(run.status == 3)
        #expect(run.out.isEmpty)
        #expect(run.err == "gh-users: no \(missing) (HTTP 404)\nrequest id: CF25:41C0:C9E976\n")
    }

    /// `collaborators --permission` takes the words its records print in role_name (read, write) as well as
    /// REST's (pull, push), and sends REST's; any other word is a usage error, before anything is sent.
    @Test(arguments: [("write", "push"), ("read", "pull"), ("push", "push"), ("pull", "pull"), ("admin", "admin")])
    func collaboratorsTakeEitherWordForAPermission(given: String, sent: String) async {
        let harness = Self.signedIn()
        harness.expect(
            "GET /repos/octocat/Hello-World/collaborators?permission=\(sent)&per_page=30",
            body: "repos-list-collaborators")
        let run = await harness.run([
            "collaborators", "octocat/Hello-World", "--permission", given, "--format", "tsv", "--fields", "login",
        ])
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out == "octocat\n")
    }

    @Test func collaboratorsRefuseAPermissionItDoesNotKnow() async {
        let run = await Self.signedIn().run(["collaborators", "octocat/Hello-World", "--permission", "owner"])
        #expect(run.status == 64)
        // read and write are taken too, and said so (before, the list left them out), and suggested.
        #expect(run.err.contains("choose one of pull, triage, push, maintain, admin, read, write\n"), "\(run.err)")
        let typo = await Self.signedIn().run(["collaborators", "octocat/Hello-World", "--permission", "wrte"])
        #expect(typo.err.contains("Did you mean 'write'?"), "\(typo.err)")
    }

    /// A stargazer is `{"starred_at", "user"}` in the star media type: the table reads the login inside `user`.
    @Test func theStargazersTableShowsEachLoginAndWhenItStarred() async {
        let harness = Self.signedIn()
        harness.expect(
            "GET /repos/octocat/Hello-World/stargazers?per_page=30", accept: "application/vnd.github.star+json",
            body: "activity-list-stargazers-for-repo")
        let run = await harness.run(["stargazers", "octocat/Hello-World", "--format", "table"])
        #expect(run.status == 0)
        #expect(run.out.hasPrefix("LOGIN"))
        #expect(run.out.contains("STARRED"))
        #expect(run.out.split(separator: "\n").last?.hasPrefix("octocat ") == true)
    }

    /// Since July 2026 GitHub answers 403 or 404 to whoever is not a repository's admin or collaborator for its
    /// stargazers and watchers: the repository itself answers, so the list is withheld (exit 4, in one line that
    /// points to star-history, with no request id line after it), not missing.
    @Test(arguments: [
        ("stargazers", "GET /repos/octocat/Hello-World/stargazers", 404, "error-404"),
        ("stargazers", "GET /repos/octocat/Hello-World/stargazers", 403, "error-403-forbidden"),
        ("watchers", "GET /repos/octocat/Hello-World/subscribers", 404, "error-404"),
        ("watchers", "GET /repos/octocat/Hello-World/subscribers", 403, "error-403-forbidden"),
    ])
    func aWithheldListSaysWhoMayListItAndPointsToStarHistoryForStars(
        command: String, request: String, status: Int, body: String
    ) async {
        let harness = Self.signedIn()
        let accept = command == "stargazers" ? "application/vnd.github.star+json" : nil
        // GitHub names each answer (X-GitHub-Request-Id): the refusal is one line all the same.
        harness.expect(
            request + "?per_page=30", accept: accept, status: status, headers: [CommandHarness.requestID], body: body)
        harness.expect("GET /repos/octocat/Hello-World", body: "repos-get")
        let run = await harness.run([command, "octocat/Hello-World"])
        #expect(run.status == 4)
        #expect(run.out.isEmpty)
        #expect(run.err.split(separator: "\n").count == 1)
        #expect(
            run.err.hasPrefix(
                "gh-users: GitHub refused the request (HTTP \(status)): since July 2026 GitHub lists a repository's "
                    + "\(command) only to its admins"), "\(run.err)")
        // star-history counts stars: for watchers, whom it does not count, it is no way round (a review's find).
        let instead = "; gh-users star-history octocat/Hello-World gives its stars a day\n"
        // GitHub's words where they say more than the status (a token's permission may be the cause instead).
        let said =
            status == 404
            ? ""
            : " (GitHub said: Request forbidden by administrative rules. Please make sure your request has a "
                + "User-Agent header)"
        #expect(
            run.err.hasSuffix(
                command == "stargazers" ? said + instead : " only to its admins and collaborators" + said + "\n"),
            "\(run.err)")
    }

    /// An empty list of a repository that counts 80 stargazers and 42 watchers is withheld too (exit 4).
    @Test(arguments: [
        ("stargazers", "GET /repos/octocat/Hello-World/stargazers", "of 80;"),
        ("watchers", "GET /repos/octocat/Hello-World/subscribers", "of 42;"),
    ])
    func anEmptyListOfARepositoryThatCountsSomeIsWithheld(command: String, request: String, count: String) async {
        let harness = Self.signedIn()
        let accept = command == "stargazers" ? "application/vnd.github.star+json" : nil
        harness.expect(request + "?per_page=30", accept: accept, body: "empty-list")
        harness.expect("GET /repos/octocat/Hello-World", body: "repos-get")
        let run = await harness.run([command, "octocat/Hello-World"])
        #expect(run.status == 4)
        #expect(run.out.isEmpty)
        #expect(run.err.contains("an empty list, \(count) since July 2026"))
    }

    /// The same empty list to a token the repository's `permissions` give push (or admin, maintain, triage): only
    /// a collaborator has it, to whom GitHub lists them all, so the list is empty and its count lags (helper-325:
    /// a nightly `--changes` of a small repository failed as a token's fault). Exit 0, with a warning; `pull`
    /// alone, which a public repository gives everyone, is still withheld (above).
    @Test(arguments: [
        ("stargazers", "GET /repos/octocat/Hello-World/stargazers", "push", 80),
        ("watchers", "GET /repos/octocat/Hello-World/subscribers", "admin", 42),
        ("stargazers", "GET /repos/octocat/Hello-World/stargazers", "triage", 80),
        ("watchers", "GET /repos/octocat/Hello-World/subscribers", "maintain", 42),
    ])
    func anEmptyListToACollaboratorIsEmpty(command: String, request: String, role: String, count: Int) async throws {
        let harness = Self.signedIn()
        let accept = command == "stargazers" ? "application/vnd.github.star+json" : nil
        harness.expect(request + "?per_page=30", accept: accept, body: "empty-list")
        let documented = String(decoding: Bodies.named("repos-get"), as: UTF8.self)
        // The documented repository names admin, push and pull; GitHub's answers today add maintain and triage.
        let granted =
            documented.contains(#""\#(role)": false"#)
            ? documented.replacing(#""\#(role)": false"#, with: #""\#(role)": true"#, maxReplacements: 1)
            : documented.replacing(#""pull": true,"#, with: #""pull": true, "\#(role)": true,"#, maxReplacements: 1)
        try #require(granted != documented)
        harness.http.register(
            RequestMatcher("GET /repos/octocat/Hello-World"), status: 200, headers: [], body: Data(granted.utf8))
        let run = await harness.run([command, "octocat/Hello-World", "--format", "json"])
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out == "[]\n")
        let warned = harness.log.entries.map(\.message)
        #expect(
            warned == [
                "GitHub lists no \(command) of octocat/Hello-World, where its count says \(count), to a token that "
                    + "has \(role) on it: its counts can lag behind its lists"
            ])
        #expect(run.err.isEmpty, "\(run.err)")
    }

    /// The permissions are read as GitHub writes them (helper-326): the string "true" is no grant (withheld,
    /// exit 4), and an object that names a role twice is malformed (exit 1), whichever value comes last.
    @Test(arguments: [
        (#""push": "true""#, 4, "since July 2026"),
        (#""push": false, "push": true"#, 1, "the key 'push' is given twice"),
        (#""push": true, "push": false"#, 1, "the key 'push' is given twice"),
    ])
    func theRepositorysPermissionsAreReadStrictly(permission: String, status: Int, said: String) async throws {
        let harness = Self.signedIn()
        harness.expect(
            "GET /repos/octocat/Hello-World/subscribers?per_page=30", body: "empty-list")
        let documented = String(decoding: Bodies.named("repos-get"), as: UTF8.self)
        let changed = documented.replacing(#""push": false"#, with: permission, maxReplacements: 1)
        try #require(changed != documented)
        harness.http.register(
            RequestMatcher("GET /repos/octocat/Hello-World"), status: 200, headers: [], body: Data(changed.utf8))
        let run = await harness.run(["watchers", "octocat/Hello-World"])
        #expect(run.status == status, "\(run.err)")
        #expect(run.out.isEmpty)
        #expect(run.err.contains(said), "\(run.err)")
        #expect(harness.log.entries.isEmpty)
    }

    /// A repository GitHub blocked (451 for a DMCA takedown, 403 for its terms, with a `block`: the bodies in
    /// `BlockedRepositoryTests`) is exit 1 with GitHub's reason and notice, not exit 4, which says to fix the token
    /// (helper-325), nor a list withheld.
    @Test(arguments: [
        (
            451,
            #"{"message":"Repository access blocked","block":{"reason":"dmca","html_url":"https://github.com/github/dmca"}}"#
        ),
        (403, #"{"message":"Repository access blocked","block":{"reason":"tos","html_url":"https://github.com/tos"}}"#),
    ])
    func aBlockedRepositorysListIsGitHubsAnswer(status: Int, body: String) async {
        let harness = Self.signedIn()
        harness.http.register(
            RequestMatcher("GET /repos/octocat/Hello-World/subscribers?per_page=30"), status: status, headers: [],
            body: Data(body.utf8))
        let run = await harness.run(["watchers", "octocat/Hello-World"])
        #expect(run.status == 1, "\(run.err)")
        #expect(run.out.isEmpty)
        #expect(
            run.err.hasPrefix("gh-users: GitHub answered HTTP \(status): Repository access blocked ("), "\(run.err)")
        #expect(run.err.contains("GitHub blocks this repository for everyone, and no token lifts that"))
        #expect(!run.err.contains("July 2026"))
    }

    /// A 404 for the list and for the repository too: no such repository (exit 3), not a list withheld.
    @Test(arguments: [
        ("stargazers", "GET /repos/octocat/Hello-World/stargazers"),
        ("watchers", "GET /repos/octocat/Hello-World/subscribers"),
    ])
    func aMissingRepositoryIsNotFound(command: String, request: String) async {
        let harness = Self.signedIn()
        let accept = command == "stargazers" ? "application/vnd.github.star+json" : nil
        harness.expect(request + "?per_page=30", accept: accept, status: 404, body: "error-404")
        harness.expect("GET /repos/octocat/Hello-World", status: 404, body: "error-404")
        let run = await harness.run([command, "octocat/Hello-World"])
        #expect(run.status == 3)
        #expect(run.out.isEmpty)
        #expect(run.err.contains("no repository 'octocat/Hello-World'"))
        #expect(!run.err.contains("July 2026"))
    }

    /// OWNER/REPO is checked before anything is sent: the strict stub answers nothing, so a request would fail.
    @Test(arguments: ["octocat", "octocat/Hello-World/issues", "octocat/..", "octo cat/Hello-World"])
    func aRepositoryNotGivenAsOwnerSlashRepoIsAUsageError(repository: String) async {
        let run = await CommandHarness().run(["assignees", repository])
        #expect(run.status == 64)
        #expect(run.out.isEmpty)
        #expect(run.err.hasPrefix("Error: invalid repository"))
    }

    /// The table shows each collaborator's role as GitHub names it.
    @Test func theCollaboratorTableShowsEachRole() async {
        let harness = Self.signedIn()
        harness.expect("GET /repos/octocat/Hello-World/collaborators?per_page=30", body: "repos-list-collaborators")
        let run = await harness.run(["collaborators", "octocat/Hello-World", "--format", "table"])
        #expect(run.status == 0)
        #expect(run.out.contains("ROLE"))
        #expect(run.out.contains("octocat") && run.out.contains("write"))
    }

    /// GitHub answers 204 for an empty repository's contributors: no one, and no error.
    @Test func anEmptyRepositoryHasNoContributors() async {
        let harness = CommandHarness()
        harness.expect("GET /repos/octocat/empty/contributors?per_page=30", status: 204)
        let run = await harness.run(["contributors", "octocat/empty", "--format", "json"])
        #expect(run.status == 0)
        #expect(run.out == "[]\n")
        #expect(run.err.isEmpty)
    }

    /// A repository too large for GitHub to list its contributors is said so in one line: a refusal of the
    /// work (exit 1), not of the token.
    @Test func aRepositoryTooLargeToListSaysSo() async {
        let harness = CommandHarness()
        harness.expect(
            "GET /repos/torvalds/linux/contributors?per_page=30", status: 403,
            body: "error-403-contributors-too-large")
        let run = await harness.run(["contributors", "torvalds/linux"])
        #expect(run.status == 1)
        #expect(run.out.isEmpty)
        #expect(
            run.err
                == "gh-users: GitHub does not list this repository's contributors: its history or contributor list "
                + "is too large to list through the API (HTTP 403)\n")
    }

    /// The table names each fork's owner before the fork, as the list is about who forked; the owner's column
    /// is `login`, the person's login as on every people list, and `--fields login` takes it. `--fields` takes
    /// every key of GitHub's fork (a repository), as its help says: before, 8 of them (helper-332).
    @Test func theForkerTableShowsTheOwnerAndTheFork() async {
        let harness = CommandHarness()
        harness.expect("GET /repos/octocat/Hello-World/forks?per_page=30", body: "repos-list-forks")
        let run = await harness.run(["forkers", "octocat/Hello-World", "--format", "csv"])
        #expect(run.status == 0)
        #expect(run.out == "login,full_name,created_at\r\noctocat,octocat/Hello-World,2011-01-26T19:01:12Z\r\n")
        let fields = CommandHarness()
        fields.expect("GET /repos/octocat/Hello-World/forks?per_page=30", body: "repos-list-forks")
        let login = await fields.run(["forkers", "octocat/Hello-World", "--format", "json", "--fields", "login"])
        #expect(login.status == 0)
        #expect(Bodies.compact(Array(login.out.utf8)) == #"[{"login":"octocat"}]"#)
        let keys = CommandHarness()
        keys.expect("GET /repos/octocat/Hello-World/forks?per_page=30", body: "repos-list-forks")
        let fork = await keys.run(["forkers", "octocat/Hello-World", "--format", "csv", "--fields", "name,forks_count"])
        #expect(fork.status == 0, "\(fork.err)")
        #expect(fork.out == "name,forks_count\r\nHello-World,9\r\n")
    }

    /// GitHub's documented invitation, with the null login its schema allows for one sent to an email address.
    private static func emailInvitation() -> Data {
        let documented = String(decoding: Bodies.named("orgs-list-pending-invitations"), as: UTF8.self)
        let emailOnly = documented.replacing(#""login": "monalisa""#, with: #""login": null"#)
        #expect(emailOnly != documented)
        return Data(emailOnly.utf8)
    }

    /// An invitation sent to an email address has a null login: each column holds what GitHub sent, an empty
    /// login and the address under email. Before: the address under `login`.
    @Test func anEmailInvitationHasAnEmptyLoginAndItsEmail() async throws {
        for (format, output) in [
            (
                "csv",
                "login,email,role,created_at,inviter.login\r\n"
                    + ",octocat@github.com,direct_member,2016-11-30T06:46:10-08:00,other_user\r\n"
            ),
            ("tsv", "\toctocat@github.com\tdirect_member\t2016-11-30T06:46:10-08:00\tother_user\n"),
        ] {
            let harness = Self.signedIn()
            harness.http.register(
                RequestMatcher("GET /orgs/github/invitations?per_page=30", accept: "application/vnd.github+json"),
                status: 200, headers: [], body: Self.emailInvitation())
            let run = await harness.run(["invitations", "github", "--format", format])
            #expect(run.status == 0)
            #expect(run.out == output)
            #expect(run.err.isEmpty)
        }
    }

    /// `--changes` writes an invitation sent to an email address as the list does: a null login and the address
    /// under `email`, which an invitation to an account does not have. Before: the address under `login` (a
    /// review's find).
    @Test func anEmailInvitationsChangeHasANullLoginAndItsEmail() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let documented = String(decoding: Bodies.named("orgs-list-pending-invitations"), as: UTF8.self)
        let toAccount = String(decoding: Self.emailInvitation(), as: UTF8.self)
        let email = toAccount.replacing("\"id\": 1,\n    \"login\": null", with: "\"id\": 2,\n    \"login\": null")
        #expect(email != toAccount)
        var outputs: [String] = []
        for (run, (body, format)) in [
            ("[]", "csv"), ("[" + Self.invitationObject(documented) + "," + Self.invitationObject(email) + "]", "csv"),
            (documented, "ndjson"),
        ].enumerated() {
            let harness = Self.signedIn()
            harness.http.register(
                RequestMatcher("GET /orgs/github/invitations?per_page=100", accept: "application/vnd.github+json"),
                status: 200, headers: [], body: Data(body.utf8))
            if run == 0 {
                // The organization's id, asked once and recorded.
                harness.http.register(
                    RequestMatcher("GET /orgs/github", accept: "application/vnd.github+json"), status: 200,
                    headers: [], body: Bodies.named("orgs-get"))
            }
            let result = await harness.run(
                ["invitations", "github", "--changes", folder("i.json"), "--format", format])
            #expect(result.status == 0, "\(result.err)")
            outputs.append(result.out)
            // Invitations, not accounts (helper-237: "recorded no accounts").
            if run == 0 { #expect(result.err.contains("recorded no invitations of 'gh-users invitations github'")) }
        }
        #expect(
            outputs[1]
                == "change,login,id,previous_login,role,previous_role,email,previous_email\r\n"
                + "added,monalisa,1,,direct_member,,,\r\nadded,,2,,direct_member,,octocat@github.com,\r\n")
        #expect(
            outputs[2]
                == #"{"change":"removed","login":null,"id":2,"role":"direct_member","email":"octocat@github.com"}"#
                + "\n")
    }

    /// The one object of a documented list.
    private static func invitationObject(_ list: String) -> String {
        let trimmed = list.trimmingCharacters(in: .whitespacesAndNewlines)
        return String(trimmed.dropFirst().dropLast())
    }

    /// Every key of GitHub's documented invitation is a field `--fields` takes, as `--json` writes them all
    /// (before: node_id and invitation_teams_url were an "unknown field", exit 64).
    @Test func everyKeyOfTheDocumentedInvitationIsAField() throws {
        let invitations = try #require(
            try JSONSerialization.jsonObject(with: Data(Bodies.named("orgs-list-pending-invitations")))
                as? [[String: Any]])
        let keys = Set(try #require(invitations.first).keys)
        let fields = Set(try #require(CommandCatalog.spec(named: "invitations")).anyFields)
        #expect(keys.count > 10)
        #expect(keys.subtracting(fields).isEmpty, "\(keys.subtracting(fields).sorted())")
    }

    /// A CSV record of one empty field is `""`, as RFC 4180 writes it: an empty line is no record to a reader
    /// (Python's csv.DictReader read 0 of 1).
    @Test func aCSVRecordOfOneEmptyFieldIsQuoted() async throws {
        let harness = Self.signedIn()
        harness.http.register(
            RequestMatcher("GET /orgs/github/invitations?per_page=30", accept: "application/vnd.github+json"),
            status: 200, headers: [], body: Self.emailInvitation())
        let run = await harness.run(["invitations", "github", "--format", "csv", "--fields", "login"])
        #expect(run.status == 0)
        #expect(run.out == "login\r\n\"\"\r\n")
    }

    /// `--anon`'s authors have no login: GitHub sends their name and email, each written in its own column, the
    /// login left empty. Before: `name <email>` under login.
    @Test func anAnonymousContributorHasAnEmptyLoginAndItsNameAndEmail() async throws {
        let harness = CommandHarness()
        let documented = String(decoding: Bodies.named("repos-list-contributors"), as: UTF8.self)
        let anonymous = #"{"email":"mona@example.com","name":"Mona","type":"Anonymous","contributions":3}"#
        let both = String(documented.trimmingCharacters(in: .whitespacesAndNewlines).dropLast()) + "," + anonymous + "]"
        harness.http.register(
            RequestMatcher(
                "GET /repos/octocat/Hello-World/contributors?anon=1&per_page=30", accept: "application/vnd.github+json"),
            status: 200, headers: [], body: Data(both.utf8))
        let run = await harness.run(["contributors", "octocat/Hello-World", "--anon", "--format", "csv"])
        #expect(run.status == 0, "\(run.err)")
        #expect(
            run.out
                == "login,name,email,contributions,type\r\noctocat,,,32,User\r\n,Mona,mona@example.com,3,Anonymous\r\n")
    }

    /// On a narrow terminal an author's email gives way before a login, as an invitation's does: a long email kept
    /// whole had cut every login to a few letters ("dependa…", a review's find), where the table cuts a login only
    /// when nothing else can give.
    @Test func aNarrowTableCutsAnEmailBeforeItCutsALogin() async throws {
        var harness = CommandHarness()
        (harness.stdoutTTY, harness.width) = (true, 80)
        let bot = #"{"login":"dependabot-preview[bot]","id":27856297,"type":"Bot","contributions":40}"#
        let email = "12345678+a-rather-long-name-for-an-author@users.noreply.github.com"
        let anonymous = #"{"email":"\#(email)","name":"An Author","type":"Anonymous","contributions":3}"#
        harness.http.register(
            RequestMatcher(
                "GET /repos/octocat/Hello-World/contributors?anon=1&per_page=30", accept: "application/vnd.github+json"),
            status: 200, headers: [], body: Data("[\(bot),\(anonymous)]".utf8))
        let run = await harness.run(["contributors", "octocat/Hello-World", "--anon", "--color", "never"])
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out.contains("dependabot-preview[bot]"), "\(run.out)")
        #expect(run.out.split(separator: "\n").allSatisfy { DisplayWidth.of(String($0)) <= 80 }, "\(run.out)")
    }

    /// ORG/TEAM is checked before anything is sent.
    @Test(arguments: ["github", "github/justice.league", "github/justice-league/members"])
    func aTeamNotGivenAsOrgSlashTeamIsAUsageError(team: String) async {
        let run = await CommandHarness().run(["team-members", team])
        #expect(run.status == 64)
        #expect(run.out.isEmpty)
        #expect(run.err.hasPrefix("Error: invalid team"))
    }

    /// Under --full each record is the person's profile (`GET /users/octocat`, whose created_at is 2008's) with
    /// the list's own keys added at the top level, the same way in every list; a fork's keys under their names.
    /// (A kept value is checked as its text holds it: `permissions` is an object.)
    @Test(arguments: [
        (
            "collaborators", "GET /repos/octocat/Hello-World/collaborators", "repos-list-collaborators",
            ["role_name": "write", "permissions": "\"push\": 1"]
        ),
        (
            "contributors", "GET /repos/octocat/Hello-World/contributors", "repos-list-contributors",
            ["contributions": "32"]
        ),
        (
            "team-members", "GET /orgs/github/teams/justice-league/members", "teams-list-members-in-org",
            ["role": "member"]
        ),
        (
            "forkers", "GET /repos/octocat/Hello-World/forks", "repos-list-forks",
            ["fork_full_name": "octocat/Hello-World", "forked_at": "2011-01-26T19:01:12Z"]
        ),
    ])
    func fullKeepsTheListsOwnKeysNextToTheProfile(
        command: String, request: String, body: String, kept: [String: String]
    ) async throws {
        let harness = Self.signedIn()
        harness.expect(request + "?per_page=30", body: body)
        harness.expect("GET /users/octocat", body: "users-get-by-username")
        let owner = command == "team-members" ? "github/justice-league" : "octocat/Hello-World"
        let run = await harness.run([command, owner, "--full", "--format", "ndjson"])
        #expect(run.status == 0, "\(run.err)")
        let record = try #require(
            try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any])
        #expect(record["login"] as? String == "octocat")
        #expect(record["created_at"] as? String == "2008-01-14T04:33:35Z")
        #expect(record["followers"] != nil)
        for (key, value) in kept {
            let written = try #require(record[key], "\(key) is kept")
            #expect("\(written)".contains(value))
        }
    }

    /// `--fields` takes the kept keys with --full, in every format. The fork's name is `fork_full_name`: as
    /// `fork` it was a string under --full and GitHub's boolean without (helper-350's S2), so `fork` under --full,
    /// which no profile has, is refused.
    @Test func fieldsTakeTheKeptKeysWithFull() async {
        let harness = Self.signedIn()
        harness.expect("GET /repos/octocat/Hello-World/forks?per_page=30", body: "repos-list-forks")
        harness.expect("GET /users/octocat", body: "users-get-by-username")
        let fields = "login,followers,fork_full_name,forked_at"
        let run = await harness.run(["forkers", "octocat/Hello-World", "--full", "--format", "csv", "--fields", fields])
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out == "\(fields)\r\noctocat,20,octocat/Hello-World,2011-01-26T19:01:12Z\r\n")
        let boolean = await Self.signedIn().run(["forkers", "octocat/Hello-World", "--full", "--fields", "login,fork"])
        #expect(boolean.status == 64 && boolean.err.contains("the field 'fork' is not in a profile"), "\(boolean.err)")
    }

    /// GitHub's `team-member-items` tell a member through a child team by `inherited`: `--fields` takes it, as
    /// it takes `role`, with and without --full (before, it was refused, so CSV could never say it).
    @Test(arguments: [false, true])
    func fieldsTakeATeamMembersInherited(full: Bool) async {
        let harness = Self.signedIn()
        harness.expect("GET /orgs/github/teams/justice-league/members?per_page=30", body: "teams-list-members-in-org")
        if full { harness.expect("GET /users/octocat", body: "users-get-by-username") }
        let run = await harness.run(
            ["team-members", "github/justice-league", "--format", "csv", "--fields", "login,role,inherited"]
                + (full ? ["--full"] : []))
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out == "login,role,inherited\r\noctocat,member,false\r\n")
    }

    /// An author with no account has no profile: under --full --anon it is written as GitHub sent it.
    @Test func fullWritesAnAnonymousContributorAsSent() async throws {
        let harness = CommandHarness()
        // GitHub's documented contributor, then an anonymous author as its schema describes one (type Anonymous,
        // name and email, no login or id).
        let documented = String(decoding: Bodies.named("repos-list-contributors"), as: UTF8.self)
        let anonymous = #"{"type":"Anonymous","name":"Mona","email":"mona@example.com","contributions":3}"#
        let trimmed = documented.trimmingCharacters(in: .whitespacesAndNewlines)
        let both = String(trimmed.dropLast()) + "," + anonymous + "]"
        harness.http.register(
            RequestMatcher(
                "GET /repos/octocat/Hello-World/contributors?anon=1&per_page=30", accept: "application/vnd.github+json"),
            status: 200, headers: [], body: Data(both.utf8))
        harness.expect("GET /users/octocat", body: "users-get-by-username")
        let run = await harness.run(["contributors", "octocat/Hello-World", "--anon", "--full", "--format", "ndjson"])
        #expect(run.status == 0, "\(run.err)")
        let lines = run.out.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.last.map(String.init) == anonymous)
    }

    /// `name` and `email` are an anonymous author's or a profile's: help says which options bring them, as
    /// `--fields` without them refuses them (before, help listed them as plain fields).
    @Test func helpSaysNameAndEmailComeWithAnonOrFull() async {
        let help = HelpRenderer.render(.command("contributors"), width: 400)
        #expect(help.contains("contributions, name (with --anon or --full), email (with --anon or --full)\n"))
        let run = await CommandHarness().run(["contributors", "octocat/Hello-World", "--fields", "login,email"])
        #expect(run.status == 64)
        #expect(run.err.contains("the field 'email' is an anonymous author's (--anon) or a profile's (--full)"))
    }

    /// GitHub answers 202 Accepted while it computes what its statistics endpoints serve. The body of its
    /// documented 202 (`#/components/responses/accepted` in github/rest-api-description, MIT) is `null`; `{}`
    /// and an empty body are what callers report. None is a list: each is waited out on the injected clock
    /// (announced, not slept) and the page asked again.
    @Test(arguments: ["null", "{}", ""])
    func aListAnswered202IsAskedAgainAfterAWait(body: String) async {
        var harness = CommandHarness()
        harness.stderrTTY = true
        let request = RequestMatcher(
            "GET /repos/octocat/Hello-World/contributors?per_page=30", accept: "application/vnd.github+json")
        harness.http.register(request, status: 202, body: Data(body.utf8))
        harness.http.register(request, status: 202, body: Data(body.utf8))
        harness.expect("GET /repos/octocat/Hello-World/contributors?per_page=30", body: "repos-list-contributors")
        let run = await harness.run(["contributors", "octocat/Hello-World", "--format", "tsv", "--fields", "login"])
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out == "octocat\n")
        #expect(run.err.contains("GitHub is computing the list; asking again in 1s"))
        #expect(run.err.contains("GitHub is computing the list; asking again in 2s"))
    }

    /// A list that stays 202 past the bound (six answers: the first and five more after growing waits) ends the
    /// run: exit 1, saying to run again later, and never an empty list.
    @Test func aListStill202AfterTheBoundIsAnError() async {
        let harness = CommandHarness()
        for _ in 0..<6 {
            harness.expect("GET /repos/octocat/Hello-World/contributors?per_page=30", status: 202)
        }
        let run = await harness.run(["contributors", "octocat/Hello-World", "--format", "json"])
        #expect(run.status == 1)
        #expect(run.out.isEmpty)
        #expect(run.err.contains("asking again in 16s"))
        #expect(
            run.err.hasSuffix(
                "gh-users: GitHub is still computing GET /repos/octocat/Hello-World/contributors?per_page=30 (HTTP 202, "
                    + "asked 6 times over 31s); run the command again later\n"))
    }
}
