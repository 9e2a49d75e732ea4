import AtomicCore
import Domain
import JSONBytes

/// `gh-users gists LOGIN`: an account's public gists.
struct ListGistsCommand: AccountRecordsCommand {
    var login: Login
    var paging = PagingOptions()

    init(login: Login) {
        self.login = login
    }

    static let spec = CommandSpec(
        name: "gists",
        abstract: "List an account's public gists (GET /users/{username}/gists).",
        usage: "gh-users gists LOGIN [--limit N | --all] [options]",
        discussion: """
            The table shows each gist's id, its files, whether it is public, when it was last updated and
            its description. JSON carries GitHub's gist objects, with each file's raw_url.
            """,
        arguments: [("LOGIN", "The account whose gists to list.")],
        options: [],
        examples: [
            ("gh-users gists octocat", "Its gists, newest first."),
            ("gh-users gists octocat --all --json | jq -r '.[].files[].raw_url'", "Every file's raw URL."),
        ],
        fields: [
            "url", "forks_url", "commits_url", "id", "node_id", "git_pull_url", "git_push_url", "html_url", "files",
            "public", "created_at", "updated_at", "description", "comments", "comments_enabled", "user",
            "comments_url", "owner", "truncated", "forks", "history",
        ]
    ).paging("gists", profiles: false).taking(.login)

    /// The account's gists, page by page as GitHub lists them.
    func run(_ context: CommandContext, _ github: GitHubReader) async -> CommandOutcome {
        await AccountRecords.stream(
            .gists, of: login, paging: paging, noun: "gists", columns: Self.columns, context, github)
    }

    static func columns(_ context: RenderContext) -> [Column<Record>] {
        [
            Column("ID", path: ["id"]),
            // The names on a table; GitHub's object in csv and tsv, as `--fields files` writes it.
            Column("FILES", key: "files", shrink: .second) { gist in
                context.format == .table
                    ? JSONText.keyTexts(at: ["files"], in: gist.raw.bytes).joined(separator: ", ")
                    : JSONText.text(at: ["files"], in: gist.raw.bytes)
            },
            Column("PUBLIC", path: ["public"]),
            .time("UPDATED", "updated_at", context),
            Column("DESCRIPTION", path: ["description"], shrink: .first),
        ]
    }
}
