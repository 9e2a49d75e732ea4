import AtomicCore
import Domain
import JSONBytes

/// `gh-users subscriptions LOGIN`: the repositories an account watches, whose activity it is notified of.
enum ListSubscriptionsCommand {
    static let declaration = Command(
        records: .subscriptions,
        noun: "watched repositories",
        columns: { context in
            [
                Column("NAME", path: ["full_name"], shrink: .last),
                Column("LANGUAGE", path: ["language"]),
                Column("STARS", path: ["stargazers_count"]),
                .time("PUSHED", "pushed_at", context),
                Column("DESCRIPTION", path: ["description"], shrink: .first),
            ]
        },
        spec: CommandSpec(
            name: "subscriptions",
            abstract: "List the repositories an account watches (GET /users/{username}/subscriptions).",
            usage: "gh-users subscriptions LOGIN [--limit N | --all] [options]",
            discussion: """
                Watching is not starring: an account watches a repository to be notified of its activity (see
                starred for the bookmarks). The table shows each repository's name, language, stars, when it was
                last pushed to and its description; JSON carries GitHub's repository objects as sent.
                """,
            arguments: [("LOGIN", "The account whose watched repositories to list.")],
            options: [],
            examples: [
                ("gh-users subscriptions octocat", "The first 30 repositories it watches."),
                (
                    "gh-users subscriptions octocat --all --format tsv --fields full_name",
                    "Every watched repository's name, one a line."
                ),
            ],
            fields: FieldCatalog.repository
        )
    )
}
