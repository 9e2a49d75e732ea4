import Data
import Domain

/// `stargazers OWNER/REPO`: who starred a repository and when, oldest star first. Data decides where the pages
/// come from (`StargazerReading`: REST, or GraphQL past REST's 40,000 or with `--via graphql`) and refuses a list
/// GitHub withholds (July 2026); this says so once the list ends when GraphQL took over from REST.
struct StargazersCommand: PeopleListCommand {
    var list: PeopleListOptions
    /// The repository, as `list.owner` names it.
    let repository: RepositoryName

    static let changes = PeopleChangeKey(account: ["user"], counted: "stargazers_count")
    static let full = ProfileStage<PeopleListOptions, Record>.records(
        \.profiles, account: ["user"], keeping: [ListedKey("starred_at", time: true)])

    init(_ parsed: ParsedArguments, spec: CommandSpec) throws(UsageError) {
        repository = try parsed.repository(spec)
        list = PeopleListOptions(owner: .repository(repository), parsed)
    }

    /// Exit 4 without a token for `--via graphql`; then the list, or with `--changes` what changed; and a line on
    /// stderr once the list ends when GraphQL took over from REST.
    func run(_ context: CommandContext, _ github: GitHubReader) async -> CommandOutcome {
        let needs = list.profiles.via == .graphql && !list.profiles.full ? "stargazers --via graphql" : nil
        if !context.presenter.hasToken,
            let requirement = PeopleList.tokenRequirement(list, command: "stargazers", needs: needs)
        {
            return requirement.refuse(context)
        }
        // Each stargazer once, by its user's id, as Data reads them.
        let reading = StargazerReading(
            of: repository, plan: list.plan, viaGraphQL: list.profiles.via == .graphql, github: github)
        let pages = PagedListViewModel(limit: list.plan.limit, pages: reading)
        if let file = list.changes {
            return await PeopleList.changes(
                file, command: "stargazers", noun: "stargazers", key: Self.changes, list, pages: [pages], context,
                github)
        }
        let columns = [personLogin("LOGIN", under: "user"), .time("STARRED", "starred_at", context.render)]
        let stream = PeopleList.stream(noun: "stargazers", columns: columns, full: Self.full, list, context, github)
        let end = await stream.stream(pages)
        return stream.close(end, notes: reading.takeover.map { [Self.pastCapNote($0)] } ?? [])
    }

    /// Why GraphQL took over from REST, with the reach that applied: 400 pages of the run's --per-page, at most
    /// 40,000. Never written for --via graphql, where REST is not asked.
    static func pastCapNote(_ takeover: StargazerReading.RESTTakeover) -> String {
        func pages(_ reach: Int, _ perPage: Int) -> String {
            "\(Counted.grouped(reach)) (\(StargazerReading.restPages) pages of \(perPage))"
        }
        switch takeover {
        case .counted(let count, let reach, let perPage):
            return "gh-users: the repository counts \(Counted.grouped(count)) stargazers and GitHub's REST "
                + "list reaches \(pages(reach, perPage)), so they were read through GraphQL."
        case .stopped(let reach, let perPage):
            return "gh-users: GitHub's REST list of stargazers stopped at \(pages(reach, perPage)) while the "
                + "repository counted more (stars added during the run), so the rest were read through GraphQL."
        }
    }
}

extension StargazersCommand {
    /// What it lists, who may list it, the 400-page cap and how it is passed.
    static let spec: CommandSpec = {
        var spec = CommandSpec(
            name: "stargazers",
            abstract: "List who starred a repository, and when (\(Endpoint.stargazers)).",
            usage:
                "gh-users stargazers OWNER/REPO [--limit N | --all] [--via rest|graphql] [--full] [options]",
            discussion: """
                Lists the accounts that starred the repository, oldest star first: the table shows each login
                and when it starred (starred_at). Each record is GitHub's {"starred_at", "user"} object;
                --fields takes its keys and paths (user.login), and login: the user's login. Since July 2026
                GitHub lists a repository's stargazers only to its admins and collaborators: it needs a token
                of one of them (with the repo scope for a private repository). When GitHub refuses (403 or 404,
                or an empty list where the repository counts some), the repository is asked for: if it exists,
                the refusal is exit status 4 and says why in one line; if not, exit status 3. For any public
                repository, star-history gives the stars gained a day.

                GitHub's REST list stops at 400 pages (40,000 stargazers): page 401 is refused, and its links
                never point past page 400. So --all, or a --limit above 40,000 (or above 400 pages of a smaller
                --per-page), first asks GET /repos/{owner}/{repo} for stargazers_count, and past that reads
                the whole list through
                GraphQL (Repository.stargazers, ordered by starredAt as REST is) from the start: GraphQL's
                cursors are opaque, so none points at REST's 40,001st, and starting over costs one request
                rather than 400. Should REST still stop at 40,000 (stars added during the run), GraphQL is read
                from its start and every stargazer already written is skipped by the user's id: none is
                written twice and none is left out; a --limit that REST's pages meet ends there, with no count
                asked and no line. Either way a line on stderr says why GraphQL was used (the
                count, or REST stopping short) and the reach that applied (40,000, or 4,000 at --per-page 10).
                --via graphql reads the list through GraphQL from the start (it needs a token: exit status 4
                without one), and then no such line is written. Each record has
                the same shape either way, the user's keys as REST names them: databaseId is id, id is
                node_id, url is html_url, avatarUrl is avatar_url (REST's form of it on github.com),
                isSiteAdmin is site_admin, type is User, gravatar_id is "", and url, followers_url and the
                other API addresses are built from the login as REST writes them.

                With --full each stargazer is written as its profile (GET /users/{username}; with --via
                graphql, 100 a request): under --full, the list's own keys (starred_at) are added to the
                profile, after its own keys.
                """,
            arguments: [("OWNER/REPO", "The repository, as OWNER/REPO (octocat/Hello-World).")],
            options: [],
            examples: [
                ("gh-users stargazers my-org/app", "The first 30 to star a repository you administer."),
                ("gh-users stargazers my-org/app --all --format ndjson", "Every stargazer, past 40,000 too."),
                (
                    "gh-users stargazers my-org/app --all --full --via graphql --format csv --fields login,name,starred_at",
                    "Every stargazer's name, and when they starred."
                ),
            ],
            fields: ["login", "starred_at", "user"])
        spec.listsThroughGraphQL = true
        return PeopleList.spec(spec, noun: "stargazers", changes: changes, profiles: full.kept).taking(.repository)
    }()
}
