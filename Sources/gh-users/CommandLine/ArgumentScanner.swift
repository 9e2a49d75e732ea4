/// What the scanner found in argv for one command: positionals in order, the last value of each option (every
/// value, in order, for an option that may be given more than once, as `show --id`), and what the options given
/// mean, read through their declarations: the shared groups' values, and the command's own where its spec
/// declares them (`CommandSpec.declared`). A command's `init` takes them as values.
struct ParsedArguments: Sendable {
    var positionals: [String] = []
    var values: [String: String] = [:]
    var everyValue: [String: [String]] = [:]
    var flags: Set<String> = []
    /// The output, network, cache and logging groups.
    var common = CommonOptions()
    var paging = PagingOptions()
    var profiles = ProfileOptions()
    /// The command's own options, read as its spec declares them; nil where none was given.
    var own: (any OptionValues)?
    /// The one argument the spec declares (`CommandSpec.taking`), checked.
    var operand: OperandValue?
    /// The first bad option value: the router says it once the command's `init` has checked its arguments,
    /// which come first.
    var readError: UsageError?

    /// The command's own options as the scanner read them: their defaults where none was given.
    func options<Values: OptionValues>(_: Values.Type = Values.self) -> Values {
        own as? Values ?? Values()
    }

    /// Whether any option of the group was given, or one its values' check relates (`CheckedOptions`).
    func gives(_ options: [OptionSpec], checking valuesType: Any.Type) -> Bool {
        let related = (valuesType as? any CheckedOptions.Type)?.relatedOptions ?? []
        return (options + related).contains { values[$0.name] != nil || flags.contains($0.name) }
    }

    func has(_ flag: OptionSpec) -> Bool { flags.contains(flag.name) }
    func value(_ option: OptionSpec) -> String? { values[option.name] }
    func values(_ option: OptionSpec) -> [String] { everyValue[option.name] ?? [] }

    mutating func set(_ option: OptionSpec, _ value: String) {
        values[option.name] = value
        everyValue[option.name, default: []].append(value)
    }
}

/// Splits argv by a command's spec: `--name value`, `--name=value`, `-L 5`, `-L5`, `-h`, and `--` to end options.
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
                    // The word after it may be its value, which a hint for gh's `--jq EXPR` repeats.
                    let value = inlineValue ?? (index < arguments.count ? arguments[index] : nil)
                    throw UsageError.unknownOption("--\(name)", spec: spec, value: value)
                }
                option = found
            } else {
                let shorts = argument.dropFirst()
                guard let letter = shorts.first, let found = spec.option(short: letter),
                    shorts.count == 1 || found.takesValue
                else {
                    throw UsageError.unknownOption(
                        argument, spec: spec, value: index < arguments.count ? arguments[index] : nil)
                }
                option = found
                // gh's (pflag's) `-L5` and `-L=5`: a short option's value written onto it.
                if shorts.count > 1 {
                    let attached = shorts.dropFirst()
                    inlineValue = String(attached.first == "=" ? attached.dropFirst() : attached)
                }
            }
            if option.takesValue {
                if let inlineValue {
                    parsed.set(option, inlineValue)
                } else if index < arguments.count {
                    // gh (pflag) takes any next word, an option too: `me edit --bio --dry-run` sent the write
                    // with the bio "--dry-run". A word that reads as an option (any `--…`, a misspelt `--dryrun`
                    // and `--` too, or one of the command's short ones, `-L5` too) is written onto it (`--bio=--x`)
                    // to be a value; `-5` and `-` are values.
                    let next = arguments[index]
                    let short = next.hasPrefix("-") ? next.dropFirst().first.flatMap(spec.option(short:)) : nil
                    if next.hasPrefix("--") || short.map({ next.count == 2 || $0.takesValue }) == true {
                        // A number, a date, a login, a name, a list of fields or one of a few words is never
                        // such a word: `--limit=--all` is no way on (helper-341's M4), nor
                        // `--twitter-username=--dry-run`, sent as given (helper-342's R4): the value is asked for.
                        let closed =
                            !option.choices.isEmpty
                            || ["N", "ID", "SECONDS", "DATE", "LOGIN", "NAME", "LIST"].contains(option.valueName)
                        let value = option.valueName ?? "VALUE"
                        let said =
                            closed
                            ? "'\(next)' is an option, not one: give --\(option.name) \(value)"
                            : "'\(next)' reads as an option: to give it as the value, write "
                                + ShellWord.quote("--\(option.name)=\(next)")
                        throw UsageError(
                            message: "option '--\(option.name)' needs a value (\(value)), and \(said)",
                            command: spec)
                    }
                    parsed.set(option, next)
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
                // Only a list of names, or one of the command's own fields (`followers --json login` read the
                // followers of an account named login): a search query with a comma (`location:"Portland, OR"`)
                // is no such list. A word meant as the argument goes before --json.
                if option.name == "json", !optionsEnded, index < arguments.count, !arguments[index].hasPrefix("-"),
                    Self.isFieldList(arguments[index]) || spec.anyFields.contains(arguments[index])
                {
                    let one = !arguments[index].contains(",")
                    // Only a command that takes an argument or words has one to put before --json.
                    let takesWords = !spec.arguments.isEmpty || !spec.words.isEmpty
                    throw UsageError(
                        message: "gh-users's --json takes no \(one ? "field" : "list of fields"), unlike gh's --json "
                            + "\(arguments[index]): give --json --fields \(arguments[index]), or pipe --json into jq"
                            + (one && takesWords ? " (a word meant as the command's argument goes before --json)" : ""),
                        command: spec)
                }
            }
        }
        // A command that takes no arguments and no words refuses one here, before its options are read; --help
        // still wins, as in gh.
        if spec.arguments.isEmpty, spec.words.isEmpty, !parsed.has(CommandSpec.help),
            let extra = parsed.positionals.first
        {
            throw UsageError(
                message: "unexpected argument '\(extra)'"
                    + (StrayArgument.hint(extra, command: spec.name).map { ": " + $0 } ?? ""),
                command: spec)
        }
        // The one argument a command declares is checked next, so a missing or bad one is the first error said.
        if let operand = spec.operand, !parsed.has(CommandSpec.help) {
            parsed.operand = try operand.read(parsed, spec: spec)
        }
        // The options given, read group by group in the order the command declares them: its own, paging,
        // profile, then output, network, cache and logging. A group none of whose options was given keeps its
        // defaults, and is not read. A bad value waits in `readError` until the command has checked its arguments.
        var (paging, profiles, common) = (parsed.paging, parsed.profiles, parsed.common)
        do throws(UsageError) {
            if let own = spec.declared, parsed.gives(own.specs, checking: own.valuesType) {
                parsed.own = try own.read(parsed, spec: spec)
            }
            if spec.takes(PagingGroup.declared), parsed.gives(PagingGroup.declared.specs, checking: PagingOptions.self)
            {
                try PagingGroup.declared.parse(parsed, spec: spec, into: &paging)
            }
            if spec.takes(ProfileGroup.declared),
                parsed.gives(ProfileGroup.declared.specs, checking: ProfileOptions.self)
            {
                try ProfileGroup.declared.parse(parsed, spec: spec, into: &profiles)
            }
            for group in CommonOptions.groups where parsed.gives(group.specs, checking: CommonOptions.self) {
                try group.parse(parsed, spec: spec, into: &common)
            }
        } catch {
            parsed.readError = error
        }
        (parsed.paging, parsed.profiles, parsed.common) = (paging, profiles, common)
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
