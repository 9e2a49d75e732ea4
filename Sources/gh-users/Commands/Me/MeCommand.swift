import AtomicCore
import Data
import Domain

/// `gh-users me`: the account the token belongs to, and on a terminal the scopes the token has. `gh-users me
/// edit` changes its profile (`PATCH /user`) and prints the profile as it now is.
enum MeCommand {
    /// Plain `me` shows the profile; `me edit` changes it first.
    struct Options: Sendable, Equatable {
        var edit: ProfileEdit?
    }

    /// Showing the profile, and changing it: one request either way, whose answer is the private profile.
    fileprivate static let profile = ResourceDeclaration<Options, AuthenticatedUser>(
        fetch: { options, github, _ in
            [
                await Result.of { () throws(DomainError) in
                    guard let edit = options.edit else {
                        return try await github.fetch(GitHubEndpoints.authenticatedUser)
                    }
                    var update = GitHubEndpoints.updateAuthenticatedUser(edit.fields)
                    update.lostAnswerCheck = "gh-users me"
                    let answer = try await github.perform(update)
                    // A 204 is the change made with no profile in the answer: the profile is asked for.
                    guard answer.status != 204 else { return try await github.fetch(GitHubEndpoints.authenticatedUser) }
                    return try GitHubEndpoints.authenticatedUser.decode(answer)
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
        tokenRequirement: { options in TokenRequirement(command: options.edit == nil ? "me" : "me edit") }
    )

    /// What both print: the private profile.
    private static let fields =
        FieldCatalog.profile + [
            "notification_email", "private_gists", "total_private_repos", "owned_private_repos", "disk_usage",
            "collaborators", "two_factor_authentication", "plan", "business_plus", "ldap_dn",
        ]

    private static let spec = CommandSpec(
        name: "me",
        abstract: "Show the account your token belongs to (GET /user), or change its profile (PATCH /user).",
        usage: "gh-users me [options]",
        discussion: """
            Needs a token (GH_TOKEN, GITHUB_TOKEN or --token-file): without one it exits with status 4
            before sending anything. JSON is GitHub's private-user object, with the private counts and plan
            a token's owner may see. On a terminal the profile ends with the scopes GitHub says the token
            has (X-OAuth-Scopes). me edit changes the profile.
            """,
        arguments: [],
        options: [],
        examples: [
            ("gh-users me", "Who the token is, and what it may do."),
            ("gh-users me --json | jq -r .login", "Just the login, for a script."),
        ],
        fields: fields
    )

    static let declaration = Command(
        spec: spec,
        parse: { parsed, spec throws(UsageError) in
            if let word = parsed.positionals.first {
                throw UsageError(message: "unknown action '\(word)': me takes edit, or nothing", command: spec)
            }
            return Options()
        }
    )
    .nesting([edit]) { option in
        UsageError(message: "--\(option.name) changes the profile: gh-users me edit --\(option.name) …", command: spec)
    }

    static let edit = Command(
        spec: CommandSpec(
            name: "me edit",
            abstract: "Change your account's profile (PATCH /user), and show it as it now is.",
            usage: "gh-users me edit [--name TEXT] [--bio TEXT] [--blog URL] [--location TEXT] [--company TEXT] "
                + "[--twitter-username NAME] [--hireable | --no-hireable] [--dry-run] [options]",
            discussion: """
                me edit sends the fields given, and only those, to PATCH /user, then prints the profile as it
                now is, as me does. An empty value clears a field. It needs at least one field (status 64
                otherwise) and a token with the user scope: GitHub's refusal is status 4, with the scope named.
                --dry-run prints the request and its JSON body and sends nothing, with or without a token. A
                write is sent once: never retried after a failure that could have changed the profile, and
                never sent again to where a redirect points.
                """,
            arguments: [],
            options: ProfileEdit.options.group.options,
            examples: [
                ("gh-users me edit --bio 'Tends the octocats' --hireable", "Change the bio, and say you are for hire."),
                ("gh-users me edit --location '' --dry-run", "Show the request that would clear the location."),
            ],
            fields: fields
        ),
        parse: { parsed, spec throws(UsageError) in
            Options(edit: try ProfileEdit.options.parse(parsed, spec: spec))
        }
    )
}

extension MeCommand.Options: GitHubRun {
    /// `me edit --dry-run` prints the request it would send; everything else reads (or changes) the profile.
    func run(_ context: CommandContext, _ github: GitHubReader) async -> CommandOutcome {
        guard let edit, edit.dryRun else {
            return await ResourceRun(declaration: MeCommand.profile, options: self).run(context, github)
        }
        do {
            try context.io.writeOut(GitHubEndpoints.updateAuthenticatedUser(edit.fields).dryRun(github))
        } catch {
            return .writeFailed(error, io: context.io)
        }
        return .success
    }
}
