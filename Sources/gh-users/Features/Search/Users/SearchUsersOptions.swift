import Domain

/// `gh-users search QUERY`: GitHub's user search, qualifiers and all.
struct SearchUsersOptions: Sendable, Equatable {
    var query: UserSearchQuery
    var paging = PagingOptions()

    /// GitHub serves only the first 1,000 results; asking for more would end in a 422.
    var plan: PagingPlan {
        let capped: ItemLimit
        switch paging.limit {
        case .all: capped = .count(UserSearchQuery.maximumResults)
        case .count(let count): capped = .count(min(count, UserSearchQuery.maximumResults))
        }
        return PagingPlan(limit: capped, requestedPerPage: paging.perPage)
    }

    static let spec = CommandSpec(
        name: "search",
        abstract: "Search for accounts (GET /search/users).",
        usage:
            "gh-users search QUERY... [--sort followers|repositories|joined] [--order asc|desc] [--limit N | --all] [options]",
        discussion: """
            The words of QUERY are joined with spaces and sent as GitHub's q parameter, so its qualifiers work:
            type:org, followers:>100, repos:10..50, location:"San Francisco", in:login, created:<2012-01-01.
            GitHub returns at most 1,000 results for any search; gh-users stops there and says so on stderr.
            Searches have their own rate limit (30 a minute with a token, 10 without).
            """,
        arguments: [("QUERY", "Search words and qualifiers.")],
        options: [
            OptionSpec(
                "sort",
                value: "KEY",
                help: "followers, repositories or joined.",
                default: "best match",
                choices: UserSearchQuery.Sort.allCases.map(\.rawValue)
            ),
            OptionSpec(
                "order",
                value: "DIR",
                help: "asc or desc (with --sort).",
                default: "desc",
                choices: SortDirection.allCases.map(\.rawValue)
            ),
        ] + PagingOptions.specs(noun: "accounts"),
        examples: [
            ("gh-users search mona", "Accounts whose login or name holds 'mona'."),
            (
                "gh-users search 'type:org location:Berlin' --sort followers",
                "Berlin organisations, most followed first."
            ),
            ("gh-users search 'followers:>1000' --all --format ndjson", "Up to GitHub's 1,000-result cap."),
        ],
        fields: FieldCatalog.searchResult
    )

    static func parse(_ parsed: ParsedArguments, spec: CommandSpec) throws(UsageError) -> SearchUsersOptions {
        let text = parsed.positionals.joined(separator: " ")
        var query: UserSearchQuery
        do {
            query = try UserSearchQuery(text: text)
        } catch {
            throw UsageError(message: "search needs a QUERY (words and qualifiers such as type:org)", command: spec)
        }
        query.sort = try ChoiceOption.parse(parsed, "sort", spec: spec)
        query.order = try ChoiceOption.parse(parsed, "order", spec: spec)
        return SearchUsersOptions(query: query, paging: try PagingOptions.parse(parsed, spec: spec))
    }
}
