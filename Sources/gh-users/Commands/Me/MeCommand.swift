import AtomicCore
import AtomicLogger
import Data
import Domain
import JSONBytes

/// `gh-users me`: the account the token belongs to, and on a terminal the scopes the token has. `gh-users me
/// edit` (`MeEditCommand`) changes its profile (`PATCH /user`) and prints the profile as it now is.
struct MeCommand: GitHubCommand, NestingCommand {
    /// What both print: the private profile.
    static let fields =
        FieldCatalog.profile + [
            "notification_email", "private_gists", "total_private_repos", "owned_private_repos", "disk_usage",
            "collaborators", "two_factor_authentication", "plan", "business_plus", "ldap_dn",
        ]

    static let spec = CommandSpec(
        name: "me",
        abstract: "Show the account your token belongs to (GET /user), or change its profile (PATCH /user).",
        usage: "gh-users me [edit] [options]",
        discussion: """
            Needs a token (GH_TOKEN, GH_ENTERPRISE_TOKEN for a GitHub Enterprise host, or --token-file):
            without one it exits with status 4 before sending anything. JSON is GitHub's private-user object, with the private counts and plan
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

    static let subcommands = [Command(MeEditCommand.self)]

    /// `me --bio x`: the option is `me edit`'s; `--dry-run` changes nothing, and says what `me edit` would send.
    static func misplaced(_ option: OptionSpec) -> UsageError? {
        let what = option.name == "dry-run" ? "shows what me edit would send" : "changes the profile"
        return UsageError(message: "--\(option.name) \(what): gh-users me edit --\(option.name) …", command: spec)
    }

    /// `me` takes no word but `edit`, which the router takes to the subcommand.
    init(_ parsed: ParsedArguments, spec: CommandSpec) throws(UsageError) {
        if let word = parsed.positionals.first {
            let hint = Suggestions.nearest(to: word, among: ["edit"]).map { "\nDid you mean '\($0)'?" } ?? ""
            throw UsageError(message: "unknown action '\(word)': me takes edit, or nothing" + hint, command: spec)
        }
    }

    /// Exit 4 without a token, before anything is sent; then `GET /user`, with the token's scopes.
    func run(_ context: CommandContext, _ github: GitHubReader) async -> CommandOutcome {
        guard context.presenter.hasToken else { return TokenRequirement(command: "me").refuse(context) }
        let account = await Result.of { () throws(DomainError) in
            try await github.fetch(GitHubEndpoints.authenticatedUserWithScopes)
        }
        let load = ResourceLoad([account])
        return load.write(Self.render(load.values, context.render, redactor: context.presenter.redactor), to: context)
    }

    /// What both print: the private profile, and on a terminal's table the token's scopes, where a scope that is
    /// the token (a server echoing the request; a classic token is 40 characters a scope's name can hold) is
    /// masked as stderr masks it.
    static func render(_ accounts: [AuthenticatedUser], _ context: RenderContext, redactor: Redactor) -> [UInt8] {
        guard let account = accounts.first else { return [] }
        guard context.format == .table, context.fields == nil else {
            return ShowUsersRenderer.render([account.user], asArray: false, context: context)
        }
        let scopes = account.scopes.map { $0.isEmpty ? "none" : redactor.redact($0.joined(separator: ", ")) }
        // Not "a fine-grained or app token": a server may leave the header out for a classic token too (a review
        // replayed github3.py's recorded `me`, a classic token's, without it).
        let unreported = "not reported (GitHub sends none for fine-grained and app tokens, which have permissions)"
        let extra = [("Scopes", scopes ?? unreported)]
        return Array(ShowUsersRenderer.profile(account.user, context: context, extra: extra).utf8)
    }
}

/// `gh-users me edit`: the fields to change, and `--dry-run`.
struct MeEditCommand: GitHubCommand {
    var edit: ProfileEdit

    static let spec = CommandSpec(
        name: "me edit",
        abstract: "Change your account's profile (PATCH /user), and show it as it now is.",
        usage: "gh-users me edit [--name TEXT] [--bio TEXT] [--blog URL] [--location TEXT] [--company TEXT] "
            + "[--twitter-username NAME] [--hireable | --no-hireable] [--dry-run] [options]",
        discussion: """
            me edit sends the fields given, and only those, to PATCH /user, then prints the profile as it
            now is, as me does. An empty value clears a field. It needs at least one field (status 64
            otherwise) and a token with the user scope: GitHub's refusal is status 4, with the scope named.
            --dry-run prints the request and its JSON body and sends nothing, with or without a token (with
            --json or --format, as a record of method, url and body);
            --offline without it is status 64, as nothing can be sent. A
            write is sent once: never retried after a failure that could have changed the profile, and
            never sent again to where a redirect points.
            """,
        arguments: [],
        options: ProfileEdit.options.group.options,
        examples: [
            ("gh-users me edit --bio 'Tends the octocats' --hireable", "Change the bio, and say you are for hire."),
            ("gh-users me edit --location '' --dry-run", "Show the request that would clear the location."),
        ],
        fields: MeCommand.fields
    )

    init(_ parsed: ParsedArguments, spec: CommandSpec) throws(UsageError) {
        edit = try ProfileEdit.options.parse(parsed, spec: spec)
        // The fields are the profile's, which a dry run does not print.
        if edit.dryRun, parsed.common.fields != nil {
            throw UsageError(
                message: "--fields chooses among the profile me edit prints, and --dry-run prints the request "
                    + "instead: leave --fields out",
                command: spec)
        }
    }

    /// `--dry-run` prints the request, with or without a token; else `--offline` is a usage error (a write must
    /// reach GitHub), exit 4 without a token, then `PATCH /user` with the fields given, and the profile as it now is.
    func run(_ context: CommandContext, _ github: GitHubReader) async -> CommandOutcome {
        if edit.dryRun {
            let update = GitHubEndpoints.updateAuthenticatedUser(edit.fields)
            do {
                // The request line and body, or in the format asked for, the request as a record (`--json`: one
                // object, as the profile would be).
                switch context.common.format {
                case nil: try context.io.writeOut(update.dryRun(github))
                case .json?:
                    var pretty: [UInt8] = []
                    JSONText.pretty(update.dryRunRecord(github).bytes, into: &pretty)
                    try context.io.out.write(pretty + [UInt8(ascii: "\n")])
                case _?:
                    var writer = RecordStreamWriter(context: context.render, columns: Action.dryRunColumns(after: []))
                    try context.io.out.write(
                        writer.render([update.dryRunRecord(github)]) + writer.finish(completed: true))
                }
            } catch {
                return .writeFailed(error, io: context.io)
            }
            return .success
        }
        if context.common.cacheMode == .offline {
            return .usage(.offlineWrite("me edit", shows: "the request", spec: Self.spec))
        }
        guard context.presenter.hasToken else { return TokenRequirement(command: "me edit").refuse(context) }
        var made = false
        let account = await Result.of { () throws(DomainError) in
            var update = GitHubEndpoints.updateAuthenticatedUser(edit.fields)
            update.lostAnswerCheck = "gh-users me"
            // Interrupted while it is under way, or answered a success that is no JSON, perform says it may have
            // been made.
            let answer = try await github.perform(update)
            // A 204 is the change made with no profile in the answer, a 304 nothing to change (both documented):
            // the profile is asked for, live: the cached copy from before the change would show the old values.
            guard answer.status != 204, answer.status != 304 else {
                if answer.status == 304 {
                    context.io.writeErr("gh-users: GitHub answered 304 Not Modified: the profile needed no change\n")
                } else {
                    made = true
                }
                return try await github.fetch(GitHubEndpoints.authenticatedUserWithScopes.live())
            }
            do throws(DomainError) {
                let profile = try GitHubEndpoints.authenticatedUser.decode(answer)
                made = true
                return profile
            } catch {
                throw GitHubRepository.probablyMade(error, status: answer.status, check: update.lostAnswerCheck)
            }
        }
        let load = ResourceLoad([account])
        // The change is made: a --fields mistake in what it shows is warned of, not a failed run.
        let outcome = load.write(
            MeCommand.render(load.values, context.render, redactor: context.presenter.redactor), to: context,
            refusingBlankRows: false)
        // A profile that could not be read back or shown (stdout closed, a full disk) was still changed: said, so
        // a failed read or write is not taken for a failed edit and sent again.
        if made, outcome != .success, outcome != .outputClosed {
            context.io.writeErr("gh-users: the profile was changed all the same; 'gh-users me' shows it\n")
        }
        return outcome
    }
}

/// `me`'s record is the profile GitHub sent, as `show`'s is: `--fields` reads it, and a path it lacks is warned of.
extension AuthenticatedUser: JSONRecord {
    var raw: RawJSON { user.raw }
}
