import AtomicCore
import Domain

/// `gh-users show`: which profiles to fetch, validated.
struct ShowUsersOptions: OptionValues {
    var references: [UserReference]
    var concurrency: Int = 4
    /// `show -`: the logins are read from stdin, one a line, when the command runs.
    var fromStandardInput = false
    /// More than one account was given, though the same one twice is looked up once: the output is an array.
    var several = false
    /// `--via`: REST lookups, or batched GraphQL ones.
    var source: ProfileSource = .rest

    static let maximumConcurrency = 10

    /// No account yet: the LOGINs, `-` or the `--id`s say which.
    init() {
        self.init(references: [])
    }

    init(references: [UserReference], concurrency: Int = 4) {
        self.references = references
        self.concurrency = concurrency
    }

    init(logins: [Login]) {
        self.init(references: logins.map(UserReference.login))
    }
}

/// `gh-users show`: profiles fetched concurrently and printed in the order given; each one missing is
/// reported on stderr, and the rest are still printed.
enum ShowUsersCommand {
    /// Every `--id` given, in order; never with LOGINs (the parse refuses those first).
    static let id = OptionDeclaration<ShowUsersOptions>(
        spec: OptionSpec(
            "id", value: "N", help: "Look the account up by its numeric id instead of a login; give it again for more.",
            repeatable: true),
        read: { options, reading throws(UsageError) in
            options.several = reading.parsed.values(reading.option).count > 1
            for text in reading.parsed.values(reading.option) {
                guard let number = OptionReading.wholeNumber(text), number >= 1 else {
                    // Past Int64 meets ">= 1": the bound is said too, as `--since` says it (helper-287).
                    let digits = !text.isEmpty && text.utf8.allSatisfy { (48...57).contains($0) }
                    let past = digits && OptionReading.wholeNumber(text) == nil ? ", at most \(Int64.max)" : ""
                    throw .invalidNumber(
                        reading.option, text, rule: "an account id is an integer >= 1" + past, spec: reading.command)
                }
                options.references.append(.id(number))
            }
        },
        resume: { options in
            options.references.flatMap { reference -> [String] in
                guard case .id(let number) = reference else { return [] }
                return ["--id", String(number)]
            }
        }
    )
    static let concurrency = OptionDeclaration<ShowUsersOptions>(
        spec: OptionSpec("concurrency", value: "N", help: "Requests in flight at once, 1 to 10.", default: "4"),
        read: { options, reading throws(UsageError) in
            let maximum = ShowUsersOptions.maximumConcurrency
            options.concurrency = try reading.number(
                in: 1...Int64(maximum), rule: "a whole number from 1 to \(maximum)")
        },
        resume: { $0.concurrency == 4 ? [] : ["--concurrency", String($0.concurrency)] }
    )
    static let via = OptionDeclaration<ShowUsersOptions>(
        spec: ProfileSource.via,
        read: { options, reading throws(UsageError) in
            options.source = try reading.choice(ProfileSource.self)
            if options.source == .graphql, reading.parsed.value(id) != nil {
                throw reading.usageError("--via graphql looks accounts up by login; --id needs --via rest")
            }
        },
        resume: { $0.source == .rest ? [] : ["--via", $0.source.rawValue] }
    )
    static let options = GroupDeclaration(title: "OPTIONS", options: [id, concurrency, via])

    static let spec = CommandSpec(
        name: "show",
        abstract: "Show the profile of one or more GitHub accounts (GET /users/{username}, GET /user/{id}).",
        usage: "gh-users show LOGIN... | - | --id N... [--concurrency N] [--via rest|graphql] [options]",
        discussion: """
            Several logins are fetched concurrently and printed in the order given, each once, as soon as it
            and those before it are in (a table of --fields waits for all, for its widths). With --json,
            one LOGIN gives GitHub's user object; several, or -, give an array. A login that does not exist is
            reported on stderr; the others are still printed, and the exit status is non-zero.

            --via graphql looks up to 100 logins in one GraphQL request, at about a hundredth of the quota
            of one REST request each, and rebuilds GitHub's REST object from it; seven keys are approximate
            (see 'gh-users help formats'). It needs a token. Organizations, bots and accounts GraphQL
            cannot give come from REST. On a terminal a closing line says what the batches spent and saved.
            """,
        arguments: [
            ("LOGIN", "An account's login, e.g. octocat or dependabot[bot]; - reads them from stdin, one a line.")
        ],
        options: options.group.options,
        examples: [
            ("gh-users show octocat", "One profile."),
            ("gh-users show octocat torvalds --json | jq '.[].followers'", "Several, as a JSON array."),
            ("gh-users show --id 583231", "By id, which survives a rename."),
            (
                "gh-users followers octocat --all --format tsv --fields login | gh-users show - --format ndjson",
                "The profile of every follower."
            ),
            (
                "gh-users followers octocat --all --format tsv --fields login | gh-users show - --via graphql --json",
                "Every follower's profile, 100 to a request."
            ),
        ],
        fields: FieldCatalog.profile
    ).declaring(options)

    /// After the message of a spent rate limit or a refused token, how many accounts the output lacks for it (none
    /// was asked once GitHub said so; one not found is said by its own line): exit 5 or 4 alone does not say that
    /// the output is part of what was asked. Only
    /// where some were written: a write that failed or was refused says so itself, and none shown is said by the
    /// failure's message.
    fileprivate static func sayNotShown(
        _ stream: ProfileStream, of asked: Int, outcome: CommandOutcome, _ context: CommandContext
    ) {
        guard let stop = stream.lookupsStopped, stream.shown > 0, case .partial = outcome else { return }
        let why =
            stop.refusesToken
            ? "GitHub refused the token, which stopped the lookups; ask for them again with one it takes"
            : "the rate limit stopped the lookups; ask for them again once it lifts"
        context.io.writeErr("gh-users: \(stream.unshownByStop) of \(asked) accounts were not shown: \(why)\n")
    }

    /// A login of digits alone that no account has was most likely an id: the message says how to ask by id.
    fileprivate static func hintingID(_ error: DomainError, for reference: UserReference) -> DomainError {
        guard case .login(let login) = reference, login.value.allSatisfy({ $0.isASCII && $0.isNumber }),
            case .notFound(let resource, let requestID, let graphQL) = error
        else { return error }
        return .notFound(
            resource: resource + " (for the account with id \(login.value): --id \(login.value))", requestID: requestID,
            byGraphQL: graphQL)
    }
}

extension ShowUsersOptions: GitHubCommand {
    static var spec: CommandSpec { ShowUsersCommand.spec }

    /// LOGINs, `-` or `--id`s, never both kinds; the options as the scanner read them (the `--id`s among them).
    init(_ parsed: ParsedArguments, spec: CommandSpec) throws(UsageError) {
        self = parsed.options()
        if parsed.value(ShowUsersCommand.id) != nil {
            guard parsed.positionals.isEmpty else {
                throw UsageError(message: "give either LOGINs or --id, not both", command: spec)
            }
        } else {
            guard !parsed.positionals.isEmpty else {
                throw UsageError(message: "show needs at least one LOGIN, - for stdin, or --id N", command: spec)
            }
            if case .given(let logins) = try LoginInput.parse(parsed.positionals, spec: spec) {
                references = logins.map(UserReference.login)
            }
        }
        fromStandardInput = references.isEmpty
    }

    /// Exit 4 without a token for `--via graphql`; else the profiles, looked up concurrently, written in the
    /// order given, and each failure reported after them.
    func run(_ context: CommandContext, _ github: GitHubReader) async -> CommandOutcome {
        if source == .graphql, !context.presenter.hasToken {
            return ProfileSource.tokenRequirement(command: "show").refuse(context)
        }
        // Logins from stdin are a list whatever their number, so a script's output has one shape: a document
        // even when every lookup failed (`[]`, csv's header), as OUTPUT.md promises a script.
        let asArray = references.count > 1 || several || fromStandardInput
        let document = asArray && context.render.format != .table
        var references = self.references
        if fromStandardInput {
            do throws(DomainError) {
                references = try LoginInput.standardInput.resolve(context.io).map(UserReference.login)
                if references.isEmpty { context.io.writeErr(LoginInput.noLoginsNote) }
            } catch {
                return ResourceLoad<User>([.failure(error)]).write([], to: context)
            }
        }
        // An account named twice (a login's case aside) is looked up and written once, where first named; a note
        // says so, since a script may have counted on a record per name.
        var seen: Set<String> = []
        let given = references.count
        references = references.filter { seen.insert($0.named.lowercased()).inserted }
        if references.count < given {
            let again = given - references.count
            context.io.writeErr(
                "gh-users: note: \(again) \(again == 1 ? "login or id repeats" : "logins or ids repeat") an account "
                    + "named before; each account is shown once, where first named\n")
        }
        // Each profile is written as it and those before it come: the run holds a window of them, not all.
        var stream = ProfileStream(context, asArray: asArray, standsForNone: document)
        guard source == .graphql else {
            var index = 0
            await github.users(references, concurrency: concurrency) { result in
                // Only a failure is looked at again: a login of digits that no account has gets the id hint.
                let reference = references[index]
                index += 1
                return stream.take(
                    result.mapError { ShowUsersCommand.hintingID($0, for: reference) }, for: reference.named)
            }
            let outcome = stream.finish()
            ShowUsersCommand.sayNotShown(stream, of: references.count, outcome: outcome, context)
            return outcome
        }
        // The parser refuses --id with --via graphql, so every reference is a login.
        let logins = references.compactMap { reference -> Login? in
            if case .login(let login) = reference { return login }
            return nil
        }
        let lookups = ProfileSource.graphQLProfiles(github, concurrency: concurrency)
        var index = 0
        await lookups.execute(logins) { result in
            let login = logins[index]
            index += 1
            return stream.take(result, for: login.value)
        }
        let statistics = lookups.statistics
        let outcome = stream.finish(
            closingLine: statistics.requests > 0 ? ProfileSource.closingLine(statistics) : nil)
        ShowUsersCommand.sayNotShown(stream, of: logins.count, outcome: outcome, context)
        return outcome
    }
}

extension UserReference {
    /// The account as the user named it: its login, or `#` and its id.
    fileprivate var named: String {
        switch self {
        case .login(let login): login.value
        case .id(let number): "#\(number)"
        }
    }
}
