import AtomicLogger

/// One option as the scanner, the help text and (later) shell completion see it.
struct OptionSpec: Sendable, Equatable {
    let name: String
    let short: Character?
    /// nil for a flag; otherwise what the value is called in help (`N`, `FORMAT`).
    let valueName: String?
    let help: String
    let defaultValue: String?
    /// The closed set of values, when there is one.
    let choices: [String]
    /// What kind of path the value is, when it is one: completions offer files, or folders, there.
    let path: PathValue?
    /// Each value given counts (`show --id 1 --id 2`), where another option keeps its last: completions offer it
    /// again once given, and no other.
    let repeatable: Bool

    /// A value that names a place on disk. The value's name in help cannot say it: `DIR` also names a sort
    /// direction.
    enum PathValue: Sendable, Equatable {
        case file, directory
    }

    init(
        _ name: String,
        short: Character? = nil,
        value valueName: String? = nil,
        help: String,
        default defaultValue: String? = nil,
        choices: [String] = [],
        path: PathValue? = nil,
        repeatable: Bool = false
    ) {
        self.name = name
        self.short = short
        self.valueName = valueName
        self.help = help
        self.defaultValue = defaultValue
        self.choices = choices
        self.path = path
        self.repeatable = repeatable
    }

    var takesValue: Bool { valueName != nil }

    var flagText: String {
        let long = "--\(name)" + (valueName.map { " \($0)" } ?? "")
        return short.map { "-\($0), " + long } ?? "    " + long
    }
}

/// Options that belong together and that a command takes as a whole (as swift-argument-parser's `@OptionGroup`):
/// output, network, cache, logging, paging. A command offers only the groups that mean something for it.
struct OptionGroup: Sendable, Equatable {
    /// The heading in help ("OUTPUT OPTIONS").
    let title: String
    let options: [OptionSpec]
}

/// A command's help and accepted options, kept beside the command's options type.
struct CommandSpec: Sendable {
    let name: String
    let abstract: String
    var usage: String
    var discussion: String?
    let arguments: [(name: String, help: String)]
    /// The command's own options.
    let options: [OptionSpec]
    /// The groups it takes, in the order help lists them.
    var groups: [OptionGroup] = []
    let examples: [(command: String, comment: String)]
    /// The names `--fields` accepts for this command's records; empty when it has none.
    var fields: [String] = []
    /// The names `--fields` takes only with one of the command's options, whose records have other keys, and
    /// how help introduces them: ("With --changes", the keys of a change record), ("With --full, also", the
    /// keys only a profile has). The option's own parse refuses them without it.
    var optionFields: [(label: String, fields: [String])] = []
    /// What help says after a field's name when an option refuses it (`score` is "not with --full").
    var fieldNotes: [String: String] = [:]
    /// What help says in place of the command's own fields where they are too many to list (a fork's 77 keys);
    /// nil lists them.
    private(set) var fieldsInWords: String?
    /// Whether the list itself can be read through GraphQL, so `--via graphql` is taken without `--full`.
    var listsThroughGraphQL = false
    /// Whether the records are gh-users's own (`access`, `star-history`) or flat (a hovercard's contexts, keys,
    /// emails, social accounts), whose fields are plain values or lists:
    /// `--fields` takes no path into one (`holdingOwnRecords`).
    private(set) var holdsOwnRecords = false
    /// The closed set of words the first argument takes (`completion bash|zsh|fish`), for completion; a
    /// command's subcommands are among them.
    var words: [String] = []
    /// The commands nested under this one (`me edit`), each named in full; empty for most.
    var subcommands: [CommandSpec] = []
    /// Where top-level help lists the command; nil for a subcommand, which its parent's help lists.
    var section: CommandSection?
    /// The command's own options as declared, when the scanner reads them (`declaring`); else its `init` does.
    private(set) var declared: (any DeclaredOptions)?
    /// The one argument the command takes, when the scanner checks it (`taking`): a login, OWNER/REPO or ORG/TEAM.
    private(set) var operand: Operand?

    /// The subcommand's own word (`edit` of `me edit`), or the command's name.
    var word: String { name.split(separator: " ").last.map(String.init) ?? name }

    init(
        name: String,
        abstract: String,
        usage: String,
        discussion: String?,
        arguments: [(name: String, help: String)],
        options: [OptionSpec],
        groups: [OptionGroup] = [],
        section: CommandSection? = nil,
        examples: [(command: String, comment: String)],
        fields: [String] = [],
        optionFields: [(label: String, fields: [String])] = [],
        words: [String] = []
    ) {
        self.name = name
        self.abstract = abstract
        self.usage = usage
        self.discussion = discussion
        self.arguments = arguments
        self.options = options
        self.groups = groups
        self.examples = examples
        self.fields = fields
        self.optionFields = optionFields
        self.words = words
        self.section = section
    }

    /// Every name `--fields` may take, with the options or without: what completion offers.
    var anyFields: [String] {
        var names = fields
        for name in optionFields.flatMap(\.fields) where !names.contains(name) { names.append(name) }
        return names
    }

    /// The fields as help lists them: those of the command's own records, then a line for each option's: the
    /// whole of the other records an option writes (a change), or only what `--full` adds ("also"): a list's
    /// field it keeps (a contributor's `contributions`) is on the first line already.
    var fieldLines: [String] {
        let adding = { (label: String, name: String) in label != ProfileGroup.keptLabel || !fields.contains(name) }
        let own = fields.map { field in fieldNotes[field].map { "\(field) (\($0))" } ?? field }
        return [fieldsInWords ?? own.joined(separator: ", ")]
            + optionFields.map { label, names in
                "\(label): " + names.filter { adding(label, $0) }.joined(separator: ", ")
            }
    }

    /// `-h, --help`, which every command takes; `gh-users --help` lists it once, with `--version`.
    static let help = OptionSpec("help", short: "h", help: "Show help for this command.")

    /// Everything the scanner accepts for this command: its own options, its groups', and --help.
    var allOptions: [OptionSpec] { options + groups.flatMap(\.options) + [CommandSpec.help] }

    func option(named name: String) -> OptionSpec? {
        allOptions.first { $0.name == name }
    }

    func option(short: Character) -> OptionSpec? {
        allOptions.first { $0.short == short }
    }

    /// The same command, whose own options the scanner reads as `options` declares them.
    func declaring(_ options: some DeclaredOptions) -> CommandSpec {
        var copy = self
        copy.declared = options
        return copy
    }

    /// The same command, whose records are gh-users's own: a `--fields` path is refused before anything is sent.
    func holdingOwnRecords() -> CommandSpec {
        var copy = self
        copy.holdsOwnRecords = true
        return copy
    }

    /// The same command, whose one argument the scanner checks and reads as `operand`.
    func taking(_ operand: Operand) -> CommandSpec {
        var copy = self
        copy.operand = operand
        return copy
    }

    /// The same command, whose help says `words` in place of its own fields.
    func listingFields(as words: String) -> CommandSpec {
        var copy = self
        copy.fieldsInWords = words
        return copy
    }

    /// The same command, whose help says `note` after each of `fields` (an option that must come with them).
    func noting(_ fields: [String], _ note: String) -> CommandSpec {
        var copy = self
        for field in fields { copy.fieldNotes[field] = note }
        return copy
    }

    /// Whether the command takes the group (paging and profile are a list's).
    func takes<Values>(_ group: GroupDeclaration<Values>) -> Bool {
        groups.contains { $0.title == group.title }
    }

    /// The same command with more groups, as a builder adds the ones its kind of command implies.
    func adding(_ more: [OptionGroup]) -> CommandSpec {
        var copy = self
        for group in more where !copy.groups.contains(group) { copy.groups.append(group) }
        return copy
    }
}

/// The sections top-level help, gh-users(1) and README's tour list the commands under, as gh's help groups its
/// own: each command says which it is in, where the catalog lists it.
enum CommandSection: String, CaseIterable, Sendable {
    case people = "PEOPLE COMMANDS"
    case yourAccount = "YOUR ACCOUNT COMMANDS"
    case organizations = "ORGANIZATION AND REPOSITORY COMMANDS"
    case searching = "SEARCH AND CRAWL COMMANDS"
    case setup = "SETUP COMMANDS"
}
