import AtomicCore
import Domain
import Foundation
import JSONBytes

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a resumed crawl may cut from its `--output`: only what is provably its own page, written after the
/// state's last save (a kill between writing a page and saving the state). The bytes past the recorded length
/// must start on a line boundary, and every whole record among them must be one of this crawl's (an account id
/// above the state's `since` and up to `--until`, in rising order), at most one page of them; an unfinished last
/// line is what a kill leaves mid-write. Anything else (another crawl's records in a shared file, a state edited
/// by hand, a cut inside a record) stops the run, with the file untouched.
struct OutputCut: Sendable {
    /// The length the state recorded.
    let recorded: Int64
    /// The state's last account id: the page's records come after it.
    let since: Int64
    /// `--until`: the page's records are at or below it.
    let until: Int64?
    let settings: CrawlOutputSettings
    /// The most records one page holds: GitHub's largest page, since the stopped run may have asked for more a
    /// page than this one (`--limit 50` resuming an `--all` crawl of 100 a page).
    var perPage = PagingPlan.maximumPerPage

    /// Why the `length - recorded` bytes past the recorded length are not this crawl's unsaved page, or nil when
    /// they are and may be cut. `read` reads the file's bytes from an offset to its end.
    func problem(length: Int64, read: (Int64) -> [UInt8]?) -> String? {
        // A page of the largest profiles is far below this; more than it is no page.
        let most = Int64(max(perPage, 1)) * 256 * 1024
        guard length - recorded <= most else {
            return "they are \(length - recorded) bytes, more than one page of this crawl can be"
        }
        // Read from the byte before the recorded length, which must end a line; from the start where that length
        // is a byte order mark's, which holds no record (an editor's empty file): the header went after it.
        let from = recorded == 3 ? 0 : max(recorded - 1, 0)
        guard let bytes = read(from) else { return "they cannot be read" }
        var tail = bytes[...]
        let marked = recorded == 3 && bytes.starts(with: AppendedOutputCheck.byteOrderMark)
        if marked {
            tail = tail.dropFirst(3)
        } else if recorded > 0 {
            tail = tail.dropFirst(Int(recorded - 1 - from))
            guard tail.first == UInt8(ascii: "\n") else { return "the recorded length falls inside a line" }
            tail = tail.dropFirst()
        }
        var records = Self.records(tail, csv: settings.format == .csv)
        // An unfinished last line is a write a kill cut short.
        if let last = records.last, last.last != UInt8(ascii: "\n") { records.removeLast() }
        let column = idColumn
        // CSV writes its header into an empty output only, ahead of the first page.
        if settings.format == .csv, recorded == 0 || marked, let first = records.first,
            column.map({ Self.cells(first, csv: true)[safe: $0] == "id" }) ?? true
        {
            records.removeFirst()
        }
        guard records.count <= perPage else {
            return "they hold \(records.count) records, more than the \(perPage) of one page"
        }
        // Without the id (`--fields` left it out) a record cannot be placed: the line boundary and the count
        // are all there is to go by.
        guard settings.fields.map({ $0.contains("id") }) ?? true else { return nil }
        var previous = since
        for record in records {
            guard let id = id(of: record, column: column) else {
                return "they hold a line that is not an account of this crawl"
            }
            guard id > previous else {
                return id > since
                    ? "they hold account ids out of order"
                    : "they hold the account id \(id), at or below the crawl's \(since)"
            }
            if let until, id > until { return "they hold the account id \(id), above --until \(until)" }
            previous = id
        }
        return nil
    }

    /// Where tsv and csv write the id: where `--fields` put it (or nowhere), else where the run's columns have it
    /// (`id, login, …`; with `--full` the profile's `login, id, …`).
    private var idColumn: Int? {
        let keys = settings.fields ?? (settings.full ? ShowUsersRenderer.columns : AccountColumns.summary).map(\.key)
        return keys.firstIndex(of: "id")
    }

    private func id(of record: ArraySlice<UInt8>, column: Int?) -> Int64? {
        if settings.format == .ndjson {
            // A line that is one JSON object with a number for its id, read as its own digits: through a Double,
            // ids past 2^53 would round into each other.
            let object = try? JSONSerialization.jsonObject(with: Foundation.Data(record)) as? [String: Any]
            guard object?["id"] is NSNumber else { return nil }
            return Int64(JSONText.text(of: "id", in: Array(record)))
        }
        guard let column, let cell = Self.cells(record, csv: settings.format == .csv)[safe: column] else {
            return nil
        }
        return Int64(cell)
    }

    /// The records of `bytes`, each with its line break: lines, or for CSV records whose quoted fields may hold
    /// line breaks.
    static func records(_ bytes: ArraySlice<UInt8>, csv: Bool) -> [ArraySlice<UInt8>] {
        var records: [ArraySlice<UInt8>] = []
        var start = bytes.startIndex
        var quoted = false
        for index in bytes.indices {
            let byte = bytes[index]
            if csv, byte == UInt8(ascii: "\"") { quoted.toggle() }
            if byte == UInt8(ascii: "\n"), !quoted {
                records.append(bytes[start...index])
                start = index + 1
            }
        }
        if start < bytes.endIndex { records.append(bytes[start...]) }
        return records
    }

    /// A tsv or csv record's cells, without its line break (CSV's quotes taken off).
    static func cells(_ record: ArraySlice<UInt8>, csv: Bool) -> [String] {
        var line = record
        while let last = line.last, last == UInt8(ascii: "\n") || last == UInt8(ascii: "\r") { line = line.dropLast() }
        guard csv else {
            return line.split(separator: UInt8(ascii: "\t"), omittingEmptySubsequences: false).map {
                String(decoding: $0, as: UTF8.self)
            }
        }
        var cells: [String] = []
        var cell: [UInt8] = []
        var quoted = false
        // A doubled quote inside quotes toggles twice and is left out: only the unquoted id is read.
        for byte in line {
            if byte == UInt8(ascii: "\"") {
                quoted.toggle()
            } else if byte == UInt8(ascii: ","), !quoted {
                cells.append(String(decoding: cell, as: UTF8.self))
                cell = []
            } else {
                cell.append(byte)
            }
        }
        cells.append(String(decoding: cell, as: UTF8.self))
        return cells
    }

    /// The refusal, naming the file and both lengths.
    func refusal(_ path: String, length: Int64, because reason: String) -> LocalFileError {
        LocalFileError(
            message: "the output file \(TerminalSanitizer.quotedPath(path)) holds \(length) bytes, more than the "
                + "\(recorded) the state file recorded, and the \(length - recorded) bytes past them are not a page "
                + "of this crawl that a stop left unrecorded: \(reason). Nothing was changed. If those bytes are not "
                + "wanted, cut the file back to \(recorded) bytes yourself; otherwise give this crawl another "
                + "--output, or remove the state file to start it again")
    }
}

extension Array {
    fileprivate subscript(safe index: Int) -> Element? {
        indices.contains(index) ? self[index] : nil
    }
}
