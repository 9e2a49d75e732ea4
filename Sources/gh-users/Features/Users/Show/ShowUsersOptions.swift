import Domain

/// `gh-users show`: which profiles to fetch, validated.
struct ShowUsersOptions: Sendable, Equatable {
    var logins: [Login]
    var concurrency: Int = 4

    static let maximumConcurrency = 10

    static let spec = CommandSpec(
        name: "show",
        abstract: "Show the profile of one or more GitHub accounts (GET /users/{username}).",
        usage: "gh-users show LOGIN... [--concurrency N] [options]",
        discussion: """
            Several logins are fetched concurrently and printed in the order given. With --json, one login
            gives GitHub's user object and several give an array. A login that does not exist is reported on
            stderr; the others are still printed, and the exit status is non-zero.
            """,
        arguments: [("LOGIN", "An account's login, e.g. octocat or dependabot[bot].")],
        options: [
            OptionSpec("concurrency", value: "N", help: "Requests in flight at once, 1 to 10.", default: "4")
        ],
        examples: [
            ("gh-users show octocat", "One profile."),
            ("gh-users show octocat torvalds --json | jq '.[].followers'", "Several, as a JSON array."),
        ]
    )

    static func parse(_ parsed: ParsedArguments, spec: CommandSpec) throws(UsageError) -> ShowUsersOptions {
        guard !parsed.positionals.isEmpty else {
            throw UsageError(message: "show needs at least one LOGIN", command: spec)
        }
        var logins: [Login] = []
        for text in parsed.positionals {
            do {
                logins.append(try Login(validating: text))
            } catch {
                if case .invalidInput(let message) = error {
                    throw UsageError(message: message, command: spec)
                }
                throw UsageError(message: "invalid login", command: spec)
            }
        }
        var options = ShowUsersOptions(logins: logins)
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
