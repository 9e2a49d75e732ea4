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

            ENVIRONMENT
              GH_TOKEN, GITHUB_TOKEN   token sent as 'Authorization: Bearer' (GH_ENTERPRISE_TOKEN first for other hosts)
              GH_USERS_API_URL         API root, as --api-url
              GH_HOST                  a GitHub Enterprise host: https://HOST/api/v3
              XDG_CACHE_HOME           the response cache is in $XDG_CACHE_HOME/gh-users (else ~/.cache/gh-users)
              GH_USERS_CACHE_SIZE      the cache's size bound (default 100MB)
              GH_USERS_LOG_LEVEL       as --log-level
              NO_COLOR, CLICOLOR_FORCE colour off, or on even when piped

            EXIT STATUS
              0 success, 1 failure, 3 not found, 4 authentication, 5 rate limited, 64 usage, 130 interrupted

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
        if !spec.examples.isEmpty {
            text += "\nEXAMPLES\n"
            for example in spec.examples {
                text += "  # \(example.comment)\n  $ \(example.command)\n"
            }
        }
        return text
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
