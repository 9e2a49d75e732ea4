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

    init(
        _ name: String,
        short: Character? = nil,
        value valueName: String? = nil,
        help: String,
        default defaultValue: String? = nil,
        choices: [String] = []
    ) {
        self.name = name
        self.short = short
        self.valueName = valueName
        self.help = help
        self.defaultValue = defaultValue
        self.choices = choices
    }

    var takesValue: Bool { valueName != nil }

    var flagText: String {
        let long = "--\(name)" + (valueName.map { " \($0)" } ?? "")
        return short.map { "-\($0), " + long } ?? "    " + long
    }
}

/// A command's help and accepted options, kept beside the command's options type.
struct CommandSpec: Sendable {
    let name: String
    let abstract: String
    let usage: String
    let discussion: String?
    let arguments: [(name: String, help: String)]
    let options: [OptionSpec]
    let examples: [(command: String, comment: String)]
    /// The names `--fields` accepts for this command's records; empty when it has none.
    var fields: [String] = []

    /// Options every command accepts, after its own.
    static let globalOptions: [OptionSpec] = [
        OptionSpec(
            "format",
            value: "FORMAT",
            help: "Output format: table, tsv, csv, json or ndjson.",
            default: "table on a terminal, tsv when piped",
            choices: OutputFormat.allCases.map(\.rawValue)
        ),
        OptionSpec("json", help: "Short for --format json."),
        OptionSpec(
            "fields",
            value: "LIST",
            help: "Comma-separated fields to output, by GitHub's key names (see FIELDS below)."
        ),
        OptionSpec(
            "color",
            value: "WHEN",
            help: "Colour output: auto, always or never (NO_COLOR and CLICOLOR_FORCE are honoured).",
            default: "auto",
            choices: ["auto", "always", "never"]
        ),
        OptionSpec(
            "api-url",
            value: "URL",
            help: "API root to talk to (or GH_USERS_API_URL; GH_HOST means https://HOST/api/v3).",
            default: "https://api.github.com"
        ),
        OptionSpec(
            "token-file",
            value: "PATH",
            help: "Read the token from this file (before GH_TOKEN and GITHUB_TOKEN); keep it private (chmod 600)."
        ),
        OptionSpec(
            "timeout",
            value: "SECONDS",
            help: "Give up on one attempt of a request after this long; it counts as a failure to retry.",
            default: "30"
        ),
        OptionSpec(
            "retries",
            value: "N",
            help: "Retry a failed request up to N times (0 to 10): connection failures, timeouts, cut-off answers, "
                + "HTTP 500/502/503/504 and secondary rate limits, with exponential backoff and jitter.",
            default: "3"
        ),
        OptionSpec(
            "wait-on-rate-limit",
            help: "When the rate limit is spent, wait for its reset and carry on instead of exiting with status 5."
        ),
        OptionSpec("no-cache", help: "Neither read nor write the response cache."),
        OptionSpec(
            "offline",
            help: "Answer from the response cache only, without touching the network; what is not cached fails."
        ),
        OptionSpec(
            "cache-dir",
            value: "DIR",
            help: "Where the response cache lives.",
            default: "$XDG_CACHE_HOME/gh-users, else ~/.cache/gh-users"
        ),
        OptionSpec("verbose", help: "Log what happens on stderr (same as --log-level info)."),
        OptionSpec(
            "log-level",
            value: "LEVEL",
            help: "Log level on stderr: trace, debug, info, notice, warning or error (or GH_USERS_LOG_LEVEL).",
            default: "warning",
            choices: LogLevel.allCases.map(\.name)
        ),
        OptionSpec("debug", help: "Trace every HTTP request and response on stderr (the token is never shown)."),
        OptionSpec("help", short: "h", help: "Show help for this command."),
    ]

    var allOptions: [OptionSpec] { options + CommandSpec.globalOptions }

    func option(named name: String) -> OptionSpec? {
        allOptions.first { $0.name == name }
    }

    func option(short: Character) -> OptionSpec? {
        allOptions.first { $0.short == short }
    }
}
