import AtomicCore
import Domain

/// Where full profiles come from (`--via`): REST, one `GET /users/{login}` each, byte-exact and free when a
/// cached copy is still current (304); or GraphQL, up to 100 accounts a request at about a hundredth of the
/// quota, with seven keys approximate (`GraphQLUserKeys.approximate`).
enum ProfileSource: String, Sendable, Equatable, CaseIterable {
    case rest
    case graphql

    static let via = OptionSpec(
        "via",
        value: "SOURCE",
        help: "Where profiles come from: rest (exact, one request each) or graphql (100 a request; needs a token).",
        default: "rest",
        choices: ProfileSource.allCases.map(\.rawValue)
    )

    /// GitHub's GraphQL API refuses anonymous callers: without a token, `command` (such as `show`)
    /// stops with status 4 before any request, and this says so with the way out.
    static func tokenRequirement(command: String) -> TokenRequirement {
        TokenRequirement(
            command: command + " --via graphql",
            hint: "Hint: GitHub's GraphQL API answers only with a token; without one, leave out --via graphql "
                + "(REST, the default, needs none).\n"
        )
    }

    /// The batched lookups over a session's GitHub, with REST for what GraphQL cannot give, at most
    /// `concurrency` REST requests at a time for each batch.
    static func graphQLProfiles(_ github: GitHubReader, concurrency: Int) -> GraphQLProfilesUseCase {
        GraphQLProfilesUseCase(graphQL: github, rest: github, concurrency: concurrency)
    }

    /// The closing line on a terminal: what the batches spent, and the REST requests they saved.
    static func closingLine(_ statistics: GraphQLProfilesStatistics) -> String {
        let requests = statistics.requests == 1 ? "1 GraphQL request" : "\(statistics.requests) GraphQL requests"
        let points = statistics.points == 1 ? "1 point" : "\(statistics.points) points"
        let saved = statistics.restRequestsSaved
        // No point at all is a server that limits nothing (GitHub Enterprise Server with rate limiting off, whose
        // `rateLimit` is null): no "0 points of the graphql limit" (helper-336). GitHub charges at least one.
        let spent = statistics.points > 0 ? " spent \(points) of the graphql limit and" : ""
        var text = "\(requests)\(spent) saved \(saved) REST "
        text += saved == 1 ? "request" : "requests"
        if statistics.restFallbacks > 0 {
            text +=
                " (\(Counted.text(statistics.restFallbacks, "profile")) came from REST: organizations, bots and accounts GraphQL "
            text += "could not give)"
        }
        return text + ".\n"
    }
}

/// The keys of GitHub's REST user object that a GraphQL lookup can only approximate, for `help formats`.
enum GraphQLUserKeys {
    static let approximate: [(key: String, why: String)] = [
        ("avatar_url", "rebuilt from the account id on github.com"),
        ("blog", "null and \"\" cannot be told apart"),
        ("email", "\"\" and null cannot be told apart; null for a classic token without user:email or read:user"),
        ("hireable", "false and null cannot be told apart"),
        ("public_repos", "public repositories the account owns"),
        ("public_gists", "public gists"),
        ("updated_at", "GraphQL's own record of the last change"),
    ]
}
