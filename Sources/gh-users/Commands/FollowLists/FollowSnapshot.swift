import Data
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
    /// True for a snapshot read from a version 1 file, which recorded the account's login but not its id:
    /// `account.id` is then 0, no id, and the account is known by its login alone.
    var loginOnly = false

    /// The command that lists it, as words: `followers octocat --mutual`.
    var command: String {
        ([relation.rawValue, account.login] + (filter.map { ["--" + $0] } ?? [])).joined(separator: " ")
    }

    /// Whether a snapshot made for `other` is of the same side and set operation; the account is checked
    /// apart, once its profile is known (`isSameAccount`).
    func isSameList(as other: FollowSnapshotSubject) -> Bool {
        relation == other.relation && filter == other.filter
    }

    /// Whether a snapshot made for `other` is of this account: the same id, whatever its login now; for a
    /// version 1 snapshot, the same login, in any case (as GitHub compares logins).
    func isSameAccount(as other: FollowSnapshotSubject) -> Bool {
        loginOnly ? account.login.lowercased() == other.account.login.lowercased() : account.id == other.account.id
    }

    /// The account in words: `octocat (account id 583231)`, or `octocat` when only its login was recorded.
    var accountDescription: String {
        loginOnly ? account.login : "\(account.login) (account id \(account.id))"
    }
}

/// A list of accounts as `--changes` found it: ids and logins in the list's order, and which list it is. On
/// disk it is one JSON object with one account a line, so a person can read it and `grep` it:
/// `{"version":2,"api_url":"https://api.github.com","command":"followers","account_id":583231,"login":"octocat",`
/// `"filter":null,"accounts":[` then `{"id":1,"login":"mojombo"}` lines and `]}`. The API root (`api_url`) was
/// added without a new version: a file without it still reads, and an older gh-users reads a file with it.
struct FollowSnapshot: Sendable, Equatable {
    static let version = 2
    /// The version before the account id was recorded: still read, and written back as `version`.
    static let loginOnlyVersion = 1

    /// One account: its id, which never changes, and the login it had.
    struct Account: Sendable, Equatable, Decodable {
        let id: Int64
        let login: String

        /// What the reader refuses in an account: written, it would make every later run refuse the file.
        var problem: String? {
            guard id > 0, !login.isEmpty else { return "an account whose id is not positive or whose login is empty" }
            return ListChange.loginProblem(login)
        }
    }

    var subject: FollowSnapshotSubject
    var accounts: [Account]
    /// The API root the list was read from (`RecordedAPIRoot.of`); nil in a file written before it was recorded.
    var apiURL: String?

    var encoded: [UInt8] {
        // Always this version's: a snapshot read from a version 1 file is written back with the profile's id.
        let root = apiURL.map { [JSONValue.Member("api_url", .string($0))] } ?? []
        let header: [JSONValue.Member] =
            [.init("version", .integer(Int64(Self.version)))] + root + [
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
        FileContentProblem(
            "has version \(version); this gh-users reads versions \(Self.loginOnlyVersion) and \(Self.version)")
    }

    /// What the reader would refuse in this snapshot, in the words `decode` uses; nil when it reads back. Checked
    /// before a snapshot is written, so that no run writes a file every later run refuses.
    var problem: FileContentProblem? {
        guard subject.account.problem == nil, Login.isValid(subject.account.login) else {
            return FileContentProblem("has an account id that is not positive or a \"login\" that is no GitHub login")
        }
        return listProblem
    }

    /// What the reader would refuse in the filter or the accounts.
    private var listProblem: FileContentProblem? {
        let filters = FollowListCommand.filters(subject.relation).map(\.option.name)
        if let filter = subject.filter, !filters.contains(filter) {
            return FileContentProblem("has the filter \"\(filter)\", which \(subject.relation.rawValue) does not take")
        }
        return accounts.problem(idNamed: "account id")
    }

    /// The snapshot a file holds, or why it is not one.
    static func decode(_ bytes: [UInt8]) -> Result<FollowSnapshot, FileContentProblem> {
        guard let fields = Fields.read(bytes) else {
            // Stopped by a signal: not read whole again (`SnapshotFile.load` says the run was interrupted).
            if Task.isCancelled { return .failure(fieldsProblem) }
            // Only to say why: another gh-users's snapshot, or a file of another kind.
            if let header = try? JSONDecoder().decode(Header.self, from: Foundation.Data(bytes)),
                let version = header.version,
                version != Self.version, version != Self.loginOnlyVersion,
                header.command.flatMap(UserRelation.init(rawValue:)) != nil
            {
                return .failure(versionProblem(version))
            }
            return .failure(fieldsProblem)
        }
        guard fields.version == Self.version || fields.version == Self.loginOnlyVersion else {
            return .failure(versionProblem(fields.version))
        }
        guard let relation = UserRelation(rawValue: fields.command) else {
            return .failure(
                FileContentProblem("has the command \"\(fields.command)\"; a snapshot is of followers or following"))
        }
        switch (fields.version, fields.accountID, fields.login) {
        case (Self.version, let id?, let login?):
            let snapshot = FollowSnapshot(
                subject: FollowSnapshotSubject(
                    relation: relation, account: Account(id: id, login: login), filter: fields.filter),
                accounts: fields.accounts, apiURL: fields.apiURL)
            if let problem = snapshot.problem { return .failure(problem) }
            return .success(snapshot)
        case (Self.loginOnlyVersion, nil, let login?):
            // Written before the account id was: the login it names is checked against the profile's.
            guard Login.isValid(login) else {
                return .failure(FileContentProblem("has a \"login\" that is no GitHub login"))
            }
            var subject = FollowSnapshotSubject(
                relation: relation, account: Account(id: 0, login: login), filter: fields.filter)
            subject.loginOnly = true
            let snapshot = FollowSnapshot(subject: subject, accounts: fields.accounts, apiURL: fields.apiURL)
            if let problem = snapshot.listProblem { return .failure(problem) }
            return .success(snapshot)
        case (Self.loginOnlyVersion, nil, nil):
            return .failure(
                FileContentProblem(
                    "is a version 1 snapshot of the token's own account (\"login\": null), which does not say "
                        + "whose account it is, so it cannot be checked against this one",
                    remedy: "if you know the account it was made for, write its login in the file's \"login\" "
                        + "(\"login\": \"octocat\") and run again, and its changes carry on; otherwise remove it to "
                        + "start again"))
        default:
            // Version 2 without an id or a login, or version 1 with an id.
            return .failure(fieldsProblem)
        }
    }

    private static let fieldsProblem = FileContentProblem(
        "does not hold \"version\", \"api_url\" (a string or absent), \"command\", \"account_id\" (a whole number), \"login\" (a string), "
            + "\"filter\" (a string or null) and \"accounts\" (a list of {\"id\": a whole number, "
            + "\"login\": a string})")

    /// The file's fields, as `JSONDecoder` reads them.
    struct Fields: Decodable, Equatable {
        let version: Int
        let command: String
        /// Not in version 1.
        let accountID: Int64?
        /// null in version 1 for the token's own account.
        let login: String?
        let filter: String?
        var accounts: [Account]
        /// Not in a file written before the API root was recorded.
        let apiURL: String?

        /// The fields of a file, a line at a time where gh-users wrote it (`SnapshotLines`); nil for what
        /// `JSONDecoder` refuses.
        static func read(_ bytes: [UInt8]) -> Fields? {
            SnapshotLines.decode(bytes, list: \.accounts, key: "accounts", written: written)
        }

        /// The file gh-users writes for these fields with no account; none for a version 1 file's, which it does
        /// not write.
        static func written(_ fields: Fields) -> [UInt8] {
            guard fields.version == FollowSnapshot.version, let relation = UserRelation(rawValue: fields.command),
                let id = fields.accountID, let login = fields.login
            else { return [] }
            let subject = FollowSnapshotSubject(
                relation: relation, account: Account(id: id, login: login), filter: fields.filter)
            return FollowSnapshot(subject: subject, accounts: [], apiURL: fields.apiURL).encoded
        }

        enum CodingKeys: String, CodingKey {
            case version, command, login, filter, accounts
            case accountID = "account_id"
            case apiURL = "api_url"
        }
    }

    /// Enough of a file that is not this version's snapshot to say which it is.
    private struct Header: Decodable {
        let version: Int?
        let command: String?
    }
}

extension FollowSnapshot: SnapshotContents {
    static let kindName = "a gh-users follower snapshot"
}

extension FollowSnapshot.Account: ScannedDTO {
    /// A snapshot's line as `SnapshotLines` reads it; nil for no whole-number id or no string login (then
    /// `JSONDecoder` decides). Other keys are passed over, as `JSONDecoder` passes them.
    init?(scanning bytes: [UInt8], in range: Range<Int>) {
        var reader = JSONMemberReader(bytes, in: range)
        var (id, login): (Int64?, String?) = (nil, nil)
        while let (key, value) = reader.next() {
            switch (String(decoding: key, as: UTF8.self), value) {
            case ("id", .integer(let number)): id = number
            case ("login", .string(let text)): login = text
            case ("id", _), ("login", _): return nil
            default: continue
            }
        }
        guard reader.finished, let id, let login else { return nil }
        self.init(id: id, login: login)
    }
}
