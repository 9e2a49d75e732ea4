import Data
import Domain
import JSONBytes

/// The people of organizations, teams and repositories: lists of accounts under one owner, each a declaration
/// here (`Command(people:under:noun:spec:)` for a plain one; `members` in MembersCommand.swift) and a line in
/// `entries`, which the catalog appends to its own. Adding one takes its endpoint row, its declaration here, its command-test row and GitHub's body.
enum PeopleLists {
    static let entries: [CommandCatalog.Entry] = [
        entry("members") { members }, entry("outside-collaborators") { outsideCollaborators },
        entry("invitations") { invitations }, entry("team-members") { teamMembers },
        entry("assignees") { assignees }, entry("collaborators") { collaborators },
        entry("contributors") { contributors }, entry("forkers") { forkers }, entry("watchers") { watchers },
        entry("stargazers") { stargazers },
    ]

    /// A catalog line for one of these lists, listed under the organizations' section.
    private static func entry(_ name: String, _ command: @escaping @Sendable () -> Command) -> CommandCatalog.Entry {
        CommandCatalog.Entry(name) { command().listed(under: .organizations) }
    }

    static let outsideCollaborators = Command(
        people: .outsideCollaborators, under: .organization, noun: "outside collaborators",
        spec: CommandSpec(
            name: "outside-collaborators",
            abstract: "List an organization's outside collaborators (\(Endpoint.outsideCollaborators)).",
            usage: "gh-users outside-collaborators ORG [--limit N | --all] [options]",
            discussion: """
                Lists the people who are not members of the organization but can reach one of its
                repositories. Only the organization's owners may list them: it needs a token of an owner with
                the read:org scope, and GitHub's refusal (403, or 404 for what the token may not see) is exit
                status 4 with the scope named. A 404 asks for the organization (GET /orgs/{org}) first: when
                there is none by that name, exit status 3 says so.
                """,
            arguments: [("ORG", "The organization whose outside collaborators to list.")],
            options: [],
            examples: [
                ("gh-users outside-collaborators my-org --all", "Every outside collaborator of my-org."),
                (
                    "gh-users outside-collaborators my-org --all --full --format csv --fields login,name,email",
                    "Who they are, for a security review."
                ),
            ],
            fields: FieldCatalog.account))

    static let assignees = Command(
        people: .assignees, under: .repository, noun: "assignees",
        spec: CommandSpec(
            name: "assignees",
            abstract: "List who a repository's issues can be assigned to (\(Endpoint.assignees)).",
            usage: "gh-users assignees OWNER/REPO [--limit N | --all] [options]",
            discussion: """
                Lists the accounts that issues and pull requests of the repository may be assigned to: for a
                public repository, anyone may list them.
                """,
            arguments: [("OWNER/REPO", "The repository, as OWNER/REPO (octocat/Hello-World).")],
            options: [],
            examples: [
                ("gh-users assignees octocat/Hello-World", "The first 30."),
                ("gh-users assignees octocat/Hello-World --all --format tsv --fields login", "Every login."),
            ],
            fields: FieldCatalog.account))

    static let watchers = Command(
        people: .watchers, under: .repository, noun: "watchers", withheld: "subscribers_count",
        spec: CommandSpec(
            name: "watchers",
            abstract: "List who watches a repository (\(Endpoint.watchers)).",
            usage: "gh-users watchers OWNER/REPO [--limit N | --all] [options]",
            discussion: """
                Lists the accounts subscribed to the repository's notifications. Since July 2026 GitHub lists a
                repository's watchers only to its admins and collaborators: it needs a token of one of them
                (with the repo scope for a private repository). When GitHub refuses (403 or 404, or an empty
                list where the repository counts some), the repository is asked for: if it exists, the refusal
                is exit status 4 and says why in one line; if not, exit status 3.
                """,
            arguments: [("OWNER/REPO", "The repository, as OWNER/REPO (octocat/Hello-World).")],
            options: [],
            examples: [
                ("gh-users watchers my-org/app", "The first 30 watchers of a repository you administer."),
                ("gh-users watchers my-org/app --all --full --format csv --fields login,name", "Who they are."),
            ],
            fields: FieldCatalog.account))

    static let stargazers = Command(
        peopleList: ListDeclaration<PeopleListOptions, Record>(
            noun: "stargazers", list: { GitHubEndpoints.records(.stargazers, under: $0.owner) },
            columns: { context in
                [
                    personLogin("LOGIN", under: "user"),
                    .time("STARRED", "starred_at", context),
                ]
            }
        )
        .prepared { options, github, plan in
            StargazerPages.prepared(
                options, github: github, plan: plan,
                admission: ListDeclaration<PeopleListOptions, Record>.unseen(id: \.listedID)(options))
        }
        .fullProfiles(.records(\.profiles, account: ["user"], keeping: [ListedKey("starred_at")]))
        .requiringToken { $0.profiles.via == .graphql && !$0.profiles.full ? "stargazers --via graphql" : nil },
        under: .repository, filters: [], changes: PeopleChangeKey(account: ["user"]), spec: StargazersHelp.spec)

    static let affiliation = PeopleFilter.choice(
        "affiliation",
        help: "outside (not members of the owning organization), direct (given access themselves) or all.",
        default: "all", choices: ["outside", "direct", "all"])
    static let permission = PeopleFilter.choice(
        "permission", help: "Only those with this permission: pull, triage, push, maintain or admin.",
        choices: ["pull", "triage", "push", "maintain", "admin"])

    static let collaborators = Command(
        people: .collaborators, under: .repository, noun: "collaborators", filters: [affiliation, permission],
        keeping: [ListedKey("role_name"), ListedKey("permissions")],
        columns: { _ in accountsWithRole("role_name") }, changes: PeopleChangeKey(role: "role_name"),
        spec: CommandSpec(
            name: "collaborators",
            abstract: "List who has access to a repository, with each one's role (\(Endpoint.collaborators)).",
            usage:
                "gh-users collaborators OWNER/REPO [--affiliation outside|direct|all] [--permission P] "
                + "[--limit N | --all] [options]",
            discussion: """
                Lists the repository's collaborators: its organization's members with access, outside
                collaborators and those given access themselves, each with role_name (read, triage, write,
                maintain, admin, or a custom role) and GitHub's permissions object. GitHub lists them only to a
                token with push access to the repository (and the repo scope for a private one): its refusal
                (403, or 404 for what the token may not see) is exit status 4 and names what is needed. A 404
                asks for the repository (GET /repos/{owner}/{repo}) first: when there is none the token can
                see, exit status 3 says so. With --full each is written as its profile with role_name and
                permissions added.
                """,
            arguments: [("OWNER/REPO", "The repository, as OWNER/REPO (octocat/Hello-World).")],
            options: [affiliation.spec, permission.spec],
            examples: [
                ("gh-users collaborators octocat/Hello-World", "Who has access, and as what."),
                (
                    "gh-users collaborators my-org/app --affiliation outside --all --format tsv --fields login,role_name",
                    "The outside collaborators and their roles."
                ),
                ("gh-users collaborators my-org/app --permission admin --all", "Who may administer it."),
            ],
            fields: FieldCatalog.account + ["role_name", "permissions"]))

    static let anon = PeopleFilter.flag("anon", help: "The authors with no GitHub account too.", sends: "anon", "1")

    static let contributors = Command(
        peopleRecords: .contributors, under: .repository, noun: "contributors",
        filters: [anon], full: .records(\.profiles, account: [], keeping: [ListedKey("contributions")]),
        changes: PeopleChangeKey(),
        columns: { options, _ in
            // An author with no account has no login: GitHub sends a name and an email instead, each in its column.
            let anonymous =
                options.filters["anon"] == nil
                ? [] : [Column<Record>("NAME", path: ["name"], shrink: .second), Column("EMAIL", path: ["email"])]
            return [Column("LOGIN", path: ["login"], shrink: .last)] + anonymous + [
                Column("CONTRIBUTIONS", path: ["contributions"]),
                Column("TYPE", path: ["type"]),
            ]
        },
        spec: CommandSpec(
            name: "contributors",
            abstract: "List who contributed to a repository, and how much (\(Endpoint.contributors)).",
            usage: "gh-users contributors OWNER/REPO [--anon] [--limit N | --all] [options]",
            discussion: """
                Lists the accounts that committed to the repository's default branch, most contributions
                first, with contributions: GitHub's count of their commits. With --anon, the authors GitHub
                ties to no account too (type Anonymous), whose login is empty: NAME and EMAIL show theirs. An empty
                repository lists no one. GitHub does not list the contributors of a repository whose history
                or contributor list is too large: it says so, and that is exit status 1. Should GitHub answer
                202 (still computing, as its statistics do), the list is asked again after 1, 2, 4, 8 and 16
                seconds, saying so on stderr; still 202 after that is exit status 1. With --full each
                account is written as its profile with contributions added; an anonymous author, who has no
                profile, is written as GitHub sent it.
                """,
            arguments: [("OWNER/REPO", "The repository, as OWNER/REPO (octocat/Hello-World).")],
            options: [anon.spec],
            examples: [
                ("gh-users contributors octocat/Hello-World", "The 30 who contributed most."),
                (
                    "gh-users contributors octocat/Hello-World --anon --all --format csv --fields login,name,email,contributions",
                    "Everyone, with or without an account."
                ),
            ],
            fields: FieldCatalog.account + ["contributions", "name", "email"]))

    static let forkers = Command(
        peopleRecords: .forks, under: .repository, noun: "forks",
        full: .records(
            \.profiles, account: ["owner"],
            keeping: [ListedKey("full_name", as: "fork"), ListedKey("created_at", as: "forked_at")]),
        changes: PeopleChangeKey(account: ["owner"], counted: "forks_count"),
        columns: { _, context in
            [
                personLogin("OWNER", under: "owner"),
                Column("FORK", path: ["full_name"], shrink: .first),
                .time("FORKED", "created_at", context),
            ]
        },
        spec: CommandSpec(
            name: "forkers",
            abstract: "List who forked a repository, and when (\(Endpoint.forks)).",
            usage: "gh-users forkers OWNER/REPO [--limit N | --all] [options]",
            discussion: """
                Lists the repository's forks, newest first: the table shows each fork's owner, its name and
                when it was made (created_at). Each record is GitHub's fork object as sent; --fields takes its
                top-level keys, and login: the owner's login. With --full each is written as its owner's
                profile with fork (the fork's full_name) and forked_at (its created_at) added.
                """,
            arguments: [("OWNER/REPO", "The repository, as OWNER/REPO (octocat/Hello-World).")],
            options: [],
            examples: [
                ("gh-users forkers octocat/Hello-World", "The 30 newest forks and their owners."),
                (
                    "gh-users forkers octocat/Hello-World --all --format ndjson | jq -r .owner.login",
                    "Every forker's login."
                ),
            ],
            fields: ["login", "id", "full_name", "owner", "created_at", "pushed_at", "html_url", "stargazers_count"]))

    /// `login` on a list whose records hold the person under `account` (a stargazer's `user`, a fork's `owner`):
    /// the person's login, as on every people list, for the table and for `--fields`; under `--full` the record is
    /// the person's profile, with a login of its own.
    static func personLogin(_ header: String, under account: String) -> Column<Record> {
        Column(header, key: "login", shrink: .last, derived: true) { record in
            let own = JSONText.text(of: "login", in: record.raw.bytes)
            return own.isEmpty ? JSONText.text(at: [account, "login"], in: record.raw.bytes) : own
        }
    }

    static let invitations = Command(
        peopleRecords: .invitations, under: .organization, noun: "invitations",
        changes: PeopleChangeKey(role: "role", fallbackName: "email"),
        columns: { _, context in
            [
                Column("LOGIN", path: ["login"], shrink: .last),
                Column("EMAIL", path: ["email"], shrink: .second),
                Column("ROLE", path: ["role"]),
                .time("INVITED", "created_at", context),
                Column("INVITER", path: ["inviter", "login"]),
            ]
        },
        spec: CommandSpec(
            name: "invitations",
            abstract: "List an organization's pending invitations (\(Endpoint.invitations)).",
            usage: "gh-users invitations ORG [--limit N | --all] [options]",
            discussion: """
                Lists the invitations to the organization that are not yet accepted: who was invited (the
                login, empty for an invitation sent to an email address, whose login is null, and the email),
                the role, when, and who invited them. Only the organization's owners may list them: it needs a token of an
                owner with the admin:org scope, and GitHub's refusal (403, or 404 for what the token may not
                see) is exit status 4 with the scope named. A 404 asks for the organization (GET /orgs/{org})
                first: when there is none by that name, exit status 3 says so.
                """,
            arguments: [("ORG", "The organization whose pending invitations to list.")],
            options: [],
            examples: [
                ("gh-users invitations my-org --all", "Every pending invitation to my-org."),
                (
                    "gh-users invitations my-org --all --format tsv --fields login,email,role,created_at",
                    "The same, for a script."
                ),
            ],
            fields: [
                "id", "login", "email", "role", "created_at", "failed_at", "failed_reason", "inviter", "team_count",
                "invitation_source",
            ]))

    static let teamRole = PeopleFilter.choice(
        "role", help: "member, maintainer or all.", default: "all", choices: ["member", "maintainer", "all"])

    static let teamMembers = Command(
        peopleList: ListDeclaration<PeopleListOptions, User>(
            noun: "team members",
            list: { GitHubEndpoints.accounts(.teamMembers, under: $0.owner, filters: $0.filters) },
            columns: { _ in accountsWithRole("role") }
        ).fullProfiles(.accounts(\.profiles, keeping: [ListedKey("role")])).direct()
            .requiringToken(for: TeamMembersDirect.needsToken),
        under: .team, filters: [teamRole, TeamMembersDirect.option], changes: PeopleChangeKey(role: "role"),
        spec: CommandSpec(
            name: "team-members",
            abstract: "List a team's members, with each one's role (\(Endpoint.teamMembers)).",
            usage:
                "gh-users team-members ORG/TEAM [--role member|maintainer|all] [--direct] [--limit N | --all] "
                + "[options]",
            discussion: """
                Lists the members of the team, the members of its child teams included, each with role
                (member or maintainer). TEAM is the team's slug, as in its URL. It needs a token that can see
                the team (read:org for a classic token): GitHub's refusal (403, or 404 for what the token may
                not see) is exit status 4 with the scope named; a 404 asks for the organization (GET
                /orgs/{org}) first, and when there is none by that name, exit status 3 says so (a team's own
                lookup answers only those who may list it). With --full each is written as its profile
                with role added. With --direct, only the team's own members, without its child teams': GitHub's
                REST list cannot leave them out, so they are paged through GraphQL
                (Team.members(membership: IMMEDIATE), --role as its role filter), which needs a token (exit
                status 4 without one) and spends GraphQL points, about one a page; each is written in the REST
                list's shape, role included.
                """,
            arguments: [("ORG/TEAM", "The team, as ORG/TEAM-SLUG (github/justice-league).")],
            options: [teamRole.spec, TeamMembersDirect.option.spec],
            examples: [
                ("gh-users team-members github/justice-league --all", "Every member of the team."),
                ("gh-users team-members github/justice-league --role maintainer", "Its maintainers."),
                (
                    "gh-users team-members github/justice-league --direct --all",
                    "Its own members, not its child teams'."
                ),
            ],
            fields: FieldCatalog.account + ["role"]))

    /// The accounts' columns with the role GitHub gives each under `key` (`role_name` of a collaborator).
    private static func accountsWithRole(_ key: String) -> [Column<User>] {
        [
            Column("ID") { String($0.id) },
            Column("LOGIN", shrink: .last) { $0.login },
            Column("ROLE", key: key) { JSONText.text(of: key, in: $0.raw.bytes) },
            Column("URL", key: "html_url", shrink: .second) { $0.htmlURL ?? "" },
        ]
    }
}

extension ListDeclaration where Options == PeopleListOptions, Item == User {
    /// `members` as GitHub answers it: a page that came from `/orgs/{org}/public_members` (GitHub's redirect for a
    /// token that is not a member) ends the run with a line saying so, on a terminal or not
    /// (`GitHubEndpoints.members` refuses a filtered list answered so).
    func notingPublicMembers() -> Self {
        let (list, admission) = (list, admission)
        return prepared { options, github, plan in
            guard !options.publicOnly else { return nil }
            let resource = list(options)
            return PreparedList(
                noting: { cursor throws(DomainError) in
                    let page =
                        if let cursor { try await github.page(resource, at: cursor) } else {
                            try await github.firstPage(resource, perPage: plan.perPage)
                        }
                    // The pages after a redirected first one link to the public list itself.
                    let answeredPublic =
                        page.answeredPath != nil || cursor?.url.contains("/public_members") == true
                    return .init(
                        page: page, closingNotes: answeredPublic ? [PeopleLists.publicMembersNote(options.owner)] : [])
                },
                admission: admission(options))
        }
    }
}
