import AtomicCore
import Domain

/// argv (without the program name) → `Route`. Pure: it reads nothing and sends nothing, so every usage error
/// is found before a request could be made.
struct CommandRouter: Router {
    func route(_ arguments: [String]) -> Route {
        do {
            return try routeOrThrow(arguments)
        } catch {
            return .usageError(error)
        }
    }

    private func routeOrThrow(_ arguments: [String]) throws(UsageError) -> Route {
        // Global options may come before the command: find the first word that is not an option or its value.
        guard let commandIndex = commandPosition(in: arguments) else {
            if arguments.contains("--version") { return .version }
            if arguments.isEmpty || arguments.contains("--help") || arguments.contains("-h") {
                return .help(HelpRenderer.topLevel())
            }
            // Only options and no command: let the scanner name what is wrong with them.
            _ = try ArgumentScanner.scan(arguments, spec: topLevelSpec)
            return .help(HelpRenderer.topLevel())
        }
        let name = arguments[commandIndex]
        var rest = arguments
        rest.remove(at: commandIndex)
        if name == "help" {
            return try helpRoute(rest)
        }
        guard let spec = CommandCatalog.command(named: name) else {
            throw CommandCatalog.unknownCommand(name)
        }
        let parsed = try ArgumentScanner.scan(rest, spec: spec)
        if parsed.has("help") { return .help(HelpRenderer.render(spec)) }
        let global = try GlobalOptions.parse(parsed, spec: spec)
        switch name {
        case ListUsersOptions.spec.name:
            return .listUsers(try ListUsersOptions.parse(parsed, spec: spec), global)
        case ShowUsersOptions.spec.name:
            return .showUsers(try ShowUsersOptions.parse(parsed, spec: spec), global)
        case CacheOptions.spec.name:
            return .cache(try CacheOptions.parse(parsed, spec: spec), global)
        case CompletionOptions.spec.name:
            return .completion(try CompletionOptions.parse(parsed, spec: spec))
        case ListReposOptions.spec.name:
            return .listRepos(try ListReposOptions.parse(parsed, spec: spec), global)
        case SearchUsersOptions.spec.name:
            return .searchUsers(try SearchUsersOptions.parse(parsed, spec: spec), global)
        case RateLimitCoordinator.spec.name:
            if let extra = parsed.positionals.first {
                throw UsageError(message: "unexpected argument '\(extra)'", command: spec)
            }
            return .rateLimit(global)
        case UserRelation.followers.rawValue, UserRelation.following.rawValue:
            let relation: UserRelation = name == UserRelation.followers.rawValue ? .followers : .following
            return .relations(try RelationsOptions.parse(parsed, relation: relation, spec: spec), global)
        default:
            throw CommandCatalog.unknownCommand(name)
        }
    }

    private func helpRoute(_ rest: [String]) throws(UsageError) -> Route {
        let topics = rest.filter { !$0.hasPrefix("-") }
        guard let topic = topics.first else {
            let asksAboutHelp = rest.contains("--help") || rest.contains("-h")
            return .help(asksAboutHelp ? HelpRenderer.render(CommandCatalog.helpSpec) : HelpRenderer.topLevel())
        }
        guard topics.count == 1 else {
            throw UsageError(message: "help takes one command", command: CommandCatalog.helpSpec)
        }
        if let text = HelpTopics.text(topic) { return .help(text) }
        guard let spec = CommandCatalog.command(named: topic) else {
            var message = "no help for '\(topic)': it is neither a command nor a topic"
            let names = CommandCatalog.commands.map(\.name) + HelpTopics.names
            if let suggestion = Suggestions.nearest(to: topic, among: names) {
                message += "\nDid you mean '\(suggestion)'?"
            }
            throw UsageError(message: message, command: CommandCatalog.helpSpec)
        }
        return .help(HelpRenderer.render(spec))
    }

    /// Options that may appear before the command, so that their values are not mistaken for it.
    private let topLevelSpec = CommandSpec(
        name: "gh-users",
        abstract: "",
        usage: "gh-users <command> [options]",
        discussion: nil,
        arguments: [],
        options: [OptionSpec("version", help: "Print the version.")],
        examples: []
    )

    private func commandPosition(in arguments: [String]) -> Int? {
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--" { return index + 1 < arguments.count ? index + 1 : nil }
            if !argument.hasPrefix("-") || argument == "-" { return index }
            if argument.hasPrefix("--"), !argument.contains("="),
                topLevelSpec.option(named: String(argument.dropFirst(2)))?.takesValue == true
            {
                index += 1
            }
            index += 1
        }
        return nil
    }
}
