import AtomicCore
import Data
import Domain

/// `gh-users me`: the account the token belongs to, and on a terminal the scopes the token has.
enum MeCommand {
    /// The command takes no options of its own.
    struct Options: Sendable, Equatable {}

    static let declaration = Command<Options>(
        resource: ResourceDeclaration(
            fetch: { _, github, _ in
                [
                    await Result.of { () throws(DomainError) in
                        try await github.fetch(GitHubEndpoints.authenticatedUser)
                    }
                ]
            },
            render: { accounts, _, context in
                guard let account = accounts.first else { return [] }
                guard context.format == .table, context.fields == nil else {
                    return ShowUsersRenderer.render([account.user], asArray: false, context: context)
                }
                let scopes = account.scopes.map { $0.isEmpty ? "none" : $0.joined(separator: ", ") }
                let unreported = "not reported: fine-grained and app tokens have permissions, not scopes"
                let extra = [("Scopes", scopes ?? unreported)]
                return Array(ShowUsersRenderer.profile(account.user, context: context, extra: extra).utf8)
            },
            tokenRequirement: { _ in TokenRequirement(command: "me") }
        ),
        spec: CommandSpec(
            name: "me",
            abstract: "Show the account your token belongs to (GET /user).",
            usage: "gh-users me [options]",
            discussion: """
                Needs a token (GH_TOKEN, GITHUB_TOKEN or --token-file): without one it exits with status 4
                before sending anything. JSON is GitHub's private-user object, with the private counts and plan
                a token's owner may see. On a terminal the profile ends with the scopes GitHub says the token
                has (X-OAuth-Scopes).
                """,
            arguments: [],
            options: [],
            examples: [
                ("gh-users me", "Who the token is, and what it may do."),
                ("gh-users me --json | jq -r .login", "Just the login, for a script."),
            ],
            fields: FieldCatalog.profile + [
                "notification_email", "private_gists", "total_private_repos", "owned_private_repos", "disk_usage",
                "collaborators", "two_factor_authentication", "plan", "business_plus", "ldap_dn",
            ]
        ),
        parse: { parsed, spec throws(UsageError) in
            try NoArguments.check(parsed, spec: spec)
            return Options()
        }
    )
}
