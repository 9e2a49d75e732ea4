/// Every command gh-users has. Adding a command is one declaration in its folder and one line here (for the
/// people of organizations and repositories, both in `PeopleLists`), which also says under which section help
/// lists it; the router, help, completions, the man pages and the tests that walk this list pick it up from it.
///
/// A line names its command and builds it when asked: a run builds the one command it runs (`routed`), not all
/// of them, which took 1.4–1.7 ms of a release build's ~6 ms from `main` to the first connection (issue 29).
enum CommandCatalog {
    /// One line of the catalog: the command's name, as its spec gives it (a test holds the two together), its
    /// section in top-level help, and the command, built only when asked for.
    struct Entry: Sendable {
        let name: String
        private let source: Source

        private enum Source: Sendable {
            case github(any GitHubCommand.Type, CommandSection)
            case local(any LocalCommand.Type, CommandSection)
        }

        init(_ name: String, _ type: any GitHubCommand.Type, _ section: CommandSection) {
            self.name = name
            source = .github(type, section)
        }

        init(_ name: String, local type: any LocalCommand.Type, _ section: CommandSection) {
            self.name = name
            source = .local(type, section)
        }

        func build() -> Command {
            switch source {
            case .github(let type, let section): Command(type).listed(under: section)
            case .local(let type, let section): Command(local: type).listed(under: section)
            }
        }
    }

    static let entries: [Entry] =
        accounts + PeopleLists.entries
        + [Entry("star-history", StarHistoryOptions.self, .organizations)]
        + [Entry("access", AccessCommand.self, .organizations)]

    /// Every command, built: what help, completions and the man pages walk.
    static let commands: [Command] = entries.map { $0.build() }

    /// The catalog's lines by the command's name: the router builds the one a run names, and no other.
    static let lines = Dictionary(uniqueKeysWithValues: entries.map { ($0.name, $0) })

    /// The commands about accounts, yours, searches and crawls, and the setup.
    private static let accounts: [Entry] = [
        Entry("list", ListUsersOptions.self, .searching),
        Entry("show", ShowUsersOptions.self, .people),
        Entry("repos", ListReposOptions.self, .people),
        Entry("followers", FollowersCommand.self, .people),
        Entry("following", FollowingCommand.self, .people),
        Entry("follows", FollowsOptions.self, .people),
        Entry("follow", FollowCommand.self, .yourAccount),
        Entry("unfollow", UnfollowCommand.self, .yourAccount),
        Entry("block", BlockCommand.self, .yourAccount),
        Entry("unblock", UnblockCommand.self, .yourAccount),
        Entry("blocks", ListBlocksCommand.self, .yourAccount),
        Entry("emails", ListEmailsCommand.self, .yourAccount),
        Entry("keys", ListKeysCommand.self, .people),
        Entry("signing-keys", ListSigningKeysCommand.self, .people),
        Entry("gpg-keys", ListGPGKeysCommand.self, .people),
        Entry("social", ListSocialAccountsCommand.self, .people),
        Entry("orgs", ListOrgsCommand.self, .people),
        Entry("starred", ListStarredOptions.self, .people),
        Entry("subscriptions", SubscriptionsOptions.self, .yourAccount),
        Entry("gists", ListGistsCommand.self, .people),
        Entry("events", ListEventsOptions.self, .people),
        Entry("contributions", ContributionsOptions.self, .people),
        Entry("me", MeCommand.self, .yourAccount),
        Entry("hovercard", HovercardOptions.self, .people),
        Entry("search", SearchUsersOptions.self, .searching),
        Entry("rate-limit", RateLimitCommand.self, .setup),
        Entry("cache", local: CacheCommand.self, .setup),
        Entry("completion", local: CompletionOptions.self, .setup),
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
        usage: "gh-users help [COMMAND | TOPIC | --man [COMMAND [SUBCOMMAND]]]",
        discussion: nil,
        arguments: [
            ("COMMAND", "The command to explain."),
            ("TOPIC", "options (the groups commands share), formats, environment or exit-codes."),
        ],
        options: [
            OptionSpec(
                "man",
                help: "Write the man page in troff instead: gh-users(1), or COMMAND's gh-users-COMMAND(1); "
                    + "SOURCE_DATE_EPOCH dates it.")
        ],
        section: .setup,
        examples: [
            ("gh-users help list", "The same text as 'gh-users list --help'."),
            ("gh-users help --man list | man -l -", "list's man page, as Scripts/make-manpage writes it."),
            ("gh-users help exit-codes", "What each exit status means."),
            ("gh-users help options", "The output, paging, network, cache and logging options in full."),
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
        if name == "api" {
            // gh's `gh api` sends any request; gh-users covers GitHub's people APIs alone.
            message +=
                "\ngh-users has no api command: for any other request of GitHub's API, use GitHub CLI's "
                + "gh api (gh api /users/octocat)"
        } else if let suggestion = Suggestions.nearest(to: name, among: specs.map(\.name)) {
            message += "\nDid you mean '\(suggestion)'?"
        } else if name == "version" {
            message += "\nTo print the version: gh-users --version"
        }
        return UsageError(message: message, command: nil)
    }
}
