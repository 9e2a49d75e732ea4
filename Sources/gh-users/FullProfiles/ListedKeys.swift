import Domain
import JSONBytes

/// Under `--full`, what a list's record keeps of its own: the keys written at the top level of the person's
/// profile, each under its name there (`role_name` of a collaborator as it is, a fork's `created_at` as
/// `forked_at`). A key the record lacks is written as null, so every record has one shape.
struct ListedKey: Sendable, Equatable {
    /// The record's key.
    let key: String
    /// The name written next to the profile's keys.
    let name: String
    /// A timestamp, which a table on a terminal shows as the list's own column does ("3 days ago").
    let isTime: Bool
    /// How its column gives way to the terminal's width: never, as the list's own short values (a role, a count, a
    /// time as "3 days ago"); or first, and then left out: a JSON object, which a table cannot show whole, and a
    /// fork's name, mostly its owner's login (LOGIN) and the repository's name again.
    let shrink: ColumnShrink?

    init(_ key: String, as name: String? = nil, time: Bool = false, shrink: ColumnShrink? = nil) {
        self.key = key
        self.name = name ?? key
        isTime = time
        self.shrink = shrink
    }
}

extension [ListedKey] {
    /// `profile` with these keys of `listed` added at its top level.
    func adding(from listed: [UInt8], to profile: [UInt8]) -> [UInt8] {
        let members = (try? JSONText.objectMembers(listed)) ?? [:]
        return JSONText.adding(
            map { kept in (kept.name, members[kept.key].map { [UInt8](listed[$0]) } ?? [UInt8]("null".utf8)) },
            to: profile)
    }

    /// The kept keys' columns, after the profile's, each fitted to the terminal as its key says (before: never
    /// cut, so a collaborator's permissions pushed rows past the terminal); times as the list shows them.
    func columns<Item: JSONRecord>(_ render: RenderContext) -> [Column<Item>] {
        map { kept in
            Column(kept.name.uppercased(), key: kept.name, shrink: kept.shrink) { item in
                let text = JSONText.text(of: kept.name, in: item.raw.bytes)
                return kept.isTime ? RelativeTime.cell(text, context: render) : text
            }
        }
    }
}

extension ProfileStage where Item == Record {
    /// Records that hold an account, at `account` (`["owner"]` of a fork; `[]`: the record is the account, as a
    /// contributor's is), each written as the account's profile with `keeping` added. A record with no account
    /// there (a contributor with no GitHub account, under `--anon`) is written as it came.
    static func records(
        _ options: WritableKeyPath<Options, ProfileOptions> & Sendable, account path: [String],
        keeping kept: [ListedKey]
    ) -> Self {
        ProfileStage(options: options, way: RecordProfiles(account: path, kept: kept))
    }
}

/// Records that hold an account at `account`, written as the account's profile with `kept` added.
struct RecordProfiles: ProfileExpanding {
    let account: [String]
    let kept: [ListedKey]

    func columns(_ render: RenderContext) -> [Column<Record>] {
        (render.format == .table ? AccountColumns.profile() : ShowUsersRenderer.columns.map(\.readingJSON))
            + kept.columns(render)
    }

    func expansion(_ chosen: ProfileOptions, _ github: GitHubReader) -> ItemExpansion<Record> {
        let profiles = AccountProfiles(kept: []).expansion(chosen, github)
        return ItemExpansion(
            batchSize: profiles.batchSize, concurrency: profiles.concurrency,
            expander: RecordsAsProfiles(profiles: profiles.expander, account: account, kept: kept))
    }
}

/// Each record's account expanded to its profile, the record's kept keys added; a record without one as it came.
struct RecordsAsProfiles: ItemExpander {
    let profiles: any ItemExpander<User>
    let account: [String]
    let kept: [ListedKey]

    func expand(_ records: [Record]) async -> [Result<Record?, DomainError>] {
        let listed = records.map { Self.account(at: account, of: $0) }
        let found = listed.contains { $0 != nil } ? await profiles.expand(listed.compactMap { $0 }) : []
        var answers = found.makeIterator()
        return zip(records, listed).map { record, account in
            guard account != nil, let answer = answers.next() else { return .success(record) }
            return answer.map { profile in
                profile.map { user in
                    Record(id: user.id, raw: RawJSON(bytes: kept.adding(from: record.raw.bytes, to: user.raw.bytes)))
                }
            }
        }
    }

    func closingNotes() -> [String] { profiles.closingNotes() }

    /// The account a record holds at `path`, as a listed account (its id, login and type); nil without one.
    private static func account(at path: [String], of record: Record) -> User? {
        guard let bytes = path.isEmpty ? record.raw.bytes : JSONText.value(at: path, in: record.raw.bytes) else {
            return nil
        }
        let texts = JSONText.texts(of: ["id", "login", "type"], in: bytes)
        guard let id = Int64(texts[0]), !texts[1].isEmpty else { return nil }
        return User(id: id, login: texts[1], type: AccountType(name: texts[2]), raw: RawJSON(bytes: bytes))
    }
}

extension Column where Item == User {
    /// The same column for a record read by key from its JSON: a profile's columns for records that became
    /// profiles.
    var readingJSON: Column<Record> {
        let key = key
        return Column<Record>(header, key: key, shrink: shrink) { JSONText.text(of: key, in: $0.raw.bytes) }
    }
}
