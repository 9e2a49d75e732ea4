import Domain
import JSONBytes

/// Who is in a list, as `--changes` records them: an id that never changes, the login it had, and for a list that
/// gives each person a role or permission (`collaborators`' `role_name`, `members`' `admin` or `member`) that role.
protocol ChangeEntry: Sendable {
    var id: Int64 { get }
    var login: String { get }
    /// nil for a list without roles (followers, stargazers).
    var role: String? { get }
    /// What the reader refuses in an entry (an id that is not positive, an empty login); nil for one it reads.
    var problem: String? { get }
}

extension Array where Element: ChangeEntry {
    /// What the reader refuses in a snapshot's entries: one it refuses, or an id twice (`idNamed`: "account id").
    func problem(idNamed name: String) -> FileContentProblem? {
        var seen = Set<Int64>(minimumCapacity: count)
        for entry in self {
            if let problem = entry.problem { return FileContentProblem("holds \(problem)") }
            guard seen.insert(entry.id).inserted else {
                return FileContentProblem("holds the \(name) \(entry.id) twice")
            }
        }
        return nil
    }
}

/// One difference between a snapshot and the list now: a person who came, went, changed their login or had their
/// role changed. People are matched by id, which never changes, so a renamed account is one record, not a removal
/// and an addition.
struct ListChange: JSONRecord, Equatable {
    enum Kind: String, Sendable {
        /// `changed`: the role changed (and maybe the login too: then `previous_login` is there as well).
        case added, removed, renamed, changed
    }

    let kind: Kind
    let id: Int64
    /// The login now; for a removed account, the one the snapshot recorded.
    let login: String
    /// For a renamed account, the login the snapshot recorded.
    var previousLogin: String?
    /// The role now (for a removed person the one recorded), in a list with roles; nil in one without.
    var role: String?
    /// For a `changed` record, the role the snapshot recorded.
    var previousRole: String?
    /// In a list that names a person by an email address where GitHub gives no login (`invitations`): such a
    /// record's `login` is null and the address is under `email`, as the list writes it; a previous name that
    /// was an address is `previous_email`, never `previous_login`. A record named by a login has neither (the
    /// snapshot keeps no address of it, so none is claimed).
    var namesAddresses = false

    /// The keys of a record, which `--fields` takes with `--changes`, in a list without roles.
    static let fields = ["change", "login", "id", "previous_login"]
    /// The keys in a list with roles: `role` in every record, `previous_role` in a `changed` one.
    static let roleFields = fields + ["role", "previous_role"]
    /// Those an account's record does not have: refused without `--changes`.
    static let ownFields = ["change", "previous_login", "previous_role"]
    /// The keys in a list that names people by address too.
    static let addressFields = roleFields + ["email", "previous_email"]

    /// The address `login` holds, in a list that names people by address too: a login never has an `@`.
    private var address: String? { address(login) }
    /// The address `previousLogin` holds, likewise.
    private var previousAddress: String? { previousLogin.flatMap(address) }
    /// `previousLogin` when it is a login.
    private var previousAccount: String? { previousAddress == nil ? previousLogin : nil }

    private func address(_ name: String) -> String? { namesAddresses && name.contains("@") ? name : nil }

    /// `{"change":"renamed","login":"new","id":1,"previous_login":"old"}`; `previous_login` only for a login that
    /// changed, `role` in every record of a list with roles and `previous_role` only for a role that changed.
    var raw: RawJSON {
        var members: [JSONValue.Member] = [
            .init("change", .string(kind.rawValue)), .init("login", address == nil ? .string(login) : .null),
            .init("id", .integer(id)),
        ]
        if let previousAccount { members.append(.init("previous_login", .string(previousAccount))) }
        if let role { members.append(.init("role", .string(role))) }
        if let previousRole { members.append(.init("previous_role", .string(previousRole))) }
        if let address { members.append(.init("email", .string(address))) }
        if let previousAddress { members.append(.init("previous_email", .string(previousAddress))) }
        return RawJSON(bytes: JSONValue.object(members).bytes)
    }

    /// A table (on a terminal) marks each login with its change: `+` added, `−` (U+2212) removed, `~` renamed,
    /// `!` role changed, the way a diff reads. Tsv and csv name the change in words, for scripts. `roles` adds the
    /// role columns, for a list with roles, and `addresses` the email columns (`namesAddresses`).
    static func columns(_ context: RenderContext, roles: Bool = false, addresses: Bool = false) -> [Column<ListChange>]
    {
        let roleColumns: [Column<ListChange>] =
            roles
            ? [
                Column("ROLE") { $0.role ?? "" },
                // Words in a table, as RENAMED FROM is; the key's own spelling for the data formats.
                Column(context.format == .table ? "PREVIOUS ROLE" : "PREVIOUS_ROLE", key: "previous_role") {
                    $0.previousRole ?? ""
                },
            ] : []
        // The data formats' columns are `fields`' (`roleFields`'), in the order JSON writes them and help lists them,
        // so a script that reads csv by position reads what help says.
        guard context.format == .table else {
            return [
                Column("CHANGE") { $0.kind.rawValue },
                Column("LOGIN", shrink: .last) { $0.address == nil ? $0.login : "" },
                Column("ID") { String($0.id) },
                Column("PREVIOUS_LOGIN", key: "previous_login", shrink: .second) { $0.previousAccount ?? "" },
            ] + roleColumns
                + (addresses
                    ? [
                        Column("EMAIL") { $0.address ?? "" },
                        Column("PREVIOUS_EMAIL", key: "previous_email") { $0.previousAddress ?? "" },
                    ] : [])
        }
        return [
            Column("CHANGE", shrink: .last) { $0.kind.sign + " " + $0.login },
            Column("ID") { String($0.id) },
        ] + roleColumns + [
            Column("RENAMED FROM", key: "previous_login", shrink: .second) { $0.previousLogin ?? "" }
        ]
    }

    /// The longest email address an invitation may name a person by (RFC 5321's limit on a path).
    static let maximumAddressLength = 254

    /// Why a snapshot does not hold `login`: one GitHub cannot issue (`Login`'s rule: at most 39 characters)
    /// would let a hostile answer fill memory and the file with logins of any length; with `orAddress`, an
    /// invitation's email address of at most `maximumAddressLength` bytes is a name too. nil for one it holds.
    /// The login is never repeated: its length is what is said.
    static func loginProblem(_ login: String, orAddress: Bool = false) -> String? {
        if login.utf8.count <= Login.maximumLength + 5, Login.isValid(login) { return nil }
        if orAddress, login.contains("@") {
            guard login.utf8.count > maximumAddressLength else { return nil }
            return "an email address of \(login.utf8.count) bytes, longer than the \(maximumAddressLength) an address "
                + "may be"
        }
        return "a login of \(login.utf8.count) bytes that GitHub cannot issue (a login is 1 to "
            + "\(Login.maximumLength) letters, digits, '-' or '_')"
    }

    /// What changed from `snapshot` to `now`, both in their list's order: the people added, renamed and changed in
    /// the order the list has them now, then the people removed in the order the snapshot had them. Linear in the
    /// two lists' lengths. `namesAddresses` marks each record as of a list that names people by address too.
    static func between<Entry: ChangeEntry>(_ snapshot: [Entry], _ now: [Entry], namesAddresses: Bool = false)
        -> [ListChange]
    {
        var recorded = [Int64: Entry](minimumCapacity: snapshot.count)
        for entry in snapshot { recorded[entry.id] = entry }
        var changes: [ListChange] = []
        var present = Set<Int64>(minimumCapacity: now.count)
        for entry in now {
            present.insert(entry.id)
            guard let previous = recorded[entry.id] else {
                changes.append(ListChange(kind: .added, id: entry.id, login: entry.login, role: entry.role))
                continue
            }
            let renamed = previous.login != entry.login ? previous.login : nil
            // A role is changed only from one known to another: a role GitHub did not say then or now is no change.
            if let before = previous.role, let role = entry.role, before != role {
                changes.append(
                    ListChange(
                        kind: .changed, id: entry.id, login: entry.login, previousLogin: renamed, role: role,
                        previousRole: before))
            } else if renamed != nil {
                changes.append(
                    ListChange(
                        kind: .renamed, id: entry.id, login: entry.login, previousLogin: renamed, role: entry.role))
            }
        }
        for entry in snapshot where !present.contains(entry.id) {
            changes.append(ListChange(kind: .removed, id: entry.id, login: entry.login, role: entry.role))
        }
        guard namesAddresses else { return changes }
        return changes.map { change in
            var change = change
            change.namesAddresses = true
            return change
        }
    }
}

extension ListChange.Kind {
    var sign: String {
        switch self {
        case .added: "+"
        case .removed: "\u{2212}"
        case .renamed: "~"
        case .changed: "!"
        }
    }
}

extension FollowSnapshot.Account: ChangeEntry {
    var role: String? { nil }
}
