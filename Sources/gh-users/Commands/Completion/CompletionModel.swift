/// What a completion script offers, derived from the command specs so that it cannot drift from what the parser
/// accepts. Each shell's script only translates this into its own syntax.
struct CompletionModel: Sendable {
    /// What may follow an option that takes a value.
    enum Value: Sendable, Equatable {
        /// Nothing can be guessed (`--limit N`), and offering options or files there would be wrong.
        case free
        case choices([String])
        /// Comma-separated names, completed after the last comma (`--fields login,id`); where an option on the
        /// line changes the records (`--full`, `--changes`), the names those records have instead (`when`, the
        /// first option found wins: no two of them are taken together).
        case list([String], when: [OptionNames] = [])
        case directories
        case files
    }

    /// The names a list offers when `option` (its long spelling, `--full`) is on the line.
    struct OptionNames: Sendable, Equatable {
        let option: String
        let names: [String]
    }

    struct Option: Sendable {
        let spec: OptionSpec
        /// nil for a flag.
        let value: Value?

        var long: String { "--" + spec.name }
        var short: String? { spec.short.map { "-\($0)" } }
        var spellings: [String] { [long] + (short.map { [$0] } ?? []) }
    }

    /// A word the first argument may be (`cache info`), with what it means when there is something to say.
    struct Word: Sendable {
        let text: String
        let description: String?
        /// An option that, on the line, rules the word out: `help --man` takes a command, never a topic (the
        /// topics are in gh-users(1)), and completion offered them, then exit 64 (helper-361).
        var notWith: String?
    }

    struct Command: Sendable {
        let name: String
        let abstract: String
        let options: [Option]
        /// Empty when the arguments are free text, such as logins.
        let words: [Word]
        /// What the arguments are called in help, for a shell that shows it when it has nothing to offer.
        let argumentName: String?
        /// The spellings of every option the scanner reads a value for, offered or not, so that a script reads
        /// the line as the scanner does.
        let valueSpellings: [String]
    }

    /// Every command, then every subcommand, named in full (`me edit`).
    let commands: [Command]
    /// The subcommands' full names: a script reads `me edit` as one command, as the router does.
    let subcommands: [String]

    /// The commands the first word may be.
    var topLevel: [Command] { commands.filter { !subcommands.contains($0.name) } }
    /// What may come before the command: --help and --version, the only options the router reads there.
    let leadingOptions: [Option]
    let leadingValueSpellings: [String]

    /// The option whose values are the command's `fields`.
    static let fieldsOption = OutputGroup.fields.name

    /// `specs` plus the `completion` command itself when the caller did not list it, each name once.
    init(commands specs: [CommandSpec]) {
        var seen: Set<String> = []
        let nested = specs.flatMap(\.subcommands)
        let specs = (specs + [CompletionCommand.spec] + nested).filter { seen.insert($0.name).inserted }
        subcommands = nested.map(\.name)
        commands = specs.map { spec in
            Command(
                name: spec.name,
                abstract: spec.abstract,
                options: Self.options(of: spec),
                words: Self.words(of: spec, among: specs),
                argumentName: spec.arguments.first?.name,
                valueSpellings: Self.valueSpellings(spec.allOptions)
            )
        }
        let leading = [CommandSpec.help, CommandRouter.version]
        leadingOptions = leading.map { Option(spec: $0, value: Self.value(of: $0, fields: [])) }
        leadingValueSpellings = Self.valueSpellings(leading)
    }

    private static func valueSpellings(_ options: [OptionSpec]) -> [String] {
        unique(options).filter(\.takesValue).flatMap { ["--" + $0.name] + ($0.short.map { ["-\($0)"] } ?? []) }
    }

    private static func options(of spec: CommandSpec) -> [Option] {
        unique(spec.allOptions)
            .filter { $0.name != fieldsOption || !spec.fields.isEmpty }
            .map { Option(spec: $0, value: value(of: $0, fields: offeredFields(spec), when: fieldsWithOptions(spec))) }
    }

    /// A list's fields, less those that only an option gives, as its notes say (contributors' `name`, "with --anon
    /// or --full"): the parser refuses them without it, so completion offered what was then exit 64 (helper-361).
    static func offeredFields(_ spec: CommandSpec) -> [String] {
        spec.fields.filter { !(spec.fieldNotes[$0]?.hasPrefix("with --") ?? false) }
    }

    /// The fields `--fields` takes with each option that changes the records, as the options check them:
    /// with `--full` a profile's and the list's keys it keeps; with `--changes` the change records' own; with an
    /// option a field's note names (`--anon`), every field of the list.
    static func fieldsWithOptions(_ spec: CommandSpec) -> [OptionNames] {
        let changing = spec.optionFields.compactMap { label, fields -> OptionNames? in
            guard let option = option(inLabel: label) else { return nil }
            guard label == ProfileGroup.keptLabel else { return OptionNames(option: option, names: fields) }
            let profile = FieldCatalog.profile
            return OptionNames(option: option, names: profile + fields.filter { !profile.contains($0) })
        }
        let noted = spec.fields.compactMap { spec.fieldNotes[$0] }.filter { $0.hasPrefix("with --") }
        var giving: [String] = []
        for word in noted.flatMap({ $0.split(separator: " ") }) where word.hasPrefix("--") {
            let option = String(word)
            if !giving.contains(option), !changing.contains(where: { $0.option == option }) { giving.append(option) }
        }
        return changing + giving.map { OptionNames(option: $0, names: spec.fields) }
    }

    /// The option a label of help's fields names (`--full` of "With --full, also").
    static func option(inLabel label: String) -> String? {
        label.split(separator: " ").first { $0.hasPrefix("--") }.map { String($0.prefix { $0 != "," }) }
    }

    /// The scanner takes the first option with a name or short form, so a later one could never be used.
    private static func unique(_ options: [OptionSpec]) -> [OptionSpec] {
        var names: Set<String> = []
        var shorts: Set<Character> = []
        return options.compactMap { option in
            guard names.insert(option.name).inserted else { return nil }
            if let short = option.short, !shorts.insert(short).inserted {
                return OptionSpec(
                    option.name, value: option.valueName, help: option.help, default: option.defaultValue,
                    choices: option.choices, path: option.path, repeatable: option.repeatable)
            }
            return option
        }
    }

    private static func value(of option: OptionSpec, fields: [String], when: [OptionNames] = []) -> Value? {
        guard option.takesValue else { return nil }
        if !option.choices.isEmpty { return .choices(option.choices) }
        if option.name == fieldsOption, !fields.isEmpty { return .list(fields, when: when) }
        switch option.path {
        case .file: return .files
        case .directory: return .directories
        case nil: return .free
        }
    }

    private static func words(of spec: CommandSpec, among specs: [CommandSpec]) -> [Word] {
        guard spec.name == CommandCatalog.helpSpec.name else {
            return spec.words.map { word in
                Word(text: word, description: spec.subcommands.first { $0.word == word }?.abstract)
            }
        }
        return specs.filter { !$0.name.contains(" ") }.map { Word(text: $0.name, description: $0.abstract) }
            + HelpTopics.names.map { Word(text: $0, description: "Help topic.", notWith: "--man") }
    }
}
