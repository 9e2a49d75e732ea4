import AtomicCore
import Data
import Domain
import Foundation
import JSONBytes

/// An organization's access map as `access --changes` found it: one entry per repository and person, with the
/// permission and its sources, in the map's order, and which map it is (the organization and the filters). On
/// disk it is one JSON object with one entry a line, so a person can read it and `grep` it:
/// `{"version":1,"api_url":"https://api.github.com","command":"access","of":"my-org","filters":{},"access":[` then
/// `{"repository":"my-org/app","login":"mona","id":1,"permission":"admin","sources":[…]}` lines and `]}`. The API
/// root (`api_url`) was added without a new version: a file without it still reads, and gets it when replaced.
///
/// A file as gh-users writes it is kept as its text (`AccessSnapshotText`), about 200 bytes a record; any other
/// file JSON allows (hand-edited, or not in the map's order) is decoded whole into `entries`, as it always was.
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

        /// The entry's line in the file.
        var line: [UInt8] {
            JSONValue.object([
                .init("repository", .string(repository)), .init("login", .string(login)), .init("id", .integer(id)),
                .init("permission", .string(permission)), .init("sources", sourcesJSON),
            ]).bytes
        }

        /// Whether the reader takes the entry: a positive id, a login, a repository "ORG/NAME" and a permission.
        var isReadable: Bool {
            id > 0 && !login.isEmpty && repository.contains("/")
                && RepositoryPermissionLevel(rawValue: permission) != nil
        }

        /// `isReadable`, and the repository one of `organization`'s: a snapshot holds one organization's map.
        func isReadable(in organization: String) -> Bool {
            isReadable && repository.lowercased().hasPrefix(organization.lowercased() + "/")
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
    /// The entries decoded, for a file not as gh-users writes it; empty where `text` holds them.
    var entries: [Entry]
    /// The file's text, where it is as gh-users writes it; every snapshot this gh-users writes has one.
    var text: AccessSnapshotText?
    /// The API root the map was read from (`RecordedAPIRoot.of`); nil in a file written before it was recorded.
    var apiURL: String?

    init(
        organization: String, filters: [String: String], entries: [Entry], text: AccessSnapshotText? = nil,
        apiURL: String? = nil
    ) {
        self.organization = organization
        self.filters = filters
        self.entries = entries
        self.text = text
        self.apiURL = apiURL
    }

    /// How many entries it holds.
    var count: Int { text?.count ?? entries.count }

    /// The same map: the same organization (case aside, as GitHub compares logins) and filters.
    func isSameMap(as other: AccessSnapshot) -> Bool {
        organization.lowercased() == other.organization.lowercased() && filters == other.filters
    }

    /// The map in words: `access my-org (permission=write)`.
    var description: String {
        let shown = filters.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        return "access \(organization)" + (shown.isEmpty ? "" : " (" + shown.joined(separator: ", ") + ")")
    }

    /// The header line, up to the opening of the entries' list: `{"version":1,…,"access":[`.
    static func header(organization: String, filters: [String: String], apiURL: String?) -> [UInt8] {
        let filters = filters.sorted { $0.key < $1.key }.map { JSONValue.Member($0.key, .string($0.value)) }
        let root = apiURL.map { [JSONValue.Member("api_url", .string($0))] } ?? []
        let header = JSONValue.object(
            [.init("version", .integer(Int64(Self.version)))] + root + [
                .init("command", .string("access")), .init("of", .string(organization)),
                .init("filters", .object(filters)),
            ])
        return Array(header.bytes.dropLast()) + Array(",\"access\":[".utf8)
    }

    var encoded: [UInt8] {
        if var text {
            text.close()
            return text.bytes
        }
        var text = AccessSnapshotText(organization: organization, filters: filters, apiURL: apiURL)
        for entry in entries { text.append(entry) }
        text.close()
        return text.bytes
    }

    /// What the reader would refuse in this snapshot; nil when it reads back.
    var problem: FileContentProblem? {
        guard !organization.isEmpty else { return FileContentProblem("has an empty \"of\"") }
        guard text?.hasUnreadable != true, entries.allSatisfy({ $0.isReadable(in: organization) }) else {
            return FileContentProblem(
                "has an entry whose id is not positive, whose login is empty, whose repository is not ORG/NAME "
                    + "with ORG its \"of\", or whose permission is none of read, triage, write, maintain and admin")
        }
        // Worded as a people snapshot's reader words an id twice (`problem(idNamed:)`).
        if let entry = text?.repeated ?? entries.repeated {
            return FileContentProblem("holds the access of \(entry.login) to \(entry.repository) twice")
        }
        return nil
    }

    /// A file as gh-users writes it is kept as its text, checked line by line; any other is decoded whole.
    static func decode(_ bytes: [UInt8]) -> Result<AccessSnapshot, FileContentProblem> {
        if let read = AccessSnapshotText.read(bytes) {
            return .success(
                AccessSnapshot(
                    organization: read.organization, filters: read.filters, entries: [], text: read.text,
                    apiURL: read.apiURL))
        }
        // Stopped by a signal: not read whole again, which takes longer still (`SnapshotFile.load` says why).
        if Task.isCancelled { return .failure(FileContentProblem("was not read to its end")) }
        return decodeWhole(bytes)
    }

    /// The file decoded whole, its entries in `entries`, as every file was before its text was kept: an entry at
    /// a time where it is valid JSON (`SnapshotLines.decodeWhole`).
    static func decodeWhole(_ bytes: [UInt8]) -> Result<AccessSnapshot, FileContentProblem> {
        guard let fields = SnapshotLines.decodeWhole(bytes, list: \Fields.access, key: "access"),
            fields.command == "access"
        else {
            return .failure(
                FileContentProblem(
                    "does not hold \"version\" (\(Self.version)), \"api_url\" (a string or absent), \"command\" "
                        + "(\"access\"), \"of\", \"filters\" (an object of strings) and \"access\" (a list of {\"repository\", \"login\", \"id\", "
                        + "\"permission\", \"sources\"})"))
        }
        if let problem = FileContentProblem.version(fields.version, expected: Self.version) { return .failure(problem) }
        let snapshot = AccessSnapshot(
            organization: fields.of, filters: fields.filters, entries: fields.access, apiURL: fields.apiURL)
        if let problem = snapshot.problem { return .failure(problem) }
        return .success(snapshot)
    }

    struct Fields: Decodable {
        let version: Int
        let command: String
        let of: String
        let filters: [String: String]
        var access: [Entry]
        /// Not in a file written before the API root was recorded.
        let apiURL: String?

        enum CodingKeys: String, CodingKey {
            case version, command, of, filters, access
            case apiURL = "api_url"
        }
    }
}

extension Array where Element == AccessSnapshot.Entry {
    /// The first entry whose repository and person (its id, or its login, case aside) came before: a map holds
    /// one entry per repository and person, and a change is found by repository and id.
    var repeated: AccessSnapshot.Entry? {
        var ids = Set<String>(minimumCapacity: count)
        var logins = Set<String>(minimumCapacity: count)
        return first { entry in
            let repository = entry.repository.lowercased() + " "
            let newID = ids.insert(entry.key).inserted
            return !logins.insert(repository + entry.login.lowercased()).inserted || !newID
        }
    }
}

/// Keeps the map's records that pass the filters, for `--changes`, as the text of the new snapshot, and compares
/// them with FILE's as they arrive (`AccessChangeStream`), with a progress line on a terminal.
struct AccessCollected: AccessRecordSink {
    let command: AccessCommand
    let progress: ProgressLine
    var text: AccessSnapshotText
    var stream: AccessChangeStream
    var repositories = 0
    /// Records the filters but `--affiliation` keep whose affiliation this token cannot tell.
    var unknownAffiliations = 0
    /// Repositories read whole that list no one. GitHub lists an organization's owners among every repository's
    /// collaborators (its REST reference for the list), so for everyone's access that is no answer of GitHub's.
    var empty: [String] = []

    mutating func take(_ records: [AccessRecord], of repository: String, read: AccessRepositoryRead) async -> Bool {
        repositories += 1
        if read == .read, records.isEmpty, command.person == nil { empty.append(repository) }
        let entries = records.filter(command.keeps).map(AccessSnapshot.Entry.init)
        let ranges = entries.map { text.append($0) }
        stream.take(entries, of: repository, at: ranges, in: text)
        unknownAffiliations += command.unknownAffiliations(records)
        progress.show(
            "Read \(Counted.text(repositories, plural: "repositories")) · "
                + Counted.text(text.count, plural: "records"))
        return true
    }
}

extension AccessCommand {
    /// Why the map read is not compared (`ListCollapse`), or nil: a listing far short of the repositories GitHub
    /// counts, or, for everyone's access, no one's where FILE holds records, or a repository with no one (`empty`).
    /// One person may lose all their access, so an empty map of theirs is taken as it is.
    func collapse(_ summary: AccessReadSummary, recorded: Int?, empty: [String]) -> String? {
        if let first = empty.first {
            return "GitHub listed no one with access to \(Counted.text(empty.count, plural: "repositories")) ("
                + "\(first)\(empty.count > 1 ? ", …" : "")), where an organization's owners reach every repository, "
                + "so the map was not compared: GitHub answered only part of it; run again later"
        }
        let listing = ListCollapse(
            list: "GitHub's listing of \(organization.value)'s repositories", read: summary.repositories,
            counted: summary.counted.map { ($0, "its totalCount") }, noun: "repositories")
        let map = ListCollapse(
            list: "GitHub's access map of \(organization.value)", read: summary.records, recorded: recorded,
            noun: "records")
        return (repositories.isEmpty ? listing.refusal : nil) ?? (person == nil ? map.refusal : nil)
    }

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
        var snapshot = AccessSnapshot(
            organization: organization.value, filters: snapshotFilters, entries: [],
            apiURL: RecordedAPIRoot.of(github.apiRoot))
        let lock: OwnedFileLock
        let previous: AccessSnapshot?
        var spelled = organization.value
        do throws(LocalFileError) {
            lock = try file.lock()
            previous = try file.load(against: github.apiRoot)
            if let previous, !previous.isSameMap(as: snapshot) {
                // A map is keyed by names: a renamed organization's is another's, and the message says the way on.
                let renamed =
                    previous.organization.lowercased() == snapshot.organization.lowercased()
                        || previous.filters != snapshot.filters
                    ? "" : " (if the organization was renamed, keep a copy of the file, then remove it to start again)"
                throw LocalFileError(
                    message: "the snapshot file \(TerminalSanitizer.quotedPath(path)) was made for 'gh-users "
                        + "\(LocalFileError.held(previous.description))', not for 'gh-users \(snapshot.description)'. It was left as it "
                        + "is: give each map its own snapshot file" + renamed)
            }
            try file.checkWritable()
            // The file keeps its spelling of the organization, another case aside: a run with no change leaves it
            // as it was (before, `access GitHub` and `access github` rewrote it in turn; a review's find). What the
            // run says names the organization as typed.
            if let previous { spelled = previous.organization }
        } catch {
            if error.isInterruption { return context.interrupted() }
            io.writeErr("gh-users: \(error.message)\n")
            return .setupFailed
        }
        // Held until the new snapshot is in place.
        defer { withExtendedLifetime(lock) {} }
        let reading = AccessReading(
            organization: organization, github: github, concurrency: concurrency, person: person)
        var collected = AccessCollected(
            command: self, progress: ProgressLine(io: io, noun: "records"),
            // The map the file recorded, and an eighth more, as the new map's room.
            text: AccessSnapshotText(
                organization: spelled, filters: snapshot.filters, apiURL: snapshot.apiURL,
                capacity: previous?.text.map { $0.bytes.count + $0.bytes.count / 8 } ?? 0),
            stream: AccessChangeStream(old: previous))
        var summary = AccessReadSummary()
        do throws(DomainError) {
            let members = try await reading.members(counting: &summary)
            try await reading.read(
                members: members, only: repositories.isEmpty ? nil : repositories, into: &collected,
                counting: &summary)
            try await checkPerson(matched: summary.records, github)
        } catch {
            collected.progress.clear()
            io.writeErr(context.presenter.present(error).message + file.untouched)
            return .failed(error)
        }
        collected.progress.clear()
        guard summary.unreadable.isEmpty else {
            let refusal = refusal(
                summary.unreadable, of: summary.present, partial: "; a partial map is never compared or recorded.")
            io.writeErr(refusal.message + file.untouched)
            return .failed(refusal.error)
        }
        let missing = self.missing(summary.missing)
        if let first = missing.first {
            io.writeErr(missing.map { context.presenter.present($0).message }.joined() + file.untouched)
            return .failed(first)
        }
        if let refusal = collapse(summary, recorded: previous?.count, empty: collected.empty) {
            io.writeErr("gh-users: \(refusal)\n" + file.untouched)
            return .setupFailed
        }
        // Records --affiliation could not tell may be the filter's: left out, they would be recorded as removed.
        if affiliation != nil, let note = affiliationNote(collected.unknownAffiliations) {
            io.writeErr(
                note + "gh-users: with them unknown, the map was not compared: run it with a member's token\n"
                    + file.untouched)
            return .setupFailed
        }
        collected.text.close()
        let changes = collected.stream.finish(new: collected.text)
        snapshot.text = collected.text
        let words = snapshot.description
        if let stopped = await file.record(
            snapshot, problem: snapshot.problem, listed: words, count: snapshot.count, noun: "record",
            changes: changes, columns: AccessChange.columns(for: context.render.format), command: context)
        {
            return stopped
        }
        file.closingNote(
            firstRun: previous == nil, changed: !changes.isEmpty, listed: words, count: snapshot.count,
            noun: "record", reports: "the access added, removed or changed", io: io)
        if let note = goneNote(summary.missing) { io.writeErr(note) }
        return .success
    }
}
