import Domain
import JSONBytes

/// The columns a person scans first in any list of accounts (`list`, `followers`, `following`, `search`).
enum AccountColumns {
    static let summary: [Column<User>] = [
        Column("ID") { String($0.id) },
        Column("LOGIN", shrink: .last) { $0.login },
        Column("TYPE") { $0.typeAsSent },
        Column("URL", key: "html_url", shrink: .second) { $0.htmlURL ?? "" },
    ]
}

extension User {
    /// The account's `type` as GitHub sent it, empty when it sent none (a 2012 profile): `type` reads it as a
    /// user for deciding what to ask, but output says only what GitHub said.
    var typeAsSent: String { JSONText.text(of: "type", in: raw.bytes) }
}

extension AccountColumns {
    /// The same list with `--full`: who the accounts are and how much they weigh.
    static let profile: [Column<User>] = [
        Column("ID") { String($0.id) },
        Column("LOGIN", shrink: .last) { $0.login },
        Column("NAME", key: "name", shrink: .second) { $0.name ?? "" },
        Column("LOCATION", key: "location", shrink: .second) { $0.location ?? "" },
        Column("FOLLOWERS", key: "followers") { $0.followers.map(String.init) ?? "" },
        Column("REPOS", key: "public_repos") { $0.publicRepos.map(String.init) ?? "" },
        Column("JOINED", key: "created_at") { user in
            user.createdAt.map { String(RelativeTime.rfc3339($0).prefix(10)) } ?? ""
        },
    ]
}
