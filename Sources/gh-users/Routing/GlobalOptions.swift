import AtomicCore
import AtomicLogger
import Data
import Foundation

/// The options every command shares, validated.
struct GlobalOptions: Sendable, Equatable {
    /// nil: table on a terminal, tsv otherwise.
    var format: OutputFormat?
    var color: ColorChoice = .auto
    var apiURL: String?
    var logLevel: LogLevel?
    var debug = false
    var tokenFile: String?
    /// Seconds for one attempt of a request.
    var timeout: Double = 30
    var retries = 3
    var waitOnRateLimit = false
    var cacheMode: CacheMode = .readWrite
    var cacheDirectory: String?
    /// `--fields`, in the order given, without repeats; checked against the command's fields by the router.
    var fields: [String]?

    static let maximumRetries = 10

    static func parse(_ parsed: ParsedArguments, spec: CommandSpec) throws(UsageError) -> GlobalOptions {
        var options = GlobalOptions()
        if let text = parsed.value("format") {
            guard let format = OutputFormat(rawValue: text) else {
                throw UsageError.invalidChoice("format", text, spec: spec)
            }
            options.format = format
        }
        if parsed.has("json") {
            if let format = options.format, format != .json {
                throw UsageError(
                    message: "--json and --format \(format.rawValue) cannot be used together", command: spec)
            }
            options.format = .json
        }
        if let text = parsed.value("color") {
            guard let color = ColorChoice(rawValue: text) else {
                throw UsageError.invalidChoice("color", text, spec: spec)
            }
            options.color = color
        }
        if let text = parsed.value("fields") {
            var fields: [String] = []
            for field in text.split(separator: ",", omittingEmptySubsequences: false) {
                let name = field.trimmingCharacters(in: .whitespaces)
                guard !name.isEmpty else {
                    throw UsageError(
                        message: "--fields needs comma-separated field names, such as login,id", command: spec)
                }
                if !fields.contains(name) { fields.append(name) }
            }
            guard spec.fields.isEmpty == false else {
                throw UsageError(message: "--fields is not available for \(spec.name)", command: spec)
            }
            if let unknown = fields.first(where: { !spec.fields.contains($0) }) {
                var message = "unknown field '\(unknown)' for \(spec.name)"
                if let suggestion = Suggestions.nearest(to: unknown, among: spec.fields) {
                    message += "; did you mean '\(suggestion)'?"
                }
                message += "\nValid fields: " + spec.fields.joined(separator: ", ")
                throw UsageError(message: message, command: spec)
            }
            options.fields = fields
        }
        options.apiURL = parsed.value("api-url")
        options.tokenFile = parsed.value("token-file")
        if let text = parsed.value("timeout") {
            guard let seconds = Double(text), seconds.isFinite, seconds > 0, seconds <= 86_400 else {
                throw UsageError.invalidNumber("timeout", text, rule: "a number of seconds above 0", spec: spec)
            }
            options.timeout = seconds
        }
        options.retries =
            try NumberOption.parse(
                parsed,
                "retries",
                range: 0...Int64(maximumRetries),
                rule: "a whole number from 0 to \(maximumRetries)",
                spec: spec
            ).map { Int($0) } ?? 3
        options.waitOnRateLimit = parsed.has("wait-on-rate-limit")
        if parsed.has("no-cache") && parsed.has("offline") {
            throw UsageError(message: "--no-cache and --offline cannot be used together", command: spec)
        }
        if parsed.has("no-cache") { options.cacheMode = .disabled }
        if parsed.has("offline") { options.cacheMode = .offline }
        if let directory = parsed.value("cache-dir") {
            guard !directory.isEmpty else {
                throw UsageError(message: "--cache-dir needs a directory", command: spec)
            }
            options.cacheDirectory = directory
        }
        if parsed.has("verbose") { options.logLevel = .info }
        if let text = parsed.value("log-level") {
            guard let level = LogLevel(name: text) else {
                throw UsageError.invalidChoice("log-level", text, spec: spec)
            }
            options.logLevel = level
        }
        if parsed.has("debug") {
            options.debug = true
            options.logLevel = min(options.logLevel ?? .debug, .debug)
        }
        return options
    }
}

extension UsageError {
    static func invalidChoice(_ option: String, _ value: String, spec: CommandSpec) -> UsageError {
        let choices = spec.option(named: option)?.choices ?? []
        var message = "invalid value '\(value)' for '--\(option)': choose one of \(choices.joined(separator: ", "))"
        if let suggestion = Suggestions.nearest(to: value, among: choices) {
            message += "\nDid you mean '\(suggestion)'?"
        }
        return UsageError(message: message, command: spec)
    }

    static func invalidNumber(_ option: String, _ value: String, rule: String, spec: CommandSpec) -> UsageError {
        UsageError(message: "invalid value '\(value)' for '--\(option)': \(rule)", command: spec)
    }
}

/// Reads an integer option within bounds, with a message that says what was expected.
enum NumberOption {
    static func parse(
        _ parsed: ParsedArguments,
        _ name: String,
        range: ClosedRange<Int64>,
        rule: String,
        spec: CommandSpec
    ) throws(UsageError) -> Int64? {
        guard let text = parsed.value(name) else { return nil }
        guard let number = Int64(text), range.contains(number) else {
            throw UsageError.invalidNumber(name, text, rule: rule, spec: spec)
        }
        return number
    }
}
