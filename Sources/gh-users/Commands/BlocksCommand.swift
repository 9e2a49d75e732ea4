import Data
import Domain

// `gh-users block LOGIN...`, `gh-users unblock LOGIN...` and `gh-users blocks`: the token's own account's
// blocks. Blocking also ends any follow between the two accounts, both ways, which unblocking does not bring
// back, so block always asks first and unblock never does.

/// `gh-users block LOGIN...`: always asks first.
struct BlockCommand: AccountWriteCommand {
    static let declaration = WriteDeclaration(
        endpoint: .block, name: "block", past: "blocked", progressive: "Blocking", confirmation: .always,
        counterpart: "unblock", abstract: "Block accounts as the token's user", example: "Block one account.",
        moreExamples: [("gh-users block --yes - < spammers.txt", "Block every login in a file, without asking.")])

    var write: WriteOptions

    /// `PUT /user/blocks/{username}` for each login, a second apart, once confirmed.
    func run(_ context: CommandContext, _ github: GitHubReader) async -> CommandOutcome {
        await send(context, github)
    }
}

/// `gh-users unblock LOGIN...`: never asks.
struct UnblockCommand: AccountWriteCommand {
    static let declaration = WriteDeclaration(
        endpoint: .unblock, name: "unblock", past: "unblocked", progressive: "Unblocking", confirmation: .never,
        counterpart: "block", abstract: "Unblock accounts as the token's user", example: "Unblock one account.",
        moreExamples: [
            ("gh-users blocks --all --format tsv --fields login | gh-users unblock -", "Unblock everyone.")
        ])

    var write: WriteOptions

    /// `DELETE /user/blocks/{username}` for each login, a second apart.
    func run(_ context: CommandContext, _ github: GitHubReader) async -> CommandOutcome {
        await send(context, github)
    }
}

/// `gh-users blocks`: the accounts the token's user blocks.
struct ListBlocksCommand: GitHubCommand, PagedOptions {
    var paging = PagingOptions()

    static let spec = CommandSpec(
        name: "blocks",
        abstract: "List the accounts the token's user blocks (\(Endpoint.blocks)).",
        usage: "gh-users blocks [--limit N | --all] [options]",
        discussion: Endpoint.blocks.scope.map {
            "Pages by GitHub's Link header. Needs a token with the \($0) scope."
        },
        arguments: [],
        options: [],
        examples: [("gh-users blocks --all", "Every account you block.")],
        fields: FieldCatalog.account
    ).paging("blocked accounts", profiles: false)

    init(_ parsed: ParsedArguments, spec: CommandSpec) throws(UsageError) {
        paging = parsed.paging
    }

    /// Exit 4 without a token, before anything is sent; then `GET /user/blocks`, page by page.
    func run(_ context: CommandContext, _ github: GitHubReader) async -> CommandOutcome {
        if Endpoint.blocks.needsToken, !context.presenter.hasToken {
            return TokenRequirement(command: "blocks").refuse(context)
        }
        let plan = paging.plan
        let pages = PagedListViewModel(
            GitHubEndpoints.accounts(.blocks), plan: plan, github: github)
        let columns = context.render.readsColumns ? AccountColumns.summary : []
        return await ListStream(noun: "blocked accounts", columns: columns, command: context).run(pages)
    }
}
