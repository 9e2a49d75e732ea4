import Domain

/// `gh-users followers LOGIN` and `gh-users following LOGIN`.
struct RelationsOptions: Sendable, Equatable {
    var relation: UserRelation
    var login: Login
    var paging = PagingOptions()

    static func spec(_ relation: UserRelation) -> CommandSpec {
        let followers = relation == .followers
        return CommandSpec(
            name: relation.rawValue,
            abstract: followers
                ? "List the accounts that follow an account (GET /users/{username}/followers)."
                : "List the accounts an account follows (GET /users/{username}/following).",
            usage: "gh-users \(relation.rawValue) LOGIN [--limit N | --all] [--per-page N] [options]",
            discussion: """
                Pages by GitHub's Link header, following its URLs exactly as given. An account that appears \
                twice while the list shifts under the crawl is written once.
                """,
            arguments: [("LOGIN", "The account whose \(relation.rawValue) to list.")],
            options: PagingOptions.specs(noun: "accounts"),
            examples: [
                ("gh-users \(relation.rawValue) octocat", "The first 30."),
                (
                    "gh-users \(relation.rawValue) octocat --all --format ndjson | jq -r .login",
                    "All of them, by login."
                ),
            ],
            fields: FieldCatalog.account
        )
    }

    static func parse(_ parsed: ParsedArguments, relation: UserRelation, spec: CommandSpec) throws(UsageError)
        -> RelationsOptions
    {
        RelationsOptions(
            relation: relation,
            login: try PagingOptions.singleLogin(parsed, spec: spec),
            paging: try PagingOptions.parse(parsed, spec: spec)
        )
    }
}
