import Foundation

/// `--changes FILE`, as every list that takes it declares it: a snapshot is always of the whole list (`--all` is
/// implied, `--limit` refused) as GitHub has it now (no `--offline`), holds ids, logins and roles (no `--full`), and
/// its records have their own fields.
enum ChangesOption {
    static let name = "changes"

    /// Whether `--changes` is on the line: its records are checked by its own rule, not a list's.
    static func isGiven(_ parsed: ParsedArguments) -> Bool { parsed.values[name] != nil }

    static func declaration<Options: Sendable>(
        at path: WritableKeyPath<Options, String?> & Sendable, fields: [String], help: String
    ) -> OptionDeclaration<Options> {
        .optional(
            OptionSpec(name, value: "FILE", help: help, path: .file),
            at: path,
            parse: { reading throws(UsageError) in
                let path = try reading.filePath()
                if reading.parsed.value(PagingGroup.limit) != nil {
                    throw reading.usageError(
                        "--changes compares the whole list, so it cannot be used with --limit (--all is implied)")
                }
                if reading.parsed.has(ProfileGroup.full) {
                    throw reading.usageError("--changes records ids and logins, so it cannot be used with --full")
                }
                if reading.parsed.has(CacheGroup.offline) {
                    throw reading.usageError(
                        "--changes compares GitHub's list as it is now, which --offline cannot ask: it answers from "
                            + "the cache alone, pages cached at different times")
                }
                if let field = reading.parsed.chosenFields?.first(where: { !$0.isEmpty && !fields.contains($0) }) {
                    // With a suggestion, as every other unknown field is said.
                    let suggestion = Suggestions.nearest(to: field, among: fields).map { "; did you mean '\($0)'?" }
                    throw reading.usageError(
                        "unknown field '\(field)' for \(reading.command.name) --changes\(suggestion ?? "")\n"
                            + UsageError.filled("Valid fields: ", [fields.joined(separator: ", ")]))
                }
                return path
            },
            write: { $0 })
    }

    /// Without `--changes` (`changes` nil), a field only its records have is refused: one of `fields` that
    /// neither the command's own records nor another option's have (`members`' `role`; `team-members` has one).
    static func checkFields(_ changes: String?, _ parsed: ParsedArguments, spec: CommandSpec, fields: [String])
        throws(UsageError)
    {
        let others = spec.fields + spec.optionFields.filter { $0.fields != fields }.flatMap(\.fields)
        let changesOnly = Set(ListChange.ownFields + fields).subtracting(others)
        guard changes == nil, let field = parsed.chosenFields?.first(where: changesOnly.contains) else { return }
        throw UsageError(
            message: "the field '\(field)' exists only with --changes, whose records have "
                + fields.joined(separator: ", "),
            command: spec)
    }
}
