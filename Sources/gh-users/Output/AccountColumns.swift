import Domain
import JSONBytes

/// The columns a person scans first in any list of accounts (`list`, `followers`, `following`, `search`).
enum AccountColumns {
    static let summary: [Column<User>] = [
        Column("ID") { String($0.id) },
        Column("LOGIN", shrink: .last) { $0.login },
        Column("TYPE") { $0.typeAsSent },
        // A URL cut to a few letters says nothing: it gives way, as a description does, before a login is cut.
        Column("URL", key: "html_url", shrink: .first) { $0.htmlURL ?? "" },
    ]
}

extension User {
    /// The account's `type` as GitHub sent it, empty when it sent none (a 2012 profile): `type` reads it as a
    /// user for deciding what to ask, but output says only what GitHub said.
    var typeAsSent: String { JSONText.text(of: "type", in: raw.bytes) }
}

extension AccountColumns {
    /// The same list with `--full`: who the accounts are and how much they weigh. Read from the profile as GitHub
    /// sent it, so that accounts and records that became profiles (a stargazer's) show the same cells.
    static func profile<Item: JSONRecord>() -> [Column<Item>] {
        func sent(_ header: String, _ key: String, shrink: ColumnShrink? = nil) -> Column<Item> {
            Column(header, key: key, shrink: shrink) { JSONText.text(of: key, in: $0.raw.bytes) }
        }
        return [
            sent("ID", "id"), sent("LOGIN", "login", shrink: .last), sent("NAME", "name", shrink: .second),
            sent("LOCATION", "location", shrink: .second), sent("FOLLOWERS", "followers"),
            sent("REPOS", "public_repos"),
            // The day it was made, in UTC as GitHub sends it: a date, whose age says little in a list of people.
            Column("JOINED", key: "created_at") {
                String(JSONText.text(of: "created_at", in: $0.raw.bytes).prefix(10))
            },
        ]
    }
}
