import AtomicCore
import Domain

/// `gh-users show`: which profiles to fetch, validated.
struct ShowUsersOptions: Sendable, Equatable {
    var references: [UserReference]
    var concurrency: Int = 4
    /// `show -`: the logins are read from stdin, one a line, when the command runs.
    var fromStandardInput = false

    static let maximumConcurrency = 10

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
    static let id = OptionSpec("id", value: "N", help: "Look the account up by its numeric id instead of a login.")
    static let concurrency = OptionSpec(
        "concurrency", value: "N", help: "Requests in flight at once, 1 to 10.", default: "4")

    static let declaration = Command<ShowUsersOptions>(
        resource: ResourceDeclaration(
            fetch: { (options: ShowUsersOptions, github: any GitHubReader, context: CommandContext) in
                var references = options.references
                if options.fromStandardInput {
                    do throws(DomainError) {
                        references = try LoginInput.standardInput.resolve(context.io).map(UserReference.login)
                    } catch {
                        return [.failure(error)]
                    }
                }
                return await GetUsersUseCase(repository: github).execute(references, concurrency: options.concurrency)
            },
            render: { (users: [User], options: ShowUsersOptions, context: RenderContext) in
                // Logins from stdin are a list whatever their number, so a script's output has one shape.
                let asArray = options.references.count > 1 || options.fromStandardInput
                return ShowUsersRenderer.render(users, asArray: asArray, context: context)
            }
        ),
        spec: CommandSpec(
            name: "show",
            abstract: "Show the profile of one or more GitHub accounts (GET /users/{username}, GET /user/{id}).",
            usage: "gh-users show LOGIN... | - | --id N [--concurrency N] [options]",
            discussion: """
                Several logins are fetched concurrently and printed in the order given. With --json, one login
                gives GitHub's user object and several give an array. A login that does not exist is reported on
                stderr; the others are still printed, and the exit status is non-zero.
                """,
            arguments: [
                ("LOGIN", "An account's login, e.g. octocat or dependabot[bot]; - reads them from stdin, one a line.")
            ],
            options: [id, concurrency],
            examples: [
                ("gh-users show octocat", "One profile."),
                ("gh-users show octocat torvalds --json | jq '.[].followers'", "Several, as a JSON array."),
                ("gh-users show --id 583231", "By id, which survives a rename."),
                (
                    "gh-users followers octocat --format tsv --fields login | gh-users show - --format ndjson",
                    "The profile of every follower."
                ),
            ],
            fields: FieldCatalog.profile
        ),
        parse: { parsed, spec throws(UsageError) in
            var references: [UserReference] = []
            if let number = try NumberOption.parse(
                parsed, id, range: 1...Int64.max, rule: "an account id is an integer >= 1", spec: spec)
            {
                guard parsed.positionals.isEmpty else {
                    throw UsageError(message: "give either LOGINs or --id, not both", command: spec)
                }
                references = [.id(number)]
            } else {
                guard !parsed.positionals.isEmpty else {
                    throw UsageError(message: "show needs at least one LOGIN, - for stdin, or --id N", command: spec)
                }
                if case .given(let logins) = try LoginInput.parse(parsed.positionals, spec: spec) {
                    references = logins.map(UserReference.login)
                }
            }
            let maximum = ShowUsersOptions.maximumConcurrency
            var options = ShowUsersOptions(
                references: references,
                concurrency: try NumberOption.parse(
                    parsed, concurrency, range: 1...Int64(maximum), rule: "a whole number from 1 to \(maximum)",
                    spec: spec
                ).map { Int($0) } ?? 4
            )
            options.fromStandardInput = references.isEmpty
            return options
        }
    )
}
