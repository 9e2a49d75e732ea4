import AtomicCore

/// Help text, built from the same specs the scanner uses so that it cannot drift from what is accepted, and
/// wrapped as swift-argument-parser and `gh` wrap it: to the terminal's width (80 when not a terminal), with
/// a hanging indent under each option's name.
enum HelpRenderer {
    /// The widest an option or argument name column grows; a longer name puts its help on the next line.
    static let labelColumn = 24

    static func render(_ request: HelpRequest, width: Int) -> String {
        switch request {
        case .topLevel:
            return topLevel(width: width)
        case .topic(let name):
            return HelpTopics.text(name, width: width) ?? topLevel(width: width)
        case .command(let name):
            return CommandCatalog.spec(named: name).map { render($0, width: width) } ?? topLevel(width: width)
        }
    }

    /// What gh-users is, as `--help` and gh-users(1) say it.
    static let tagline = "look up GitHub accounts from the command line"
    static let usage = "gh-users <command> [options]"

    /// The options that stand alone, before any command.
    static let globalOptions: [(label: String, text: String)] = [
        ("--version", CommandRouter.version.help),
        ("-h, --help", "Show this help; after a command, that command's."),
    ]

    /// The examples of gh-users(1); top-level help leaves them to each command's help, to stay one screen.
    static let topLevelExamples: [(command: String, comment: String)] = [
        ("gh-users list --limit 5", "The first five accounts GitHub ever made."),
        ("gh-users show octocat --json", "One profile, as GitHub's JSON."),
        ("gh-users list --all --format ndjson | jq -r .login", "Every login, streamed."),
        ("gh-users show octocat --offline", "From the cache, without the network."),
    ]

    /// One screen (at most 60 lines at 80 columns): each command on a line of its own under its section, the
    /// global options, and one line that names every topic.
    static func topLevel(width: Int) -> String {
        let specs = CommandCatalog.specs
        var text = "gh-users: \(tagline).\n\nUSAGE\n  \(usage)\n"
        // One column for every section, so that the sections read as one list.
        let widest = specs.map { DisplayWidth.of($0.name) }.max() ?? 0
        let room = width - min(widest, labelColumn) - 4
        for (section, listed) in CommandCatalog.sections {
            text += "\n\(section.rawValue)\n"
            text += labelled(listed.map { ($0.name, summary($0.abstract, room: room)) }, width: width, atLeast: widest)
        }
        text += "\nGLOBAL OPTIONS\n" + labelled(globalOptions, width: width)
        let topics = (["<command>"] + HelpTopics.names).joined(separator: " | ")
        text += "\n" + fill("More: gh-users help \(topics)", indent: 0, width: width) + "\n"
        return text
    }

    /// A command's abstract as top-level help lists it: without the request it makes ("(GET /users)"), and when
    /// that is still wider than `room`, up to its first comma.
    static func summary(_ abstract: String, room: Int) -> String {
        var text = ""
        var depth = 0
        for character in abstract {
            if character == "(" { depth += 1 }
            if depth == 0 { text.append(character) }
            if character == ")" { depth = max(0, depth - 1) }
        }
        text = text.replacing("  ", with: " ").replacing(" .", with: ".").replacing(" ,", with: ",")
        if DisplayWidth.of(text) > room, let comma = text.firstIndex(of: ",") {
            text = String(text[..<comma]) + "."
        }
        return text
    }

    /// The groups of options many commands take, described once by `gh-users help options`: a command's help
    /// names them on one line rather than repeating them. A command that takes part of a group (`cache`'s output
    /// options without --fields) lists its part as its own.
    static let sharedGroups: [OptionGroup] = [
        PagingGroup.declared.group, ProfileGroup.group, OutputGroup.group, NetworkGroup.group, CacheGroup.group,
        LoggingGroup.group,
    ]

    /// Whether help names `group` on the shared line instead of listing it.
    static func isShared(_ group: OptionGroup) -> Bool {
        sharedGroups.contains { $0.title == group.title && $0.options.map(\.name) == group.options.map(\.name) }
    }

    /// A shared group as the shared line names it: `paging` for PAGING OPTIONS.
    static func shortName(_ group: OptionGroup) -> String {
        group.title.replacing(" OPTIONS", with: "").lowercased()
    }

    /// The most lines a command's help takes, at any width: one screen.
    static let maximumLines = 50

    /// A command's help: what it does, its usage, arguments and options (its own, and the groups only it or a
    /// few take), a line naming the shared groups it takes, its fields and examples. Its discussion is given
    /// paragraph by paragraph, the last one given sentence by sentence, while the help stays within
    /// `maximumLines`; what does not fit is left to its man page (which has everything), and a line says so.
    static func render(_ spec: CommandSpec, width: Int) -> String {
        let head =
            fill(spec.abstract, indent: 0, width: width) + "\n\nUSAGE\n"
            + fillUsage(spec.usage, indent: 2, hanging: 4, width: width) + "\n"
        let tail = sections(spec, width: width)
        guard let discussion = spec.discussion else { return head + tail }
        let pointer = fill("More in 'man \(ManPageRenderer.pageName(spec))'.", indent: 2, width: width) + "\n"
        var room = maximumLines - lineCount(head + tail) - 1 - lineCount(pointer)
        let all = discussion.components(separatedBy: "\n\n")
        var kept: [String] = []
        for paragraph in all {
            let gap = kept.isEmpty ? 0 : 1
            let cost = lineCount(paragraphs(paragraph, width: width)) + gap
            if cost <= room {
                room -= cost
                kept.append(paragraph)
                continue
            }
            var taken = ""
            for sentence in sentences(paragraph) {
                let candidate = taken.isEmpty ? sentence : taken + " " + sentence
                guard lineCount(paragraphs(candidate, width: width)) + gap <= room else { break }
                taken = candidate
            }
            if !taken.isEmpty { kept.append(taken) }
            break
        }
        let shown = kept.isEmpty ? "" : paragraphs(kept.joined(separator: "\n\n"), width: width)
        return head + "\n" + shown + (kept == all ? "" : pointer) + tail
    }

    /// A paragraph's sentences, each ending at a full stop before a word that starts one (not a lowercase
    /// letter); a paragraph with lines kept as written is one sentence.
    private static func sentences(_ paragraph: String) -> [String] {
        let lines = paragraph.split(separator: "\n")
        guard !lines.contains(where: { $0.hasPrefix(" ") }) else { return [paragraph] }
        let words = lines.joined(separator: " ").split(separator: " ")
        var sentences: [String] = []
        var current: [Substring] = []
        for (index, word) in words.enumerated() {
            current.append(word)
            let next = index + 1 < words.count ? words[index + 1].first : nil
            if word.hasSuffix("."), next.map({ !$0.isLowercase }) ?? true {
                sentences.append(current.joined(separator: " "))
                current = []
            }
        }
        if !current.isEmpty { sentences.append(current.joined(separator: " ")) }
        return sentences
    }

    private static func lineCount(_ text: String) -> Int {
        text.count { $0 == "\n" }
    }

    /// Everything after the discussion.
    private static func sections(_ spec: CommandSpec, width: Int) -> String {
        var text = ""
        if !spec.arguments.isEmpty {
            text += "\nARGUMENTS\n" + labelled(spec.arguments.map { ($0.name, $0.help) }, width: width)
        }
        if !spec.subcommands.isEmpty {
            text += "\nCOMMANDS\n" + labelled(spec.subcommands.map { ($0.word, $0.abstract) }, width: width)
        }
        // A group only this command or a few take (--changes, cache's part of the output options) is read as
        // its own options.
        let own = spec.groups.filter { !isShared($0) }.flatMap(\.options)
        text += "\nOPTIONS\n" + optionLines(spec.options + own + [CommandSpec.help], width: width)
        let shared = spec.groups.filter(isShared).map(shortName)
        if !shared.isEmpty {
            text += "\nSHARED OPTIONS\n"
            text += fill(
                shared.joined(separator: ", ") + ": gh-users help options", indent: 2, hanging: 4, width: width)
            text += "\n"
        }
        if !spec.fields.isEmpty {
            // An option's line runs on under itself, so its fields do not read as the command's own.
            let lines = spec.fieldLines.enumerated().map { index, line in
                fill(line, indent: 2, hanging: index == 0 ? 2 : 4, width: width) + "\n"
            }
            text += "\nFIELDS\n" + lines.joined()
        }
        if !spec.examples.isEmpty {
            text += "\nEXAMPLES\n" + examples(spec.examples, width: width)
        }
        return text
    }

    static func optionLines(_ options: [OptionSpec], width: Int) -> String {
        labelled(options.map { ($0.flagText, $0.helpWithDefault) }, width: width)
    }

    /// Two columns: a label, and its text wrapped under itself. A label too wide for the column stands alone.
    /// `atLeast` aligns the text as if a label that wide were among the rows.
    static func labelled(
        _ rows: [(label: String, text: String)], width: Int, column widest: Int = labelColumn, atLeast: Int = 0
    ) -> String {
        var column = min(widest, max(atLeast, rows.map { DisplayWidth.of($0.label) }.max() ?? 0))
        // On a narrow terminal the text gets the room: every label stands alone, the text below it, deeper than
        // the longest option's indent (6), so a label does not read as the text's first line.
        if width - column - 4 < 30 { column = 0 }
        let indent = column == 0 ? 8 : 2 + column + 2
        var text = ""
        for row in rows {
            let label = "  " + row.label
            if DisplayWidth.of(row.label) > column {
                text += label + "\n" + fill(row.text, indent: indent, width: width) + "\n"
            } else {
                let body = fill(row.text, indent: indent, width: width)
                text += DisplayWidth.pad(label, toWidth: indent) + body.dropFirst(indent) + "\n"
            }
        }
        return text
    }

    /// Each example as its comment and the command; a long command is continued with `\` so it stays runnable.
    static func examples(_ examples: [(command: String, comment: String)], width: Int) -> String {
        var text = ""
        for (command, comment) in examples {
            // Every line of a comment keeps its `#`, so a block copied from the help stays runnable.
            let lines = fill(comment, indent: 4, width: width).split(separator: "\n", omittingEmptySubsequences: false)
            text += lines.map { "  # " + $0.dropFirst(4) }.joined(separator: "\n") + "\n"
            text += continued("$ " + command, width: width) + "\n"
        }
        return text
    }

    private static func continued(_ command: String, width: Int) -> String {
        var lines: [String] = []
        var line = "  "
        for word in command.split(separator: " ", omittingEmptySubsequences: false) {
            let candidate = line.trimmingCharacters(in: .whitespaces).isEmpty ? line + word : line + " " + word
            if DisplayWidth.of(candidate) + 2 > width, !line.trimmingCharacters(in: .whitespaces).isEmpty {
                lines.append(line + " \\")
                line = "      " + word
            } else {
                line = candidate
            }
        }
        lines.append(line)
        return lines.joined(separator: "\n")
    }

    /// Discussion text: paragraphs are re-filled to the width; lines that start with a space are kept as written
    /// (install snippets, tables), indented like the rest.
    private static func paragraphs(_ text: String, width: Int) -> String {
        DiscussionBlock.split(text).map { block in
            switch block {
            case .gap: "\n"
            case .paragraph(let words): fill(words, indent: 2, width: width) + "\n"
            case .asWritten(let line): "  " + line + "\n"
            }
        }.joined()
    }

    /// Words filled to `width`, the first line indented by `indent` and the rest by `hanging`.
    static func fill(_ text: String, indent: Int, hanging: Int? = nil, width: Int) -> String {
        fill(words: text.split(separator: " ").map(String.init), indent: indent, hanging: hanging, width: width)
    }

    /// A usage line filled to `width` without breaking inside a bracketed group (`[--limit N | --all]`).
    static func fillUsage(_ usage: String, indent: Int, hanging: Int, width: Int) -> String {
        var groups: [String] = []
        var depth = 0
        for word in usage.split(separator: " ") {
            if depth > 0, let last = groups.popLast() {
                groups.append(last + " " + word)
            } else {
                groups.append(String(word))
            }
            depth += word.count { $0 == "[" || $0 == "(" } - word.count { $0 == "]" || $0 == ")" }
            depth = max(depth, 0)
        }
        // On a narrow terminal a group wider than a line is broken after all, rather than overflow.
        let words = groups.flatMap { group in
            DisplayWidth.of(group) > width - hanging ? group.split(separator: " ").map(String.init) : [group]
        }
        return fill(words: words, indent: indent, hanging: hanging, width: width)
    }

    private static func fill(words: [String], indent: Int, hanging: Int?, width: Int) -> String {
        let next = hanging ?? indent
        var lines: [String] = []
        var line = String(repeating: " ", count: indent)
        var lineHasWord = false
        for word in words {
            let candidate = lineHasWord ? line + " " + word : line + word
            if lineHasWord, DisplayWidth.of(candidate) > width {
                lines.append(line)
                line = String(repeating: " ", count: next) + word
            } else {
                line = candidate
            }
            lineHasWord = true
        }
        lines.append(line)
        return lines.joined(separator: "\n")
    }
}

extension OptionSpec {
    /// What help says of the option: its text, and its default when it has one.
    var helpWithDefault: String { help + (defaultValue.map { " (default: \($0))" } ?? "") }
}

/// A command's discussion as help and the man page both read it: paragraphs to re-fill, the blank lines between
/// them, and lines that start with a space, kept as written (install snippets, tables).
enum DiscussionBlock: Equatable {
    case paragraph(String)
    case gap
    case asWritten(String)

    static func split(_ text: String) -> [DiscussionBlock] {
        var blocks: [DiscussionBlock] = []
        var paragraph: [Substring] = []
        func flush() {
            guard !paragraph.isEmpty else { return }
            blocks.append(.paragraph(paragraph.joined(separator: " ")))
            paragraph = []
        }
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.isEmpty {
                flush()
                blocks.append(.gap)
            } else if line.first == " " {
                flush()
                blocks.append(.asWritten(String(line)))
            } else {
                paragraph.append(line)
            }
        }
        flush()
        return blocks
    }
}
