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

    static let spec = CommandSpec(
        name: "show",
        abstract: "Show the profile of one or more GitHub accounts (GET /users/{username}, GET /user/{id}).",
        usage: "gh-users show LOGIN... | --id N [--concurrency N] [options]",
        discussion: """
            Several logins are fetched concurrently and printed in the order given. With --json, one login
            gives GitHub's user object and several give an array. A login that does not exist is reported on
            stderr; the others are still printed, and the exit status is non-zero.
            """,
        arguments: [("LOGIN", "An account's login, e.g. octocat or dependabot[bot].")],
        options: [
            OptionSpec("id", value: "N", help: "Look the account up by its numeric id instead of a login."),
            OptionSpec("concurrency", value: "N", help: "Requests in flight at once, 1 to 10.", default: "4"),
        ],
        examples: [
            ("gh-users show octocat", "One profile."),
            ("gh-users show octocat torvalds --json | jq '.[].followers'", "Several, as a JSON array."),
            ("gh-users show --id 583231", "By id, which survives a rename."),
        ],
        fields: FieldCatalog.profile
    )

    static func parse(_ parsed: ParsedArguments, spec: CommandSpec) throws(UsageError) -> ShowUsersOptions {
        var references: [UserReference] = []
        if let id = try NumberOption.parse(
            parsed, "id", range: 1...Int64.max, rule: "an account id is an integer >= 1", spec: spec)
        {
            guard parsed.positionals.isEmpty else {
                throw UsageError(message: "give either LOGINs or --id, not both", command: spec)
            }
            references = [.id(id)]
        } else {
            guard !parsed.positionals.isEmpty else {
                throw UsageError(message: "show needs at least one LOGIN, or --id N", command: spec)
            }
            for text in parsed.positionals {
                references.append(.login(try LoginArgument.parse(text, spec: spec)))
            }
        }
        var options = ShowUsersOptions(references: references)
        options.concurrency =
            try NumberOption.parse(
                parsed,
                "concurrency",
                range: 1...Int64(maximumConcurrency),
                rule: "a whole number from 1 to \(maximumConcurrency)",
                spec: spec
            ).map { Int($0) } ?? 4
        return options
    }
}
