/// Every command gh-users has. Adding a command is one declaration in its folder and one line here; the
/// router, help, completions, the man pages and the tests that walk this list pick it up from that line.
enum CommandCatalog {
    static let commands: [Command] = [
        ListUsersCommand.declaration,
        ShowUsersCommand.declaration,
        ListReposCommand.declaration,
        FollowListCommand.followers,
        FollowListCommand.following,
        FollowsCommand.declaration,
        FollowChangeCommand.follow,
        FollowChangeCommand.unfollow,
        BlocksCommand.block,
        BlocksCommand.unblock,
        BlocksCommand.list,
        ListEmailsCommand.declaration,
        ListKeysCommand.declaration,
        ListSigningKeysCommand.declaration,
        ListGPGKeysCommand.declaration,
        ListSocialAccountsCommand.declaration,
        ListOrgsCommand.declaration,
        ListStarredCommand.declaration,
        ListSubscriptionsCommand.declaration,
        ListGistsCommand.declaration,
        ListEventsCommand.declaration,
        ContributionsCommand.declaration,
        MeCommand.declaration,
        HovercardCommand.declaration,
        SearchUsersCommand.declaration,
        RateLimitCommand.declaration,
        CacheCommand.declaration,
        CompletionCommand.declaration,
    ]

    /// What `help` lists and completes: every command, then `help` itself.
    static var specs: [CommandSpec] { commands.map(\.spec) + [helpSpec] }

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

    static func command(named name: String) -> Command? {
        commands.first { $0.spec.name == name }
    }

    static func spec(named name: String) -> CommandSpec? {
        specs.first { $0.name == name }
    }

    static func unknownCommand(_ name: String) -> UsageError {
        var message = "unknown command '\(name)'"
        if let suggestion = Suggestions.nearest(to: name, among: specs.map(\.name)) {
            message += "\nDid you mean '\(suggestion)'?"
        } else if name == "version" {
            message += "\nTo print the version: gh-users --version"
        }
        return UsageError(message: message, command: nil)
    }
}
