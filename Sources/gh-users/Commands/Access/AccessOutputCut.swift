import AtomicCore
import Foundation
import JSONBytes

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a resumed `access --state` map cuts from the file stdout appends to (`>> FILE`): the bytes past the
/// length the state recorded (`output_bytes`), which a stop between writing a repository's records and saving
/// the state left there, and which the rerun writes again whole. As `list`'s `OutputCut`, only what is provably
/// that: past a line end, whole records of one repository of the map that the state does not count (a kill's
/// unfinished last line among them), a csv header where the state counts no record yet. Anything else (another
/// run's lines, a state edited by hand) stops the run with the file and the state as they were.
struct AccessOutputCut {
    let state: AccessState
    /// `output_bytes`: the file's length once the records the state counts were written.
    let recorded: Int64
    static let most: Int64 = 256 << 20

    /// Why the `length - recorded` bytes past the recorded length are not the map's unrecorded repository, or
    /// nil when they are. `read` reads the file's bytes from an offset to its end.
    func problem(read: (Int64) -> [UInt8]?) -> String? {
        guard let bytes = read(max(recorded - 1, 0)) else { return "they cannot be read" }
        var tail = bytes[...]
        if recorded > 0 {
            guard tail.first == UInt8(ascii: "\n") else { return "the recorded length falls inside a line" }
            tail = tail.dropFirst()
        }
        let csv = state.format == .csv
        var records = OutputCut.records(tail, csv: csv)
        // A last line without its end: one a stop cut short, judged as far as it goes.
        let cut = records.last.flatMap { $0.last == UInt8(ascii: "\n") ? nil : $0 }
        if cut != nil { records.removeLast() }
        let keys = state.fields ?? AccessCommand.columns.map(\.key)
        // CSV's header comes with the first records, in whichever run writes them.
        let header = csv && state.records == 0 ? Array(keys.joined(separator: ",").utf8) : nil
        if header != nil, let first = records.first, OutputCut.cells(first, csv: true) == keys { records.removeFirst() }
        if let header, let cut, records.isEmpty, header.starts(with: cut) { return nil }
        return records.isEmpty && cut == nil ? nil : repositoryProblem(records, cut: cut, keys: keys)
    }

    /// Why `records`, and a line `cut` short, are not all records of one repository of the map after the
    /// state's last one; nil when they are. Without the repository among the fields nothing tells them from
    /// another run's lines: the user is asked.
    private func repositoryProblem(_ records: [ArraySlice<UInt8>], cut: ArraySlice<UInt8>?, keys: [String]) -> String? {
        guard state.placesRecords, let column = keys.firstIndex(of: "repository") else {
            return "--fields leave out repository, so nothing tells them from another run's lines"
        }
        let prefix = state.organization.lowercased() + "/"
        var repository: String?
        for record in records {
            guard let name = Self.repository(of: record, format: state.format, column: column)?.lowercased(),
                name.hasPrefix(prefix)
            else { return "they hold a line that is not a record of \(state.organization)'s map" }
            if let problem = placeProblem(name, repository) { return problem }
            repository = name
        }
        guard let cut else { return nil }
        // The line a stop cut: its repository as far as it was written, which must begin as the others' does.
        guard let (name, whole) = Self.repository(ofCut: cut, format: state.format, column: column) else {
            return "they end in a line cut before its repository"
        }
        let begun = name.lowercased()
        if whole {
            guard begun.hasPrefix(prefix) else {
                return "they end in a line that is not a record of \(state.organization)'s map"
            }
            return placeProblem(begun, repository)
        }
        guard begun.hasPrefix(prefix) ? repository.map({ $0.hasPrefix(begun) }) ?? true : prefix.hasPrefix(begun)
        else { return "they end in a line that is not a record of \(state.organization)'s map" }
        // Every name it can end in sorts at or before the state's last one.
        if let after = state.after?.lowercased(), begun <= after, !after.hasPrefix(begun) {
            return placeProblem(begun, repository)
        }
        return nil
    }

    /// Why a record of `name` (lower case) is not one the stop left, after records of `repository`.
    private func placeProblem(_ name: String, _ repository: String?) -> String? {
        // The map goes on after the state's last repository, in its order: one at or before it was written.
        if let after = state.after, name <= after.lowercased() {
            return "they hold records of \(TerminalSanitizer.sanitize(name)), which sorts at or before "
                + "\(TerminalSanitizer.sanitize(after)), the last repository the state counts as written"
        }
        guard repository == nil || repository == name else { return "they hold records of more than one repository" }
        return nil
    }

    private static func repository(of record: ArraySlice<UInt8>, format: OutputFormat, column: Int) -> String? {
        guard format == .ndjson else {
            let cells = OutputCut.cells(record, csv: format == .csv)
            return cells.indices.contains(column) ? cells[column] : nil
        }
        let object = try? JSONSerialization.jsonObject(with: Foundation.Data(record)) as? [String: Any]
        return object?["repository"] as? String
    }

    /// The repository cell of a line cut short, as far as it goes, and whether it is whole; nil when the line
    /// was cut before it (or, in ndjson, is no object's start).
    private static func repository(
        ofCut line: ArraySlice<UInt8>, format: OutputFormat, column: Int
    ) -> (String, whole: Bool)? {
        guard format == .ndjson else {
            let cells = OutputCut.cells(line, csv: format == .csv)
            return cells.count > column ? (cells[column], cells.count > column + 1) : nil
        }
        let key = Array(#"{"repository":""#.utf8)
        guard line.first == UInt8(ascii: "{") else { return nil }
        // The key, whole, where the line has it: names hold no quote, and a string's own quotes are escaped.
        guard let start = line.indices.first(where: { line[$0...].starts(with: key.dropFirst()) }) else {
            return column == 0 && key.starts(with: line) ? ("", false) : nil
        }
        let value = line[(start + key.count - 1)...]
        guard let end = value.firstIndex(of: UInt8(ascii: "\"")) else {
            return (String(decoding: value, as: UTF8.self), false)
        }
        return (String(decoding: value[..<end], as: UTF8.self), true)
    }

    /// Cuts stdout's file, at `path`, back to the recorded length, said on stderr; nothing
    /// when it holds just that. One that holds less lost records the state counts (unless it ends inside a line,
    /// which `AppendedOutputCheck` refuses with its own remedy), and one whose bytes past it are not the map's
    /// (`problem`) is refused, as it is.
    func apply(_ path: String, stateShown: String, io: IOStreams) throws(LocalFileError) {
        let shown = "the file stdout appends to, \(TerminalSanitizer.quotedPath(path)),"
        var info = stat()
        guard fstat(STDOUT_FILENO, &info) == 0 else { return }
        let length = Int64(info.st_size)
        let descriptor = OutputLock.stdoutReader.descriptor ?? STDOUT_FILENO
        if length < recorded {
            let last = length == 0 ? nil : FileDescriptorIO.read(descriptor, from: length - 1, upTo: 1)?.first
            guard length == 0 || last == UInt8(ascii: "\n") else { return }
            throw LocalFileError(
                message: "\(shown) holds \(length) bytes, fewer than the \(recorded) the state file \(stateShown) "
                    + "records: records written before were lost. Both were left as they are: restore the file, "
                    + "append the rest of the map to another file (>> OTHER), or remove both to read the map again")
        }
        guard length > recorded else { return }
        // Far more than the records of one repository of 100,000 people; more than it is no stop's leftover.
        let reason =
            length - recorded > Self.most
            ? "they are \(length - recorded) bytes, more than one repository's records can be"
            : problem { FileDescriptorIO.read(descriptor, from: $0) }
        if let reason {
            throw LocalFileError(
                message: "\(shown) holds \(length) bytes, more than the \(recorded) the state file \(stateShown) "
                    + "records, and the \(length - recorded) bytes past them cannot be taken for a repository's records "
                    + "that a stop left unrecorded: \(reason). Both were left as they are. If those bytes are the stopped "
                    + "run's (it writes them again) or not wanted, cut the file back to \(recorded) bytes (truncate -s "
                    + "\(recorded) \(ShellWord.quote(path))), then run again; otherwise give this run another state file "
                    + "and output")
        }
        guard ftruncate(STDOUT_FILENO, off_t(recorded)) == 0 else {
            throw LocalFileError(
                message: "cannot cut \(shown) back to the \(recorded) bytes the state file \(stateShown) records: "
                    + FileDescriptorIO.reason(errno))
        }
        let place = state.after.map { "the records of \($0)" } ?? "the map's start"
        io.writeErr(
            TerminalSanitizer.sanitize(
                "gh-users: removed the last \(length - recorded) bytes of \(TerminalSanitizer.quotedPath(path)), written past \(place) by the run "
                    + "that stopped; this run writes them again, whole.") + "\n")
    }
}
