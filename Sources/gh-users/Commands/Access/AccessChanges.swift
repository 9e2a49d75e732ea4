import AtomicCore
import Data
import Domain
import Foundation
import JSONBytes

/// An organization's access map as `access --changes` found it: one entry per repository and person, with the
/// permission and its sources, in the map's order, and which map it is (the organization and the filters). On
/// disk it is one JSON object with one entry a line, so a person can read it and `grep` it:
/// `{"version":1,"command":"access","of":"my-org","filters":{},"access":[` then
/// `{"repository":"my-org/app","login":"mona","id":1,"permission":"admin","sources":[…]}` lines and `]}`.
struct AccessSnapshot: SnapshotContents, Equatable {
    static let version = 1
    static let kindName = "a gh-users snapshot of an access map"

    struct Source: Decodable, Equatable {
        let kind: String
        let name: String
        let permission: String
    }

    struct Entry: Decodable, Equatable {
        let repository: String
        let login: String
        let id: Int64
        let permission: String
        let sources: [Source]

        /// One person's access to one repository: the repository case aside, and the account's id, which a
        /// rename does not change.
        var key: String { repository.lowercased() + " " + String(id) }

        init(repository: String, login: String, id: Int64, permission: String, sources: [Source]) {
            self.repository = repository
            self.login = login
            self.id = id
            self.permission = permission
            self.sources = sources
        }

        init(_ record: AccessRecord) {
            self.init(
                repository: record.repository, login: record.login, id: record.id,
                permission: record.permission.rawValue,
                sources: record.sources.map { Source(kind: $0.kind.rawValue, name: $0.name, permission: $0.permission) }
            )
        }

        var sourcesJSON: JSONValue {
            .array(
                sources.map { source in
                    .object([
                        .init("kind", .string(source.kind)), .init("name", .string(source.name)),
                        .init("permission", .string(source.permission)),
                    ])
                })
        }
    }

    /// The organization, as given.
    var organization: String
    /// The filters the map was read with, by option name (`repo`, `person`, `permission`, `affiliation`).
    var filters: [String: String]
    var entries: [Entry]

    /// The same map: the same organization (case aside, as GitHub compares logins) and filters.
    func isSameMap(as other: AccessSnapshot) -> Bool {
        organization.lowercased() == other.organization.lowercased() && filters == other.filters
    }

    /// The map in words: `access my-org (permission=write)`.
    var description: String {
        let shown = filters.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        return "access \(organization)" + (shown.isEmpty ? "" : " (" + shown.joined(separator: ", ") + ")")
    }

    var encoded: [UInt8] {
        let filters = filters.sorted { $0.key < $1.key }.map { JSONValue.Member($0.key, .string($0.value)) }
        let header = JSONValue.object([
            .init("version", .integer(Int64(Self.version))), .init("command", .string("access")),
            .init("of", .string(organization)), .init("filters", .object(filters)),
        ])
        var bytes = Array(header.bytes.dropLast())
        bytes += Array(",\"access\":[".utf8)
        for (index, entry) in entries.enumerated() {
            bytes += Array((index == 0 ? "\n" : ",\n").utf8)
            bytes +=
                JSONValue.object([
                    .init("repository", .string(entry.repository)), .init("login", .string(entry.login)),
                    .init("id", .integer(entry.id)), .init("permission", .string(entry.permission)),
                    .init("sources", entry.sourcesJSON),
                ]).bytes
        }
        bytes += Array("\n]}\n".utf8)
        return bytes
    }

    /// What the reader would refuse in this snapshot; nil when it reads back.
    var problem: FileContentProblem? {
        guard !organization.isEmpty else { return FileContentProblem("has an empty \"of\"") }
        for entry in entries {
            guard entry.id > 0, !entry.login.isEmpty, entry.repository.contains("/"),
                RepositoryPermissionLevel(rawValue: entry.permission) != nil
            else {
                return FileContentProblem(
                    "has an entry whose id is not positive, whose login is empty, whose repository is not ORG/NAME "
                        + "or whose permission is none of read, triage, write, maintain and admin")
            }
        }
        return nil
    }

    static func decode(_ bytes: [UInt8]) -> Result<AccessSnapshot, FileContentProblem> {
        guard let fields = try? JSONDecoder().decode(Fields.self, from: Foundation.Data(bytes)),
            fields.command == "access"
        else {
            return .failure(
                FileContentProblem(
                    "does not hold \"version\" (\(Self.version)), \"command\" (\"access\"), \"of\", \"filters\" (an "
                        + "object of strings) and \"access\" (a list of {\"repository\", \"login\", \"id\", "
                        + "\"permission\", \"sources\"})"))
        }
        if let problem = FileContentProblem.version(fields.version, expected: Self.version) { return .failure(problem) }
        let snapshot = AccessSnapshot(organization: fields.of, filters: fields.filters, entries: fields.access)
        if let problem = snapshot.problem { return .failure(problem) }
        return .success(snapshot)
    }

    private struct Fields: Decodable {
        let version: Int
        let command: String
        let of: String
        let filters: [String: String]
        let access: [Entry]
    }
}

/// One change to the access map: `added`, `removed`, or `changed` (another permission, or the same from other
/// sources), with the old and the new permission and sources (null where there is none).
struct AccessChange: JSONRecord, Equatable {
    let change: String
    let repository: String
    let login: String
    let old: AccessSnapshot.Entry?
    let new: AccessSnapshot.Entry?

    var raw: RawJSON {
        RawJSON(
            bytes: JSONValue.object([
                .init("change", .string(change)), .init("repository", .string(repository)),
                .init("login", .string(login)), .init("id", .integer((new ?? old)?.id ?? 0)),
                .init("old_permission", old.map { .string($0.permission) } ?? .null),
                .init("new_permission", new.map { .string($0.permission) } ?? .null),
                .init("old_sources", old?.sourcesJSON ?? .null), .init("new_sources", new?.sourcesJSON ?? .null),
            ]).bytes)
    }

    static let fields = [
        "change", "repository", "login", "id", "old_permission", "new_permission", "old_sources", "new_sources",
    ]

    static let columns: [Column<AccessChange>] = [
        Column("CHANGE", key: "change") { $0.change },
        Column("REPOSITORY", key: "repository", shrink: .second) { $0.repository },
        Column("LOGIN", key: "login") { $0.login },
        Column("OLD", key: "old_permission") { $0.old?.permission ?? "" },
        Column("NEW", key: "new_permission") { $0.new?.permission ?? "" },
        Column("OLD VIA", key: "old_sources", shrink: .first) { via($0.old) },
        Column("NEW VIA", key: "new_sources", shrink: .first) { via($0.new) },
    ]

    /// The columns `format` writes: the table says the sources in words; tsv and csv hold under each name what
    /// the change record holds there, `old_sources` and `new_sources` their JSON arrays (empty for null), as
    /// JSON and `--fields` write them.
    static func columns(for format: OutputFormat) -> [Column<AccessChange>] {
        guard format != .table else { return columns }
        return columns.map { column in
            switch column.key {
            case "old_sources": return Column("OLD_SOURCES", key: column.key) { json($0.old) }
            case "new_sources": return Column("NEW_SOURCES", key: column.key) { json($0.new) }
            default: return column
            }
        }
    }

    private static func json(_ entry: AccessSnapshot.Entry?) -> String {
        entry.map { String(decoding: $0.sourcesJSON.bytes, as: UTF8.self) } ?? ""
    }

    private static func via(_ entry: AccessSnapshot.Entry?) -> String {
        AccessCommand.via(
            entry?.sources.compactMap { source in
                AccessRecord.Source.Kind(rawValue: source.kind).map {
                    AccessRecord.Source(kind: $0, name: source.name, permission: source.permission)
                }
            } ?? [])
    }

    /// What changed from `old` to `new`, sorted by repository then login, case aside.
    static func between(_ old: [AccessSnapshot.Entry], _ new: [AccessSnapshot.Entry]) -> [AccessChange] {
        var before: [String: AccessSnapshot.Entry] = [:]
        for entry in old { before[entry.key] = entry }
        var changes: [AccessChange] = []
        var seen = Set<String>()
        for entry in new {
            seen.insert(entry.key)
            guard let was = before[entry.key] else {
                changes.append(AccessChange(change: "added", entry, old: nil))
                continue
            }
            let sameSources = sorted(was.sources) == sorted(entry.sources)
            if was.permission != entry.permission || !sameSources {
                changes.append(AccessChange(change: "changed", entry, old: was))
            }
        }
        for entry in old where !seen.contains(entry.key) {
            changes.append(AccessChange(change: "removed", nil, old: entry))
        }
        return changes.sorted { lhs, rhs in
            let repository = AccessOrder.compare(lhs.repository, rhs.repository)
            if repository != 0 { return repository < 0 }
            return AccessOrder.precedes(lhs.login, rhs.login)
        }
    }

    private init(change: String, _ new: AccessSnapshot.Entry?, old: AccessSnapshot.Entry?) {
        self.change = change
        self.old = old
        self.new = new
        repository = (new ?? old)?.repository ?? ""
        login = (new ?? old)?.login ?? ""
    }

    /// GitHub may list a person's sources in another order from one run to the next: the same sources in
    /// another order are no change.
    private static func sorted(_ sources: [AccessSnapshot.Source]) -> [String] {
        sources.map { "\($0.kind)\u{0}\($0.name.lowercased())\u{0}\($0.permission)" }.sorted()
    }
}

/// Keeps the map's records that pass the filters, for `--changes`, with a progress line on a terminal.
struct AccessCollected: AccessRecordSink {
    let command: AccessCommand
    let progress: ProgressLine
    var entries: [AccessSnapshot.Entry] = []
    var repositories = 0
    /// Records the filters but `--affiliation` keep whose affiliation this token cannot tell.
    var unknownAffiliations = 0

    mutating func take(_ records: [AccessRecord], of repository: String, read: AccessRepositoryRead) async -> Bool {
        repositories += 1
        entries += records.filter(command.keeps).map(AccessSnapshot.Entry.init)
        unknownAffiliations += command.unknownAffiliations(records)
        progress.show(
            "Read \(Counted.text(repositories, plural: "repositories")) · "
                + Counted.text(entries.count, plural: "records"))
        return true
    }
}

extension AccessCommand {
    /// The filters a snapshot is made with, by option name: another set of filters is another map.
    var snapshotFilters: [String: String] {
        var filters: [String: String] = [:]
        if !repositories.isEmpty {
            filters["repo"] = repositories.map { $0.lowercased() }.sorted().joined(separator: ",")
        }
        if let person { filters["person"] = person.lowercased() }
        if let permission { filters["permission"] = permission.rawValue }
        if let affiliation { filters["affiliation"] = affiliation.rawValue }
        return filters
    }

    /// `--changes FILE`: the file locked and read before the first request (a file made for another map is
    /// refused), the whole map read, compared with the file's, the changes written, and only then the file
    /// replaced. A map GitHub did not show whole (a repository refused) is never compared or recorded.
    func recordChanges(_ path: String, _ context: CommandContext, _ github: GitHubReader) async -> CommandOutcome {
        let io = context.io
        let file = SnapshotFile<AccessSnapshot>(path: path)
        var snapshot = AccessSnapshot(organization: organization.value, filters: snapshotFilters, entries: [])
        let lock: OwnedFileLock
        let previous: AccessSnapshot?
        do throws(LocalFileError) {
            lock = try file.lock()
            previous = try file.load()
            if let previous, !previous.isSameMap(as: snapshot) {
                throw LocalFileError(
                    message: "the snapshot file \(TerminalSanitizer.quotedPath(path)) was made for 'gh-users "
                        + "\(previous.description)', not for 'gh-users \(snapshot.description)'. It was left as it "
                        + "is: give each map its own snapshot file")
            }
        } catch {
            io.writeErr("gh-users: \(error.message)\n")
            return .setupFailed
        }
        // Held until the new snapshot is in place.
        defer { withExtendedLifetime(lock) {} }
        let reading = AccessReading(
            organization: organization, github: github, concurrency: concurrency, person: person)
        var collected = AccessCollected(command: self, progress: ProgressLine(io: io, noun: "records"))
        var summary = AccessReadSummary()
        do throws(DomainError) {
            let members = try await reading.members(counting: &summary)
            try await reading.read(
                members: members, only: repositories.isEmpty ? nil : repositories, into: &collected,
                counting: &summary)
        } catch {
            collected.progress.clear()
            io.writeErr(context.presenter.present(error).message + file.untouched)
            return .failed(error)
        }
        collected.progress.clear()
        guard summary.unreadable.isEmpty else {
            let count = summary.unreadable.count
            io.writeErr(
                TerminalSanitizer.sanitize(
                    "gh-users: GitHub did not show the collaborators of \(Counted.text(count, plural: "repositories")) "
                        + "of \(summary.repositories) (it shows them only to those with push access): "
                        + summary.unreadable.joined(separator: ", ") + "; a partial map is never compared or recorded.")
                    + "\n" + file.untouched)
            return .failed(
                .refused("the collaborators of \(count) of \(summary.repositories) repositories were refused"))
        }
        let missing = self.missing(summary.missing)
        if let first = missing.first {
            io.writeErr(missing.map { context.presenter.present($0).message }.joined() + file.untouched)
            return .failed(first)
        }
        snapshot.entries = collected.entries
        let changes = previous.map { AccessChange.between($0.entries, snapshot.entries) } ?? []
        let words = snapshot.description
        if let stopped = await file.record(
            snapshot, problem: snapshot.problem, listed: words, count: snapshot.entries.count, noun: "record",
            changes: changes, columns: AccessChange.columns(for: context.render.format), command: context)
        {
            return stopped
        }
        // The change records have no affiliation: only what --affiliation left out is worth a word.
        if affiliation != nil, let note = affiliationNote(collected.unknownAffiliations) { io.writeErr(note) }
        file.closingNote(
            firstRun: previous == nil, changed: !changes.isEmpty, listed: words, count: snapshot.entries.count,
            noun: "record", io: io)
        return .success
    }
}
