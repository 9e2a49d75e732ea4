import AtomicCore
import Testing

@testable import gh_users

/// Walks the command catalog, so that a command registered with something missing or inconsistent fails here
/// instead of in a user's hands: its help, its examples, its options, its completion.
struct CatalogTests {
    /// Every command and, named in full, every subcommand (`me edit`).
    private static let names = CommandCatalog.allSpecs.map(\.name)

    @Test func namesAreUniqueAndEachRoutesToItsOwnCommand() {
        #expect(Set(Self.names).count == Self.names.count)
        for name in Self.names where name != CommandCatalog.helpSpec.name {
            let words = name.split(separator: " ").map(String.init)
            #expect(CommandRouter().route(words + ["--help"]) == .help(.command(name)), "\(name)")
            #expect(CommandRouter().route(["help"] + words) == .help(.command(name)), "\(name)")
        }
    }

    /// The router finds a command by its catalog line's name and builds that command alone, so the name must be
    /// the one the command's spec gives; a line that named another would route the word to the wrong command.
    @Test func eachCatalogLineNamesTheCommandItBuilds() {
        #expect(CommandCatalog.entries.count == CommandCatalog.commands.count)
        for entry in CommandCatalog.entries {
            #expect(entry.build().spec.name == entry.name)
            #expect(CommandCatalog.lines[entry.name]?.build().spec.name == entry.name)
        }
        #expect(CommandCatalog.lines["no-such-command"] == nil)
        // A subcommand named in full, as one word, is routed to it.
        #expect(CommandRouter().route(["me edit", "--help"]) == .help(.command("me edit")))
    }

    /// Top-level help lists each command once, under a section, as gh's help does; a subcommand is listed in
    /// its command's help instead.
    @Test func topLevelHelpListsEveryCommandOnceUnderASection() throws {
        let text = HelpRenderer.render(.topLevel, width: 80)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var listed: [String: [String]] = [:]
        var section: String?
        for line in lines {
            if line.isEmpty {
                section = nil
            } else if let title = CommandSection(rawValue: line) {
                section = title.rawValue
            } else if let section, line.hasPrefix("  "), line.dropFirst(2).first?.isLetter == true {
                listed[String(line.dropFirst(2).prefix { $0 != " " }), default: []].append(section)
            }
        }
        for spec in CommandCatalog.specs {
            #expect(listed[spec.name] == [try #require(spec.section).rawValue], "\(spec.name)")
        }
        #expect(listed.count == CommandCatalog.specs.count)
        for spec in CommandCatalog.specs {
            let help = HelpRenderer.render(.command(spec.name), width: 80)
            for subcommand in spec.subcommands {
                #expect(!text.contains("  \(subcommand.name) "), "\(subcommand.name)")
                #expect(help.contains("\nCOMMANDS\n"), "\(spec.name)")
                #expect(help.contains("\n  \(subcommand.word) "), "\(subcommand.name)")
            }
        }
    }

    @Test(arguments: names)
    func helpFitsEightyColumnsAndHasUsageAndExamples(name: String) throws {
        let text = HelpRenderer.render(.command(name), width: 80)
        #expect(text.contains("USAGE\n"))
        #expect(text.contains("\nEXAMPLES\n"))
        for line in text.split(separator: "\n") {
            #expect(DisplayWidth.of(String(line)) <= 80, "\(name): \(line)")
        }
        // Every shared group the command takes is named on the line that points to `help options`, and the
        // options of a group only it or a few take are listed with its own; FIELDS only where --fields exists.
        let spec = try #require(CommandCatalog.spec(named: name))
        let sharedLine = text.components(separatedBy: "\nSHARED OPTIONS\n").dropFirst().first?
            .components(separatedBy: "\n\n").first?.replacing("\n    ", with: " ")
        let options =
            text.components(separatedBy: "\nOPTIONS\n").dropFirst().first?
            .components(separatedBy: "\n\n").first ?? ""
        for group in spec.groups {
            #expect(!text.contains("\n\(group.title)\n"), "\(name) \(group.title)")
            if HelpRenderer.isShared(group) {
                #expect(sharedLine?.contains(HelpRenderer.shortName(group)) == true, "\(name) \(group.title)")
            } else {
                for option in group.options {
                    #expect(options.contains(option.flagText), "\(name) \(option.flagText)")
                }
            }
        }
        #expect(sharedLine.map { $0.hasSuffix(": gh-users help options") } ?? true, "\(name)")
        let takesFields = spec.option(named: OutputGroup.fields.name) != nil
        #expect(text.contains("\nFIELDS\n") == takesFields, "\(name)")
        #expect(takesFields == !spec.fields.isEmpty, "\(name)")
        #expect(!text.contains("FIELDS lists them") || takesFields, "\(name)")
    }

    /// `help options` has no FIELDS section: `--fields` sent its reader to "FIELDS below" (helper-269).
    @Test func theOptionsTopicSendsNoOneToASectionItLacks() throws {
        let text = try #require(HelpTopics.text("options"))
        #expect(text.contains("--fields"))
        #expect(!text.contains("\nFIELDS\n"))
        #expect(!text.contains("below"), "\(text)")
    }

    /// A command's usage line names its subcommands (before: `gh-users me [options]`, with no word of `edit`).
    @Test(arguments: names)
    func aUsageLineNamesEverySubcommand(name: String) throws {
        let spec = try #require(CommandCatalog.spec(named: name))
        for subcommand in spec.subcommands {
            let word = try #require(subcommand.name.split(separator: " ").last)
            #expect(spec.usage.contains(word), "\(name): \(spec.usage)")
        }
    }

    /// "With --full, also" names only what --full adds: a list's field that a profile keeps is listed once
    /// (before: a contributor's `contributions`, a collaborator's `role_name` and a stargazer's `starred_at` twice).
    @Test(arguments: names)
    func whatFullAddsNamesNoFieldTheListHasAlready(name: String) throws {
        let spec = try #require(CommandCatalog.spec(named: name))
        let lines = spec.fieldLines.filter { $0.hasPrefix(ProfileGroup.keptLabel + ": ") }
        let added = lines.flatMap { $0.dropFirst(ProfileGroup.keptLabel.count + 2).split(separator: ", ") }
        #expect(added.allSatisfy { !spec.fields.contains(String($0)) }, "\(name): \(lines)")
        #expect(lines.isEmpty || !added.isEmpty, "\(name)")
    }

    /// At 40 columns (a terminal review's finds): an option's text is indented deeper than a long option's
    /// label, which read as one block with it, and a wrapped example comment keeps its `#` on every line.
    @Test(arguments: names)
    func narrowHelpSetsTextBelowItsLabelAndKeepsCommentsCommented(name: String) throws {
        let lines = HelpRenderer.render(.command(name), width: 40).split(separator: "\n").map(String.init)
        // Every command's help has both headings: were one renamed, its checks would stop without a word.
        let options = try #require(lines.firstIndex(of: "OPTIONS"), "\(name)")
        let optionLines = lines[(options + 1)...].prefix(while: { !$0.isEmpty && $0.hasPrefix(" ") })
        #expect(!optionLines.isEmpty, "\(name)")
        for line in optionLines {
            let indent = line.prefix { $0 == " " }.count
            #expect([2, 6, 8].contains(indent), "\(name): \(line)")
            #expect(indent == 8 || line.dropFirst(indent).hasPrefix("-"), "\(name): \(line)")
        }
        let examples = try #require(lines.firstIndex(of: "EXAMPLES"), "\(name)")
        for line in lines[(examples + 1)...] where !line.hasPrefix("  $ ") && !line.hasPrefix("      ") {
            #expect(line.hasPrefix("  # ") || line.isEmpty || !line.hasPrefix(" "), "\(name): \(line)")
        }
    }

    @Test(arguments: names)
    func helpFillsAWideTerminalAndNeverOverflowsANarrowOne(name: String) throws {
        // Lines a discussion keeps as written (install snippets) cannot be re-filled.
        let verbatim =
            try #require(CommandCatalog.spec(named: name)).discussion?.split(separator: "\n")
            .filter { $0.hasPrefix(" ") }.map { "  " + $0 } ?? []
        for width in [40, 132] {
            let text = HelpRenderer.render(.command(name), width: width)
            let widest =
                text.split(separator: "\n").filter { !verbatim.contains(String($0)) }
                .map { DisplayWidth.of(String($0)) }.max() ?? 0
            // A single word longer than the line (a URL) may stand alone; nothing else may overflow.
            let longestWord = text.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(\.count).max() ?? 0
            #expect(widest <= max(width, longestWord + 8), "\(name) at \(width)")
        }
    }

    /// Help is one screen: a command's own arguments, options and examples, and one line for the groups it
    /// shares (`help options`), at most 50 lines at 80 columns; top-level help at most 61 (60 until `access`
    /// took a line of its own). Before, `help collaborators` was 130 lines, 60 % of them the shared groups, and
    /// top-level help 114.
    @Test(arguments: names)
    func aCommandsHelpIsAtMostFiftyLinesAtEightyColumns(name: String) {
        let text = HelpRenderer.render(.command(name), width: 80)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count <= 50, "\(name): \(lines.count) lines")
    }

    @Test func topLevelHelpIsAtMostSixtyOneLinesAtEightyColumns() {
        let text = HelpRenderer.render(.topLevel, width: 80)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count <= 61, "\(lines.count) lines")
        // Each command is one line: its name and what it does, without the request it makes.
        for spec in CommandCatalog.specs {
            let line = lines.first { $0.hasPrefix("  \(spec.name) ") }
            #expect(line.map { !$0.contains("(GET ") && $0.hasSuffix(".") } == true, "\(spec.name): \(line ?? "")")
        }
    }

    @Test func topLevelHelpListsEveryCommandAndTheGlobalOptionsOnce() {
        let text = HelpRenderer.render(.topLevel, width: 80)
        for name in CommandCatalog.specs.map(\.name) {
            #expect(text.contains("\n  \(name) "), "\(name)")
        }
        #expect(text.components(separatedBy: "GLOBAL OPTIONS").count == 2)
        for name in Self.names {
            #expect(!HelpRenderer.render(.command(name), width: 80).contains("GLOBAL OPTIONS"), "\(name)")
        }
    }

    /// Every example in every command's help is a command line the router accepts for that command.
    @Test(arguments: names)
    func everyExampleParses(name: String) throws {
        let spec = try #require(CommandCatalog.spec(named: name))
        for example in spec.examples {
            // Each gh-users in a pipeline must parse, and one of them must be this command.
            let invocations = example.command.components(separatedBy: " | ").map(ShellWords.split)
                .filter { $0.first == "gh-users" }
            for words in invocations {
                if case .usageError(let error) = CommandRouter().route(Array(words.dropFirst())) {
                    Issue.record("\(example.command): \(error.message)")
                }
            }
            let words = name.split(separator: " ").map(String.init)
            #expect(invocations.contains { Array($0.dropFirst().prefix(words.count)) == words }, "\(example.command)")
        }
    }

    @Test(arguments: names)
    func noCommandOffersAnOptionTwice(name: String) throws {
        let options = try #require(CommandCatalog.spec(named: name)).allOptions
        #expect(Set(options.map(\.name)).count == options.count, "\(name)")
        let shorts = options.compactMap(\.short)
        #expect(Set(shorts).count == shorts.count, "\(name)")
    }

    /// `cache clear` writes its record only when a format is asked for, where the shared `--format` line says
    /// "tsv when piped": its own help says so (before: nothing did but `cache --help`).
    @Test func cacheClearsHelpSaysWhenStdoutGetsARecord() {
        let text = HelpRenderer.render(.command("cache clear"), width: 80).replacing("\n  ", with: " ")
        #expect(text.contains("stdout stays empty unless --json or --format ndjson, csv or tsv"), "\(text)")
        #expect(!HelpRenderer.render(.command("cache info"), width: 80).contains("stdout stays empty"))
    }

    @Test func aCommandThatTalksToGitHubTakesEveryGroupThatSetsItUp() {
        let github = [OutputGroup.group, NetworkGroup.group, CacheGroup.group, LoggingGroup.group]
        for command in CommandCatalog.commands {
            let probe = CommandRouter().route([command.spec.name, "--help"])
            #expect(probe.helpText != nil)
            let groups = command.spec.groups
            let talksToGitHub = groups.contains(NetworkGroup.group)
            if talksToGitHub {
                for group in github { #expect(groups.contains(group), "\(command.spec.name) \(group.title)") }
            }
        }
    }

    /// A group a command takes is read into its options by construction: `--limit 7` and `--full` reach the
    /// options of every command that offers them, so none accepts one and ignores it.
    @Test func everyPagingAndProfileGroupACommandTakesIsRead() throws {
        var checked = (paging: 0, profiles: 0)
        for command in CommandCatalog.commands {
            let name = command.spec.name
            let titles = command.spec.groups.map(\.title)
            if titles.contains(PagingGroup.declared.title) {
                let options = try #require(Self.options(name, ["--limit", "7"]), "\(name)")
                let paged = try #require(options as? any PagedOptions, "\(name)")
                #expect(paged.paging.limit == .count(7), "\(name)")
                checked.paging += 1
            }
            if titles.contains(ProfileGroup.declared.title) {
                let options = try #require(Self.options(name, ["--full", "--concurrency", "9"]), "\(name)")
                let profiles = Self.profileOptions(in: options)
                #expect(profiles == [ProfileOptions(full: true, concurrency: 9)], "\(name)")
                checked.profiles += 1
            }
        }
        #expect(checked.paging >= 10)
        #expect(checked.profiles >= 4)
    }

    /// The profile options a command's values hold, however deep (`followers` keeps them in its list's options).
    private static func profileOptions(in value: Any) -> [ProfileOptions] {
        Mirror(reflecting: value).children.flatMap { child in
            (child.value as? ProfileOptions).map { [$0] } ?? profileOptions(in: child.value)
        }
    }

    /// The options `name` parses with `words`, given a LOGIN (or a QUERY) when it needs one.
    private static func options(_ name: String, _ words: [String]) -> (any Sendable)? {
        for arguments in [[], ["octocat"], ["octocat/Hello-World"]] {
            if case .run(let invocation) = CommandRouter().route([name] + arguments + words) {
                return invocation.options
            }
        }
        return nil
    }

    @Test(arguments: CompletionOptions.Shell.allCases)
    func everyCommandIsCompleted(shell: CompletionOptions.Shell) {
        let script = CatalogScripts.of(shell)
        for name in Self.names {
            #expect(script.contains(name), "\(shell) \(name)")
        }
    }
}

/// Splits an example's command line the way a shell would for the part before any pipe or redirection:
/// words, with single and double quotes removed.
enum ShellWords {
    static func split(_ line: String) -> [String] {
        var words: [String] = []
        var word = ""
        var quote: Character?
        var hasWord = false
        var escaped = false
        for character in line {
            if escaped {
                word.append(character)
                escaped = false
                continue
            }
            if let open = quote {
                if character == open { quote = nil } else { word.append(character) }
                continue
            }
            switch character {
            case "\\":
                escaped = true
                hasWord = true
            case "'", "\"":
                quote = character
                hasWord = true
            case " ":
                if hasWord { words.append(word) }
                word = ""
                hasWord = false
            case "|", ">", "<":
                if hasWord { words.append(word) }
                return words
            default:
                word.append(character)
                hasWord = true
            }
        }
        if hasWord { words.append(word) }
        return words
    }
}
