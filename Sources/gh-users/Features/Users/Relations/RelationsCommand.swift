import AtomicCore
import Data
import Domain

/// `gh-users followers [LOGIN]` and `gh-users following [LOGIN]`, and their set operations.
struct RelationsOptions: PagedOptions {
    /// nil: the token's own account (`GET /user/followers`).
    var login: Login?
    var filter: FollowGraph.Filter?
    var paging = PagingOptions()
    var profiles = ProfileOptions()
}

/// The two sides of the follow graph: accounts, page by page, never one twice.
enum RelationsCommand {
    static let followers = declaration(.followers)
    static let following = declaration(.following)

    static let mutual = OptionSpec("mutual", help: "Only followers whom LOGIN follows too.")
    static let notFollowedBack = OptionSpec("not-followed-back", help: "Only followers whom LOGIN does not follow.")
    static let notFollowingBack = OptionSpec(
        "not-following-back", help: "Only accounts LOGIN follows that do not follow LOGIN.")

    private static func declaration(_ relation: UserRelation) -> Command<RelationsOptions> {
        let name = relation.rawValue
        let filters: [(OptionSpec, FollowGraph.Filter)] =
            relation == .followers
            ? [(mutual, .mutual), (notFollowedBack, .difference)] : [(notFollowingBack, .difference)]
        return Command(
            list: ListDeclaration(
                noun: relation == .followers ? "followers" : "accounts",
                paging: { $0.paging.plan },
                list: { GitHubEndpoints.relations(relation, of: $0.login) },
                admission: ListDeclaration.unseen(id: \.id),
                columns: { _ in AccountColumns.summary },
                raw: \.raw
            )
            .prepared { options, github, plan in
                guard let filter = options.filter else { return nil }
                return FollowGraph(github: github, login: options.login, output: relation, filter: filter)
                    .preparation(perPage: plan.perPage)
            }
            .fullProfiles(.accounts(\.profiles))
            .requiringToken { $0.login == nil },
            spec: CommandSpec(
                name: name,
                abstract: relation == .followers
                    ? "List the accounts that follow an account (GET /users/{username}/followers)."
                    : "List the accounts an account follows (GET /users/{username}/following).",
                usage: "gh-users \(name) [LOGIN] ["
                    + filters.map { "--" + $0.0.name }.joined(separator: " | ") + "] [--limit N | --all] [options]",
                discussion: """
                    Pages by GitHub's Link header, following its URLs exactly as given. An account that appears
                    twice while the list shifts under the crawl is written once. Without LOGIN, the token's own
                    account is listed (GET /user/\(name)); that needs a token.

                    \(relation == .followers ? "--mutual and --not-followed-back compare" : "--not-following-back compares") \
                    the followers and the following of LOGIN: the smaller of the two lists is held (as ids, or as the
                    records to print), the other is streamed, and the cost is the pages of both. A list is read up
                    to its profile's count plus a margin (a tenth, at least 1,000); past that the run stops with
                    status 1 before anything is written, rather than hold a list that never ends.
                    """,
                arguments: [("LOGIN", "The account whose \(name) to list; without it, the token's own.")],
                options: filters.map(\.0),
                examples: [
                    ("gh-users \(name) octocat", "The first 30."),
                    ("gh-users \(name) octocat --all --format ndjson | jq -r .login", "All of them, by login."),
                    (
                        "gh-users \(name) octocat --all --full --format tsv --fields login,location",
                        "Each with its profile's location."
                    ),
                    relation == .followers
                        ? ("gh-users followers octocat --all --not-followed-back", "Followers octocat does not follow.")
                        : (
                            "gh-users following --all --not-following-back --format tsv --fields login",
                            "Whom you follow that does not follow you back, by login."
                        ),
                ],
                fields: FieldCatalog.account
            ),
            parse: { parsed, spec throws(UsageError) in
                var options = RelationsOptions()
                if let text = parsed.positionals.first {
                    options.login = try LoginArgument.parse(text, spec: spec)
                }
                if let extra = parsed.positionals.dropFirst().first {
                    throw UsageError(
                        message: "unexpected argument '\(extra)': \(spec.name) takes one LOGIN", command: spec)
                }
                let chosen = filters.filter { parsed.has($0.0) }
                if chosen.count > 1 {
                    throw UsageError(
                        message: chosen.map { "--" + $0.0.name }.joined(separator: " and ")
                            + " cannot be used together",
                        command: spec)
                }
                options.filter = chosen.first?.1
                return options
            }
        )
    }
}
