import Data
import Domain

/// `assignees OWNER/REPO`: who a repository's issues can be assigned to.
struct AssigneesCommand: PeopleListCommand {
    var list: PeopleListOptions

    static let changes = PeopleChangeKey()

    static let spec = PeopleList.spec(
        CommandSpec(
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
            fields: FieldCatalog.account),
        noun: "assignees", changes: changes, profiles: []
    ).taking(.repository)

    init(_ parsed: ParsedArguments, spec: CommandSpec) throws(UsageError) {
        list = PeopleListOptions(
            owner: .repository(try parsed.repository(spec)), parsed)
    }

    func run(_ context: CommandContext, _ github: GitHubReader) async -> CommandOutcome {
        if !context.presenter.hasToken,
            let requirement = PeopleList.tokenRequirement(list, command: "assignees")
        {
            return requirement.refuse(context)
        }
        let assignees = GitHubEndpoints.accounts(.assignees, under: list.owner)
        return await PeopleList.write(
            PeopleList.pages(assignees, list.plan, github), command: "assignees", noun: "assignees",
            columns: AccountColumns.summary, full: .accounts(\.profiles), changes: Self.changes, list, context, github)
    }
}

/// `watchers OWNER/REPO`: who watches a repository, which GitHub lists only to its admins and collaborators since
/// July 2026 (Data tells a withheld list from a missing repository).
struct WatchersCommand: PeopleListCommand {
    var list: PeopleListOptions

    static let changes = PeopleChangeKey(counted: "subscribers_count")

    static let spec = PeopleList.spec(
        CommandSpec(
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
            fields: FieldCatalog.account),
        noun: "watchers", changes: changes, profiles: []
    ).taking(.repository)

    init(_ parsed: ParsedArguments, spec: CommandSpec) throws(UsageError) {
        list = PeopleListOptions(
            owner: .repository(try parsed.repository(spec)), parsed)
    }

    func run(_ context: CommandContext, _ github: GitHubReader) async -> CommandOutcome {
        if !context.presenter.hasToken,
            let requirement = PeopleList.tokenRequirement(list, command: "watchers")
        {
            return requirement.refuse(context)
        }
        // The first page through Data's July 2026 check, then each `Link` followed.
        let watchers = github.watchers(of: list.owner, perPage: list.plan.perPage)
        return await PeopleList.write(
            PagedListViewModel(limit: list.plan.limit, pages: watchers), command: "watchers", noun: "watchers",
            columns: AccountColumns.summary, full: .accounts(\.profiles), changes: Self.changes, list, context, github)
    }
}

/// `collaborators OWNER/REPO`: who has access to a repository, with each one's role.
struct CollaboratorsCommand: PeopleListCommand {
    var list: PeopleListOptions

    static let affiliation = PeopleFilter.choice(
        "affiliation",
        help: "outside (not members of the owning organization), direct (given access themselves) or all.",
        default: "all", choices: ["outside", "direct", "all"])
    /// REST's words for the filter; role_name, and `access --permission`, say read and write for pull and push.
    static let permission = PeopleFilter.choice(
        "permission",
        help: "Only those with this permission: pull, triage, push, maintain or admin (read is pull, write is "
            + "push).",
        choices: ["pull", "triage", "push", "maintain", "admin"], aliases: ["read": "pull", "write": "push"])
    /// A list far short of the snapshot is refused as a collapse: GitHub answers each token what it may see, and an
    /// app's token (Actions' GITHUB_TOKEN) gets the direct collaborators alone (actions/runner#2519), so a
    /// shorter list may be another token's, not people gone (helper-351's R1).
    static let changes = PeopleChangeKey(role: "role_name")
    static let kept = [ListedKey("role_name"), ListedKey("permissions", shrink: .first)]

    static let spec = PeopleList.spec(
        CommandSpec(
            name: "collaborators",
            abstract: "List who has access to a repository, with each one's role (\(Endpoint.collaborators)).",
            usage:
                "gh-users collaborators OWNER/REPO [--affiliation outside|direct|all] [--permission P] "
                + "[--limit N | --all] [options]",
            discussion: """
                Lists the repository's collaborators: its organization's members with access, outside
                collaborators and those given access themselves, each with role_name (read, triage, write,
                maintain, admin, or a custom role) and GitHub's permissions object. GitHub lists them only to a
                token with push access to the repository (and the read:org and repo scopes): its refusal
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
            fields: FieldCatalog.account + ["role_name", "permissions"]),
        noun: "collaborators", filters: [affiliation, permission], changes: changes, profiles: kept
    ).taking(.repository)

    init(_ parsed: ParsedArguments, spec: CommandSpec) throws(UsageError) {
        list = PeopleListOptions(
            owner: .repository(try parsed.repository(spec)), parsed)
    }

    func run(_ context: CommandContext, _ github: GitHubReader) async -> CommandOutcome {
        if !context.presenter.hasToken,
            let requirement = PeopleList.tokenRequirement(
                list, command: "collaborators", needs: "collaborators (push access to the repository)")
        {
            return requirement.refuse(context)
        }
        let collaborators = GitHubEndpoints.accounts(.collaborators, under: list.owner, filters: list.filters)
        return await PeopleList.write(
            PeopleList.pages(collaborators, list.plan, github), command: "collaborators", noun: "collaborators",
            columns: accountsWithRole("role_name"), full: .accounts(\.profiles, keeping: Self.kept),
            changes: Self.changes, list, context, github)
    }
}

/// `contributors OWNER/REPO`: who contributed to a repository, and how much; with `--anon`, the authors with no
/// account too.
struct ContributorsCommand: PeopleListCommand {
    var list: PeopleListOptions

    static let anon = PeopleFilter.flag("anon", help: "The authors with no GitHub account too.", sends: "anon", "1")
    static let changes = PeopleChangeKey()
    static let full = ProfileStage<PeopleListOptions, Record>.records(
        \.profiles, account: [], keeping: [ListedKey("contributions")])

    static let spec = PeopleList.spec(
        CommandSpec(
            name: "contributors",
            abstract: "List who contributed to a repository, and how much (\(Endpoint.contributors)).",
            usage: "gh-users contributors OWNER/REPO [--anon] [--limit N | --all] [options]",
            discussion: """
                Lists the accounts that committed to the repository's default branch, most contributions
                first, with contributions: GitHub's count of their commits. With --anon, the authors GitHub
                ties to no account too (type Anonymous), whose login is empty: NAME and EMAIL show theirs. GitHub
                ties only the first 500 author emails of a repository to accounts (the rest are anonymous), and
                its counts may be a few hours old. An empty repository lists no one. GitHub does not list the contributors of a repository whose history
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
            fields: FieldCatalog.account + ["contributions", "name", "email"]),
        noun: "contributors", filters: [anon], changes: changes, profiles: full.kept
    ).taking(.repository).noting(["name", "email"], "with --anon or --full")

    /// `name` and `email` are an anonymous author's (`--anon`) or a profile's (`--full`): without either, no
    /// record has them, and the column would be blank whatever GitHub sent.
    init(_ parsed: ParsedArguments, spec: CommandSpec) throws(UsageError) {
        list = PeopleListOptions(
            owner: .repository(try parsed.repository(spec)), parsed)
        if list.filters["anon"] == nil, !list.profiles.full,
            let field = parsed.common.fields?.first(where: { $0 == "name" || $0 == "email" })
        {
            throw UsageError(
                message: "the field '\(field)' is an anonymous author's (--anon) or a profile's (--full), and no "
                    + "contributor without them has it",
                command: spec)
        }
    }

    func run(_ context: CommandContext, _ github: GitHubReader) async -> CommandOutcome {
        if !context.presenter.hasToken,
            let requirement = PeopleList.tokenRequirement(list, command: "contributors")
        {
            return requirement.refuse(context)
        }
        let contributors = GitHubEndpoints.records(.contributors, under: list.owner, filters: list.filters)
        // An author with no account has no login: GitHub sends a name and an email instead, each in its column.
        let anonymous =
            list.filters["anon"] == nil
            ? []
            : [
                Column<Record>("NAME", path: ["name"], shrink: .second),
                Column("EMAIL", path: ["email"], shrink: .second),
            ]
        let columns =
            [Column<Record>("LOGIN", path: ["login"], shrink: .last)] + anonymous + [
                Column("CONTRIBUTIONS", path: ["contributions"]),
                Column("TYPE", path: ["type"]),
            ]
        return await PeopleList.write(
            PeopleList.pages(contributors, list.plan, github), command: "contributors", noun: "contributors",
            columns: columns, full: Self.full, changes: Self.changes, list, context, github)
    }
}

/// `forkers OWNER/REPO`: who forked a repository, and when, newest first.
struct ForkersCommand: PeopleListCommand {
    var list: PeopleListOptions

    static let changes = PeopleChangeKey(account: ["owner"], counted: "forks_count")
    static let full = ProfileStage<PeopleListOptions, Record>.records(
        \.profiles, account: ["owner"],
        keeping: [
            ListedKey("full_name", as: "fork_full_name", shrink: .first),
            ListedKey("created_at", as: "forked_at", time: true),
        ])

    static let spec = PeopleList.spec(
        CommandSpec(
            name: "forkers",
            abstract: "List who forked a repository, and when (\(Endpoint.forks)).",
            usage: "gh-users forkers OWNER/REPO [--limit N | --all] [options]",
            discussion: """
                Lists the repository's forks, newest first: the table shows each fork's owner, its name and
                when it was made (created_at). Each record is GitHub's fork object as sent (its id and
                html_url are the fork's); --fields takes its keys and paths (owner.login), and login: the
                owner's login. With --full each is written as its owner's profile (the owner's id) with
                fork_full_name (the fork's full_name) and forked_at (its created_at) added.
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
            fields: ["login"] + FieldCatalog.repository),
        noun: "forks", changes: changes, profiles: full.kept
    ).taking(.repository).listingFields(
        as: "login, and each key of GitHub's repository ('gh-users repos --help' lists them); with --full, those "
            + "a profile has")

    init(_ parsed: ParsedArguments, spec: CommandSpec) throws(UsageError) {
        list = PeopleListOptions(
            owner: .repository(try parsed.repository(spec)), parsed)
    }

    func run(_ context: CommandContext, _ github: GitHubReader) async -> CommandOutcome {
        if !context.presenter.hasToken,
            let requirement = PeopleList.tokenRequirement(list, command: "forkers")
        {
            return requirement.refuse(context)
        }
        let forks = GitHubEndpoints.records(.forks, under: list.owner)
        let columns = [
            personLogin("OWNER", under: "owner"),
            Column("FORK", path: ["full_name"], shrink: .first),
            .time("FORKED", "created_at", context.render),
        ]
        return await PeopleList.write(
            PeopleList.pages(forks, list.plan, github), command: "forkers", noun: "forks", columns: columns,
            full: Self.full, changes: Self.changes, list, context, github)
    }
}
