import AtomicCore
import Domain

/// `gh-users orgs LOGIN`: the organizations an account is a public member of.
struct ListOrgsCommand: AccountRecordsCommand {
    var login: Login
    var paging = PagingOptions()

    init(login: Login) {
        self.login = login
    }

    static let spec = CommandSpec(
        name: "orgs",
        abstract: "List the organizations an account publicly belongs to (GET /users/{username}/orgs).",
        usage: "gh-users orgs LOGIN [--limit N | --all] [options]",
        discussion: """
            Only public memberships are listed: GitHub shows no one else an account's private memberships,
            whatever the token, so an account may belong to more organizations than appear here.
            """,
        arguments: [("LOGIN", "The account whose organizations to list.")],
        options: [],
        examples: [
            ("gh-users orgs octocat", "Its public organizations."),
            ("gh-users orgs octocat --all --format tsv --fields login", "Their logins alone."),
        ],
        fields: [
            "login", "id", "node_id", "url", "repos_url", "events_url", "hooks_url", "issues_url", "members_url",
            "public_members_url", "avatar_url", "description",
        ]
    ).paging("organizations", profiles: false).taking(.login)

    /// The account's organizations, page by page as GitHub lists them.
    func run(_ context: CommandContext, _ github: GitHubReader) async -> CommandOutcome {
        await AccountRecords.stream(
            .orgs, of: login, paging: paging, noun: "organizations", columns: Self.columns, context, github)
    }

    static func columns(_ context: RenderContext) -> [Column<Record>] {
        [
            Column("ID", path: ["id"]),
            Column("LOGIN", path: ["login"], shrink: .last),
            Column("DESCRIPTION", path: ["description"], shrink: .first),
        ]
    }
}
