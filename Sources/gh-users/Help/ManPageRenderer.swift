import Foundation

/// The manual pages, as git and gh ship them: gh-users(1) for the whole program, and gh-users-COMMAND(1) for
/// each command, rendered from the same specs as `--help` (`gh-users help --man [COMMAND]`, which
/// `Scripts/make-manpage` runs). A command's page says what its `--help` says: its own options and, in full,
/// each group it takes, so it reads on its own; gh-users(1) describes each group once.
enum ManPageRenderer {
    /// Help written into a page as it is (usage, examples) is filled to this width: with man's 7-column indent,
    /// it stays within 80.
    static let verbatimWidth = 72

    /// gh-users(1) for nil, else the page of the command so named (which the router has checked).
    static func render(_ command: String?, version: String, date: Date) -> String {
        let day = date.formatted(Date.ISO8601FormatStyle(timeZone: .gmt).year().month().day())
        guard let command, let spec = CommandCatalog.spec(named: command) else {
            return Roff.tidy(mainPage(version: version, date: day))
        }
        return Roff.tidy(commandPage(spec, version: version, date: day))
    }

    static func commandPage(_ spec: CommandSpec, version: String, date: String) -> String {
        let page = pageName(spec)
        var text = Roff.header(title: page, version: version, date: date)
        text += Roff.section("NAME") + Roff.escape(page + " - " + summary(spec.abstract)) + "\n"
        text += Roff.section("SYNOPSIS")
        text += Roff.verbatim(HelpRenderer.fillUsage(spec.usage, indent: 0, hanging: 4, width: verbatimWidth))
        text += Roff.section("DESCRIPTION") + description(spec)
        if !spec.arguments.isEmpty {
            text += Roff.section("ARGUMENTS")
            text += spec.arguments.map { Roff.tagged(Roff.italic($0.name), $0.help) }.joined()
        }
        if !spec.subcommands.isEmpty {
            text += Roff.section("COMMANDS")
            text += spec.subcommands.map { Roff.tagged(Roff.reference(pageName($0)), $0.abstract) }.joined()
        }
        text += Roff.section("OPTIONS") + options(spec.options + [CommandSpec.help])
        for group in spec.groups {
            text += Roff.section(group.title) + options(group.options)
        }
        if !spec.fields.isEmpty {
            text += Roff.section("FIELDS") + spec.fieldLines.map(Roff.paragraph).joined()
        }
        if !spec.examples.isEmpty {
            text += Roff.section("EXAMPLES") + examples(spec.examples)
        }
        // A subcommand's page points to its command's, and a command's to its subcommands', as gh's pages do.
        let parent = spec.section == nil ? CommandCatalog.spec(named: String(spec.name.prefix { $0 != " " })) : nil
        let related = (parent.map { [$0] } ?? []) + spec.subcommands
        text += Roff.section("SEE ALSO")
        text += related.map { Roff.reference(pageName($0)) + ",\n" }.joined()
        text += Roff.reference("gh-users") + "\n"
        return text
    }

    /// gh-users-COMMAND, and gh-users-COMMAND-SUBCOMMAND for a subcommand (gh-users-me-edit), as gh names its pages.
    static func pageName(_ spec: CommandSpec) -> String {
        "gh-users-" + spec.name.replacing(" ", with: "-")
    }

    /// The abstract as a NAME line has it: without its closing full stop.
    private static func summary(_ abstract: String) -> String {
        abstract.hasSuffix(".") ? String(abstract.dropLast()) : abstract
    }

    /// The discussion's paragraphs filled by man, and its lines kept as written kept so; the abstract when the
    /// command has no discussion.
    private static func description(_ spec: CommandSpec) -> String {
        guard let discussion = spec.discussion else { return Roff.paragraph(spec.abstract) }
        var text = ""
        var asWritten: [String] = []
        func flush() {
            guard !asWritten.isEmpty else { return }
            text += Roff.verbatim(asWritten.joined(separator: "\n"))
            asWritten = []
        }
        for block in DiscussionBlock.split(discussion) {
            switch block {
            case .paragraph(let words):
                flush()
                text += Roff.paragraph(words)
            case .gap:
                flush()
            case .asWritten(let line):
                asWritten.append(line)
            }
        }
        flush()
        return text
    }

    static func options(_ options: [OptionSpec]) -> String {
        options.map { Roff.tagged(flagLabel($0), $0.helpWithDefault) }.joined()
    }

    /// `-L, --limit N` in bold, its value's name in italics.
    private static func flagLabel(_ option: OptionSpec) -> String {
        let long = Roff.bold("--" + option.name) + (option.valueName.map { " " + Roff.italic($0) } ?? "")
        return option.short.map { Roff.bold("-\($0)") + ", " + long } ?? long
    }

    /// Examples as help prints them, each comment above its command, a long command continued with `\`.
    static func examples(_ examples: [(command: String, comment: String)]) -> String {
        var lines = HelpRenderer.examples(examples, width: verbatimWidth)
        if lines.hasSuffix("\n") { lines.removeLast() }
        return Roff.verbatim(lines)
    }
}
