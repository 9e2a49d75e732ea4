import Domain
import JSONBytes

/// One difference between a follower snapshot and the list now: an account that came, went, or changed its login.
/// Accounts are matched by id, which never changes, so a renamed account is one record, not a removal and an
/// addition.
struct FollowerChange: JSONRecord, Equatable {
    enum Kind: String, Sendable {
        case added, removed, renamed
    }

    let kind: Kind
    let id: Int64
    /// The login now; for a removed account, the one the snapshot recorded.
    let login: String
    /// For a renamed account, the login the snapshot recorded.
    var previousLogin: String?

    /// The keys of a record, which `--fields` takes with `--changes`.
    static let fields = ["change", "login", "id", "previous_login"]
    /// Those an account's record does not have: refused without `--changes`.
    static let ownFields = ["change", "previous_login"]

    /// `{"change":"renamed","login":"new","id":1,"previous_login":"old"}`; `previous_login` only for a rename.
    var raw: RawJSON {
        var members: [JSONValue.Member] = [
            .init("change", .string(kind.rawValue)), .init("login", .string(login)), .init("id", .integer(id)),
        ]
        if let previousLogin { members.append(.init("previous_login", .string(previousLogin))) }
        return RawJSON(bytes: JSONValue.object(members).bytes)
    }

    /// A table (on a terminal) marks each login with its change: `+` added, `−` (U+2212) removed, `~` renamed,
    /// the way a diff reads. Tsv and csv name the change in words, for scripts.
    static func columns(_ context: RenderContext) -> [Column<FollowerChange>] {
        guard context.format == .table else {
            return [
                Column("CHANGE") { $0.kind.rawValue },
                Column("LOGIN", shrink: .last) { $0.login },
                Column("ID") { String($0.id) },
                Column("PREVIOUS_LOGIN", key: "previous_login", shrink: .second) { $0.previousLogin ?? "" },
            ]
        }
        return [
            Column("CHANGE", shrink: .last) { $0.kind.sign + " " + $0.login },
            Column("ID") { String($0.id) },
            Column("RENAMED FROM", key: "previous_login", shrink: .second) { $0.previousLogin ?? "" },
        ]
    }

    /// What changed from `snapshot` to `now`, both in their list's order: the accounts added and renamed in the
    /// order the list has them now, then the accounts removed in the order the snapshot had them. Linear in the
    /// two lists' lengths.
    static func between(_ snapshot: [FollowSnapshot.Account], _ now: [FollowSnapshot.Account]) -> [FollowerChange] {
        var recorded = [Int64: String](minimumCapacity: snapshot.count)
        for account in snapshot { recorded[account.id] = account.login }
        var changes: [FollowerChange] = []
        var present = Set<Int64>(minimumCapacity: now.count)
        for account in now {
            present.insert(account.id)
            switch recorded[account.id] {
            case nil:
                changes.append(FollowerChange(kind: .added, id: account.id, login: account.login))
            case let previous? where previous != account.login:
                changes.append(
                    FollowerChange(kind: .renamed, id: account.id, login: account.login, previousLogin: previous))
            default:
                break
            }
        }
        for account in snapshot where !present.contains(account.id) {
            changes.append(FollowerChange(kind: .removed, id: account.id, login: account.login))
        }
        return changes
    }
}

extension FollowerChange.Kind {
    var sign: String {
        switch self {
        case .added: "+"
        case .removed: "\u{2212}"
        case .renamed: "~"
        }
    }
}
