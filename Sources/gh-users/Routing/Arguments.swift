import Domain

extension UsageError {
    static func invalidChoice(_ option: OptionSpec, _ value: String, spec: CommandSpec) -> UsageError {
        var message =
            "invalid value '\(value)' for '--\(option.name)': choose one of \(option.choices.joined(separator: ", "))"
        if let suggestion = Suggestions.nearest(to: value, among: option.choices) {
            message += "\nDid you mean '\(suggestion)'?"
        }
        return UsageError(message: message, command: spec)
    }

    static func invalidNumber(_ option: OptionSpec, _ value: String, rule: String, spec: CommandSpec) -> UsageError {
        UsageError(message: "invalid value '\(value)' for '--\(option.name)': \(rule)", command: spec)
    }
}

/// Reads an integer option within bounds, with a message that says what was expected.
enum NumberOption {
    static func parse(
        _ parsed: ParsedArguments,
        _ option: OptionSpec,
        range: ClosedRange<Int64>,
        rule: String,
        spec: CommandSpec
    ) throws(UsageError) -> Int64? {
        guard let text = parsed.value(option) else { return nil }
        guard let number = Int64(text), range.contains(number) else {
            throw UsageError.invalidNumber(option, text, rule: rule, spec: spec)
        }
        return number
    }
}

/// A closed set of values for an option, such as `--sort`.
enum ChoiceOption {
    static func parse<Value: RawRepresentable>(
        _ parsed: ParsedArguments,
        _ option: OptionSpec,
        spec: CommandSpec
    ) throws(UsageError) -> Value? where Value.RawValue == String {
        guard let text = parsed.value(option) else { return nil }
        guard let value = Value(rawValue: text) else {
            throw UsageError.invalidChoice(option, text, spec: spec)
        }
        return value
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

    /// The one login a per-account command takes.
    static func single(_ parsed: ParsedArguments, spec: CommandSpec) throws(UsageError) -> Login {
        guard let text = parsed.positionals.first else {
            throw UsageError(message: "\(spec.name) needs a LOGIN", command: spec)
        }
        if let extra = parsed.positionals.dropFirst().first {
            throw UsageError(message: "unexpected argument '\(extra)': \(spec.name) takes one LOGIN", command: spec)
        }
        return try parse(text, spec: spec)
    }
}

/// A command that takes no arguments says so about the first one it is given.
enum NoArguments {
    static func check(_ parsed: ParsedArguments, spec: CommandSpec) throws(UsageError) {
        if let extra = parsed.positionals.first {
            throw UsageError(message: "unexpected argument '\(extra)'", command: spec)
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
