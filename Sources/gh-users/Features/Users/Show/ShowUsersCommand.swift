import AtomicCore
import Domain

/// `gh-users show`: which profiles to fetch, validated.
struct ShowUsersOptions: Sendable, Equatable {
    var references: [UserReference]
    var concurrency: Int = 4

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
            fetch: { options, github in
                await GetUsersUseCase(repository: github).execute(
                    options.references, concurrency: options.concurrency)
            },
            render: { users, options, context in
                ShowUsersRenderer.render(users, asArray: options.references.count > 1, context: context)
            }
        ),
        spec: CommandSpec(
            name: "show",
            abstract: "Show the profile of one or more GitHub accounts (GET /users/{username}, GET /user/{id}).",
            usage: "gh-users show LOGIN... | --id N [--concurrency N] [options]",
            discussion: """
                Several logins are fetched concurrently and printed in the order given. With --json, one login
                gives GitHub's user object and several give an array. A login that does not exist is reported on
                stderr; the others are still printed, and the exit status is non-zero.
                """,
            arguments: [("LOGIN", "An account's login, e.g. octocat or dependabot[bot].")],
            options: [id, concurrency],
            examples: [
                ("gh-users show octocat", "One profile."),
                ("gh-users show octocat torvalds --json | jq '.[].followers'", "Several, as a JSON array."),
                ("gh-users show --id 583231", "By id, which survives a rename."),
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
                    throw UsageError(message: "show needs at least one LOGIN, or --id N", command: spec)
                }
                for text in parsed.positionals {
                    references.append(.login(try LoginArgument.parse(text, spec: spec)))
                }
            }
            let maximum = ShowUsersOptions.maximumConcurrency
            return ShowUsersOptions(
                references: references,
                concurrency: try NumberOption.parse(
                    parsed, concurrency, range: 1...Int64(maximum), rule: "a whole number from 1 to \(maximum)",
                    spec: spec
                ).map { Int($0) } ?? 4
            )
        }
    )
}
