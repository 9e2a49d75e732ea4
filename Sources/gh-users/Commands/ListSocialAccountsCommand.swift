import AtomicCore
import Domain

/// `gh-users social LOGIN`: the social accounts a profile links to.
enum ListSocialAccountsCommand {
    static let declaration = Command(
        records: .socialAccounts,
        noun: "social accounts",
        columns: { _ in
            [Column("PROVIDER", path: ["provider"]), Column("URL", path: ["url"], shrink: .second)]
        },
        spec: CommandSpec(
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
        )
    )
}
