import AtomicCore
import Data
import Domain
import JSONBytes

/// `gh-users events LOGIN`: an account's public activity, newest first, up to the 300 GitHub keeps.
enum ListEventsCommand {
    static let endpoint = Endpoint.publicEvents

    static let declaration = Command<AccountListOptions>(
        list: ListDeclaration(
            noun: "events",
            paging: { options in
                // Never ask for the page GitHub refuses: stop at the row's cap (the 300th event).
                PagingPlan(
                    limit: options.paging.limit.capped(at: endpoint.itemCap), requestedPerPage: options.paging.perPage)
            },
            list: { GitHubEndpoints.records(endpoint, of: $0.login) },
            admission: ListDeclaration.unseen(id: \.id),
            columns: { context in
                [
                    .time("WHEN", "created_at", context),
                    Column("TYPE", path: ["type"]),
                    Column("REPOSITORY", path: ["repo", "name"], shrink: .last),
                    Column("ID", path: ["id"]),
                ]
            },
            raw: \.raw
        )
        .presented { options, _ in
            .init(noun: "events", closingNotes: { taken, _, _ in notes(taken: taken, options: options) })
        },
        spec: CommandSpec(
            name: "events",
            abstract: "List an account's recent public events (GET /users/{username}/events/public).",
            usage: "gh-users events LOGIN [--limit N | --all] [options]",
            discussion: """
                Pushes, stars, forks, issues and the rest, newest first. GitHub keeps only the 300 most recent
                public events of an account (and none older than 90 days); gh-users stops there and says so on
                stderr, without asking for the page GitHub would refuse.
                """,
            arguments: [("LOGIN", "The account whose events to list.")],
            options: [],
            examples: [
                ("gh-users events octocat", "The 30 most recent."),
                ("gh-users events octocat --all --format ndjson | jq -r .type | sort | uniq -c", "What it does most."),
            ],
            fields: ["id", "type", "actor", "repo", "org", "payload", "public", "created_at"]
        ),
        parse: AccountListOptions.parse
    )

    static func notes(taken: Int, options: AccountListOptions) -> [String] {
        guard let cap = endpoint.itemCap, options.paging.limit.exceeds(cap), taken >= cap else { return [] }
        return [
            "gh-users: GitHub keeps only the \(cap) most recent public events of an account; these are all of them."
        ]
    }
}
