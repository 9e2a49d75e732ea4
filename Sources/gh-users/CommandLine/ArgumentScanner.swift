/// What the scanner found in argv for one command: positionals in order, and the last value of each option
/// (every value, in order, for an option that may be given more than once, as `show --id`).
struct ParsedArguments: Sendable, Equatable {
    var positionals: [String] = []
    var values: [String: String] = [:]
    var everyValue: [String: [String]] = [:]
    var flags: Set<String> = []

    func has(_ flag: OptionSpec) -> Bool { flags.contains(flag.name) }
    func value(_ option: OptionSpec) -> String? { values[option.name] }
    func values(_ option: OptionSpec) -> [String] { everyValue[option.name] ?? [] }

    mutating func set(_ option: OptionSpec, _ value: String) {
        values[option.name] = value
        everyValue[option.name, default: []].append(value)
    }
}

/// Splits argv by a command's spec: `--name value`, `--name=value`, `-h`, and `--` to end options.
/// A repeated option keeps its last value, as `gh` does. Nothing here knows what any option means; a command
/// whose spec takes no arguments gets none.
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
                    parsed.set(option, inlineValue)
                } else if index < arguments.count {
                    parsed.set(option, arguments[index])
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
                // gh's `--json login,name` names the fields with the flag; here the list would pass for a login.
                // Only a list of names: a search query with a comma (`location:"Portland, OR"`) is no such list.
                if option.name == "json", !optionsEnded, index < arguments.count, !arguments[index].hasPrefix("-"),
                    Self.isFieldList(arguments[index])
                {
                    throw UsageError(
                        message: "gh-users's --json takes no list of fields, unlike gh's --json "
                            + "\(arguments[index]): give --json --fields \(arguments[index]), or pipe --json into jq",
                        command: spec)
                }
            }
        }
        // A command that takes no arguments and no words refuses one here, before its options are read; --help
        // still wins, as in gh.
        if spec.arguments.isEmpty, spec.words.isEmpty, !parsed.has(CommandSpec.help),
            let extra = parsed.positionals.first
        {
            throw UsageError(message: "unexpected argument '\(extra)'", command: spec)
        }
        return parsed
    }

    /// `login,name` or `owner.login,id`: two or more comma-separated names, each letters, digits, `_` and `.`.
    static func isFieldList(_ argument: String) -> Bool {
        let names = argument.split(separator: ",", omittingEmptySubsequences: false)
        return names.count > 1
            && names.allSatisfy { name in
                guard let first = name.first, first.isASCII, first.isLetter || first == "_" else { return false }
                return name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == ".") }
            }
    }
}
