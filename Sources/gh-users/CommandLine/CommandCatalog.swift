/// Every command gh-users has. Adding a command is one declaration in its folder and one line here (for the
/// people of organizations and repositories, both in `PeopleLists`), which also says under which section help
/// lists it; the router, help, completions, the man pages and the tests that walk this list pick it up from it.
enum CommandCatalog {
    static let commands: [Command] =
        accounts + PeopleLists.commands + [StarHistoryCommand.declaration.listed(under: .organizations)]

    /// The commands about accounts, yours, searches and crawls, and the setup.
    private static let accounts: [Command] = [
        ListUsersCommand.declaration.listed(under: .searching),
        ShowUsersCommand.declaration.listed(under: .people),
        ListReposCommand.declaration.listed(under: .people),
        FollowListCommand.followers.listed(under: .people),
        FollowListCommand.following.listed(under: .people),
        FollowsCommand.declaration.listed(under: .people),
        FollowChangeCommand.follow.listed(under: .yourAccount),
        FollowChangeCommand.unfollow.listed(under: .yourAccount),
        BlocksCommand.block.listed(under: .yourAccount),
        BlocksCommand.unblock.listed(under: .yourAccount),
        BlocksCommand.list.listed(under: .yourAccount),
        ListEmailsCommand.declaration.listed(under: .yourAccount),
        ListKeysCommand.declaration.listed(under: .people),
        ListSigningKeysCommand.declaration.listed(under: .people),
        ListGPGKeysCommand.declaration.listed(under: .people),
        ListSocialAccountsCommand.declaration.listed(under: .people),
        ListOrgsCommand.declaration.listed(under: .people),
        ListStarredCommand.declaration.listed(under: .people),
        ListSubscriptionsCommand.declaration.listed(under: .yourAccount),
        ListGistsCommand.declaration.listed(under: .people),
        ListEventsCommand.declaration.listed(under: .people),
        ContributionsCommand.declaration.listed(under: .people),
        MeCommand.declaration.listed(under: .yourAccount),
        HovercardCommand.declaration.listed(under: .people),
        SearchUsersCommand.declaration.listed(under: .searching),
        RateLimitCommand.declaration.listed(under: .setup),
        CacheCommand.declaration.listed(under: .setup),
        CompletionCommand.declaration.listed(under: .setup),
    ]

    /// What `help` lists and completes: every command, then `help` itself.
    static var specs: [CommandSpec] { commands.map(\.spec) + [helpSpec] }

    /// Every command and every subcommand (`me edit`), the subcommands last, as help and the man pages find them.
    static var allSpecs: [CommandSpec] { specs + commands.flatMap(\.spec.subcommands) }

    /// The sections of top-level help and gh-users(1) that have commands, each with them in the catalog's order.
    static var sections: [(section: CommandSection, specs: [CommandSpec])] {
        CommandSection.allCases.map { section in (section, specs.filter { $0.section == section }) }
            .filter { !$0.specs.isEmpty }
    }

    static let helpSpec = CommandSpec(
        name: "help",
        abstract: "Show help for gh-users, one of its commands, or a topic.",
        usage: "gh-users help [COMMAND | exit-codes | environment | formats]",
        discussion: nil,
        arguments: [("COMMAND", "The command to explain."), ("TOPIC", "exit-codes, environment or formats.")],
        options: [],
        section: .setup,
        examples: [
            ("gh-users help list", "The same text as 'gh-users list --help'."),
            ("gh-users help exit-codes", "What each exit status means."),
        ]
    )

    /// A command or, named in full (`me edit`), a subcommand.
    static func command(named name: String) -> Command? {
        named[name]
    }

    /// Every command and subcommand by its full name: the router's lookup of the word it is given.
    static let named: [String: Command] = Dictionary(
        uniqueKeysWithValues: (commands + commands.flatMap(\.subcommands)).map { ($0.spec.name, $0) })

    static func spec(named name: String) -> CommandSpec? {
        allSpecs.first { $0.name == name }
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
