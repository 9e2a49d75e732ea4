import AtomicCore
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a file that a crawl appends to (`--output FILE`, or with `--state` the file stdout appends to, `>>`) must
/// begin with when it already holds bytes. Such a run writes no CSV header (`RecordStreamWriter`'s
/// `continuesOutput`), so another shape would go on under the file's header, or another format into the file.
/// Only what is certain is refused, before anything is written or asked:
/// - csv: a first line that is not the header this run would write (its columns' keys as `CSV.row` writes them;
///   a line that ends in LF alone is the same header);
/// - tsv: a file that begins with that csv header, CR LF and all, which is csv (a tsv line never holds a CR); or
///   whose first line has another count of columns than this run's: a value's tab is written `\t`, so each of
///   its lines holds one raw tab fewer than it has columns, and an ndjson or csv line none;
/// - ndjson: a file whose first byte is not `{`, which every ndjson record begins with.
/// And in every format the file must end a line (`unendedRefusal`). Anything else is appended to as before: tsv
/// has no header, so tsv of as many other columns cannot be told.
struct AppendedOutputCheck: Sendable {
    let format: OutputFormat
    /// The csv header of this run's columns: `RecordStreamWriter.csvHeader`.
    let header: [UInt8]
    /// How many columns this run writes: each of its tsv lines holds one raw tab fewer.
    let columns: Int

    /// How much of the file is read: its header's length and room to show a longer first line, and at least the
    /// first line of a file of gh-users's own (`ownFileRefusal`).
    var readLength: Int { max(header.count + 4096, Self.ownFileReadLength) }

    /// How much of a file is read to tell whether it is one of gh-users's own: a state's line, a snapshot's first.
    static let ownFileReadLength = 64 << 10

    /// What an editor or a spreadsheet saving UTF-8 may begin a file with; no part of a header or a record.
    static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// Whether a file that begins with `start` (all of it, or at least its first 4 bytes) holds nothing: no byte,
    /// or a byte order mark alone, as Notepad saves an empty UTF-8 file. csv's header is written into it, after
    /// the mark, as into an empty one.
    static func holdsNothing(_ start: some Collection<UInt8>) -> Bool {
        start.isEmpty || start.elementsEqual(byteOrderMark)
    }

    /// The refusal of appending to `file` (as a message names it: "the output file 'o.csv'"), which begins with
    /// `start`, its first `readLength` bytes or all of a shorter file; nil when the run may append to it. nil
    /// `start`: the file could not be read, which only csv, whose header is at stake, refuses. `last` is the file's
    /// last byte: a file that ends inside a line is refused in every format.
    func refusal(_ file: String, start: [UInt8]?, last: UInt8?) -> LocalFileError? {
        Self.ownFileRefusal(file, start: start, whole: (start?.count ?? 0) < readLength)
            ?? shapeRefusal(file, start: start) ?? Self.unendedRefusal(file, last: last, start: start)
    }

    /// The refusal of appending to one of gh-users's own files (a `--changes` snapshot, a `--state`), in every
    /// format: such a file is one JSON document that a run reads whole and replaces, so records after it would
    /// break it, and the next run that uses it would refuse it (a tester's find: a mistyped `--output` name).
    /// `start` is how the file begins (`whole`: all of it); nil when the file is not one of those.
    static func ownFileRefusal(_ file: String, start: [UInt8]?, whole: Bool) -> LocalFileError? {
        guard let start, let kind = FileContentProblem.ownFile(beginning: start, whole: whole) else { return nil }
        return LocalFileError(
            message: "\(file) is \(kind), which gh-users reads whole and replaces: records appended to it would "
                + "break it. Nothing was written, and the file is as it was: give another file")
    }

    /// `ownFileRefusal` of the regular file at `path` that stdout appends to, read here (`file` names it).
    static func ownFileRefusal(_ file: String, appendedTo path: String) -> LocalFileError? {
        let (start, _) = ends(ofFile: path, count: ownFileReadLength)
        return ownFileRefusal(file, start: start, whole: (start?.count ?? 0) < ownFileReadLength)
    }

    /// The refusal of records that go on after the regular file at `path` that stdout appends to (`file` names
    /// it) when it is one of gh-users's own (`ownFileRefusal`) or its last line has no end (`unendedRefusal`):
    /// for a run that knows no header or shape of that file (`--changes`, `access --state`).
    static func continuedFileRefusal(
        _ file: String, appendedTo path: String, remedy: String = "the unfinished last line"
    ) -> LocalFileError? {
        if let refusal = ownFileRefusal(file, appendedTo: path) { return refusal }
        // Four bytes: a file of a byte order mark alone is empty, one with a byte after it is not.
        let (start, last) = ends(ofFile: path, count: 4)
        return unendedRefusal(file, last: last, start: start, remedy: remedy)
    }

    /// Whether a file that begins with `start` and ends with `last` may be appended to (`refusal`'s nil).
    func accepts(start: [UInt8]?, last: UInt8?) -> Bool {
        refusal("", start: start, last: last) == nil
    }

    /// The refusal of a file that does not begin as this run's output would.
    private func shapeRefusal(_ file: String, start: [UInt8]?) -> LocalFileError? {
        let shownHeader = "'" + Self.shown(header.dropLast(2)) + "'"
        guard let start else {
            guard format == .csv else { return nil }
            return LocalFileError(
                message: "\(file) cannot be read, so this run, which writes no csv header into a file that holds "
                    + "records, cannot tell that it begins with its own, \(shownHeader). Nothing was written, and the "
                    + "file is as it was: make it readable, or give another file")
        }
        // A byte order mark, as an editor or a spreadsheet saving UTF-8 writes one, is no part of the header; one
        // alone is an empty file.
        if Self.holdsNothing(start) { return nil }
        let byteOrderMark = Self.byteOrderMark
        let afterMark = start.starts(with: byteOrderMark) ? Array(start.dropFirst(3)) : start
        let (line, ended) = Self.firstLine(afterMark)
        // A line longer than the bytes read is shown cut; one that ends the file unended says so.
        let cut = !ended && start.count >= readLength
        let shownLine = "'" + Self.shown(line, cut: cut) + "'" + (ended || cut ? "" : " (with no line end)")
        switch format {
        case .csv:
            if ended, line.elementsEqual(header.dropLast(2)) { return nil }
            return LocalFileError(
                message: "\(file) begins with the line \(shownLine), not this run's csv header \(shownHeader): this "
                    + "run writes no header into a file that holds records, so its records would go under another "
                    + "one. Nothing was written, and the file is as it was: give the --format, --fields and --full "
                    + "it was written with, or another file")
        case .tsv:
            if start.starts(with: header) || start.starts(with: byteOrderMark + header) {
                return LocalFileError(
                    message: "\(file) begins with the csv header \(shownHeader), and this run writes tsv, which "
                        + "would mix two formats in one file. Nothing was written, and the file is as it was: give "
                        + "--format csv, or another file")
            }
            // A line cut by the read may have more tabs after it; one with no end is `unendedRefusal`'s.
            let found = line.count { $0 == UInt8(ascii: "\t") } + 1
            guard ended, found != columns else { return nil }
            return LocalFileError(
                message: "\(file) begins with the line \(shownLine), of \(found) tab-separated "
                    + (found == 1 ? "column" : "columns") + " where this run's tsv has \(columns) "
                    + "(\(shownHeader)): its records would go on in another shape or format. Nothing was written, and "
                    + "the file is as it was: give the --format, --fields and --full it was written with, or another "
                    + "file")
        case .ndjson:
            // After a byte order mark too, and a mark alone is an empty file (`unendedRefusal`).
            guard afterMark.first.map({ $0 != UInt8(ascii: "{") }) ?? false else { return nil }
            return LocalFileError(
                message: "\(file) begins with the line \(shownLine), and every ndjson record is a JSON object, "
                    + "which begins with '{': this run's ndjson would go after another format. Nothing was written, "
                    + "and the file is as it was: give the --format it was written with, or another file")
        case .json, .table:
            return nil
        }
    }

    /// The refusal of appending to `file` whose `last` byte is no line end: a record cut short (a run without
    /// `--state` killed mid-write, a line typed without its end), which this run's first record would join into
    /// one line, `{"a":1{"login":…`. nil when the file ends a line, is empty (or holds a byte order mark alone,
    /// as an editor saves an empty file), or could not be read (`last` nil); `start` is how the file begins.
    /// `remedy` says what to remove.
    static func unendedRefusal(
        _ file: String, last: UInt8?, start: [UInt8]?, remedy: String = "the unfinished last line"
    ) -> LocalFileError? {
        guard let last, last != UInt8(ascii: "\n"), start.map(holdsNothing) != true else { return nil }
        return LocalFileError(
            message: "\(file) ends inside a line (its last byte is no line end): a record cut short, which this "
                + "run's first record would join. Nothing was written, and the file is as it was: remove "
                + "\(remedy), or give another file")
    }

    /// The bytes before the first LF (and a CR before it), and whether there was one.
    private static func firstLine(_ bytes: [UInt8]) -> (line: ArraySlice<UInt8>, ended: Bool) {
        guard let end = bytes.firstIndex(of: UInt8(ascii: "\n")) else { return (bytes[...], false) }
        let line = bytes[..<end]
        return (line.last == UInt8(ascii: "\r") ? line.dropLast() : line, true)
    }

    /// A line of the file for a message: one line, harmless to a terminal, at most 200 characters, and `…` after
    /// it when it goes on (`cut`).
    private static func shown(_ bytes: ArraySlice<UInt8>, cut: Bool = false) -> String {
        let text = String(decoding: bytes, as: UTF8.self)
        let long = text.count > 200
        return TerminalSanitizer.sanitize(long ? String(text.prefix(200)) : text) + (long || cut ? "…" : "")
    }

    /// The first `count` bytes and the last byte of the regular file stdout appends to (`>> FILE`), read through
    /// one descriptor of its own: `start` nil when it cannot be opened, and a path that is no longer a regular file
    /// read as empty (nothing to check); `last` nil then too, and when the file is empty.
    /// Stdout's own file is read through `OutputLock.stdoutReader`, never opened and closed: the close would drop
    /// this process's record locks on it (a crawl's, the share), and another run could then write into it.
    static func ends(ofFile path: String, count: Int) -> (start: [UInt8]?, last: UInt8?) {
        let kept = OutputLock.stdoutReader.descriptor(for: path)
        let descriptor = kept ?? open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard descriptor >= 0 else { return (nil, nil) }
        defer { if kept == nil { close(descriptor) } }
        guard FileDescriptorIO.nonRegularKind(of: descriptor) == nil else { return ([], nil) }
        var info = stat()
        let size = fstat(descriptor, &info) == 0 ? Int64(info.st_size) : 0
        let last = size > 0 ? FileDescriptorIO.read(descriptor, from: size - 1, upTo: 1)?.first : nil
        return (FileDescriptorIO.read(descriptor, from: 0, upTo: count), last)
    }
}
