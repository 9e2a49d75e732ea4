/// What the scanner found in argv for one command: positionals in order, and the last value of each option.
struct ParsedArguments: Sendable, Equatable {
    var positionals: [String] = []
    var values: [String: String] = [:]
    var flags: Set<String> = []

    func has(_ flag: OptionSpec) -> Bool { flags.contains(flag.name) }
    func value(_ option: OptionSpec) -> String? { values[option.name] }
}

/// Splits argv by a command's spec: `--name value`, `--name=value`, `-h`, and `--` to end options.
/// A repeated option keeps its last value, as `gh` does. Nothing here knows what any option means.
enum ArgumentScanner {
    static func scan(_ arguments: [String], spec: CommandSpec) throws(UsageError) -> ParsedArguments {
        var parsed = ParsedArguments()
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
                parsed.positionals.append(argument)
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            let option: OptionSpec
            var inlineValue: String?
            if argument.hasPrefix("--") {
                let body = argument.dropFirst(2)
                let name: String
                if let equals = body.firstIndex(of: "=") {
                    name = String(body[..<equals])
                    inlineValue = String(body[body.index(after: equals)...])
                } else {
                    name = String(body)
                }
                guard let found = spec.option(named: name) else {
                    throw UsageError.unknownOption("--\(name)", spec: spec)
                }
                option = found
            } else {
                let shorts = Array(argument.dropFirst())
                guard shorts.count == 1, let found = spec.option(short: shorts[0]) else {
                    throw UsageError.unknownOption(argument, spec: spec)
                }
                option = found
            }
            if option.takesValue {
                if let inlineValue {
                    parsed.values[option.name] = inlineValue
                } else if index < arguments.count {
                    parsed.values[option.name] = arguments[index]
                    index += 1
                } else {
                    throw UsageError(
                        message: "option '--\(option.name)' needs a value (\(option.valueName ?? "VALUE"))",
                        command: spec
                    )
                }
            } else {
                if inlineValue != nil {
                    throw UsageError(message: "option '--\(option.name)' takes no value", command: spec)
                }
                parsed.flags.insert(option.name)
            }
        }
        return parsed
    }
}
