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
    var cacheDirectory: String?
    var logLevel: LogLevel?
    var debug = false

    static let maximumRetries = 10

    /// Whether a `--token-file` path names something a rerun can read: not a descriptor the shell made for this
    /// run alone (`<(cmd)` gives /dev/fd/63), which is gone when it ends. Standard input can be given again.
    static func canBeReadAgain(tokenFile path: String) -> Bool {
        let parts = path.split(separator: "/", omittingEmptySubsequences: true)
        let descriptor: Substring?
        switch parts.count {
        case 3 where parts[0] == "dev" && parts[1] == "fd": descriptor = parts[2]
        case 4 where parts[0] == "proc" && parts[2] == "fd": descriptor = parts[3]
        default: descriptor = nil
        }
        guard let descriptor, let number = Int(descriptor) else { return true }
        return number <= 2
    }

    static func defaultMaxWait(waitOnRateLimit: Bool) -> Double {
        waitOnRateLimit ? 3660 : 900
    }

    /// The options that shape what a rerun prints and where it looks, as command-line words; left out when
    /// they are the defaults, and never the diagnostics, nor a `--token-file` that cannot be read again.
    static func arguments(_ options: CommonOptions) -> [String] {
        let defaults = CommonOptions()
        var words: [String] = []
        if let format = options.format { words += ["--" + OutputGroup.format.name, format.rawValue] }
        if let fields = options.fields { words += ["--" + OutputGroup.fields.name, fields.joined(separator: ",")] }
        if options.color != defaults.color { words += ["--" + OutputGroup.color.name, options.color.rawValue] }
        if let url = options.apiURL { words += ["--" + NetworkGroup.apiURL.name, url] }
        if let path = options.tokenFile, canBeReadAgain(tokenFile: path) {
            words += ["--" + NetworkGroup.tokenFile.name, path]
        }
        if options.timeout != defaults.timeout {
            let seconds =
                options.timeout.rounded() == options.timeout ? String(Int(options.timeout)) : String(options.timeout)
            words += ["--" + NetworkGroup.timeout.name, seconds]
        }
        if options.retries != defaults.retries { words += ["--" + NetworkGroup.retries.name, String(options.retries)] }
        if options.waitOnRateLimit { words.append("--" + NetworkGroup.waitOnRateLimit.name) }
        if options.maxWait != defaultMaxWait(waitOnRateLimit: options.waitOnRateLimit) {
            let seconds =
                options.maxWait.rounded() == options.maxWait ? String(Int(options.maxWait)) : String(options.maxWait)
            words += ["--" + NetworkGroup.maxWait.name, seconds]
        }
        switch options.cacheMode {
        case .disabled: words.append("--" + CacheGroup.noCache.name)
        case .offline: words.append("--" + CacheGroup.offline.name)
        case .readWrite: break
        }
        if let directory = options.cacheDirectory { words += ["--" + CacheGroup.cacheDir.name, directory] }
        return words
    }

    /// Reads every group the command takes; options of other groups cannot be present (the scanner refused them).
    static func parse(_ parsed: ParsedArguments, spec: CommandSpec) throws(UsageError) -> CommonOptions {
        var options = CommonOptions()
        try OutputGroup.parse(parsed, spec: spec, into: &options)
        try NetworkGroup.parse(parsed, spec: spec, into: &options)
        try CacheGroup.parse(parsed, spec: spec, into: &options)
        try LoggingGroup.parse(parsed, spec: spec, into: &options)
        return options
    }
}

/// `--format`, `--json`, `--fields`, `--color`: for every command that writes records.
enum OutputGroup {
    static let format = OptionSpec(
        "format",
        value: "FORMAT",
        help: "Output format: table, tsv, csv, json or ndjson.",
        default: "table on a terminal, tsv when piped",
        choices: OutputFormat.allCases.map(\.rawValue)
    )
    static let json = OptionSpec("json", help: "Short for --format json.")
    static let fields = OptionSpec(
        "fields", value: "LIST", help: "Comma-separated fields to output, by GitHub's key names (see FIELDS below).")
    static let color = OptionSpec(
        "color",
        value: "WHEN",
        help: "Colour output: auto, always or never (NO_COLOR and CLICOLOR_FORCE are honoured).",
        default: "auto",
        choices: ["auto", "always", "never"]
    )

    /// `cache info` has no records to choose fields of.
    static let group = OptionGroup(title: "OUTPUT OPTIONS", options: [format, json, fields, color])
    static let withoutFields = OptionGroup(title: "OUTPUT OPTIONS", options: [format, json, color])

    static func parse(_ parsed: ParsedArguments, spec: CommandSpec, into options: inout CommonOptions)
        throws(UsageError)
    {
        options.format = try ChoiceOption.parse(parsed, format, spec: spec)
        if parsed.has(json) {
            if let chosen = options.format, chosen != .json {
                throw UsageError(
                    message: "--json and --format \(chosen.rawValue) cannot be used together", command: spec)
            }
            options.format = .json
        }
        options.color = try ChoiceOption.parse(parsed, color, spec: spec) ?? .auto
        if let text = parsed.value(fields) {
            options.fields = try parseFields(text, spec: spec)
        }
    }

    private static func parseFields(_ text: String, spec: CommandSpec) throws(UsageError) -> [String] {
        var chosen: [String] = []
        for field in text.split(separator: ",", omittingEmptySubsequences: false) {
            let name = field.trimmingCharacters(in: .whitespaces)
            guard !name.isEmpty else {
                throw UsageError(message: "--fields needs comma-separated field names, such as login,id", command: spec)
            }
            if !chosen.contains(name) { chosen.append(name) }
        }
        // A path into one of GitHub's objects (`repo.full_name`), as a csv header names it, is a field too.
        let known = { (name: String) in
            spec.fields.contains(name)
                || (name.contains(".") && spec.fields.contains(String(name.prefix { $0 != "." })))
        }
        if let unknown = chosen.first(where: { !known($0) }) {
            var message = "unknown field '\(unknown)' for \(spec.name)"
            if let suggestion = Suggestions.nearest(to: unknown, among: spec.fields) {
                message += "; did you mean '\(suggestion)'?"
            }
            message += "\nValid fields: " + spec.fields.joined(separator: ", ")
            throw UsageError(message: message, command: spec)
        }
        return chosen
    }
}

/// Host, token and how hard to try: for every command that talks to GitHub.
enum NetworkGroup {
    static let apiURL = OptionSpec(
        "api-url",
        value: "URL",
        help: "API root to talk to (or GH_USERS_API_URL; GH_HOST means https://HOST/api/v3).",
        default: "https://api.github.com"
    )
    static let tokenFile = OptionSpec(
        "token-file",
        value: "PATH",
        help: "Read the token from this file (before GH_TOKEN and GITHUB_TOKEN); keep it private (chmod 600)."
    )
    static let timeout = OptionSpec(
        "timeout",
        value: "SECONDS",
        help: "Give up on one attempt of a request after this long; it counts as a failure to retry.",
        default: "30"
    )
    static let retries = OptionSpec(
        "retries",
        value: "N",
        help: "Retry a failed request up to N times (0 to 10): connection failures, timeouts, cut-off answers, "
            + "HTTP 500/502/503/504 and secondary rate limits, with exponential backoff and jitter.",
        default: "3"
    )
    static let waitOnRateLimit = OptionSpec(
        "wait-on-rate-limit",
        help: "When the rate limit is spent, wait for its reset (a minute when GitHub names none) and carry on "
            + "instead of exiting with status 5; for at most --max-wait."
    )
    static let maxWait = OptionSpec(
        "max-wait",
        value: "SECONDS",
        help: "The longest any rate-limit wait may last (a reset, a secondary limit's Retry-After or minute); a "
            + "longer one is not started: the run stops with status 5 and the time to retry.",
        default: "900; 3660 with --wait-on-rate-limit"
    )

    static let group = OptionGroup(
        title: "NETWORK OPTIONS", options: [apiURL, tokenFile, timeout, retries, waitOnRateLimit, maxWait])

    static func parse(_ parsed: ParsedArguments, spec: CommandSpec, into options: inout CommonOptions)
        throws(UsageError)
    {
        options.apiURL = parsed.value(apiURL)
        options.tokenFile = parsed.value(tokenFile)
        if let text = parsed.value(timeout) {
            guard let seconds = Double(text), seconds.isFinite, seconds > 0, seconds <= 86_400 else {
                throw UsageError.invalidNumber(timeout, text, rule: "a number of seconds above 0", spec: spec)
            }
            options.timeout = seconds
        }
        let maximum = CommonOptions.maximumRetries
        options.retries =
            try NumberOption.parse(
                parsed, retries, range: 0...Int64(maximum), rule: "a whole number from 0 to \(maximum)", spec: spec
            ).map { Int($0) } ?? 3
        options.waitOnRateLimit = parsed.has(waitOnRateLimit)
        options.maxWait = CommonOptions.defaultMaxWait(waitOnRateLimit: options.waitOnRateLimit)
        if let text = parsed.value(maxWait) {
            guard let seconds = Double(text), seconds.isFinite, seconds >= 0, seconds <= 86_400 * 7 else {
                throw UsageError.invalidNumber(maxWait, text, rule: "a number of seconds from 0 to a week", spec: spec)
            }
            options.maxWait = seconds
        }
    }
}

/// How the response cache is used, and where it lives.
enum CacheGroup {
    static let noCache = OptionSpec("no-cache", help: "Neither read nor write the response cache.")
    static let offline = OptionSpec(
        "offline", help: "Answer from the response cache only, without touching the network; what is not cached fails."
    )
    static let cacheDir = OptionSpec(
        "cache-dir",
        value: "DIR",
        help: "Where the response cache lives.",
        default: "$XDG_CACHE_HOME/gh-users, else ~/.cache/gh-users"
    )

    static let group = OptionGroup(title: "CACHE OPTIONS", options: [noCache, offline, cacheDir])
    /// `cache info|clear` only needs to know where the cache is.
    static let location = OptionGroup(title: "CACHE OPTIONS", options: [cacheDir])

    static func parse(_ parsed: ParsedArguments, spec: CommandSpec, into options: inout CommonOptions)
        throws(UsageError)
    {
        if parsed.has(noCache) && parsed.has(offline) {
            throw UsageError(message: "--no-cache and --offline cannot be used together", command: spec)
        }
        if parsed.has(noCache) { options.cacheMode = .disabled }
        if parsed.has(offline) { options.cacheMode = .offline }
        if let directory = parsed.value(cacheDir) {
            guard !directory.isEmpty else {
                throw UsageError(message: "--cache-dir needs a directory", command: spec)
            }
            options.cacheDirectory = directory
        }
    }
}

/// What is logged on stderr while a command talks to GitHub.
enum LoggingGroup {
    static let verbose = OptionSpec(
        "verbose",
        help: "Log each request on stderr: method, path, status, and whether the cache answered (same as --log-level "
            + "info).")
    static let logLevel = OptionSpec(
        "log-level",
        value: "LEVEL",
        help: "Log level on stderr: trace, debug, info, notice, warning or error (or GH_USERS_LOG_LEVEL).",
        default: "warning",
        choices: LogLevel.allCases.map(\.name)
    )
    static let debug = OptionSpec(
        "debug", help: "Trace every HTTP request and response on stderr (the token is never shown).")

    static let group = OptionGroup(title: "LOGGING OPTIONS", options: [verbose, logLevel, debug])

    static func parse(_ parsed: ParsedArguments, spec: CommandSpec, into options: inout CommonOptions)
        throws(UsageError)
    {
        if parsed.has(verbose) { options.logLevel = .info }
        if let text = parsed.value(logLevel) {
            guard let level = LogLevel(name: text) else {
                throw UsageError.invalidChoice(logLevel, text, spec: spec)
            }
            options.logLevel = level
        }
        if parsed.has(debug) {
            options.debug = true
            options.logLevel = min(options.logLevel ?? .debug, .debug)
        }
    }
}

/// `--limit N`, `--all` and `--per-page N`, shared by every paging command.
struct PagingOptions: Sendable, Equatable {
    var limit: ItemLimit = .default
    var perPage: Int?

    var plan: PagingPlan { PagingPlan(limit: limit, requestedPerPage: perPage) }

    static let limitOption = OptionSpec(
        "limit", short: "L", value: "N", help: "Stop after N items (N >= 1).", default: "30")
    static let all = OptionSpec("all", help: "Go on to the last page.")
    static let perPageOption = OptionSpec(
        "per-page", value: "N", help: "Items per request, 1 to 100.",
        default: "the limit when it fits in one page, else 100")

    /// The group with its help in the command's own words ("Stop after N repositories").
    static func group(noun: String) -> OptionGroup {
        func worded(_ option: OptionSpec, _ help: String) -> OptionSpec {
            OptionSpec(
                option.name, short: option.short, value: option.valueName, help: help, default: option.defaultValue)
        }
        let capitalised = noun.prefix(1).uppercased() + noun.dropFirst()
        return OptionGroup(
            title: "PAGING OPTIONS",
            options: [
                worded(limitOption, "Stop after N \(noun) (N >= 1)."), all,
                worded(perPageOption, "\(capitalised) per request, 1 to 100."),
            ]
        )
    }

    static func parse(_ parsed: ParsedArguments, spec: CommandSpec) throws(UsageError) -> PagingOptions {
        var options = PagingOptions()
        let limit = try NumberOption.parse(
            parsed, limitOption, range: 1...Int64(Int.max), rule: "a whole number >= 1", spec: spec)
        if parsed.has(all) {
            if limit != nil {
                throw UsageError(message: "--limit and --all cannot be used together", command: spec)
            }
            options.limit = .all
        } else if let limit {
            options.limit = .count(Int(limit))
        }
        options.perPage =
            try NumberOption.parse(
                parsed,
                perPageOption,
                range: 1...Int64(PagingPlan.maximumPerPage),
                rule: "a whole number from 1 to 100",
                spec: spec
            ).map { Int($0) }
        return options
    }
}
