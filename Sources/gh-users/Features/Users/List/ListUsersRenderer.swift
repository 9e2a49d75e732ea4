import Domain

/// How `list` looks: the columns a person scans first, and GitHub's own objects for JSON.
enum ListUsersRenderer {
    static let columns: [Column<User>] = [
        Column("ID") { String($0.id) },
        Column("LOGIN", shrinkable: true) { $0.login },
        Column("TYPE") { $0.type.name },
        Column("URL", shrinkable: true) { $0.htmlURL ?? "" },
    ]

    static func writer(_ context: RenderContext) -> RecordStreamWriter<User> {
        RecordStreamWriter(context: context, columns: columns, raw: \.raw)
    }

    static func resumeHint(after lastID: Int64) -> String {
        "To continue from here: gh-users list --since \(lastID)"
    }
}
