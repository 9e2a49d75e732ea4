/// Everything the command line can ask for, decided before anything runs.
enum Route: Sendable, Equatable {
    case listUsers(ListUsersOptions, GlobalOptions)
    case showUsers(ShowUsersOptions, GlobalOptions)
    case relations(RelationsOptions, GlobalOptions)
    case listRepos(ListReposOptions, GlobalOptions)
    case searchUsers(SearchUsersOptions, GlobalOptions)
    case rateLimit(GlobalOptions)
    /// A shell completion script for stdout.
    case completion(CompletionOptions)
    case cache(CacheOptions, GlobalOptions)
    /// Help text for stdout, exit 0.
    case help(String)
    case version
    case usageError(UsageError)
}

/// The commands that exist, by name, with their help.
enum CommandCatalog {
    static let commands: [CommandSpec] = [
        ListUsersOptions.spec, ShowUsersOptions.spec, ListReposOptions.spec, RelationsOptions.spec(.followers),
        RelationsOptions.spec(.following), SearchUsersOptions.spec, RateLimitCoordinator.spec, CacheOptions.spec,
        CompletionOptions.spec, helpSpec,
    ]

    static let helpSpec = CommandSpec(
        name: "help",
        abstract: "Show help for gh-users, one of its commands, or a topic.",
        usage: "gh-users help [COMMAND | exit-codes | environment | formats]",
        discussion: nil,
        arguments: [("COMMAND", "The command to explain."), ("TOPIC", "exit-codes, environment or formats.")],
        options: [],
        examples: [
            ("gh-users help list", "The same text as 'gh-users list --help'."),
            ("gh-users help exit-codes", "What each exit status means."),
        ]
    )

    static func command(named name: String) -> CommandSpec? {
        commands.first { $0.name == name }
    }

    static func unknownCommand(_ name: String) -> UsageError {
        var message = "unknown command '\(name)'"
        if let suggestion = Suggestions.nearest(to: name, among: commands.map(\.name)) {
            message += "\nDid you mean '\(suggestion)'?"
        }
        return UsageError(message: message, command: nil)
    }
}
