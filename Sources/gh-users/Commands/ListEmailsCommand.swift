import AtomicCore
import Data
import Domain

/// `gh-users emails`: the token's own email addresses, which only a token with `user:email` or `user` may read.
struct ListEmailsCommand: GitHubCommand, PagedOptions {
    /// The command takes no arguments, only the paging options.
    var paging = PagingOptions()

    static let spec = CommandSpec(
        name: "emails",
        abstract: "List the email addresses of the token's account (\(Endpoint.emails)).",
        usage: "gh-users emails [--limit N | --all] [options]",
        discussion: """
            Each address, whether it is the primary one, whether it is verified, and its visibility (public,
            private, or empty for an address that is not the primary one). Needs a token with the user:email
            scope, or user, which includes it: without a token it exits with status 4 before sending
            anything, and a token GitHub refuses is status 4 too, with the scope named.
            """,
        arguments: [],
        options: [],
        examples: [
            ("gh-users emails", "Every address, and which one is primary, verified and public."),
            (
                "gh-users emails --format tsv --fields email,primary | awk '$2 == \"true\" { print $1 }'",
                "Just the primary address."
            ),
        ],
        fields: ["email", "primary", "verified", "visibility"]
    ).paging("email addresses", profiles: false).holdingOwnRecords()

    init(_ parsed: ParsedArguments, spec: CommandSpec) throws(UsageError) {
        paging = parsed.paging
    }

    /// Exit 4 without a token, before anything is sent; then `GET /user/emails`, page by page.
    func run(_ context: CommandContext, _ github: GitHubReader) async -> CommandOutcome {
        if Endpoint.emails.needsToken, !context.presenter.hasToken {
            return TokenRequirement(command: "emails").refuse(context)
        }
        let plan = paging.plan
        let pages = PagedListViewModel(
            GitHubEndpoints.ownRecords(.emails), plan: plan, github: github)
        let columns: [Column<Record>] =
            !context.render.readsColumns
            ? []
            : [
                Column("EMAIL", path: ["email"], shrink: .last),
                Column("PRIMARY", path: ["primary"]),
                Column("VERIFIED", path: ["verified"]),
                Column("VISIBILITY", path: ["visibility"]),
            ]
        return await ListStream(noun: "email addresses", columns: columns, command: context).run(pages)
    }
}
