import Domain
import JSONBytes

/// What `gh-users me edit` changes: the profile fields given, by GitHub's names for `PATCH /user`, and whether
/// it only prints the request (`--dry-run`).
struct ProfileEdit: Sendable, Equatable {
    /// Each text field's option and GitHub's key for it, in the order the body sends them.
    static let textFields: [(option: OptionSpec, key: String)] = [
        (OptionSpec("name", value: "TEXT", help: "The name shown on the profile."), "name"),
        (OptionSpec("bio", value: "TEXT", help: "The short biography."), "bio"),
        (OptionSpec("blog", value: "URL", help: "The website or blog."), "blog"),
        (OptionSpec("location", value: "TEXT", help: "Where you are."), "location"),
        (OptionSpec("company", value: "TEXT", help: "Where you work."), "company"),
        (
            OptionSpec("twitter-username", value: "NAME", help: "The X (Twitter) account, without @."),
            "twitter_username"
        ),
    ]
    static let hireable = OptionSpec("hireable", help: "Say you are available for hire.")
    static let notHireable = OptionSpec("no-hireable", help: "Say you are not.")
    static let dryRun = OptionSpec("dry-run", help: "Print the request and its JSON body, and send nothing.")

    /// Every option `edit` takes, in the order help lists them.
    static var options: [OptionSpec] { textFields.map(\.option) + [hireable, notHireable, dryRun] }

    /// The text fields given, by GitHub's key; an empty value clears the field, as GitHub takes it.
    var texts: [String: String] = [:]
    var hireable: Bool?
    var dryRun = false

    /// The fields to change, in GitHub's names and the order of `textFields`, then `hireable`.
    var fields: [JSONValue.Member] {
        Self.textFields.compactMap { field in texts[field.key].map { .init(field.key, .string($0)) } }
            + (hireable.map { [.init("hireable", .bool($0))] } ?? [])
    }

    /// `me edit`'s options; at least one field is needed, and `--hireable` and `--no-hireable` exclude each other.
    static func parse(_ parsed: ParsedArguments, spec: CommandSpec) throws(UsageError) -> ProfileEdit {
        var edit = ProfileEdit(dryRun: parsed.has(dryRun))
        for field in textFields {
            guard var value = parsed.value(field.option) else { continue }
            // The account's name, as GitHub keeps it: `@mona` as people write it is `mona`.
            if field.key == "twitter_username", value.hasPrefix("@") { value.removeFirst() }
            edit.texts[field.key] = value
        }
        switch (parsed.has(hireable), parsed.has(notHireable)) {
        case (true, true): throw UsageError(message: "give --hireable or --no-hireable, not both", command: spec)
        case (true, false): edit.hireable = true
        case (false, true): edit.hireable = false
        case (false, false): break
        }
        guard !edit.fields.isEmpty else {
            let names = (textFields.map(\.option) + [hireable]).map { "--" + $0.name }
            throw UsageError(
                message: "me edit needs a field to change: " + names.dropLast().joined(separator: ", ") + " or "
                    + (names.last ?? ""),
                command: spec)
        }
        return edit
    }

    /// The first edit option given to plain `me`, which takes none.
    static func stray(_ parsed: ParsedArguments) -> OptionSpec? {
        options.first { $0.takesValue ? parsed.value($0) != nil : parsed.has($0) }
    }
}
