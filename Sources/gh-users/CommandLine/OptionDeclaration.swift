import AtomicCore
import Domain
import Foundation

/// The values an option group decides. `Values()` is what a command line without any of the group's options
/// means: each option's typed default is written once, there.
protocol OptionValues: Sendable, Equatable {
    init()
}

/// What an option's reader has to go on: the text given (empty for a flag), everything the scanner found (to
/// see which other options were given), and the command, which a usage error names.
struct OptionReading {
    let option: OptionSpec
    let text: String
    let parsed: ParsedArguments
    let command: CommandSpec

    func usageError(_ message: String) -> UsageError {
        UsageError(message: message, command: command)
    }

    /// One of the option's `choices`, or the error that lists them.
    func choice<Value: RawRepresentable>(_: Value.Type = Value.self) throws(UsageError) -> Value
    where Value.RawValue == String {
        guard let value = Value(rawValue: text) else { throw .invalidChoice(option, text, spec: command) }
        return value
    }

    /// A filter's one value: every value given is first checked against the option's choices (the first wrong
    /// one is the error, wherever it stands), then a second, other one beside the first is refused, naming both
    /// as typed, where taking the last without a word would list less than asked (`--type owner --type member`
    /// listed members alone). `same` gives other words for one value (`write` for `push`); `advice` says what
    /// to do instead.
    func oneValue(same: [String: String] = [:], advice: String = "run once for each") throws(UsageError) {
        let values = parsed.values(option)
        if !option.choices.isEmpty, let wrong = values.first(where: { !option.choices.contains($0) }) {
            throw .invalidChoice(option, wrong, spec: command)
        }
        let meaning = { (value: String) in same[value] ?? value }
        guard let first = values.first, let other = values.first(where: { meaning($0) != meaning(first) }) else {
            return
        }
        throw usageError(
            "--\(option.name) takes one value, and was given \(TerminalSanitizer.quotedPath(first)) and "
                + "\(TerminalSanitizer.quotedPath(other)): \(advice)")
    }

    /// The one file the option names, however often it is given (`a`, `./a`, its absolute path). Given twice with
    /// two files, it is refused: a run uses one, and taking the last (as other options do) left an alias's file or
    /// the one typed first unused without a word.
    func oneFile() throws(UsageError) -> String {
        // One file however it is written (`a`, `./a`, its absolute path).
        var files: [(given: String, absolute: String)] = []
        for given in parsed.values(option) {
            let absolute = URL(fileURLWithPath: given).standardizedFileURL.path
            if !files.contains(where: { $0.absolute == absolute }) { files.append((given, absolute)) }
        }
        if files.count > 1 {
            let named =
                files.prefix(2).map { TerminalSanitizer.quotedPath($0.given) }.joined(separator: " and ")
                + (files.count > 2 ? " and more" : "")
            throw usageError(
                "--\(option.name) is given more than once, naming \(named): a run uses one file, so give it once")
        }
        return text
    }

    /// A file gh-users itself opens (`--state`, `--changes`, `--output`): one (`oneFile`), not empty, and not `-`,
    /// which gh and curl read as stdin or stdout and which made a file named `-`.
    func filePath() throws(UsageError) -> String {
        let text = try oneFile()
        guard !text.isEmpty else { throw usageError("--\(option.name) needs a file path") }
        guard text != "-" else {
            let instead =
                option.name == "output" ? "without --output the records go to stdout" : "FILE is read and replaced"
            throw usageError("--\(option.name) takes a file, not '-' (\(instead)); ./- names a file called -")
        }
        // `newdir/` made a file named `newdir`: a name ending in a slash is a folder's.
        guard !text.hasSuffix("/") else {
            throw usageError(
                "--\(option.name) takes a file, and \(TerminalSanitizer.quotedPath(text)) ends in a slash, which names a "
                    + "folder: give the file's name after it")
        }
        return text
    }

    /// `text` as a whole number in ASCII digits; nil otherwise. Swift's `Int64` alone would also read `+5` and
    /// `-0`, which `--timeout` and `--max-wait` refuse.
    static func wholeNumber(_ text: String) -> Int64? {
        guard text.first?.isASCII == true, text.first?.isWholeNumber == true else { return nil }
        return Int64(text)
    }

    /// A whole number within `range` (`wholeNumber`); `rule` says what was expected.
    func number(in range: ClosedRange<Int64>, rule: String) throws(UsageError) -> Int {
        guard let number = Self.wholeNumber(text), range.contains(number), let value = Int(exactly: number) else {
            // A whole number past the range meets a rule such as ">= 1": the bound is said too, unless it is.
            let digits = !text.isEmpty && text.utf8.allSatisfy { (48...57).contains($0) }
            let past =
                digits && (Int64(text).map { $0 > range.upperBound } ?? true)
                && !rule.contains(String(range.upperBound))
            throw .invalidNumber(
                option, text, rule: rule + (past ? ", at most \(range.upperBound)" : ""), spec: command)
        }
        return value
    }

    /// An account id, as `--since` and `--until` take one.
    func accountID() throws(UsageError) -> Int64 {
        Int64(try number(in: 0...Int64.max, rule: "an account id is an integer >= 0"))
    }

    /// A decimal number of seconds (`30`, `0.5`) that `accepts` takes; `rule` says what was expected. Swift's
    /// `Double` would also read `0x10`, `1e2` and `inf`, which no whole-number option takes.
    func seconds(where accepts: (Double) -> Bool, rule: String) throws(UsageError) -> Double {
        let decimal = text.wholeMatch(of: /[0-9]+(\.[0-9]+)?|\.[0-9]+/) != nil
        guard decimal, let seconds = Double(text), seconds.isFinite, accepts(seconds) else {
            throw .invalidNumber(option, text, rule: rule, spec: command)
        }
        return seconds
    }

    /// Seconds as the command line writes them: `30`, not `30.0`.
    static func secondsText(_ seconds: Double) -> String {
        seconds.rounded() == seconds ? String(Int(seconds)) : String(seconds)
    }
}

/// One option of a group, declared once: how it is spelled, helped and completed (`spec`), what it does to the
/// group's values when given (checking its value: a bad one is a usage error, exit 64), and the words a resume
/// hint writes back for those values (none at the default, and never any for some, such as the diagnostics).
struct OptionDeclaration<Values: Sendable>: Sendable {
    let spec: OptionSpec
    let read: @Sendable (inout Values, OptionReading) throws(UsageError) -> Void
    let resume: @Sendable (Values) -> [String]

    var name: String { spec.name }

    /// The words that ask for `values` again, for a resume hint: a value that starts with `-` is written onto its
    /// option (`--state=-x`), as the scanner refuses it as the next word.
    func words(resuming values: Values) -> [String] {
        var words = resume(values)[...]
        var result: [String] = []
        while let word = words.popFirst() {
            let joins = spec.takesValue && word == "--" + name && words.first?.hasPrefix("-") == true
            result.append(joins ? word + "=" + (words.popFirst() ?? "") : word)
        }
        return result
    }

    /// A flag: `apply` says what giving it means; a resume hint writes it when `resumedWhen` holds (never without).
    static func flag(
        _ name: String,
        help: String,
        apply: @escaping @Sendable (inout Values, OptionReading) throws(UsageError) -> Void,
        resumedWhen: (@Sendable (Values) -> Bool)? = nil
    ) -> Self {
        OptionDeclaration(
            spec: OptionSpec(name, help: help),
            read: apply,
            resume: { values in resumedWhen?(values) == true ? ["--" + name] : [] }
        )
    }

    /// A flag kept at `path`: true when given, and written back by a resume hint when true.
    static func flag(_ spec: OptionSpec, at path: WritableKeyPath<Values, Bool> & Sendable) -> Self {
        OptionDeclaration(
            spec: spec, read: { values, _ in values[keyPath: path] = true },
            resume: { $0[keyPath: path] ? ["--" + spec.name] : [] })
    }

    /// One of a closed set of values (`spec.choices`), kept at `path` once given: nil means GitHub's default,
    /// which help shows as `spec` words it.
    static func choice<Value: RawRepresentable & Sendable>(
        _ spec: OptionSpec, at path: WritableKeyPath<Values, Value?> & Sendable
    ) -> Self where Value.RawValue == String {
        optional(
            spec, at: path, parse: { reading throws(UsageError) in try reading.choice(Value.self) }, write: \.rawValue)
    }

    /// `--direction asc|desc`, whose default (`shown`) GitHub decides by the sort.
    static func direction(
        default shown: String, at path: WritableKeyPath<Values, SortDirection?> & Sendable
    ) -> Self {
        choice(
            OptionSpec(
                "direction", value: "DIR", help: "asc or desc.", default: shown,
                choices: SortDirection.allCases.map(\.rawValue)),
            at: path)
    }

    /// An option kept at `path` once given (nil until then), as `parse` reads it; a resume hint writes it back
    /// as `write` spells it.
    static func optional<Value: Sendable>(
        _ spec: OptionSpec, at path: WritableKeyPath<Values, Value?> & Sendable,
        parse: @escaping @Sendable (OptionReading) throws(UsageError) -> Value,
        write: @escaping @Sendable (Value) -> String
    ) -> Self {
        OptionDeclaration(
            spec: spec, read: { values, reading throws(UsageError) in values[keyPath: path] = try parse(reading) },
            resume: { values in values[keyPath: path].map { ["--" + spec.name, write($0)] } ?? [] })
    }

    /// An option whose value is kept at `path`. `parse` turns the text given into the value (or a usage error);
    /// `resume` writes a value back as the command line gives it (nil: never). The default is `Values()`'s;
    /// help shows it as `resume` writes it, unless `shown` words it. A resume hint leaves the value out while
    /// `isDefault` says it is the default.
    static func value<Value: Sendable & Equatable>(
        _ spec: OptionSpec,
        at path: WritableKeyPath<Values, Value> & Sendable,
        parse: @escaping @Sendable (OptionReading) throws(UsageError) -> Value,
        resume: (@Sendable (Value) -> String?)?,
        isDefault: (@Sendable (Value, Values) -> Bool)? = nil
    ) -> Self where Values: OptionValues {
        let fallback = Values()[keyPath: path]
        let shown = spec.defaultValue ?? resume?(fallback)
        return OptionDeclaration(
            spec: OptionSpec(
                spec.name, short: spec.short, value: spec.valueName, help: spec.help, default: shown,
                choices: spec.choices, path: spec.path),
            read: { values, reading throws(UsageError) in values[keyPath: path] = try parse(reading) },
            resume: { values in
                let value = values[keyPath: path]
                guard !(isDefault?(value, values) ?? (value == fallback)), let text = resume?(value) else { return [] }
                return ["--" + spec.name, text]
            }
        )
    }
}

/// Values with a rule across their group's options, or with other options (`--fields` against `--full`): checked
/// once every option of the group is read, before the next group. The scanner reads a group when one of its
/// options is given, or one of `relatedOptions`.
protocol CheckedOptions {
    static var relatedOptions: [OptionSpec] { get }
    func check(_ parsed: ParsedArguments, spec: CommandSpec) throws(UsageError)
}

extension CheckedOptions {
    static var relatedOptions: [OptionSpec] { [] }
}

/// A command's own options as its spec declares them (`CommandSpec.declared`), for the scanner to read with the
/// shared groups: a `GroupDeclaration` of values that have defaults.
protocol DeclaredOptions: Sendable {
    var specs: [OptionSpec] { get }
    var valuesType: Any.Type { get }
    func read(_ parsed: ParsedArguments, spec: CommandSpec) throws(UsageError) -> any OptionValues
}

extension GroupDeclaration: DeclaredOptions where Values: OptionValues {
    var valuesType: Any.Type { Values.self }

    func read(_ parsed: ParsedArguments, spec: CommandSpec) throws(UsageError) -> any OptionValues {
        try parse(parsed, spec: spec, into: Values())
    }
}

/// Options a command takes as a whole, declared once (as swift-argument-parser's `@OptionGroup`): their help
/// under one title, how argv becomes their values, and how a resume hint writes those values back.
struct GroupDeclaration<Values: Sendable>: Sendable {
    let title: String
    /// In the order help lists them, which is the order they are read: an option may look at what those
    /// before it decided (`--json` after `--format`).
    let options: [OptionDeclaration<Values>]

    /// The group as help, the scanner and completion see it.
    var group: OptionGroup { OptionGroup(title: title, options: specs) }

    var specs: [OptionSpec] { options.map(\.spec) }

    /// The same group offering only some of its options (`cache info` has no records to choose fields of).
    func group(only names: [String]) -> OptionGroup {
        OptionGroup(title: title, options: options.map(\.spec).filter { names.contains($0.name) })
    }

    /// Reads every option of the group that was given, in order, into `values`, then runs the group's check.
    func parse(_ parsed: ParsedArguments, spec: CommandSpec, into values: inout Values) throws(UsageError) {
        for option in options {
            let text = parsed.value(option.spec)
            guard text != nil || parsed.has(option.spec) else { continue }
            try option.read(
                &values, OptionReading(option: option.spec, text: text ?? "", parsed: parsed, command: spec))
        }
        if let checked = values as? any CheckedOptions { try checked.check(parsed, spec: spec) }
    }

    /// `values` with every option of the group that was given read into it, for a command whose values hold
    /// more than the group (the LOGIN).
    func parse(_ parsed: ParsedArguments, spec: CommandSpec, into values: Values) throws(UsageError) -> Values {
        var values = values
        try parse(parsed, spec: spec, into: &values)
        return values
    }

    /// The words that ask for these values again, for a resume hint.
    func arguments(_ values: Values) -> [String] {
        options.flatMap { $0.words(resuming: values) }
    }
}

extension ParsedArguments {
    func has<Values>(_ option: OptionDeclaration<Values>) -> Bool { has(option.spec) }
    func value<Values>(_ option: OptionDeclaration<Values>) -> String? { value(option.spec) }
}

extension GroupDeclaration where Values: OptionValues {
    func parse(_ parsed: ParsedArguments, spec: CommandSpec) throws(UsageError) -> Values {
        try parse(parsed, spec: spec, into: Values())
    }
}
