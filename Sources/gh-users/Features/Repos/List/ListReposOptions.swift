import Domain

/// `gh-users repos LOGIN`: which repositories, in which order, validated.
struct ListReposOptions: Sendable, Equatable {
    var login: Login
    var query = RepoQuery()
    var paging = PagingOptions()

    /// Filtering on `fork` happens here, not at GitHub, so a filtered listing reads full pages.
    var plan: PagingPlan {
        if query.forks != .any, paging.perPage == nil {
            return PagingPlan(limit: paging.limit, requestedPerPage: PagingPlan.maximumPerPage)
        }
        return paging.plan
    }

    static let spec = CommandSpec(
        name: "repos",
        abstract: "List an account's repositories (GET /users/{username}/repos).",
        usage: "gh-users repos LOGIN [--type owner|member|all] [--sort KEY] [--direction asc|desc] "
            + "[--sources | --forks] [--limit N | --all] [options]",
        discussion: """
            The table shows what a person scans first: name, language, stars, forks, when it was last
            updated, and the description. JSON carries GitHub's whole repository objects.
            """,
        arguments: [("LOGIN", "The account whose repositories to list.")],
        options: [
            OptionSpec(
                "type",
                value: "TYPE",
                help: "owner, member or all.",
                default: "owner",
                choices: RepoQuery.Kind.allCases.map(\.rawValue)
            ),
            OptionSpec(
                "sort",
                value: "KEY",
                help: "created, updated, pushed or full_name.",
                default: "full_name",
                choices: RepoQuery.Sort.allCases.map(\.rawValue)
            ),
            OptionSpec(
                "direction",
                value: "DIR",
                help: "asc or desc.",
                default: "asc for full_name, else desc",
                choices: SortDirection.allCases.map(\.rawValue)
            ),
            OptionSpec("sources", help: "Only repositories that are not forks."),
            OptionSpec("forks", help: "Only forks."),
        ] + PagingOptions.specs(noun: "repositories"),
        examples: [
            ("gh-users repos octocat", "The first 30, by name."),
            ("gh-users repos octocat --sort pushed --sources --limit 10", "The ten most recently pushed originals."),
            (
                "gh-users repos octocat --all --json | jq -r '.[] | select(.language == \"Go\") | .full_name'",
                "Every Go repository."
            ),
        ],
        fields: FieldCatalog.repository
    )

    static func parse(_ parsed: ParsedArguments, spec: CommandSpec) throws(UsageError) -> ListReposOptions {
        var options = ListReposOptions(login: try PagingOptions.singleLogin(parsed, spec: spec))
        options.query.kind = try ChoiceOption.parse(parsed, "type", spec: spec)
        options.query.sort = try ChoiceOption.parse(parsed, "sort", spec: spec)
        options.query.direction = try ChoiceOption.parse(parsed, "direction", spec: spec)
        switch (parsed.has("sources"), parsed.has("forks")) {
        case (true, true):
            throw UsageError(message: "--sources and --forks cannot be used together", command: spec)
        case (true, false):
            options.query.forks = .sourcesOnly
        case (false, true):
            options.query.forks = .forksOnly
        case (false, false):
            break
        }
        options.paging = try PagingOptions.parse(parsed, spec: spec)
        return options
    }
}
