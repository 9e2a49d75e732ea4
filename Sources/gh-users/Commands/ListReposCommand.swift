import AtomicCore
import Data
import Domain
import Foundation

/// `gh-users repos LOGIN`: which repositories, in which order, validated.
struct ListReposOptions: PagedOptions {
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
}

/// `gh-users repos`: an account's repositories, as a person scans them.
enum ListReposCommand {
    static let type = OptionSpec(
        "type", value: "TYPE", help: "owner, member or all.", default: "owner",
        choices: RepoQuery.Kind.allCases.map(\.rawValue))
    static let sort = OptionSpec(
        "sort", value: "KEY", help: "created, updated, pushed or full_name.", default: "full_name",
        choices: RepoQuery.Sort.allCases.map(\.rawValue))
    static let direction = OptionSpec(
        "direction", value: "DIR", help: "asc or desc.", default: "asc for full_name, else desc",
        choices: SortDirection.allCases.map(\.rawValue))
    static let sources = OptionSpec("sources", help: "Only repositories that are not forks.")
    static let forks = OptionSpec("forks", help: "Only forks.")

    static let declaration = Command(
        list: ListDeclaration<ListReposOptions, _>(
            noun: "repositories",
            paging: \.plan,
            list: { GitHubEndpoints.repos(of: $0.login, query: $0.query) },
            admission: ListDeclaration.unseen(id: \.id, keep: { options in options.query.forks.admits }),
            columns: columns
        ),
        spec: CommandSpec(
            name: "repos",
            abstract: "List an account's repositories (GET /users/{username}/repos).",
            usage: "gh-users repos LOGIN [--type owner|member|all] [--sort KEY] [--direction asc|desc] "
                + "[--sources | --forks] [--limit N | --all] [options]",
            discussion: """
                The table shows what a person scans first: name, whether it is a fork, language, stars, forks,
                when it was last pushed to, and the description. tsv and csv carry the same columns with the
                data as GitHub sent it (fork is true or false); JSON carries GitHub's whole repository objects.
                """,
            arguments: [("LOGIN", "The account whose repositories to list.")],
            options: [type, sort, direction, sources, forks],
            examples: [
                ("gh-users repos octocat", "The first 30, by name."),
                (
                    "gh-users repos octocat --sort pushed --sources --limit 10",
                    "The ten most recently pushed originals."
                ),
                (
                    "gh-users repos octocat --all --json | jq -r '.[] | select(.language == \"Go\") | .full_name'",
                    "Every Go repository."
                ),
            ],
            fields: FieldCatalog.repository
        ),
        parse: { parsed, spec throws(UsageError) in
            var options = ListReposOptions(login: try LoginArgument.single(parsed, spec: spec))
            options.query.kind = try ChoiceOption.parse(parsed, type, spec: spec)
            options.query.sort = try ChoiceOption.parse(parsed, sort, spec: spec)
            options.query.direction = try ChoiceOption.parse(parsed, direction, spec: spec)
            switch (parsed.has(sources), parsed.has(forks)) {
            case (true, true):
                throw UsageError(message: "--sources and --forks cannot be used together", command: spec)
            case (true, false):
                options.query.forks = .sourcesOnly
            case (false, true):
                options.query.forks = .forksOnly
            case (false, false):
                break
            }
            return options
        }
    )

    /// Times are relative on a terminal ("3 days ago") and RFC 3339 otherwise. Data formats never alter a field:
    /// a fork is its own column, never a mark inside the description.
    @Sendable static func columns(_ context: RenderContext) -> [Column<Repo>] {
        let now = context.now
        let relative = context.isTTY
        let table = context.format == .table
        return [
            Column("NAME", key: "full_name", shrink: .last) { $0.fullName },
            Column("FORK", key: "fork") { repo in table ? (repo.fork ? "fork" : "") : String(repo.fork) },
            // A narrow terminal drops the description, then when it was pushed and its language, before a
            // name is cut.
            Column("LANGUAGE", shrink: .first) { $0.language ?? "" },
            Column("STARS", key: "stargazers_count") { String($0.stargazers) },
            Column("FORKS", key: "forks_count") { String($0.forks) },
            Column("PUSHED", key: "pushed_at", shrink: .first) { repo in
                guard let date = repo.pushedAt else { return "" }
                return relative ? RelativeTime.describe(date, now: now) : RelativeTime.rfc3339(date)
            },
            Column("DESCRIPTION", shrink: .first) { $0.description ?? "" },
        ]
    }
}
