import AtomicCore
import Data
import Domain

/// The two sides of the follow graph: accounts, page by page, never one twice.
enum RelationsCommand {
    static let followers = declaration(.followers)
    static let following = declaration(.following)

    private static func declaration(_ relation: UserRelation) -> Command<AccountListOptions> {
        let name = relation.rawValue
        return Command(
            list: ListDeclaration(
                noun: relation == .followers ? "followers" : "accounts",
                paging: { $0.paging.plan },
                list: { GitHubEndpoints.relations(relation, of: $0.login) },
                admission: ListDeclaration.unseen(id: \.id),
                columns: { _ in AccountColumns.summary },
                raw: \.raw
            ),
            spec: CommandSpec(
                name: name,
                abstract: relation == .followers
                    ? "List the accounts that follow an account (GET /users/{username}/followers)."
                    : "List the accounts an account follows (GET /users/{username}/following).",
                usage: "gh-users \(name) LOGIN [--limit N | --all] [--per-page N] [options]",
                discussion: """
                    Pages by GitHub's Link header, following its URLs exactly as given. An account that appears \
                    twice while the list shifts under the crawl is written once.
                    """,
                arguments: [("LOGIN", "The account whose \(name) to list.")],
                options: [],
                examples: [
                    ("gh-users \(name) octocat", "The first 30."),
                    ("gh-users \(name) octocat --all --format ndjson | jq -r .login", "All of them, by login."),
                ],
                fields: FieldCatalog.account
            ),
            parse: AccountListOptions.parse
        )
    }
}
