import AtomicCore
import Domain
import JSONBytes

/// What `gh-users me edit` changes: the profile fields given, by GitHub's names for `PATCH /user`, and whether
/// it only prints the request (`--dry-run`).
struct ProfileEdit: OptionValues {
    /// Each text field's option and GitHub's key for it, in the order the body sends them.
    static let textFields: [(option: OptionDeclaration<ProfileEdit>, key: String)] = [
        text(OptionSpec("name", value: "TEXT", help: "The name shown on the profile."), "name"),
        text(OptionSpec("bio", value: "TEXT", help: "The short biography."), "bio"),
        text(OptionSpec("blog", value: "URL", help: "The website or blog."), "blog"),
        text(OptionSpec("location", value: "TEXT", help: "Where you are."), "location"),
        text(OptionSpec("company", value: "TEXT", help: "Where you work."), "company"),
        text(
            OptionSpec("twitter-username", value: "NAME", help: "The X (Twitter) account, without @."),
            "twitter_username"),
    ]
    static let hireable = OptionDeclaration<ProfileEdit>(
        spec: OptionSpec("hireable", help: "Say you are available for hire."),
        read: { edit, _ in edit.hireable = true }, resume: { $0.hireable == true ? ["--hireable"] : [] })
    static let notHireable = OptionDeclaration<ProfileEdit>(
        spec: OptionSpec("no-hireable", help: "Say you are not."),
        read: { edit, _ in edit.hireable = false }, resume: { $0.hireable == false ? ["--no-hireable"] : [] })
    static let dryRun = OptionDeclaration<ProfileEdit>.flag(
        OptionSpec("dry-run", help: "Print the request and its JSON body, and send nothing."), at: \.dryRun)

    /// Every option `me edit` takes, in the order help lists them: at least one field is needed, and
    /// `--hireable` and `--no-hireable` exclude each other.
    static let options = GroupDeclaration<ProfileEdit>(
        title: "OPTIONS", options: textFields.map(\.option) + [hireable, notHireable, dryRun])

    /// A text field kept under GitHub's `key`; an empty value clears the field, as GitHub takes it.
    private static func text(_ spec: OptionSpec, _ key: String) -> (OptionDeclaration<ProfileEdit>, String) {
        let option = OptionDeclaration<ProfileEdit>(
            spec: spec,
            read: { (edit: inout ProfileEdit, reading: OptionReading) throws(UsageError) in
                var value = reading.text
                // The account's name, as GitHub keeps it: `@mona` as people write it is `mona`. An `@` alone names
                // no account, and would clear the field unasked.
                if key == "twitter_username", value.hasPrefix("@") {
                    value.removeFirst()
                    guard !value.allSatisfy(\.isWhitespace), !value.hasPrefix("@") else {
                        throw reading.usageError(
                            "--twitter-username \(TerminalSanitizer.sanitize(reading.text)) names no account; give '' to "
                                + "clear the field")
                    }
                }
                // Blanks are no account either, and GitHub would keep them; '' clears the field.
                if key == "twitter_username", !value.isEmpty, value.allSatisfy(\.isWhitespace) {
                    throw reading.usageError(
                        "--twitter-username '\(TerminalSanitizer.sanitize(reading.text))' names no account; give '' "
                            + "to clear the field")
                }
                edit.texts[key] = value
            },
            resume: { edit in edit.texts[key].map { ["--" + spec.name, $0] } ?? [] })
        return (option, key)
    }

    /// The text fields given, by GitHub's key; an empty value clears the field, as GitHub takes it.
    var texts: [String: String] = [:]
    var hireable: Bool?
    var dryRun = false

    /// The fields to change, in GitHub's names and the order of `textFields`, then `hireable`.
    var fields: [JSONValue.Member] {
        Self.textFields.compactMap { field in texts[field.key].map { .init(field.key, .string($0)) } }
            + (hireable.map { [.init("hireable", .bool($0))] } ?? [])
    }
}

extension ProfileEdit: CheckedOptions {
    func check(_ parsed: ParsedArguments, spec: CommandSpec) throws(UsageError) {
        if parsed.has(Self.hireable), parsed.has(Self.notHireable) {
            throw UsageError(message: "give --hireable or --no-hireable, not both", command: spec)
        }
        guard fields.isEmpty else { return }
        // Both ways of saying hireable are named, as the usage line pairs them (helper-344: --no-hireable was not).
        let names = Self.textFields.map { "--" + $0.option.name } + ["--\(Self.hireable.name)"]
        throw UsageError(
            message: "me edit needs a field to change: " + names.joined(separator: ", ") + " or --"
                + Self.notHireable.name,
            command: spec)
    }
}
