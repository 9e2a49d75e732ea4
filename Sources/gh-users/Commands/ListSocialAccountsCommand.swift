import AtomicCore
import Domain

/// `gh-users social LOGIN`: the social accounts a profile links to.
struct ListSocialAccountsCommand: AccountRecordsCommand {
    var login: Login
    var paging = PagingOptions()

    init(login: Login) {
        self.login = login
    }

    static let spec = CommandSpec(
        name: "social",
        abstract: "List the social accounts a profile links to (GET /users/{username}/social_accounts).",
        usage: "gh-users social LOGIN [--limit N | --all] [options]",
        discussion: nil,
        arguments: [("LOGIN", "The account whose social accounts to list.")],
        options: [],
        examples: [
            ("gh-users social octocat", "Provider and URL of each."),
            ("gh-users social octocat --format tsv --fields url", "The URLs alone."),
        ],
        fields: ["provider", "url"]
    ).paging("social accounts", profiles: false).taking(.login).holdingOwnRecords()

    /// The account's social accounts, page by page as GitHub lists them.
    func run(_ context: CommandContext, _ github: GitHubReader) async -> CommandOutcome {
        await AccountRecords.stream(
            .socialAccounts, of: login, paging: paging, noun: "social accounts", columns: Self.columns, context, github)
    }

    static func columns(_ context: RenderContext) -> [Column<Record>] {
        [Column("PROVIDER", path: ["provider"]), Column("URL", path: ["url"], shrink: .second)]
    }
}
