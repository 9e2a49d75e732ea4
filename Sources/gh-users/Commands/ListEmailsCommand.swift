import AtomicCore
import Data
import Domain

/// `gh-users emails`: the token's own email addresses, which only a token with `user:email` or `user` may read.
enum ListEmailsCommand {
    /// The command takes no arguments, only the paging options.
    struct Options: PagedOptions {
        var paging = PagingOptions()
    }

    static let declaration = Command(
        list: ListDeclaration<Options, Record>(
            noun: "email addresses",
            list: { _ in GitHubEndpoints.ownRecords(.emails) },
            columns: { _ in
                [
                    Column("EMAIL", path: ["email"], shrink: .last),
                    Column("PRIMARY", path: ["primary"]),
                    Column("VERIFIED", path: ["verified"]),
                    Column("VISIBILITY", path: ["visibility"]),
                ]
            }
        ).requiringToken { _ in Endpoint.emails.needsToken },
        spec: CommandSpec(
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
        ),
        parse: { _, _ in Options() }
    )
}
