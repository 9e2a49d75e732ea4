import Data
import Domain
import Foundation
import JSONBytes

/// The people of one organization's, team's or repository's list as `--changes` found them: ids, logins and roles
/// in the list's order, and which list it is. On disk it is one JSON object with one person a line, so a person can
/// read it and `grep` it: `{"version":1,"api_url":"https://api.github.com","command":"members","of":"github",`
/// `"owner_id":1,"filters":{},"people":[` then `{"id":1,"login":"mojombo","role":"admin"}` lines and `]}`. The API
/// root (`api_url`) and the owner's id (`owner_id`: the organization's, a team's organization's, or the
/// repository's) were added without a new version: a file without them still reads, and an older gh-users reads a
/// file with them.
struct PeopleSnapshot: Sendable, Equatable {
    static let version = 1

    /// One person: the id, which never changes, the login (or for an invitation sent to an email address, the
    /// address) and the role the list gave them.
    struct Entry: ChangeEntry, Equatable, Decodable {
        let id: Int64
        let login: String
        var role: String?
        /// A login with an `@`, or an address without one (`PeopleChangeKey.entry`): never in a file.
        var misnamed = false

        enum CodingKeys: String, CodingKey { case id, login, role }

        /// What the reader refuses in an entry: written, it would make every later run refuse the file.
        var problem: String? {
            guard id > 0, !login.isEmpty else { return "a person whose id is not positive or whose login is empty" }
            if misnamed {
                let length = login.utf8.count
                return login.contains("@")
                    ? "a login of \(length) bytes with an '@' (no login GitHub issues has one)"
                    : "an email address of \(length) bytes without an '@'"
            }
            if let role, role.utf8.count > Self.maximumRoleLength {
                return
                    "a role of \(role.utf8.count) bytes, longer than the \(Self.maximumRoleLength) a snapshot records"
            }
            return ListChange.loginProblem(login, orAddress: true)
        }

        /// GitHub's roles are words (`admin`, `maintainer`, `direct_member`) or a custom repository role's name,
        /// whose length GitHub does not document: far past any name (a team's is at most 255 characters), a role is
        /// a hostile answer's, and would fill the file.
        static let maximumRoleLength = 1_024
    }

    /// Which list: the command, what it lists under (`github`, `octocat/Hello-World`, `github/justice-league`) and
    /// the filters it was given, by their query keys (`affiliation=outside`; `public=true` for public members).
    struct Subject: Sendable, Equatable {
        let command: String
        let owner: String
        let filters: [String: String]

        /// The list in words: `members github` or `collaborators octocat/Hello-World (affiliation=outside)`.
        var description: String {
            let shown = filters.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
            return "\(command) \(owner)" + (shown.isEmpty ? "" : " (" + shown.joined(separator: ", ") + ")")
        }

        /// GitHub's default for a filter, which names the same list as no filter (`--affiliation all`): a run
        /// keeps it as none (`PeopleFilter.choice`), but a snapshot from before gh-users did may record it.
        static let defaults = ["affiliation": "all", "role": "all"]

        /// The filters with those at GitHub's default left out.
        var listFilters: [String: String] { filters.filter { Self.defaults[$0.key] != $0.value } }

        /// The same list: the same command and filters (one at its default the same as none), and the same owner in
        /// any case (as GitHub compares them).
        func isSameList(as other: Subject) -> Bool {
            isSameKind(as: other) && isSameOwnerName(as: other)
        }

        /// The same command and filters, whoever the owner.
        func isSameKind(as other: Subject) -> Bool {
            command == other.command && listFilters == other.listFilters
        }

        /// The same owner name, in any case (as GitHub compares them).
        func isSameOwnerName(as other: Subject) -> Bool {
            owner.lowercased() == other.owner.lowercased()
        }
    }

    var subject: Subject
    var people: [Entry]
    /// The id of what the list is under, as GitHub gave it when the list was read (`GET /orgs/{org}` for an
    /// organization's or a team's, `GET /repos/{owner}/{repo}` for a repository's): a renamed owner's snapshot
    /// carries on under its new name. nil in a file written before it was recorded, or when GitHub did not say.
    var ownerID: Int64?
    /// The API root the list was read from (`RecordedAPIRoot.of`); nil in a file written before it was recorded.
    var apiURL: String?

    var encoded: [UInt8] {
        let filters = subject.filters.sorted { $0.key < $1.key }.map { JSONValue.Member($0.key, .string($0.value)) }
        let root = apiURL.map { [JSONValue.Member("api_url", .string($0))] } ?? []
        let list: [JSONValue.Member] =
            [.init("version", .integer(Int64(Self.version)))] + root + [
                .init("command", .string(subject.command)),
                .init("of", .string(subject.owner)),
            ]
        let owner = ownerID.map { [JSONValue.Member("owner_id", .integer($0))] } ?? []
        let header = list + owner + [.init("filters", .object(filters))]
        // The header's closing brace gives way to the list.
        var bytes = Array(JSONValue.object(header).bytes.dropLast())
        bytes += Array(",\"people\":[".utf8)
        for (index, entry) in people.enumerated() {
            bytes += Array((index == 0 ? "\n" : ",\n").utf8)
            var members: [JSONValue.Member] = [.init("id", .integer(entry.id)), .init("login", .string(entry.login))]
            if let role = entry.role { members.append(.init("role", .string(role))) }
            bytes += JSONValue.object(members).bytes
        }
        bytes += Array("\n]}\n".utf8)
        return bytes
    }

    /// What the reader would refuse in this snapshot, in the words `decode` uses; nil when it reads back. Checked
    /// before a snapshot is written, so that no run writes a file every later run refuses.
    var problem: FileContentProblem? {
        guard !subject.command.isEmpty, !subject.owner.isEmpty else {
            return FileContentProblem("has an empty \"command\" or \"of\"")
        }
        if let ownerID, ownerID <= 0 { return FileContentProblem("has an \"owner_id\" that is not positive") }
        if let problem = people.problem(idNamed: "id") { return problem }
        // Only invitations name people by address: in any other list a login with an `@` is none GitHub issues,
        // which a run refuses in GitHub's answer (`PeopleChangeKey.entry`), and so in a file.
        guard subject.command != InvitationsCommand.spec.name,
            let misnamed = people.first(where: { $0.login.contains("@") })
        else { return nil }
        return FileContentProblem(
            "holds a login of \(misnamed.login.utf8.count) bytes with an '@' (no login GitHub issues has one)")
    }

    /// The snapshot a file holds, or why it is not one.
    static func decode(_ bytes: [UInt8]) -> Result<PeopleSnapshot, FileContentProblem> {
        guard let fields = Fields.read(bytes) else {
            return .failure(
                FileContentProblem(
                    "does not hold \"version\" (\(Self.version)), \"api_url\" (a string or absent), \"command\", "
                        + "\"of\", \"owner_id\" (a whole number or absent), \"filters\" (an object of strings) and \"people\" (a list of {\"id\": a whole number, \"login\": a string, "
                        + "\"role\": a string or absent})"))
        }
        if let problem = FileContentProblem.version(fields.version, expected: Self.version) { return .failure(problem) }
        let snapshot = PeopleSnapshot(
            subject: Subject(command: fields.command, owner: fields.of, filters: fields.filters),
            people: fields.people, ownerID: fields.ownerID, apiURL: fields.apiURL)
        if let problem = snapshot.problem { return .failure(problem) }
        return .success(snapshot)
    }

    /// The file's fields, as `JSONDecoder` reads them.
    struct Fields: Decodable, Equatable {
        let version: Int
        let command: String
        let of: String
        /// Not in a file written before the owner's id was recorded.
        let ownerID: Int64?
        /// Not in a file written before the API root was recorded.
        let apiURL: String?
        let filters: [String: String]
        var people: [Entry]

        enum CodingKeys: String, CodingKey {
            case version, command, of, filters, people
            case ownerID = "owner_id"
            case apiURL = "api_url"
        }

        /// The fields of a file, a line at a time where gh-users wrote it (`SnapshotLines`); nil for what
        /// `JSONDecoder` refuses.
        static func read(_ bytes: [UInt8]) -> Fields? {
            SnapshotLines.decode(bytes, list: \.people, key: "people", written: written)
        }

        /// The file gh-users writes for these fields with nobody in the list.
        static func written(_ fields: Fields) -> [UInt8] {
            let subject = Subject(command: fields.command, owner: fields.of, filters: fields.filters)
            return PeopleSnapshot(subject: subject, people: [], ownerID: fields.ownerID, apiURL: fields.apiURL).encoded
        }
    }
}

extension PeopleSnapshot.Entry: ScannedDTO {
    /// A snapshot's line as `SnapshotLines` reads it, nil where `JSONDecoder` is to decide: a role that is
    /// neither a string nor null, no whole-number id or no string login. Other keys are passed over, as
    /// `JSONDecoder` passes them.
    init?(scanning bytes: [UInt8], in range: Range<Int>) {
        var reader = JSONMemberReader(bytes, in: range)
        var (id, login, role): (Int64?, String?, String?) = (nil, nil, nil)
        while let (key, value) = reader.next() {
            switch (String(decoding: key, as: UTF8.self), value) {
            case ("id", .integer(let number)): id = number
            case ("login", .string(let text)): login = text
            case ("role", .string(let text)): role = text
            case ("role", .null): role = nil
            case ("id", _), ("login", _), ("role", _): return nil
            default: continue
            }
        }
        guard reader.finished, let id, let login else { return nil }
        self.init(id: id, login: login, role: role)
    }
}
