import AtomicCore
import Data
import Domain

/// `gh-users list`: what to page through, validated.
struct ListUsersOptions: Sendable, Equatable {
    var since: Int64 = 0
    var paging = PagingOptions()
    var profiles = ProfileOptions()
}

/// `gh-users list`: every account in GitHub's `/users` order by id, resumable with `--since`.
enum ListUsersCommand {
    static let since = OptionSpec(
        "since", value: "ID", help: "Start after this account id (an integer >= 0).", default: "0")

    static let declaration = Command<ListUsersOptions>(
        list: ListDeclaration(
            noun: "accounts",
            paging: { $0.paging.plan },
            list: { GitHubEndpoints.users(since: $0.since) },
            admission: { options in
                // `GET /users` is in id order: anything at or below the last id (or --since) was already written.
                var floor = options.since
                return .init(admit: { user in
                    guard user.id > floor else { return false }
                    floor = user.id
                    return true
                })
            },
            columns: { _ in AccountColumns.summary },
            raw: \.raw,
            presentation: { options, context in
                .init(noun: "accounts", resumeHint: { resumeHint(after: $0.id, options, context) })
            },
            profiles: .accounts(\.profiles)
        ),
        spec: CommandSpec(
            name: "list",
            abstract: "List GitHub accounts in the order they were created (GET /users).",
            usage: "gh-users list [--since ID] [--limit N | --all] [--per-page N] [options]",
            discussion: """
                Pages through every account with an id greater than --since, in id order, following GitHub's
                Link header. Output is written page by page as it arrives. When a crawl stops early, the message
                on stderr names the --since value to resume from: the id of the last account written.
                """,
            arguments: [],
            options: [since],
            examples: [
                ("gh-users list --limit 5", "The first five accounts."),
                ("gh-users list --limit 100 --full --format ndjson", "Their full profiles, one request each."),
                (
                    "gh-users list --since 1000 --limit 200 --format ndjson",
                    "200 accounts after id 1000, one JSON object per line."
                ),
                ("gh-users list --all --format ndjson > users.ndjson", "Crawl everything; resume later with --since."),
            ],
            fields: FieldCatalog.account
        ),
        parse: { parsed, spec throws(UsageError) in
            try NoArguments.check(parsed, spec: spec)
            return ListUsersOptions(
                since: try NumberOption.parse(
                    parsed, since, range: 0...Int64.max, rule: "an account id is an integer >= 0", spec: spec) ?? 0,
                paging: try PagingOptions.parse(parsed, spec: spec),
                profiles: try ProfileGroup.parse(parsed, spec: spec)
            )
        }
    )

    /// The command line that goes on after the last account written, with the user's output, paging, host and
    /// cache choices, so that running it continues the same output. Never a token: none is ever on the line.
    static func resumeHint(after lastID: Int64, _ options: ListUsersOptions, _ context: CommandContext) -> String {
        var words = [context.programName, "list", "--since", String(lastID)]
        switch options.paging.limit {
        case .all: words.append("--all")
        case .count(let count) where options.paging.limit != .default: words += ["--limit", String(count)]
        case .count: break
        }
        if let perPage = options.paging.perPage { words += ["--per-page", String(perPage)] }
        words += ProfileGroup.arguments(options.profiles)
        words += CommonOptions.arguments(context.common)
        return "To continue from here: " + ShellWord.line(words)
    }
}
