import Testing

@testable import gh_users

/// What the router should return for each command, spelled as the tables of argv read best.
extension Route {
    static func listUsers(_ options: ListUsersOptions, _ common: CommonOptions) -> Route {
        .run(Command(ListUsersOptions.self).invocation(options, common))
    }

    static func showUsers(_ options: ShowUsersOptions, _ common: CommonOptions) -> Route {
        .run(Command(ShowUsersOptions.self).invocation(options, common))
    }

    static func followers(_ options: FollowListOptions, _ common: CommonOptions) -> Route {
        .run(Command(FollowersCommand.self).invocation(FollowersCommand(list: options), common))
    }

    static func following(_ options: FollowListOptions, _ common: CommonOptions) -> Route {
        .run(Command(FollowingCommand.self).invocation(FollowingCommand(list: options), common))
    }

    static func listRepos(_ options: ListReposOptions, _ common: CommonOptions) -> Route {
        .run(Command(ListReposOptions.self).invocation(options, common))
    }

    static func searchUsers(_ options: SearchUsersOptions, _ common: CommonOptions) -> Route {
        .run(Command(SearchUsersOptions.self).invocation(options, common))
    }

    static func rateLimit(_ common: CommonOptions) -> Route {
        .run(Command(RateLimitCommand.self).invocation(RateLimitCommand(), common))
    }

    /// `cache info` and `cache clear` are subcommands, each a command of its own.
    static func cache(_ options: CacheOptions, _ common: CommonOptions) -> Route {
        switch options.action {
        case .info: .run(Command(local: CacheInfoCommand.self).invocation(CacheInfoCommand(), common))
        case .clear: .run(Command(local: CacheClearCommand.self).invocation(CacheClearCommand(), common))
        }
    }

    static func completion(_ options: CompletionOptions) -> Route {
        .run(Command(local: CompletionOptions.self).invocation(options, CommonOptions()))
    }
}

extension Route {
    /// The help this route prints when stdout is not a terminal; nil for any other route.
    var helpText: String? {
        guard case .help(let request) = self else { return nil }
        return HelpRenderer.render(request, width: 80)
    }

    /// The shared options this route parsed; nil unless it runs a command.
    var common: CommonOptions? {
        guard case .run(let invocation) = self else { return nil }
        return invocation.common
    }
}

extension Command {
    /// What the router returns for these options: an invocation equals another of the same command with the same
    /// options and shared options, whatever runs them, so the expectation runs nothing.
    func invocation(_ options: some Sendable & Equatable, _ common: CommonOptions = CommonOptions()) -> Invocation {
        Invocation(name: spec.name, run: .local(Expectation(options: options)), common: common)
    }
}

extension Invocation {
    /// Whether the router decided these options.
    func matches<Options: Equatable>(_ expected: Options) -> Bool {
        options as? Options == expected
    }
}

/// The options an invocation is expected to hold; never run.
private struct Expectation<Options: Sendable & Equatable>: LocalRun {
    let options: Options

    func run(_ context: LocalContext) async -> CommandOutcome {
        Issue.record("an expected invocation is compared, never run")
        return .setupFailed
    }
}
