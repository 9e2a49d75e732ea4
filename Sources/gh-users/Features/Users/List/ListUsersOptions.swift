import Domain

/// `gh-users list`: what to page through, validated.
struct ListUsersOptions: Sendable, Equatable {
    var since: Int64 = 0
    var limit: ItemLimit = .default
    var perPage: Int?

    var plan: PagingPlan { PagingPlan(limit: limit, requestedPerPage: perPage) }

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
            OptionSpec("since", value: "ID", help: "Start after this account id (an integer >= 0).", default: "0"),
            OptionSpec("limit", short: "L", value: "N", help: "Stop after N accounts (N >= 1).", default: "30"),
            OptionSpec("all", help: "Page to the very end (hundreds of thousands of requests on github.com)."),
            OptionSpec(
                "per-page",
                value: "N",
                help: "Accounts per request, 1 to 100.",
                default: "the limit when it fits in one page, else 100"
            ),
        ],
        examples: [
            ("gh-users list --limit 5", "The first five accounts."),
            (
                "gh-users list --since 1000 --limit 200 --format ndjson",
                "200 accounts after id 1000, one JSON object per line."
            ),
            ("gh-users list --all --format ndjson > users.ndjson", "Crawl everything; resume later with --since."),
        ]
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
        let limit = try NumberOption.parse(
            parsed, "limit", range: 1...Int64(Int.max), rule: "a whole number >= 1", spec: spec)
        if parsed.has("all") {
            if limit != nil {
                throw UsageError(message: "--limit and --all cannot be used together", command: spec)
            }
            options.limit = .all
        } else if let limit {
            options.limit = .count(Int(limit))
        }
        options.perPage =
            try NumberOption.parse(
                parsed,
                "per-page",
                range: 1...Int64(PagingPlan.maximumPerPage),
                rule: "a whole number from 1 to 100",
                spec: spec
            ).map { Int($0) }
        return options
    }
}
