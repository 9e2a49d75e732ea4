import Domain

/// `gh-users list`: what to page through, validated.
struct ListUsersOptions: Sendable, Equatable {
    var since: Int64 = 0
    var paging = PagingOptions()

    var plan: PagingPlan { paging.plan }

    static let spec = CommandSpec(
        name: "list",
        abstract: "List GitHub accounts in the order they were created (GET /users).",
        usage: "gh-users list [--since ID] [--limit N | --all] [--per-page N] [options]",
        discussion: """
            Pages through every account with an id greater than --since, in id order, following GitHub's
            Link header. Output is written page by page as it arrives. When a crawl stops early, the message
            on stderr names the --since value to resume from: the id of the last account written.
            """,
        arguments: [],
        options: [
            OptionSpec("since", value: "ID", help: "Start after this account id (an integer >= 0).", default: "0")
        ]
            + PagingOptions.specs(noun: "accounts"),
        examples: [
            ("gh-users list --limit 5", "The first five accounts."),
            (
                "gh-users list --since 1000 --limit 200 --format ndjson",
                "200 accounts after id 1000, one JSON object per line."
            ),
            ("gh-users list --all --format ndjson > users.ndjson", "Crawl everything; resume later with --since."),
        ],
        fields: FieldCatalog.account
    )

    static func parse(_ parsed: ParsedArguments, spec: CommandSpec) throws(UsageError) -> ListUsersOptions {
        if let extra = parsed.positionals.first {
            throw UsageError(message: "unexpected argument '\(extra)'", command: spec)
        }
        var options = ListUsersOptions()
        options.since =
            try NumberOption.parse(
                parsed, "since", range: 0...Int64.max, rule: "an account id is an integer >= 0", spec: spec)
            ?? 0
        options.paging = try PagingOptions.parse(parsed, spec: spec)
        return options
    }
}
