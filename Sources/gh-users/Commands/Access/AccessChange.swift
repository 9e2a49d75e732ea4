import Domain
import JSONBytes

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

    /// The columns `format` writes: the table says in one column, VIA, which sources came (`+`) and went (`−`),
    /// so a change of sources alone shows what changed, where a narrow table cut the old and the new whole lists
    /// short; tsv and csv hold every field (`fields`), under each name what the change record holds there,
    /// `old_sources` and `new_sources` their JSON arrays (empty for null), as JSON and `--fields` write them.
    static func columns(for format: OutputFormat) -> [Column<AccessChange>] {
        guard format != .table else {
            return columns.dropLast(2) + [Column("VIA", key: "new_sources", shrink: .first) { viaChange($0) }]
        }
        // Every field, in the order help lists them and JSON writes them, so that csv read by position is help's.
        return columns.flatMap { column in
            switch column.key {
            case "login": return [column, Column("ID", key: "id") { String(($0.new ?? $0.old)?.id ?? 0) }]
            case "old_sources": return [Column("OLD_SOURCES", key: column.key) { json($0.old) }]
            case "new_sources": return [Column("NEW_SOURCES", key: column.key) { json($0.new) }]
            default: return [column]
            }
        }
    }

    private static func json(_ entry: AccessSnapshot.Entry?) -> String {
        entry.map { String(decoding: $0.sourcesJSON.bytes, as: UTF8.self) } ?? ""
    }

    private static func via(_ entry: AccessSnapshot.Entry?) -> String {
        AccessCommand.via(sources(entry))
    }

    private static func sources(_ entry: AccessSnapshot.Entry?) -> [AccessRecord.Source] {
        entry?.sources.compactMap { source in
            AccessRecord.Source.Kind(rawValue: source.kind).map {
                AccessRecord.Source(kind: $0, name: source.name, permission: source.permission)
            }
        } ?? []
    }

    /// The sources that came, each after `+`, then those that went, each after `−`, as the table says them.
    static func viaChange(_ change: AccessChange) -> String {
        let (old, new) = (sources(change.old), sources(change.new))
        let came = new.filter { !old.contains($0) }.map { "+ " + AccessCommand.via([$0]) }
        let went = old.filter { !new.contains($0) }.map { "− " + AccessCommand.via([$0]) }
        return (came + went).joined(separator: ", ")
    }

    /// What changed from `old` to `new`, sorted by repository then login, case aside.
    static func between(_ old: [AccessSnapshot.Entry], _ new: [AccessSnapshot.Entry]) -> [AccessChange] {
        found(old, new).map { found in
            AccessChange(change: found.change, found.new.map { new[$0] }, old: found.old.map { old[$0] })
        }
    }

    /// A change by where its entries are: in the lists compared (`found`), or in the maps' texts
    /// (`AccessChangeList`).
    struct Found<Position> {
        let change: String
        let old: Position?
        let new: Position?

        func map<Other>(_ transform: (Position) -> Other) -> Found<Other> {
            Found<Other>(change: change, old: old.map(transform), new: new.map(transform))
        }
    }

    /// `between`'s changes as the positions of their entries in `old` and `new`, in `between`'s order.
    static func found(_ old: [AccessSnapshot.Entry], _ new: [AccessSnapshot.Entry]) -> [Found<Int>] {
        var before: [String: Int] = [:]
        for (position, entry) in old.enumerated() { before[entry.key] = position }
        var changes: [Found<Int>] = []
        var seen = Set<String>()
        for (position, entry) in new.enumerated() {
            seen.insert(entry.key)
            guard let was = before[entry.key] else {
                changes.append(Found(change: "added", old: nil, new: position))
                continue
            }
            let sameSources = sorted(old[was].sources) == sorted(entry.sources)
            if old[was].permission != entry.permission || !sameSources {
                changes.append(Found(change: "changed", old: was, new: position))
            }
        }
        for (position, entry) in old.enumerated() where !seen.contains(entry.key) {
            changes.append(Found(change: "removed", old: position, new: nil))
        }
        func entry(_ found: Found<Int>) -> AccessSnapshot.Entry { found.new.map { new[$0] } ?? old[found.old ?? 0] }
        return changes.sorted { lhs, rhs in
            let (lhs, rhs) = (entry(lhs), entry(rhs))
            let repository = AccessOrder.compare(lhs.repository, rhs.repository)
            if repository != 0 { return repository < 0 }
            return AccessOrder.precedes(lhs.login, rhs.login)
        }
    }

    init(change: String, _ new: AccessSnapshot.Entry?, old: AccessSnapshot.Entry?) {
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
