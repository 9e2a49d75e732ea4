import Domain

/// The columns a person scans first in any list of accounts (`list`, `followers`, `following`, `search`).
enum AccountColumns {
    static let summary: [Column<User>] = [
        Column("ID") { String($0.id) },
        Column("LOGIN", shrink: .last) { $0.login },
        Column("TYPE") { $0.type.name },
        Column("URL", key: "html_url", shrink: .second) { $0.htmlURL ?? "" },
    ]
}
