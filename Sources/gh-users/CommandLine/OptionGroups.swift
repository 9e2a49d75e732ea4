import AtomicCore
import AtomicLogger
import Data
import Domain

/// What the shared option groups decided, validated. A command that does not take a group keeps its defaults.
struct CommonOptions: Sendable, Equatable {
    /// nil: table on a terminal, tsv otherwise.
    var format: OutputFormat?
    var color: ColorChoice = .auto
    /// `--fields`, in the order given, without repeats; checked against the command's fields.
    var fields: [String]?
    var apiURL: String?
    var tokenFile: String?
    /// Seconds for one attempt of a request.
    var timeout: Double = 30
    var retries = 3
    var waitOnRateLimit = false
    /// Seconds any rate-limit wait may last; a longer one is not started, and the run stops with status 5.
    /// Unless `--max-wait` says otherwise: 900, or with `--wait-on-rate-limit` an hour and a minute, so that
    /// a core limit's reset (at most an hour away) is always waited for.
    var maxWait: Double = CommonOptions.defaultMaxWait(waitOnRateLimit: false)
    var cacheMode: CacheMode = .readWrite
    /// Whether a cached copy may answer where the network cannot be reached (`CacheSettings.copiesAnswer`): not
    /// for `--changes`, as the router decides.
    var copiesAnswer = true
    /// Whether GraphQL profile queries ask `email`: not when `--fields` leaves it out, as the router decides.
    var asksProfileEmail = true
    var cacheDirectory: String?
    var logLevel: LogLevel?
    var debug = false

    static let maximumRetries = 10

    /// Whether a `--token-file` path names something a rerun can read: not a descriptor the shell made for this
    /// run alone (`<(cmd)` gives /dev/fd/63), which is gone when it ends. Standard input can be given again.
    static func canBeReadAgain(tokenFile path: String) -> Bool {
        FileDescriptorIO.descriptor(namedBy: path).map { $0.number <= 2 } ?? true
    }

    /// The line that goes with a resume hint when `arguments` left a `--token-file` out, since a rerun cannot
    /// read it again; nil when there is none to say.
    static func tokenFileNote(_ options: CommonOptions) -> String? {
        guard let file = options.tokenFile, !canBeReadAgain(tokenFile: file) else { return nil }
        return "The token came from \(ShellWord.quote(file)), which cannot be read again: give it again, with "
            + "--token-file or GH_TOKEN (GH_ENTERPRISE_TOKEN for a GitHub Enterprise host)."
    }

    static func defaultMaxWait(waitOnRateLimit: Bool) -> Double {
        waitOnRateLimit ? 3660 : 900
    }

    /// The longest `--max-wait` may be: a week.
    static let longestMaxWait: Double = 86_400 * 7

    /// The groups that set these values, in the order the scanner reads them.
    static let groups = [OutputGroup.declared, NetworkGroup.declared, CacheGroup.declared, LoggingGroup.declared]

    /// The options that shape what a rerun prints and where it looks, as command-line words; left out when
    /// they are the defaults, and never the diagnostics, nor a `--token-file` that cannot be read again.
    static func arguments(_ options: CommonOptions) -> [String] {
        groups.flatMap { $0.arguments(options) }
    }
}

extension CommonOptions: OptionValues {}

/// `--format`, `--json`, `--fields`, `--color`: for every command that writes records.
extension ParsedArguments {
    /// The names `--fields` gives, in order, each trimmed; nil without `--fields`, and when it is given twice:
    /// `OutputGroup` refuses that, and no check of one of the two lists (a profile's field, a change's) may
    /// speak first.
    var chosenFields: [String]? {
        guard values(OutputGroup.fields.spec).count < 2 else { return nil }
        return value(OutputGroup.fields).map {
            $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        }
    }
}

extension String {
    /// The field a `--fields` name is, or the field a path goes into (`repo` of `repo.full_name`).
    var fieldRoot: String { String(prefix { $0 != "." }) }
}

enum OutputGroup {
    static let format = OptionDeclaration<CommonOptions>.value(
        OptionSpec(
            "format",
            value: "FORMAT",
            help: "Output format: table, tsv, csv, json or ndjson.",
            default: "table on a terminal, tsv when piped",
            choices: OutputFormat.allCases.map(\.rawValue)
        ),
        at: \.format,
        parse: { reading throws(UsageError) in try reading.choice(OutputFormat.self) },
        resume: { $0?.rawValue }
    )
    static let json = OptionDeclaration<CommonOptions>.flag(
        "json", help: "Short for --format json.",
        apply: { options, reading throws(UsageError) in
            if let chosen = options.format, chosen != .json {
                throw reading.usageError("--json and --format \(chosen.rawValue) cannot be used together")
            }
            options.format = .json
        })
    static let fields = OptionDeclaration<CommonOptions>.value(
        OptionSpec(
            "fields", value: "LIST",
            help: "Comma-separated fields to output, by GitHub's key names (a command's FIELDS lists them)."),
        at: \.fields,
        parse: { reading throws(UsageError) in try parseFields(reading) },
        resume: { $0?.joined(separator: ",") }
    )
    static let color = OptionDeclaration<CommonOptions>.value(
        OptionSpec(
            "color",
            value: "WHEN",
            help: "Colour output: auto, always or never (NO_COLOR, CLICOLOR and CLICOLOR_FORCE are honoured).",
            choices: ColorChoice.allCases.map(\.rawValue)
        ),
        at: \.color,
        parse: { reading throws(UsageError) in try reading.choice(ColorChoice.self) },
        resume: { $0.rawValue }
    )

    static let declared = GroupDeclaration(title: "OUTPUT OPTIONS", options: [format, json, fields, color])
    static let group = declared.group
    /// `cache info` has no records to choose fields of.
    static let withoutFields = declared.group(only: [format.name, json.name, color.name])

    /// The fields asked for, each once: a script counts its columns from what it gave, so a field named twice,
    /// or a second `--fields` (which would replace the first, or add to it, as the reader guesses), is refused.
    private static func parseFields(_ reading: OptionReading) throws(UsageError) -> [String] {
        let spec = reading.command
        guard reading.parsed.values(reading.option).count < 2 else {
            throw UsageError(
                message: "--fields is given more than once: give every field in one comma-separated list, "
                    + "such as --fields login,id",
                command: spec)
        }
        var chosen: [String] = []
        for field in reading.text.split(separator: ",", omittingEmptySubsequences: false) {
            let name = field.trimmingCharacters(in: .whitespaces)
            guard !name.isEmpty else {
                throw UsageError(message: "--fields needs comma-separated field names, such as login,id", command: spec)
            }
            guard !chosen.contains(name) else {
                throw UsageError(message: "--fields names '\(name)' twice: each field is one column", command: spec)
            }
            // A path with an empty step (`actor.`, `actor..login`) goes into nothing GitHub sends.
            if name.contains("."),
                name.split(separator: ".", omittingEmptySubsequences: false).contains(where: \.isEmpty)
            {
                throw UsageError(
                    message: "--fields '\(name)' has an empty step: a path names a key at each dot, such as "
                        + "repo.full_name", command: spec)
            }
            chosen.append(name)
        }
        // A path into one of GitHub's objects (`repo.full_name`), as a csv header names it, is a field too. A
        // field that only an option's records have is the option's to check.
        let fields = spec.anyFields
        let known = { (name: String) in
            fields.contains(name) || (name.contains(".") && fields.contains(name.fieldRoot))
        }
        if let unknown = chosen.first(where: { !known($0) }) {
            var message = "unknown field '\(unknown)' for \(spec.name)"
            if let suggestion = Suggestions.nearest(to: unknown, among: fields) {
                message += "; did you mean '\(suggestion)'?"
            }
            message += "\n" + UsageError.filled("Valid fields: ", spec.fieldLines)
            throw UsageError(message: message, command: spec)
        }
        if spec.holdsOwnRecords { try refusePaths(chosen, spec: spec) }
        return chosen
    }

    /// A path into a field of records whose fields are all plain values or lists would be a blank column. A path
    /// into no field at all (`nope.x`, `.x`) is the unknown field's to say.
    static func refusePaths(_ chosen: [String], spec: CommandSpec) throws(UsageError) {
        guard let path = chosen.first(where: { $0.contains(".") && spec.anyFields.contains($0.fieldRoot) }) else {
            return
        }
        let top = path.fieldRoot
        throw UsageError(
            message: "--fields \(path): \(spec.name)'s field '\(top)' is a plain value or a list, which a path "
                + "cannot go into; --fields \(top) writes it whole",
            command: spec)
    }
}

/// Host, token and how hard to try: for every command that talks to GitHub.
enum NetworkGroup {
    static let apiURL = OptionDeclaration<CommonOptions>.value(
        OptionSpec(
            "api-url",
            value: "URL",
            help: "API root to talk to (or GH_USERS_API_URL; GH_HOST means https://HOST/api/v3).",
            default: "https://api.github.com"
        ),
        at: \.apiURL,
        parse: { $0.text },
        resume: { $0 }
    )
    static let tokenFile = OptionDeclaration<CommonOptions>.value(
        OptionSpec(
            "token-file",
            value: "PATH",
            help: "Read the token from this file (before GH_TOKEN and GITHUB_TOKEN); keep it private (chmod 600).",
            path: .file
        ),
        at: \.tokenFile,
        parse: { reading throws(UsageError) in try reading.oneFile() },
        // A rerun cannot read what the shell made for this run alone.
        resume: { path in path.flatMap { CommonOptions.canBeReadAgain(tokenFile: $0) ? $0 : nil } }
    )
    static let timeout = OptionDeclaration<CommonOptions>.value(
        OptionSpec(
            "timeout",
            value: "SECONDS",
            help:
                "Give up on one attempt of a request after this long (at most a day); it counts as a failure to retry."
        ),
        at: \.timeout,
        parse: { reading throws(UsageError) in
            try reading.seconds(
                where: { $0 > 0 && $0 <= 86_400 },
                rule: "a decimal number of seconds above 0 (30, 2.5), at most 86400 (a day)")
        },
        resume: OptionReading.secondsText
    )
    static let retries = OptionDeclaration<CommonOptions>.value(
        OptionSpec(
            "retries",
            value: "N",
            help: "Retry a failed request up to N times (0 to 10): connection failures, timeouts, cut-off answers, "
                + "HTTP 500/502/503/504 and secondary rate limits, with exponential backoff and jitter."
        ),
        at: \.retries,
        parse: { reading throws(UsageError) in
            let maximum = CommonOptions.maximumRetries
            return try reading.number(in: 0...Int64(maximum), rule: "a whole number from 0 to \(maximum)")
        },
        resume: { String($0) }
    )
    static let waitOnRateLimit = OptionDeclaration<CommonOptions>.flag(
        "wait-on-rate-limit",
        help: "When the rate limit is spent, wait for its reset (a minute when GitHub names none) and carry on "
            + "instead of exiting with status 5; for at most --max-wait.",
        apply: { options, _ in
            options.waitOnRateLimit = true
            options.maxWait = CommonOptions.defaultMaxWait(waitOnRateLimit: true)
        },
        resumedWhen: { $0.waitOnRateLimit }
    )
    static let maxWait = OptionDeclaration<CommonOptions>.value(
        OptionSpec(
            "max-wait",
            value: "SECONDS",
            help: "The longest any rate-limit wait may last (a reset, a secondary limit's Retry-After or minute; "
                + "at most a week); a longer one is not started: the run stops with status 5 and the time to retry.",
            default: "900; 3660 with --wait-on-rate-limit"
        ),
        at: \.maxWait,
        parse: { reading throws(UsageError) in
            try reading.seconds(
                where: { $0 >= 0 && $0 <= CommonOptions.longestMaxWait },
                rule: "a decimal number of seconds from 0 to a week")
        },
        resume: OptionReading.secondsText,
        isDefault: { seconds, options in
            seconds == CommonOptions.defaultMaxWait(waitOnRateLimit: options.waitOnRateLimit)
        }
    )

    static let declared = GroupDeclaration(
        title: "NETWORK OPTIONS", options: [apiURL, tokenFile, timeout, retries, waitOnRateLimit, maxWait])
    static let group = declared.group
}

/// How the response cache is used, and where it lives.
enum CacheGroup {
    static let noCache = OptionDeclaration<CommonOptions>.flag(
        "no-cache", help: "Neither read nor write the response cache.",
        apply: { options, _ in options.cacheMode = .disabled },
        resumedWhen: { $0.cacheMode == .disabled }
    )
    static let offline = OptionDeclaration<CommonOptions>.flag(
        "offline",
        help: "Answer from the response cache only, without touching the network; what is not cached fails.",
        apply: { options, reading throws(UsageError) in
            if reading.parsed.has(noCache) {
                throw reading.usageError("--no-cache and --offline cannot be used together")
            }
            options.cacheMode = .offline
        },
        resumedWhen: { $0.cacheMode == .offline }
    )
    static let cacheDir = OptionDeclaration<CommonOptions>.value(
        OptionSpec(
            "cache-dir",
            value: "DIR",
            help: "Where the response cache lives.",
            default: "$XDG_CACHE_HOME/gh-users, else ~/.cache/gh-users",
            path: .directory
        ),
        at: \.cacheDirectory,
        parse: { reading throws(UsageError) in
            guard !reading.text.isEmpty else { throw reading.usageError("--cache-dir needs a directory") }
            return reading.text
        },
        resume: { $0 }
    )

    static let declared = GroupDeclaration(title: "CACHE OPTIONS", options: [noCache, offline, cacheDir])
    static let group = declared.group
    /// `cache info|clear` only needs to know where the cache is.
    static let location = declared.group(only: [cacheDir.name])
}

/// What is logged on stderr while a command talks to GitHub. Diagnostics, so a resume hint never repeats them.
enum LoggingGroup {
    static let verbose = OptionDeclaration<CommonOptions>.flag(
        "verbose",
        help: "Log each request on stderr: method, path, status, and whether the cache answered (same as --log-level "
            + "info).",
        apply: { options, _ in options.logLevel = .info }
    )
    static let logLevel = OptionDeclaration<CommonOptions>.value(
        OptionSpec(
            "log-level",
            value: "LEVEL",
            help: "Log level on stderr: trace, debug, info, notice, warning or error (or GH_USERS_LOG_LEVEL).",
            default: "warning",
            choices: LogLevel.allCases.map(\.name)
        ),
        at: \.logLevel,
        parse: { reading throws(UsageError) in
            guard let level = LogLevel(name: reading.text) else {
                throw .invalidChoice(reading.option, reading.text, spec: reading.command)
            }
            return level
        },
        resume: nil
    )
    static let debug = OptionDeclaration<CommonOptions>.flag(
        "debug", help: "Trace every HTTP request and response on stderr (the token is never shown).",
        apply: { options, _ in
            options.debug = true
            options.logLevel = min(options.logLevel ?? .debug, .debug)
        }
    )

    static let declared = GroupDeclaration(title: "LOGGING OPTIONS", options: [verbose, logLevel, debug])
    static let group = declared.group
}
