import AtomicCore
import Domain

/// argv (without the program name) → `Route`. Pure: it reads nothing and sends nothing, so every usage error
/// is found before a request could be made. Options come after the command, as in `gh`; only `--help` and
/// `--version` stand alone.
struct CommandRouter: Sendable {
    static let version = OptionSpec("version", help: "Print the version.")
    /// `help --man [COMMAND]`: the man pages `Scripts/make-manpage` and packagers write.
    static let manual = "--man"

    func route(_ arguments: [String]) -> Route {
        do throws(UsageError) {
            // A token's shape anywhere in an argument, a whole word, an option's value, a query's: typed as a login
            // (`show ghp_…`), it was written back in the refusal, and a shorter one was sent as `GET /users/ghp_…`
            // (helper-341, helper-342).
            if let position = arguments.firstIndex(where: Login.holdsToken) {
                throw UsageError(
                    message: "argument \(position + 1) looks like a GitHub token, so it is neither shown nor sent: a "
                        + "token goes in GH_TOKEN, or in a file named by --token-file PATH, never among the arguments, "
                        + "which the shell's history and the process list keep",
                    command: nil)
            }
            guard let first = arguments.first else { return .help(.topLevel) }
            if first.hasPrefix("-") && first != "-" {
                return try leadingOption(arguments)
            }
            let rest = Array(arguments.dropFirst())
            if first == CommandCatalog.helpSpec.name {
                return try helpRoute(rest)
            }
            // The catalog's line for the word, built alone (or a subcommand named in full: `'me edit'`).
            guard
                let named = CommandCatalog.lines[first]?.build()
                    ?? (first.contains(" ") ? CommandCatalog.named[first] : nil)
            else {
                throw CommandCatalog.unknownCommand(first)
            }
            let (command, arguments) = named.subcommands.isEmpty ? (named, rest) : try Self.subcommand(of: named, rest)
            let spec = command.spec
            let parsed = try ArgumentScanner.scan(arguments, spec: spec)
            if parsed.has(CommandSpec.help) { return .help(.command(spec.name)) }
            // `gh-users cache` alone: its help, exit 0, as `gh cache` shows its own. Given options, it was asked to
            // do something: the command's own usage error, so a script that left out `info` reads no help as data.
            let givesOptions = !parsed.values.isEmpty || !parsed.flags.isEmpty
            if !command.subcommands.isEmpty, parsed.positionals.isEmpty, command.isGroupOnly, !givesOptions {
                return .help(.command(spec.name))
            }
            let run: Invocation.Run =
                switch command.type {
                case .github(let type): .github(try type.init(parsed, spec: spec))
                case .local(let type): .local(try type.init(parsed, spec: spec))
                }
            // A bad option value is said once the command has checked its arguments, which come first.
            if let error = parsed.readError { throw error }
            var common = parsed.common
            // A snapshot records GitHub's list as it is now: with the network down, the run fails at once rather
            // than reading every page from the cache to compare none of them.
            if ChangesOption.isGiven(parsed) { common.copiesAnswer = false }
            // A profile's email needs a scope GraphQL may refuse the whole query for: not asked when not written.
            if !ChangesOption.isGiven(parsed), let fields = parsed.chosenFields,
                !fields.contains(where: { $0.fieldRoot == "email" })
            {
                common.asksProfileEmail = false
            }
            return .run(Invocation(name: spec.name, run: run, common: common))
        } catch {
            return .usageError(error)
        }
    }

    /// The subcommand the first word after the command names (`me edit`), with the rest of the arguments; or
    /// the command itself, and an option only a subcommand takes refused as the command words it.
    private static func subcommand(of command: Command, _ arguments: [String]) throws(UsageError)
        -> (Command, [String])
    {
        if let index = firstWord(arguments, spec: command.spec),
            let subcommand = command.subcommands.first(where: { $0.spec.word == arguments[index] })
        {
            var rest = arguments
            rest.remove(at: index)
            return (subcommand, rest)
        }
        for argument in arguments.prefix(while: { $0 != "--" }) where argument.hasPrefix("--") {
            let name = String(argument.dropFirst(2).prefix { $0 != "=" })
            guard command.spec.option(named: name) == nil,
                let option = command.subcommands.lazy.compactMap({ $0.spec.option(named: name) }).first,
                let error = command.misplaced(option)
            else { continue }
            throw error
        }
        return (command, arguments)
    }

    /// Where the first argument that is no option, nor an option's value, is.
    private static func firstWord(_ arguments: [String], spec: CommandSpec) -> Int? {
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--" { return index + 1 < arguments.count ? index + 1 : nil }
            if argument == "-" || !argument.hasPrefix("-") { return index }
            let option =
                argument.hasPrefix("--")
                ? spec.option(named: String(argument.dropFirst(2).prefix { $0 != "=" }))
                : argument.count == 2 ? argument.last.flatMap(spec.option(short:)) : nil
            if let option, option.takesValue, !argument.contains("=") { index += 1 }
            index += 1
        }
        return nil
    }

    /// `--version`, `--help`, or an option given before the command, which gets a pointer to the right order.
    private func leadingOption(_ arguments: [String]) throws(UsageError) -> Route {
        let first = arguments[0]
        if first == "--version" {
            // What follows is no part of it: taken silently, a mistyped line looked answered (as in gh, refused).
            guard arguments.count == 1 else {
                throw UsageError(
                    message: "--version takes nothing after it, and \(TerminalSanitizer.quotedPath(arguments[1])) was "
                        + "given: gh-users --version", command: nil)
            }
            return .version
        }
        // `gh-users --help list` asks what `gh-users help list` does, as `git --help log` and `gh --help repo` do.
        if first == "--help" || first == "-h" { return try helpRoute(Array(arguments.dropFirst())) }
        let name = first.hasPrefix("--") ? String(first.dropFirst(2).prefix { $0 != "=" }) : ""
        // The command is the first word that is no option and no option's value (`--fields show show octocat`),
        // and the line said back is quoted for the shell it is pasted into.
        // A short option may carry its value (`-L3`), as after the command.
        let short = first.hasPrefix("--") || first.count < 2 ? nil : first.dropFirst().first
        if let at = Self.commandIndex(afterOptions: arguments),
            let spec = CommandCatalog.command(named: arguments[at])?.spec,
            spec.option(named: name) != nil
                || short.flatMap(spec.option(short:)).map({ first.count == 2 || $0.takesValue }) == true
        {
            let reordered = [arguments[at]] + arguments.enumerated().filter { $0.offset != at }.map(\.element)
            throw UsageError(
                message: "options come after the command: " + ShellWord.line(["gh-users"] + reordered), command: nil)
        }
        let known = CommandCatalog.commands.flatMap { $0.spec.allOptions.map { "--" + $0.name } }
        if name.isEmpty || !known.contains("--" + name) {
            throw UsageError.unknownOption(first, among: known + ["--version", "--help"], spec: nil)
        }
        throw UsageError(message: "'\(first)' needs a command: gh-users <command> \(first) …", command: nil)
    }

    /// Where the command is among `arguments` that begin with options of any command's, each value skipped.
    private static func commandIndex(afterOptions arguments: [String]) -> Int? {
        let options = CommandCatalog.commands.flatMap(\.spec.allOptions)
        var index = 0
        while index < arguments.count, arguments[index] != "--" {
            let argument = arguments[index]
            if !argument.hasPrefix("-") || argument == "-" {
                return CommandCatalog.command(named: argument) == nil ? nil : index
            }
            let name = argument.dropFirst(argument.hasPrefix("--") ? 2 : 1).prefix { $0 != "=" }
            // A short option's value is the next word unless written onto it (`-L3`).
            let takesValue = options.contains { option in
                option.takesValue
                    && (argument.hasPrefix("--") ? option.name == name : name.count == 1 && option.short == name.first)
            }
            index += takesValue && !argument.contains("=") ? 2 : 1
        }
        return nil
    }

    private func helpRoute(_ rest: [String]) throws(UsageError) -> Route {
        // `help` takes no option but its own: `help list --bogus` showed list's help, exit 0, as if it were right.
        // `--` ends the options, as for every command: `help -- list`.
        let own = ["--help", "-h", Self.manual]
        let options = rest.prefix { $0 != "--" }
        if let option = options.first(where: { $0.hasPrefix("-") && !own.contains($0) }) {
            throw UsageError.unknownOption(option, among: own, spec: CommandCatalog.helpSpec)
        }
        let topics = options.filter { !$0.hasPrefix("-") } + rest.drop { $0 != "--" }.dropFirst()
        // With nothing named, `--help` asks about help itself: its man page with `--man` (`help --man --help`).
        let asksAboutHelp = topics.isEmpty && (options.contains("--help") || options.contains("-h"))
        if options.contains(Self.manual) {
            return try manualRoute(asksAboutHelp ? [CommandCatalog.helpSpec.name] : topics)
        }
        if asksAboutHelp { return .help(.command(CommandCatalog.helpSpec.name)) }
        guard let topic = topics.first else { return .help(.topLevel) }
        // A subcommand is named in full: `help me edit`.
        if topics.count > 1, let spec = CommandCatalog.spec(named: topics.joined(separator: " ")) {
            return .help(.command(spec.name))
        }
        guard topics.count == 1 else {
            throw Self.unknownSubcommand(topics, asked: "no help")
                ?? UsageError(
                    message: "unexpected argument '\(Self.extraWord(topics))': help takes one command",
                    command: CommandCatalog.helpSpec)
        }
        if HelpTopics.text(topic) != nil { return .help(.topic(topic)) }
        guard CommandCatalog.spec(named: topic) != nil else {
            var message = "no help for '\(topic)': it is neither a command nor a topic"
            let names = CommandCatalog.specs.map(\.name) + HelpTopics.names
            if let suggestion = Suggestions.nearest(to: topic, among: names) {
                message += "\nDid you mean '\(suggestion)'?"
            }
            throw UsageError(message: message, command: CommandCatalog.helpSpec)
        }
        return .help(.command(topic))
    }

    /// A command and a word that names none of its subcommands (`help me edt`): which it has, and the nearest;
    /// nil when the first word has no subcommands.
    private static func unknownSubcommand(_ words: [String], asked: String) -> UsageError? {
        guard words.count == 2 else { return nil }
        let names = CommandCatalog.allSpecs.map(\.name).filter { $0.hasPrefix(words[0] + " ") }
        guard !names.isEmpty else { return nil }
        let named = words.joined(separator: " ")
        let subcommands = names.map { $0.dropFirst(words[0].count + 1) }.joined(separator: ", ")
        var message = "\(asked) for '\(named)': \(words[0])'s subcommands are \(subcommands)"
        if let suggestion = Suggestions.nearest(to: named, among: names) {
            message += "\nDid you mean '\(suggestion)'?"
        }
        return UsageError(message: message, command: CommandCatalog.helpSpec)
    }

    /// The first of `words` past the command they name (`me edit` is one): the one too many (helper-295: `help me
    /// edit x` named `edit`).
    private static func extraWord(_ words: [String]) -> String {
        let named = words.count > 2 && CommandCatalog.spec(named: words.prefix(2).joined(separator: " ")) != nil
        return words[named ? 2 : 1]
    }

    private func manualRoute(_ words: [String]) throws(UsageError) -> Route {
        // A subcommand's page is named in full: `help --man me edit`.
        let commands =
            words.count > 1 && CommandCatalog.spec(named: words.joined(separator: " ")) != nil
            ? [words.joined(separator: " ")] : words
        guard commands.count <= 1 else {
            throw Self.unknownSubcommand(words, asked: "no manual page")
                ?? UsageError(
                    message: "unexpected argument '\(Self.extraWord(words))': help --man takes one command",
                    command: CommandCatalog.helpSpec)
        }
        if let command = commands.first, CommandCatalog.spec(named: command) == nil {
            // A topic is a section of gh-users(1), which `help --man` alone writes.
            let topic = HelpTopics.names.contains(command)
            throw UsageError(
                message: "no manual page for '\(command)': "
                    + (topic ? "it is a help topic, in gh-users(1) ('gh-users help --man')" : "it is not a command"),
                command: CommandCatalog.helpSpec)
        }
        return .manual(command: commands.first)
    }
}
