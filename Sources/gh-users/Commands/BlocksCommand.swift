import Data
import Domain

/// `gh-users block LOGIN...`, `gh-users unblock LOGIN...` and `gh-users blocks`: the token's own account's
/// blocks. Blocking also ends any follow between the two accounts, both ways, which unblocking does not bring
/// back, so block always asks first and unblock never does.
enum BlocksCommand {
    static let block = Command(
        write: WriteDeclaration(
            endpoint: .block, name: "block", past: "blocked", progressive: "Blocking", confirmation: .always,
            counterpart: "unblock", abstract: "Block accounts as the token's user", example: "Block one account.",
            moreExamples: [("gh-users block --yes - < spammers.txt", "Block every login in a file, without asking.")]))

    static let unblock = Command(
        write: WriteDeclaration(
            endpoint: .unblock, name: "unblock", past: "unblocked", progressive: "Unblocking", confirmation: .never,
            counterpart: "block", abstract: "Unblock accounts as the token's user", example: "Unblock one account.",
            moreExamples: [
                ("gh-users blocks --all --format tsv --fields login | gh-users unblock -", "Unblock everyone.")
            ]))

    struct Options: PagedOptions {
        var paging = PagingOptions()
    }

    static let list = Command(
        list: ListDeclaration<Options, User>(
            noun: "blocked accounts",
            list: { _ in GitHubEndpoints.accounts(.blocks) }
        ).requiringToken { _ in Endpoint.blocks.needsToken },
        spec: CommandSpec(
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
        ),
        parse: { _, _ in Options() }
    )
}
