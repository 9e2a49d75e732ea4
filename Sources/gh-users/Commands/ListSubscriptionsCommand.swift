import AtomicCore
import Data
import Domain
import JSONBytes

/// `gh-users subscriptions [LOGIN]`: whose watched repositories; none is the token's own account.
struct SubscriptionsOptions: PagedOptions {
    var login: Login?
    var paging = PagingOptions()
}

/// `gh-users subscriptions [LOGIN]`: the repositories an account watches, whose activity it is notified of.
/// GitHub stopped listing them for any account but the token's own in July 2026: `GET
/// /users/{username}/subscriptions` answers 204 No Content (later 403, and 404 once it is removed).
enum ListSubscriptionsCommand {
    /// Said on stderr whenever GitHub withholds an account's watched repositories: the token's own too, when
    /// named by its login (`subscriptions MYLOGIN` listed nothing, told of "another account").
    static let withheld =
        "GitHub no longer lists the repositories an account watches by its login, your own included (since July "
        + "2026); without LOGIN, subscriptions lists your own"

    static let spec = CommandSpec(
        name: "subscriptions",
        abstract: "List the repositories an account watches (GET /user/subscriptions).",
        usage: "gh-users subscriptions [LOGIN] [--limit N | --all] [options]",
        discussion: """
            Watching is not starring: an account watches a repository to be notified of its activity (see
            starred for the bookmarks). The table shows each repository's name, language, stars, when it was
            last pushed to and its description; JSON carries GitHub's repository objects as sent.

            Without LOGIN, the token's own account is listed (GET /user/subscriptions); that needs a token.
            Since July 2026 GitHub no longer lists the repositories an account watches by its login, your own
            included: GET /users/{username}/subscriptions answers 204 No Content, even with a token, and a line
            on stderr says so (exit 0, nothing listed). Once GitHub refuses it (403) or removes it (404), the same line
            is exit 1: nothing could be listed, and the account exists; after a 404 the account is asked for
            (GET /users/LOGIN), and one GitHub does not know is exit 3.
            """,
        arguments: [("LOGIN", "The account whose watched repositories to list (GitHub no longer says).")],
        options: [],
        examples: [
            ("gh-users subscriptions", "The first 30 repositories your account watches."),
            (
                "gh-users subscriptions --all --format tsv --fields full_name",
                "Every repository you watch, by name, one a line."
            ),
        ],
        fields: FieldCatalog.repository
    ).paging("watched repositories", profiles: false)

    static func columns(_ context: RenderContext) -> [Column<Record>] {
        [
            Column("NAME", path: ["full_name"], shrink: .last),
            Column("LANGUAGE", path: ["language"]),
            Column("STARS", path: ["stargazers_count"]),
            .time("PUSHED", "pushed_at", context),
            Column("DESCRIPTION", path: ["description"], shrink: .first),
        ]
    }

    /// Another account's list, read as GitHub now answers it: a 204 is an empty list and the line that says
    /// why; a 403 or 404 is the same line as a refusal (exit 1), not "no user" (exit 3) for an account that
    /// exists. A 404 is either, so the account is asked for (`GET /users/{login}`): one GitHub does not know is
    /// "no user" (exit 3), as a GitHub Enterprise Server that still lists watched repositories answers it.
    struct Retired: PageSource {
        let login: Login
        let list: ListResource<Record>
        let perPage: Int
        let github: GitHubReader

        func page(at cursor: PageCursor?, nextPage: NextPageListener?) async throws(DomainError) -> Page<Record> {
            let page: Page<Record>
            do throws(DomainError) {
                if let cursor {
                    page = try await github.page(list, at: cursor)
                } else {
                    page = try await github.firstPage(list, perPage: perPage)
                }
            } catch {
                switch error {
                case .notFound:
                    _ = try await github.user(login: login)
                    throw .refused(withheld + " (GitHub answered 404 Not Found)")
                case .unauthorized(403, _, _, _): throw .refused(withheld + " (GitHub answered 403 Forbidden)")
                default: throw error
                }
            }
            return page.noting(page.noContent ? ["gh-users: " + withheld + "."] : [])
        }
    }
}

extension SubscriptionsOptions: GitHubCommand {
    static var spec: CommandSpec { ListSubscriptionsCommand.spec }

    /// At most one LOGIN, then the paging group.
    init(_ parsed: ParsedArguments, spec: CommandSpec) throws(UsageError) {
        self.init(login: try LoginArgument.optional(parsed, spec: spec))
        paging = parsed.paging
    }

    /// Without LOGIN, exit 4 without a token, else `GET /user/subscriptions`; with LOGIN, the retired list as
    /// GitHub now answers it, with the line that says why nothing is listed.
    func run(_ context: CommandContext, _ github: GitHubReader) async -> CommandOutcome {
        if login == nil, !context.presenter.hasToken {
            return TokenRequirement(command: "subscriptions without a LOGIN").refuse(context)
        }
        let plan = paging.plan
        let list = GitHubEndpoints.watched(by: login)
        let pages =
            login.map { login in
                PagedListViewModel(
                    limit: plan.limit,
                    pages: ListSubscriptionsCommand.Retired(
                        login: login, list: list, perPage: plan.perPage, github: github))
            } ?? PagedListViewModel(list, plan: plan, github: github)
        let render = context.render
        let columns = render.readsColumns ? ListSubscriptionsCommand.columns(render) : []
        return await ListStream(noun: "watched repositories", columns: columns, command: context).run(pages)
    }
}
