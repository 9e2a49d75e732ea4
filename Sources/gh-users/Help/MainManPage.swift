/// gh-users(1): the commands, each with a pointer to its own page, the global options, each option group once,
/// the help topics (formats, environment, exit status) and the examples of `gh-users --help`.
extension ManPageRenderer {
    /// One option group as gh-users(1) describes it: every option any command takes under its title, and the
    /// commands that take it.
    struct SharedGroup: Equatable {
        let title: String
        let options: [OptionSpec]
        let commands: [String]
    }

    static func mainPage(version: String, date: String) -> String {
        let specs = CommandCatalog.specs
        var text = Roff.header(title: "gh-users", version: version, date: date)
        text += Roff.section("NAME") + Roff.escape("gh-users - " + HelpRenderer.tagline) + "\n"
        text += Roff.section("SYNOPSIS")
        text += Roff.verbatim(
            [HelpRenderer.usage, CommandCatalog.helpSpec.usage, "gh-users --version"].joined(separator: "\n"))
        text += Roff.section("DESCRIPTION")
        text += Roff.paragraph(
            "gh-users: \(HelpRenderer.tagline). Each command has its own page, gh-users-COMMAND(1), which says "
                + "what 'gh-users COMMAND --help' says: its options, and each option group it takes. The groups "
                + "are described once below, with the commands that take them.")
        for (section, listed) in CommandCatalog.sections {
            text += Roff.section(section.rawValue)
            text += listed.map { Roff.tagged(Roff.reference(pageName($0)), $0.abstract) }.joined()
        }
        text += Roff.section("GLOBAL OPTIONS")
        text += HelpRenderer.globalOptions.map { Roff.tagged(Roff.bold($0.label), $0.text) }.joined()
        for group in sharedGroups(specs) {
            text += Roff.section(group.title)
            text += Roff.paragraph("Taken by: " + group.commands.joined(separator: ", ") + ".")
            // A command may take an option of the same name among its own, with records or words of its own.
            let names = Set(group.options.map(\.name))
            let alike = specs.filter { spec in
                !group.commands.contains { $0 == spec.name || $0.hasPrefix(spec.name + " (") }
                    && spec.options.contains { names.contains($0.name) }
            }.map { spec in
                spec.name + " ("
                    + spec.options.filter { names.contains($0.name) }.map { "--" + $0.name }
                    .joined(separator: ", ") + ")"
            }
            if !alike.isEmpty {
                text += Roff.paragraph(
                    "Among their own options, as their pages describe: " + alike.joined(separator: ", ") + ".")
            }
            text += options(group.options)
        }
        text += Roff.section("FIELDS")
        text += Roff.paragraph(
            "--fields takes GitHub's key names for a command's records: its page, gh-users-COMMAND(1), lists them "
                + "under FIELDS, as its --help does.")
        for name in ["formats", "environment", "exit-codes"] {
            guard let topic = HelpTopics.topic(name) else { continue }
            text += Roff.section(topic.heading)
            text += topic.rows.map { Roff.tagged(Roff.bold($0.label), $0.text) }.joined()
            text += topic.notes.map(Roff.paragraph).joined()
        }
        text += Roff.section("EXAMPLES") + examples(HelpRenderer.topLevelExamples)
        text += Roff.section("SEE ALSO")
        let pages = CommandCatalog.allSpecs.map(pageName) + ["gh", "jq"]
        text +=
            pages.enumerated().map { index, page in
                Roff.reference(page) + (index < pages.count - 1 ? "," : "")
            }.joined(separator: "\n") + "\n"
        return text
    }

    /// Each group title once, the groups most commands take first. An option that commands word for their own
    /// items (`--limit`: "Stop after N repositories") is given the words they share, with "items" for the rest.
    static func sharedGroups(_ specs: [CommandSpec]) -> [SharedGroup] {
        var titles: [String] = []
        // Each command that takes the group, with the options of it that it takes.
        var commands: [String: [(name: String, options: [String])]] = [:]
        var optionNames: [String: [String]] = [:]
        var variants: [String: [OptionSpec]] = [:]
        for spec in specs {
            for group in spec.groups {
                if commands[group.title] == nil { titles.append(group.title) }
                commands[group.title, default: []].append((spec.name, group.options.map(\.name)))
                for option in group.options {
                    let key = group.title + " --" + option.name
                    if variants[key] == nil { optionNames[group.title, default: []].append(option.name) }
                    variants[key, default: []].append(option)
                }
            }
        }
        let mostTakenFirst = titles.enumerated().sorted { left, right in
            let (leftCount, rightCount) = (commands[left.element]?.count ?? 0, commands[right.element]?.count ?? 0)
            return leftCount != rightCount ? leftCount > rightCount : left.offset < right.offset
        }.map(\.element)
        return mostTakenFirst.map { title in
            let options = (optionNames[title] ?? []).compactMap { name -> OptionSpec? in
                guard let each = variants[title + " --" + name], let first = each.first else { return nil }
                let defaults = each.compactMap(\.defaultValue)
                return OptionSpec(
                    first.name, short: first.short, value: first.valueName,
                    help: commonWording(each.map(\.help)),
                    default: defaults.isEmpty ? nil : commonWording(defaults),
                    choices: first.choices, path: first.path)
            }
            // A command that takes only some of the group (`cache`: not --fields) names those it takes.
            let takers = (commands[title] ?? []).map { taker in
                taker.options.count == options.count
                    ? taker.name : taker.name + " (" + taker.options.map { "--" + $0 }.joined(separator: ", ") + ")"
            }
            return SharedGroup(title: title, options: options, commands: takers)
        }
    }

    /// The words all `texts` begin and end with, and "items" for the words between, where they differ.
    static func commonWording(_ texts: [String]) -> String {
        guard let first = texts.first, texts.contains(where: { $0 != first }) else { return texts.first ?? "" }
        let words = texts.map { $0.split(separator: " ") }
        let shortest = words.map(\.count).min() ?? 0
        var prefix = 0
        while prefix < shortest, words.allSatisfy({ $0[prefix] == words[0][prefix] }) { prefix += 1 }
        let backwards = words.map { Array($0.reversed()) }
        var suffix = 0
        while suffix < shortest - prefix, backwards.allSatisfy({ $0[suffix] == backwards[0][suffix] }) { suffix += 1 }
        // One text is another with words added: the shorter one is true of them all.
        if prefix + suffix == shortest, let shorter = texts.min(by: { $0.count < $1.count }) { return shorter }
        let middle: Substring = prefix == 0 ? "Items" : "items"
        return (words[0].prefix(prefix) + [middle] + words[0].suffix(suffix)).joined(separator: " ")
    }
}
