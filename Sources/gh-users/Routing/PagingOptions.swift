import Domain

/// `--limit N`, `--all` and `--per-page N`, shared by every paging command.
struct PagingOptions: Sendable, Equatable {
    var limit: ItemLimit = .default
    var perPage: Int?

    var plan: PagingPlan { PagingPlan(limit: limit, requestedPerPage: perPage) }

    static func specs(noun: String) -> [OptionSpec] {
        [
            OptionSpec("limit", short: "L", value: "N", help: "Stop after N \(noun) (N >= 1).", default: "30"),
            OptionSpec("all", help: "Go on to the last page."),
            OptionSpec(
                "per-page",
                value: "N",
                help: "\(noun.prefix(1).uppercased() + noun.dropFirst()) per request, 1 to 100.",
                default: "the limit when it fits in one page, else 100"
            ),
        ]
    }

    static func parse(_ parsed: ParsedArguments, spec: CommandSpec) throws(UsageError) -> PagingOptions {
        var options = PagingOptions()
        let limit = try NumberOption.parse(
            parsed, "limit", range: 1...Int64(Int.max), rule: "a whole number >= 1", spec: spec)
        if parsed.has("all") {
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
                "per-page",
                range: 1...Int64(PagingPlan.maximumPerPage),
                rule: "a whole number from 1 to 100",
                spec: spec
            ).map { Int($0) }
        return options
    }

    /// The one login a per-account command takes.
    static func singleLogin(_ parsed: ParsedArguments, spec: CommandSpec) throws(UsageError) -> Login {
        guard let text = parsed.positionals.first else {
            throw UsageError(message: "\(spec.name) needs a LOGIN", command: spec)
        }
        if let extra = parsed.positionals.dropFirst().first {
            throw UsageError(message: "unexpected argument '\(extra)': \(spec.name) takes one LOGIN", command: spec)
        }
        return try LoginArgument.parse(text, spec: spec)
    }
}

/// A login from the command line, or a usage error that says what a login may hold.
enum LoginArgument {
    static func parse(_ text: String, spec: CommandSpec) throws(UsageError) -> Login {
        do {
            return try Login(validating: text)
        } catch {
            if case .invalidInput(let message) = error {
                throw UsageError(message: message, command: spec)
            }
            throw UsageError(message: "invalid login", command: spec)
        }
    }
}

/// The one word a command takes from a closed set (`cache info|clear`, `completion bash|zsh|fish`).
enum WordArgument {
    static func parse<Value: RawRepresentable & CaseIterable>(
        _ parsed: ParsedArguments,
        spec: CommandSpec,
        missing: String,
        unknown kind: String,
        extraHint: String? = nil
    ) throws(UsageError) -> Value where Value.RawValue == String {
        let names = Value.allCases.map(\.rawValue)
        let choices = names.dropLast().joined(separator: ", ") + (names.count > 1 ? " or " : "") + (names.last ?? "")
        guard let word = parsed.positionals.first else {
            throw UsageError(message: "\(missing): \(choices)", command: spec)
        }
        guard let value = Value(rawValue: word) else {
            var message = "unknown \(kind) '\(word)': choose \(choices)"
            if let suggestion = Suggestions.nearest(to: word, among: names) {
                message += "\nDid you mean '\(suggestion)'?"
            }
            throw UsageError(message: message, command: spec)
        }
        if let extra = parsed.positionals.dropFirst().first {
            throw UsageError(
                message: "unexpected argument '\(extra)'" + (extraHint.map { ": " + $0 } ?? ""), command: spec)
        }
        return value
    }
}

/// A closed set of values for an option, such as `--sort`.
enum ChoiceOption {
    static func parse<Value: RawRepresentable>(
        _ parsed: ParsedArguments,
        _ name: String,
        spec: CommandSpec
    ) throws(UsageError) -> Value? where Value.RawValue == String {
        guard let text = parsed.value(name) else { return nil }
        guard let value = Value(rawValue: text) else {
            throw UsageError.invalidChoice(name, text, spec: spec)
        }
        return value
    }
}
