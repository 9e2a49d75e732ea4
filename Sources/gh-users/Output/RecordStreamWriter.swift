import AtomicCore
import Domain
import JSONBytes

/// What a record is in JSON output: the object GitHub sent (an account, a repository), or one this tool writes
/// (a rate-limit bucket, a day of contributions). `--fields` reads its keys.
protocol JSONRecord: Sendable {
    var raw: RawJSON { get }
}

extension RawJSON: JSONRecord {
    var raw: RawJSON { self }
}

/// Turns batches of records into output bytes for any format, one batch at a time, so a crawl streams.
/// JSON is an array that is opened with the first batch and closed by `finish`, so stdout always holds one
/// valid document, even after a failure half-way; a failure before any record leaves stdout empty.
struct RecordStreamWriter<Item: JSONRecord>: Sendable {
    let context: RenderContext
    let columns: [Column<Item>]
    private var written = 0
    private var csvHeaderWritten = false
    private var tableLayout: TableLayout?
    /// The output already holds records of an earlier run that this one appends to, so CSV has its header.
    private let continuesOutput: Bool

    /// `--fields` that the command computes rather than reads from GitHub's JSON (`fingerprint`), by name.
    private let derived: [String: Column<Item>]
    /// With `--fields`, the command's own columns: what a record of the list's shape has (`keysMissing`).
    private let shape: [Column<Item>]
    /// The keys along `--fields` paths (`payload.issue`) that a record of a page so far has held, null or not:
    /// GitHub's, whatever a later page lacks (`keysMissing`).
    private var keysSeen: Set<String> = []

    /// With `--fields`, the columns are those fields read from each record's JSON, and JSON keeps only them. A
    /// field may be a path into a nested object, as the csv header names it (`repo.full_name`), or one the
    /// command computes (a key's `fingerprint`).
    init(context: RenderContext, columns: [Column<Item>], continuesOutput: Bool = false) {
        self.context = context
        self.continuesOutput = continuesOutput
        let derived = Dictionary(
            columns.filter(\.isDerived).map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
        self.derived = derived
        shape = context.fields == nil ? [] : columns
        if let fields = context.fields {
            // A field that is one of the command's own columns is cut as that column is (an id never, a login
            // last): as free text, a login was cut to 6 at 80 columns while a bio kept its room.
            self.columns = fields.map { field in
                // Asked for by name, it is cut rather than left out as a description or a URL would be.
                let own = columns.first { $0.key == field }.map(\.shrink) ?? .second
                let shrink = own == .first ? .second : own
                return Column(field.uppercased(), key: field, shrink: shrink, derived: derived[field] != nil) { item in
                    if let column = derived[field] { return column.value(item) }
                    return JSONText.text(at: Self.path(field), in: item.raw.bytes)
                }
            }
        } else {
            self.columns = columns
        }
    }

    /// The keys a field names: `repo.full_name` is `full_name` inside `repo`.
    private static func path(_ field: String) -> [String] {
        field.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    }

    /// Whether every field is a top-level key of GitHub's JSON, so one scan of a record reads them all.
    private var fieldsAreTopLevel: Bool {
        context.fields?.allSatisfy { !$0.contains(".") && derived[$0] == nil } ?? true
    }

    /// A record's cells: with `--fields` of top-level keys, all read from one scan of its JSON.
    private func cells(_ item: Item) -> [String] {
        if let fields = context.fields, fieldsAreTopLevel { return JSONText.texts(of: fields, in: item.raw.bytes) }
        return columns.map { column in
            let value = column.value(item)
            return column.isDerived && value == Column<Item>.unknown && context.format != .table ? "" : value
        }
    }

    /// The record's JSON, cut down to `--fields` when they were given: a path's value under its dotted name,
    /// a computed field as a string. A single object's JSON (`show`, `me`) is cut the same way.
    func json(_ item: Item) -> [UInt8] {
        let bytes = item.raw.bytes
        guard let fields = context.fields else { return bytes }
        if fieldsAreTopLevel { return JSONText.project(bytes, keys: fields) }
        var output: [UInt8] = [UInt8(ascii: "{")]
        for (index, field) in fields.enumerated() {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            output.append(contentsOf: JSONValue.string(field).bytes)
            output.append(UInt8(ascii: ":"))
            if let column = derived[field] {
                let value = column.value(item)
                output.append(contentsOf: (value == Column<Item>.unknown ? .null : JSONValue.string(value)).bytes)
            } else if let value = JSONText.value(at: Self.path(field), in: bytes) {
                JSONText.compact(value, into: &output)
            } else {
                output.append(contentsOf: Array("null".utf8))
            }
        }
        output.append(UInt8(ascii: "}"))
        return output
    }

    /// The keys the columns read, when no record of a batch has any of them, for a format that reads columns:
    /// every row would be blank (a 2012 `starred` answer without the star media type, or a proxy that dropped the
    /// media type, holds repositories where the columns read `repo` and `starred_at`). Nil when a record has one
    /// of them, a path of them meets a null on the way (`repo.license.spdx_id` where a repository has no license),
    /// or a column it computes has a value; and, for `--fields`, when the first record has a key of the command's
    /// own columns (not one it computes, which any shape may give), since GitHub leaves some keys out of some
    /// records (an event's `org`, on an account's own repository), unless every field is a path that goes wrong
    /// after a key a record of the page has (`login.x`, `repo.ful_name`): that is a mistake in the path.
    /// `misspelt` when every column is a path that goes wrong after a key the record has, or into a field the
    /// command computes (`fingerprint.x`, a plain value).
    mutating func keysMissing(from items: [Item]) -> (keys: [String], misspelt: Bool)? {
        guard context.readsColumns, !columns.isEmpty, let first = items.first else { return nil }
        // A null on the way vouches for no key after it: `repo: null` in one record is no excuse for `repo.fullname`
        // where another's `repo` lacks `fullname`, while `payload.issue.assignee.login` through one event's
        // `assignee: null` is good where another event's payload has no `issue`, since the first has one, on this
        // page or an earlier one (a page of push events after one with an issue).
        let paths = columns.filter { !$0.isDerived }.map { (field: $0.key, path: Self.path($0.key)) }
            .filter { $0.path.count > 1 }
        for (_, path) in paths {
            for depth in 1..<path.count {
                let key = path[...depth].joined(separator: ".")
                guard !keysSeen.contains(key),
                    items.contains(where: { JSONText.value(at: Array(path[...depth]), in: $0.raw.bytes) != nil })
                else { continue }
                keysSeen.insert(key)
            }
        }
        let misspeltInBatch = Set(
            paths.filter { _, path in
                (1..<path.count).contains { depth in
                    let holder = Array(path[..<depth])
                    // The key is on no record so far, and a record holds something there that is no null: an
                    // object without it, or a list or a plain value, which no path goes into.
                    return !keysSeen.contains(path[...depth].joined(separator: "."))
                        && items.contains { record in
                            JSONText.value(at: holder, in: record.raw.bytes).map { !$0.elementsEqual("null".utf8) }
                                ?? false
                        }
                }
            }.map(\.field))
        func has(_ column: Column<Item>, _ item: Item) -> Bool {
            // A computed value that is unknown (`?`: a key's fingerprint without the key) is an empty cell in tsv
            // and csv, and says nothing of the record.
            if column.isDerived {
                let value = column.value(item)
                return !value.isEmpty && value != Column<Item>.unknown
            }
            // A path a page has shown whole is GitHub's, also in a record that lacks its rest (an event without
            // `payload.issue`), but not in one without its first key (a repository where a star was asked for).
            let path = Self.path(column.key)
            let shown = keysSeen.contains(column.key) && JSONText.value(at: [path[0]], in: item.raw.bytes) != nil
            return !misspeltInBatch.contains(column.key) && (shown || Self.reaches(path, in: item.raw.bytes))
        }
        if items.contains(where: { item in columns.contains { has($0, item) } }) { return nil }
        // Judged over the page, as the paths are: an event without `org` first is no excuse for `org.logn` where a
        // later one's `org` lacks `logn`.
        let misspelt = columns.allSatisfy { column in
            let path = Self.path(column.key)
            return path.count > 1
                && (derived[path[0]] != nil || misspeltInBatch.contains(column.key)
                    || JSONText.value(at: [path[0]], in: first.raw.bytes) != nil)
        }
        if !misspelt, shape.contains(where: { !$0.isDerived && has($0, first) }) { return nil }
        return (columns.map(\.key), misspelt)
    }

    /// Whether every `--fields` column is a path that goes wrong in the record (`pathsNotFound`), so every row
    /// would be blank: a command that writes one object (`show`, `me`) stops there, as a list does.
    func everyPathGoesWrong(in item: Item) -> Bool {
        guard let fields = context.fields, !fields.isEmpty else { return false }
        return pathsNotFound(in: item).count == fields.count
    }

    /// Whether a path leads to a value, or to a null before its end.
    private static func reaches(_ path: [String], in bytes: [UInt8]) -> Bool {
        for depth in 1...max(1, path.count) {
            guard let value = JSONText.value(at: Array(path[..<depth]), in: bytes) else { return false }
            if value.elementsEqual("null".utf8) { return true }
        }
        return true
    }

    /// What a `--fields` path meets where it goes wrong: an object without the next key (with the keys it has),
    /// or a list or a plain value, which no path goes into.
    private enum Holder {
        case object([String])
        case list
        case plain
    }

    /// The `--fields` paths that go wrong in the record: into an object it has, which lacks the key they name next
    /// (`repo.ful_name`, where `repo` holds `full_name`: most likely misspelt, which the field list cannot tell
    /// before an answer shows what the object holds), or into a list (`sources.kind`) or a plain value
    /// (`repository.name`, `login.x`). A path that meets a null on the way is no such path: GitHub leaves some
    /// objects out of some records.
    private func pathsNotFound(in item: Item) -> [(path: String, object: String, holder: Holder)] {
        guard let fields = context.fields else { return [] }
        let bytes = item.raw.bytes
        return fields.compactMap { field in
            let path = Self.path(field)
            guard path.count > 1, derived[field] == nil else { return nil }
            // A field the command computes (a key's `fingerprint`) is a plain value.
            if derived[path[0]] != nil { return (field, path[0], .plain) }
            guard JSONText.value(at: path, in: bytes) == nil else { return nil }
            // The longest part of the path that leads somewhere: the next key is missing from it.
            var depth = path.count - 1
            while depth > 0, JSONText.value(at: Array(path[..<depth]), in: bytes) == nil { depth -= 1 }
            let object = Array(path[..<depth])
            guard depth > 0, let value = JSONText.value(at: object, in: bytes) else { return nil }
            let name = object.joined(separator: ".")
            switch value.first {
            case UInt8(ascii: "{"): return (field, name, .object(JSONText.keys(at: object, in: bytes)))
            case UInt8(ascii: "["): return (field, name, .list)
            case UInt8(ascii: "n"): return nil
            default: return (field, name, .plain)
            }
        }
    }

    /// A warning line for each `--fields` path that goes wrong in the first record (`pathsNotFound`); an
    /// object's keys are GitHub's text, shown only when short and plain. Before a stop (`stopping`: every column
    /// such a path), no line promises a blank column.
    func pathWarnings(for item: Item, stopping: Bool = false) -> [String] {
        pathWarnings(pathsNotFound(in: item), stopping: stopping, record: "the first record's ")
    }

    /// Before a page's stop: each path's warning from the first record of `items` where it goes wrong, which
    /// need not be the page's first (an event without `org` before one whose `org` lacks the key).
    func stopWarnings(for items: [Item]) -> [String] {
        let found = items.map(pathsNotFound(in:))
        return (context.fields ?? []).compactMap { field in
            guard let index = found.firstIndex(where: { $0.contains { $0.path == field } }),
                let missing = found[index].first(where: { $0.path == field })
            else { return nil }
            return pathWarnings([missing], stopping: true, record: index == 0 ? "the first record's " : "a record's ")
                .first
        }
    }

    private func pathWarnings(
        _ paths: [(path: String, object: String, holder: Holder)], stopping: Bool, record: String
    ) -> [String] {
        paths.map { missing in
            let start =
                "gh-users: warning: --fields \(TerminalSanitizer.sanitize(missing.path)): " + record
                + TerminalSanitizer.sanitize(missing.object)
            guard case .object(let keys) = missing.holder else {
                var kind = "a plain value"
                if case .list = missing.holder { kind = "a list" }
                let whole = TerminalSanitizer.sanitize(missing.object)
                return start + " is \(kind), which a path cannot go into"
                    + (stopping ? "" : ", so the column is blank") + " (--fields \(whole) writes it whole)\n"
            }
            let plain = keys.filter { TerminalSanitizer.isPlainWord($0) }
            let listed = plain.prefix(12).joined(separator: ", ") + (plain.count > 12 ? ", …" : "")
            return start + " has no such key (it has " + (listed.isEmpty ? "none" : listed) + ")"
                + (stopping ? "" : ", so the column is blank where a record lacks it") + "\n"
        }
    }

    private func csvCell(_ text: String) -> String {
        CSV.cell(text, context: context)
    }

    var recordsWritten: Int { written }

    /// The bytes of a batch. `moreToCome`: later batches follow, so a table's widths, fixed by this first batch,
    /// leave room for their rows.
    mutating func render(_ items: [Item], moreToCome: Bool = false) -> [UInt8] {
        var ends: [Int] = []
        return render(items, moreToCome: moreToCome, ends: &ends)
    }

    /// The bytes of `items`, and in `ends` where each record's bytes end among them: after a write that went
    /// out in part, the records that went out whole.
    mutating func render(_ items: [Item], moreToCome: Bool = false, ends: inout [Int]) -> [UInt8] {
        var output: [UInt8] = []
        write(items, moreToCome: moreToCome, ends: &ends) { output += $0 }
        return output
    }

    /// How much output `write` holds before handing it on: a page's records, or one record's indented JSON, can be
    /// many times the answer they came from (every line of a record nested 60 levels deep starts with 120
    /// spaces), so it goes out in pieces of this size, never as one buffer of all of it.
    static var chunkSize: Int { 1 << 20 }

    /// `items` handed to `sink` in pieces of about `chunkSize` bytes, in order, and in `ends` where each record's
    /// bytes end, counted from the first byte given to `sink` by this call.
    mutating func write<Failure: Error>(
        _ items: some Collection<Item>, moreToCome: Bool = false, ends: inout [Int],
        to sink: ([UInt8]) throws(Failure) -> Void
    ) throws(Failure) {
        ends.reserveCapacity(items.count)
        var output: [UInt8] = []
        output.reserveCapacity(min(items.count * 512, Self.chunkSize))
        var handed = 0
        func hand(_ output: inout [UInt8]) throws(Failure) {
            handed += output.count
            try sink(output)
            output.removeAll(keepingCapacity: true)
        }
        func ended(_ output: inout [UInt8]) throws(Failure) {
            written += 1
            ends.append(handed + output.count)
            if output.count >= Self.chunkSize { try hand(&output) }
        }
        switch context.format {
        case .json:
            for item in items {
                output.append(contentsOf: Array((written == 0 ? "[\n  " : ",\n  ").utf8))
                try JSONText.pretty(json(item), indent: 2, level: 1, into: &output, flushingAt: Self.chunkSize) {
                    chunk throws(Failure) in try hand(&chunk)
                }
                try ended(&output)
            }
        case .ndjson:
            for item in items {
                JSONText.compact(json(item), into: &output)
                output.append(UInt8(ascii: "\n"))
                try ended(&output)
            }
        case .tsv:
            for item in items {
                let row = cells(item).map { TerminalSanitizer.sanitize($0, escapeBackslash: true) }
                output.append(contentsOf: Array((row.joined(separator: "\t") + "\n").utf8))
                try ended(&output)
            }
        case .csv:
            if !csvHeaderWritten && !continuesOutput {
                output.append(contentsOf: csvHeader)
            }
            csvHeaderWritten = true
            for item in items {
                output.append(contentsOf: Array(CSV.row(cells(item).map(csvCell)).utf8))
                try ended(&output)
            }
        case .table:
            let rows = items.map { item in cells(item).map { TerminalSanitizer.sanitize($0) } }
            if tableLayout == nil, !rows.isEmpty {
                var layout = TableLayout(
                    columns: columns.map { ($0.header, $0.shrink) }, rows: rows, width: context.width,
                    dropping: context.fields == nil)
                if moreToCome {
                    layout = layout.withRoom(
                        natural: columns.map(\.naturalWidth), shrinks: columns.map(\.shrink), width: context.width,
                        dropping: context.fields == nil, widest: columns.map(\.widest))
                }
                tableLayout = layout
                output.append(contentsOf: Array(layout.header(ColorScheme(enabled: context.colorEnabled)).utf8))
            }
            if let layout = tableLayout {
                for row in rows {
                    output.append(contentsOf: Array(layout.line(row).utf8))
                    try ended(&output)
                }
            }
        }
        if !output.isEmpty { try hand(&output) }
    }

    /// CSV's header, the columns' keys, which a run appending to a file checks it begins with (`AppendedOutputCheck`).
    var csvHeader: [UInt8] { Array(CSV.row(columns.map(\.key)).utf8) }

    /// The bytes that complete the document. `completed` is false when the command failed. A csv with no
    /// records still has its header, so a reader sees the columns of an empty table.
    /// `begun`: a run that failed after a page came (all of it gone, say) still closes one JSON document.
    func finish(completed: Bool, begun: Bool = false) -> [UInt8] {
        if context.format == .csv, completed, !csvHeaderWritten, !continuesOutput { return csvHeader }
        guard context.format == .json else { return [] }
        if written > 0 { return Array("\n]\n".utf8) }
        return completed || begun ? Array("[]\n".utf8) : []
    }
}

/// RFC 4180 fields: quoted when they hold a comma, a quote or a line break, with quotes doubled.
enum CSV {
    /// A cell's text: exact data when it goes to a file or a pipe (RFC 4180 quoting carries line breaks; so with
    /// `GH_FORCE_TTY`, helper-350), and made harmless when it goes to a terminal, `TERM=dumb`'s too.
    static func cell(_ text: String, context: RenderContext) -> String {
        (context.isTTY && !context.forced) || context.reachesTerminal ? TerminalSanitizer.sanitize(text) : text
    }

    /// A record of one empty field is `""`: as an empty line it would be no record at all to a reader (Python's
    /// csv module skips it), and RFC 4180 lets any field be quoted.
    static func row(_ fields: [String]) -> String {
        if fields == [""] { return "\"\"\r\n" }
        return fields.map(field).joined(separator: ",") + "\r\n"
    }

    /// By byte, not by character: a CR LF pair is one `Character`, equal to neither "\r" nor "\n".
    static func field(_ value: String) -> String {
        let special: Set<UInt8> = [UInt8(ascii: ","), UInt8(ascii: "\""), 0x0A, 0x0D]
        guard value.utf8.contains(where: special.contains) else { return value }
        return "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
