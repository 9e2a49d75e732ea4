import Foundation

/// Help text, built from the same specs the scanner uses so that it cannot drift from what is accepted.
enum HelpRenderer {
    static func topLevel() -> String {
        var text = """
            gh-users: look up GitHub accounts from the command line.

            USAGE
              gh-users <command> [options]

            COMMANDS

            """
        let width = CommandCatalog.commands.map(\.name.count).max() ?? 0
        for command in CommandCatalog.commands {
            text +=
                "  " + command.name.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + command.abstract
                + "\n"
        }
        text += """

            OPTIONS
              --version    Print the version.
              -h, --help   Show this help. Every command takes --help too.

            EXAMPLES
              gh-users list --limit 5
              gh-users show octocat --json
              gh-users list --all --format ndjson | jq -r .login
              gh-users show octocat --offline            # from the cache, no network

            TOPICS
              gh-users help formats       table, tsv, csv, json, ndjson and --fields
              gh-users help environment   tokens, hosts, cache, colour
              gh-users help exit-codes    what each exit status means

            Run 'gh-users help <command>' for more about a command.

            """
        return text
    }

    static func render(_ spec: CommandSpec) -> String {
        var text = "\(spec.abstract)\n\nUSAGE\n  \(spec.usage)\n"
        if let discussion = spec.discussion {
            text +=
                "\n"
                + discussion.split(separator: "\n", omittingEmptySubsequences: false)
                .map { $0.isEmpty ? "" : "  " + $0 }.joined(separator: "\n") + "\n"
        }
        if !spec.arguments.isEmpty {
            text += "\nARGUMENTS\n"
            let width = spec.arguments.map(\.name.count).max() ?? 0
            for argument in spec.arguments {
                text +=
                    "  " + argument.name.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + argument.help
                    + "\n"
            }
        }
        if !spec.options.isEmpty {
            text += "\nOPTIONS\n" + optionLines(spec.options)
        }
        text += "\nGLOBAL OPTIONS\n" + optionLines(CommandSpec.globalOptions)
        if !spec.fields.isEmpty {
            text += "\nFIELDS\n" + wrap(spec.fields.joined(separator: ", "), indent: 2, width: 100) + "\n"
        }
        if !spec.examples.isEmpty {
            text += "\nEXAMPLES\n"
            for example in spec.examples {
                text += "  # \(example.comment)\n  $ \(example.command)\n"
            }
        }
        return text
    }

    private static func wrap(_ text: String, indent: Int, width: Int) -> String {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty, line.count + 1 + word.count > width - indent {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        if !line.isEmpty { lines.append(line) }
        let pad = String(repeating: " ", count: indent)
        return lines.map { pad + $0 }.joined(separator: "\n")
    }

    private static func optionLines(_ options: [OptionSpec]) -> String {
        let width = options.map(\.flagText.count).max() ?? 0
        var text = ""
        for option in options {
            var line = "  " + option.flagText.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + option.help
            if let defaultValue = option.defaultValue { line += " (default: \(defaultValue))" }
            text += line + "\n"
        }
        return text
    }
}
