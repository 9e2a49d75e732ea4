import Domain
import Foundation
import JSONBytes

/// Which list a follower snapshot holds: one side of one account's follow graph, whole or through a set
/// operation. A snapshot compared with another list would report nearly every account as added or removed, so a
/// run checks that the snapshot it reads was made for the list it reads. The account is known by its id, which
/// never changes: a snapshot of the token's own account is of that account, not of whichever token comes next,
/// and a renamed account's snapshot carries on under its new login.
struct FollowSnapshotSubject: Sendable, Equatable {
    let relation: UserRelation
    /// The account whose list it is, as its profile gave it when the list was read.
    let account: FollowSnapshot.Account
    /// The set operation's option, without its dashes (`mutual`); nil for the whole list.
    let filter: String?

    /// The command that lists it, as words: `followers octocat --mutual`.
    var command: String {
        ([relation.rawValue, account.login] + (filter.map { ["--" + $0] } ?? [])).joined(separator: " ")
    }

    /// Whether a snapshot made for `other` is of the same side and set operation; the account is checked
    /// apart, once its profile is known (`isSameAccount`).
    func isSameList(as other: FollowSnapshotSubject) -> Bool {
        relation == other.relation && filter == other.filter
    }

    /// Whether a snapshot made for `other` is of this account: the same id, whatever its login now.
    func isSameAccount(as other: FollowSnapshotSubject) -> Bool {
        account.id == other.account.id
    }
}

/// A list of accounts as `--changes` found it: ids and logins in the list's order, and which list it is. On
/// disk it is one JSON object with one account a line, so a person can read it and `grep` it:
/// `{"version":2,"command":"followers","account_id":583231,"login":"octocat","filter":null,"accounts":[` then
/// `{"id":1,"login":"mojombo"}` lines and `]}`.
struct FollowSnapshot: Sendable, Equatable {
    static let version = 2

    /// One account: its id, which never changes, and the login it had.
    struct Account: Sendable, Equatable, Decodable {
        let id: Int64
        let login: String

        /// What the reader refuses in an account: written, it would make every later run refuse the file.
        var problem: String? {
            id > 0 && !login.isEmpty ? nil : "an account whose id is not positive or whose login is empty"
        }
    }

    var subject: FollowSnapshotSubject
    var accounts: [Account]

    var encoded: [UInt8] {
        let header: [JSONValue.Member] = [
            .init("version", .integer(Int64(Self.version))),
            .init("command", .string(subject.relation.rawValue)),
            .init("account_id", .integer(subject.account.id)),
            .init("login", .string(subject.account.login)),
            .init("filter", subject.filter.map(JSONValue.string) ?? .null),
        ]
        // The header's closing brace gives way to the list.
        var bytes = Array(JSONValue.object(header).bytes.dropLast())
        bytes += Array(",\"accounts\":[".utf8)
        for (index, account) in accounts.enumerated() {
            bytes += Array((index == 0 ? "\n" : ",\n").utf8)
            bytes +=
                JSONValue.object([.init("id", .integer(account.id)), .init("login", .string(account.login))])
                .bytes
        }
        bytes += Array("\n]}\n".utf8)
        return bytes
    }

    private static func versionProblem(_ version: Int) -> FileContentProblem {
        FileContentProblem("has version \(version); this gh-users reads version \(Self.version)")
    }

    /// What the reader would refuse in this snapshot, in the words `decode` uses; nil when it reads back. Checked
    /// before a snapshot is written, so that no run writes a file every later run refuses.
    var problem: FileContentProblem? {
        guard subject.account.problem == nil, Login.isValid(subject.account.login) else {
            return FileContentProblem("has an account id that is not positive or a \"login\" that is no GitHub login")
        }
        let filters = RelationsCommand.filters(subject.relation).map(\.option.name)
        if let filter = subject.filter, !filters.contains(filter) {
            return FileContentProblem("has the filter \"\(filter)\", which \(subject.relation.rawValue) does not take")
        }
        var seen = Set<Int64>(minimumCapacity: accounts.count)
        for account in accounts {
            if let problem = account.problem { return FileContentProblem("holds \(problem)") }
            guard seen.insert(account.id).inserted else {
                return FileContentProblem("holds the account id \(account.id) twice")
            }
        }
        return nil
    }

    /// The snapshot a file holds, or why it is not one.
    static func decode(_ bytes: [UInt8]) -> Result<FollowSnapshot, FileContentProblem> {
        let data = Foundation.Data(bytes)
        guard let fields = try? JSONDecoder().decode(Fields.self, from: data) else {
            // Only to say why: another gh-users's snapshot, or a file of another kind.
            if let header = try? JSONDecoder().decode(Header.self, from: data), let version = header.version,
                version != Self.version, header.command.flatMap(UserRelation.init(rawValue:)) != nil
            {
                return .failure(versionProblem(version))
            }
            return .failure(
                FileContentProblem(
                    "does not hold \"version\", \"command\", \"account_id\" (a whole number), \"login\" (a string), "
                        + "\"filter\" (a string or null) and \"accounts\" (a list of {\"id\": a whole number, "
                        + "\"login\": a string})"))
        }
        guard fields.version == Self.version else {
            return .failure(versionProblem(fields.version))
        }
        guard let relation = UserRelation(rawValue: fields.command) else {
            return .failure(
                FileContentProblem("has the command \"\(fields.command)\"; a snapshot is of followers or following"))
        }
        let snapshot = FollowSnapshot(
            subject: FollowSnapshotSubject(
                relation: relation, account: Account(id: fields.accountID, login: fields.login),
                filter: fields.filter),
            accounts: fields.accounts)
        if let problem = snapshot.problem { return .failure(problem) }
        return .success(snapshot)
    }

    private struct Fields: Decodable {
        let version: Int
        let command: String
        let accountID: Int64
        let login: String
        let filter: String?
        let accounts: [Account]

        enum CodingKeys: String, CodingKey {
            case version, command, login, filter, accounts
            case accountID = "account_id"
        }
    }

    /// Enough of a file that is not this version's snapshot to say which it is.
    private struct Header: Decodable {
        let version: Int?
        let command: String?
    }
}

/// The `--changes FILE` on disk: read and locked before the first request, replaced once the changes are
/// written (see `OwnedFile` for how it is replaced, locked and found through links).
struct FollowSnapshotFile: Sendable {
    let file: OwnedFile

    /// Far more than any follow list (a million accounts take about 45 MB); stops `/dev/zero` filling memory.
    static let limitBytes = 256 * 1024 * 1024

    init(path: String) {
        file = OwnedFile(path: path, kind: "snapshot file", option: "--changes", limitBytes: Self.limitBytes)
    }

    var path: String { file.path }

    /// nil when there is no file yet: the first run. Anything else that cannot be read as a snapshot is an
    /// error, and the file is left as it is.
    func load() throws(LocalFileError) -> FollowSnapshot? {
        try file.load(
            as: "a gh-users follower snapshot", remedy: "give --changes another file, or remove it to start again",
            FollowSnapshot.decode)
    }

    func replace(with snapshot: FollowSnapshot) throws(LocalFileError) {
        try file.replace(with: snapshot.encoded)
    }

    /// One run at a time: two overlapping nightly runs would both report the same changes.
    func lock() throws(LocalFileError) -> OwnedFileLock {
        try file.lock()
    }
}
