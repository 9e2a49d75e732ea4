import AtomicCore
import Data
import Domain
import JSONBytes

/// `gh-users starred LOGIN`: which repositories, in which order.
struct ListStarredOptions: PagedOptions {
    enum Sort: String, Sendable, CaseIterable {
        case created
        case updated
    }

    var login: Login
    var sort: Sort?
    var direction: SortDirection?
    var paging = PagingOptions()
}

/// The repositories an account starred, each with when it was starred: the row asks for GitHub's `star+json`
/// media type, so every record is `{"starred_at": …, "repo": {…}}` exactly as GitHub sends it.
enum ListStarredCommand {
    static let sort = OptionDeclaration<ListStarredOptions>.choice(
        OptionSpec(
            "sort", value: "KEY",
            help: "created (when it was starred) or updated (when the repository was pushed to).",
            default: "created", choices: ListStarredOptions.Sort.allCases.map(\.rawValue)),
        at: \.sort)
    static let direction = OptionDeclaration<ListStarredOptions>.direction(default: "desc", at: \.direction)
    static let options = GroupDeclaration(title: "OPTIONS", options: [sort, direction])

    static let spec = CommandSpec(
        name: "starred",
        abstract: "List the repositories an account starred, with when (GET /users/{username}/starred).",
        usage:
            "gh-users starred LOGIN [--sort created|updated] [--direction asc|desc] [--limit N | --all] [options]",
        discussion: """
            Each record is GitHub's starred-repository object: starred_at and the whole repo. --fields
            takes its keys and paths (repo.full_name); the table shows the repository's name, when it was starred, its
            language, stars and description.
            """,
        arguments: [("LOGIN", "The account whose stars to list.")],
        options: options.group.options,
        examples: [
            ("gh-users starred octocat", "The 30 most recent stars."),
            (
                "gh-users starred octocat --all --format ndjson | jq -r .repo.clone_url",
                "Every starred repository's clone URL, to mirror them."
            ),
            ("gh-users starred octocat --sort created --direction asc --limit 5", "The first five it starred."),
        ],
        fields: ["starred_at", "repo"]
    ).paging("starred repositories", profiles: false).taking(.login)

    /// The columns read the star's repository; a record is `{"starred_at": …, "repo": {…}}`.
    static func columns(_ context: RenderContext) -> [Column<Record>] {
        [
            Column("REPOSITORY", path: ["repo", "full_name"], shrink: .last),
            .time("STARRED", "starred_at", context),
            Column("LANGUAGE", path: ["repo", "language"]),
            Column("STARS", path: ["repo", "stargazers_count"]),
            Column("DESCRIPTION", path: ["repo", "description"], shrink: .first),
        ]
    }
}

/// A star is told from one already written by its repository's id: the record itself has none.
final class UnseenRepositories: Admission {
    private let seen = SeenIDs()

    private func identity(_ star: Record) -> Int64? {
        Int64(JSONText.text(at: ["repo", "id"], in: star.raw.bytes))
    }

    func admit(_ star: Record) -> Bool {
        identity(star).map(seen.admit) ?? true
    }

    func isNew(_ star: Record) -> Bool? {
        identity(star).map { !seen.contains($0) } ?? true
    }
}

extension ListStarredOptions: GitHubCommand {
    static var spec: CommandSpec { ListStarredCommand.spec }

    /// The LOGIN, the command's options, then the paging group.
    init(_ parsed: ParsedArguments, spec: CommandSpec) throws(UsageError) {
        self.init(login: try parsed.login(spec))
        try ListStarredCommand.options.parse(parsed, spec: spec, into: &self)
        paging = parsed.paging
    }

    /// `GET /users/{username}/starred` with GitHub's `star+json` media type, page by page, never a repository
    /// twice.
    func run(_ context: CommandContext, _ github: GitHubReader) async -> CommandOutcome {
        let plan = paging.plan
        let pages = PagedListViewModel(
            limit: plan.limit,
            list: GitHubEndpoints.records(
                .starred, of: login, query: ["sort": sort?.rawValue, "direction": direction?.rawValue]),
            perPage: plan.perPage, github: github, admitting: .rule(UnseenRepositories()))
        let render = context.render
        let columns = render.readsColumns ? ListStarredCommand.columns(render) : []
        return await ListStream(noun: "starred repositories", columns: columns, command: context).run(pages)
    }
}
