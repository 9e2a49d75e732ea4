import AtomicCore
import Data
import Domain
import Foundation
import JSONBytes

/// `gh-users repos LOGIN`: which repositories, in which order, validated.
struct ListReposOptions: PagedOptions {
    var login: Login
    var query = RepoQuery()
    var paging = PagingOptions()

    /// Filtering on `fork` happens here, not at GitHub, so a filtered listing reads full pages.
    var plan: PagingPlan { query.forks != .any ? paging.filteredPlan : paging.plan }
}

/// `gh-users repos`: an account's repositories, as a person scans them.
enum ListReposCommand {
    /// `repos`' own options, each declared once: help, parsing and checking read them.
    /// A filter, so one value, as the people lists' are; `--sort` and `--direction` take the last, as gh's do.
    static let type = OptionDeclaration<RepoQuery>.optional(
        OptionSpec(
            "type", value: "TYPE", help: "owner, member or all.", default: "owner",
            choices: RepoQuery.Kind.allCases.map(\.rawValue)),
        at: \.kind,
        parse: { reading throws(UsageError) in
            try reading.oneValue()
            return try reading.choice(RepoQuery.Kind.self)
        },
        write: \.rawValue)
    static let sort = OptionDeclaration<RepoQuery>.choice(
        OptionSpec(
            "sort", value: "KEY", help: "created, updated, pushed or full_name.", default: "full_name",
            choices: RepoQuery.Sort.allCases.map(\.rawValue)),
        at: \.sort)
    static let direction = OptionDeclaration<RepoQuery>.direction(
        default: "asc for full_name, else desc", at: \.direction)
    static let sources = OptionDeclaration<RepoQuery>(
        spec: OptionSpec("sources", help: "Only repositories that are not forks."),
        read: { query, _ in query.forks = .sourcesOnly }, resume: { $0.forks == .sourcesOnly ? ["--sources"] : [] })
    static let forks = OptionDeclaration<RepoQuery>(
        spec: OptionSpec("forks", help: "Only forks."),
        read: { query, _ in query.forks = .forksOnly }, resume: { $0.forks == .forksOnly ? ["--forks"] : [] })

    static let options = GroupDeclaration<RepoQuery>(
        title: "OPTIONS", options: [type, sort, direction, sources, forks])

    static let spec = CommandSpec(
        name: "repos",
        abstract: "List an account's repositories (GET /users/{username}/repos).",
        usage: "gh-users repos LOGIN [--type owner|member|all] [--sort KEY] [--direction asc|desc] "
            + "[--sources | --forks] [--limit N | --all] [options]",
        discussion: """
            The table shows what a person scans first: name, whether it is a fork, language, stars, forks,
            when it was last pushed to, and the description. tsv and csv carry the same columns with the
            data as GitHub sent it (fork is true or false); JSON carries GitHub's whole repository objects.
            """,
        arguments: [("LOGIN", "The account whose repositories to list.")],
        options: options.group.options,
        examples: [
            ("gh-users repos octocat", "The first 30, by name."),
            (
                "gh-users repos octocat --sort pushed --sources --limit 10",
                "The ten most recently pushed originals."
            ),
            (
                "gh-users repos octocat --all --json | jq -r '.[] | select(.language == \"Go\") | .full_name'",
                "Every Go repository."
            ),
        ],
        fields: FieldCatalog.repository
    ).declaring(options).paging("repositories", profiles: false).taking(.login)

    /// Times are relative in a table on a terminal ("3 days ago") and as GitHub sent them otherwise. Data formats
    /// never alter a field: a fork is its own column, never a mark inside the description.
    static func columns(_ context: RenderContext) -> [Column<Repo>] {
        let table = context.format == .table
        return [
            Column("NAME", key: "full_name", shrink: .last) { $0.fullName },
            Column("FORK", key: "fork") { repo in
                repo.fork.map { table ? ($0 ? "fork" : "") : String($0) } ?? ""
            },
            // A narrow terminal drops the description, then when it was pushed and its language, before a
            // name is cut.
            Column("LANGUAGE", shrink: .first) { $0.language ?? "" },
            Column("STARS", key: "stargazers_count") { $0.stargazers.map(String.init) ?? "" },
            Column("FORKS", key: "forks_count") { $0.forks.map(String.init) ?? "" },
            Column("PUSHED", key: "pushed_at", shrink: .first) { repo in
                RelativeTime.cell(JSONText.text(of: "pushed_at", in: repo.raw.bytes), context: context)
            },
            Column("DESCRIPTION", shrink: .first) { $0.description ?? "" },
        ]
    }
}

extension ListReposOptions: GitHubCommand {
    static var spec: CommandSpec { ListReposCommand.spec }

    /// The LOGIN; the query's options and the paging group as the scanner read them.
    init(_ parsed: ParsedArguments, spec: CommandSpec) throws(UsageError) {
        self.init(login: try parsed.login(spec))
        query = parsed.options()
        paging = parsed.paging
    }

    /// `GET /users/{username}/repos`, page by page; `--sources` or `--forks` filters here, on full pages.
    func run(_ context: CommandContext, _ github: GitHubReader) async -> CommandOutcome {
        let pages = PagedListViewModel(
            GitHubEndpoints.repos(of: login, query: query), plan: plan, github: github,
            admitting: .keeping(ForkFilter(query.forks)))
        let render = context.render
        let columns = render.readsColumns ? ListReposCommand.columns(render) : []
        return await ListStream(noun: "repositories", columns: columns, command: context).run(pages)
    }
}

/// `--sources` or `--forks`: a repository already written is dropped, and so is one the filter refuses.
struct ForkFilter: ItemFilter {
    let forks: RepoQuery.ForkFilter

    init(_ forks: RepoQuery.ForkFilter) {
        self.forks = forks
    }

    func keeps(_ repo: Repo) -> Bool { forks.admits(repo) }
}

/// `repos`' own options, which its spec declares for the scanner to read.
extension RepoQuery: OptionValues {
    /// Every option at GitHub's default.
    init() {
        self.init(kind: nil)
    }
}

extension RepoQuery: CheckedOptions {
    func check(_ parsed: ParsedArguments, spec: CommandSpec) throws(UsageError) {
        guard parsed.has(ListReposCommand.sources), parsed.has(ListReposCommand.forks) else { return }
        throw UsageError(message: "--sources and --forks cannot be used together", command: spec)
    }
}
