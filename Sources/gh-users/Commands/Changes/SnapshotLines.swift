import Data
import Foundation
import JSONBytes

/// A `--changes` snapshot read a line at a time, for a file exactly as gh-users writes it: its header line, then
/// one flat object a line, then `]}`. `JSONDecoder` takes about eight times the file's bytes for the whole
/// document (a 29 MB snapshot of 500,000 people took 230 MB), where the lines take the file and the entries.
///
/// It can only make reading leaner, never accept more: the header line must be byte for byte the one gh-users
/// writes for what it says, and each line an entry its `ScannedDTO` reading takes (`JSONMemberReader` leaves a
/// `\u` escape, text that is not ASCII and a key given twice to Foundation). Any other file, edited by hand or
/// damaged, is read as `JSONDecoder` reads it whole, accepted or refused as before: an entry at a time where it is
/// valid JSON with no key given twice (`elementwise`), else by `JSONDecoder` itself.
enum SnapshotLines {
    /// `bytes` as `Fields`, its list (`list`, under `key`) read a line at a time where the file is as gh-users
    /// writes it, else an entry at a time or by `JSONDecoder`; nil for what `JSONDecoder` refuses. `written` is the
    /// file gh-users writes for these fields with an empty list; a line its entry's scanning does not take leaves
    /// the file to the other readings.
    static func decode<Fields: Decodable, Entry: ScannedDTO & Decodable>(
        _ bytes: [UInt8], list: WritableKeyPath<Fields, [Entry]>, key: String, written: (Fields) -> [UInt8]
    ) -> Fields? {
        if let fields = lines(bytes, list: list, written: written) { return fields }
        // Stopped by a signal: not read whole again, which takes longer still (`SnapshotFile.load` says why).
        guard !Task.isCancelled else { return nil }
        return decodeWhole(bytes, list: list, key: key)
    }

    /// `bytes` as `JSONDecoder` reads them whole: an entry at a time where `elementwise` can, else by it.
    static func decodeWhole<Fields: Decodable, Entry: ScannedDTO & Decodable>(
        _ bytes: [UInt8], list: WritableKeyPath<Fields, [Entry]>, key: String
    ) -> Fields? {
        switch elementwise(bytes, list: list, key: key) {
        case .read(let fields): return fields
        case .refused: return nil
        case .notApplicable: return try? JSONDecoder().decode(Fields.self, from: Foundation.Data(bytes))
        }
    }

    enum Reading<Fields> {
        case read(Fields)
        /// What `JSONDecoder` refuses too: an entry or the fields around the list that do not decode.
        case refused
        /// Not valid JSON, a key given twice (which `JSONDecoder` reads its own way: the first kept) or no list
        /// under `key`: for `JSONDecoder`.
        case notApplicable
    }

    /// A valid document with no key given twice, read as `JSONDecoder` reads it but in the file's bytes and the
    /// entries: the fields around the list with the list empty, then each entry on its own. Whole, `JSONDecoder`
    /// took about seven times the file, and a snapshot missing only its last newline, under an accepted `ulimit
    /// -v`, ended in an allocation failure's backtrace (helper-291: 1,000,000 people, exit 134).
    static func elementwise<Fields: Decodable, Entry: ScannedDTO & Decodable>(
        _ bytes: [UInt8], list: WritableKeyPath<Fields, [Entry]>, key: String
    ) -> Reading<Fields> {
        // The list is read where it is, not copied (helper-295: copied twice, a file missing its last newline
        // still took 3.7 times its size).
        guard JSONText.flaw(in: bytes) == nil, JSONText.repeatedKey(in: bytes) == nil,
            let range = (try? JSONText.objectMembers(bytes))?[key],
            let elements = try? JSONText.arrayElements(bytes, in: range)
        else { return .notApplicable }
        let around = bytes[..<range.lowerBound] + Array("[]".utf8) + bytes[range.upperBound...]
        guard var fields = try? JSONDecoder().decode(Fields.self, from: Foundation.Data(around)) else {
            return .refused
        }
        var entries: [Entry] = []
        entries.reserveCapacity(elements.count)
        for element in elements {
            guard entries.count % 1_000 != 0 || !Task.isCancelled else { return .refused }
            guard
                let entry = Entry(scanning: bytes, in: element)
                    ?? (try? JSONDecoder().decode(Entry.self, from: Foundation.Data(bytes[element])))
            else { return .refused }
            entries.append(entry)
        }
        fields[keyPath: list] = entries
        return .read(fields)
    }

    /// The fields of a file exactly as gh-users writes it, or nil; nil too once a signal came (a snapshot of
    /// 2,000,000 people takes seconds), checked every thousand lines.
    static func lines<Fields: Decodable, Entry: ScannedDTO>(
        _ bytes: [UInt8], list: WritableKeyPath<Fields, [Entry]>, written: (Fields) -> [UInt8]
    ) -> Fields? {
        let newline = UInt8(ascii: "\n")
        // Its end first: a file that does not end as gh-users ends one is not read here, before any entry is made
        // (helper-295: all of them were, then let go at a missing last newline).
        guard bytes.count > 4, bytes.suffix(4).elementsEqual("\n]}\n".utf8) else { return nil }
        // The header line ends in the list's `[`: closed, it is the whole file of an empty list. (A file on one
        // line, `jq -c`'s, ends otherwise, and is not decoded here before the whole decoding.)
        guard let headerEnd = bytes.firstIndex(of: newline), headerEnd > 0,
            bytes[headerEnd - 1] == UInt8(ascii: "["),
            var fields = try? JSONDecoder().decode(
                Fields.self, from: Foundation.Data(bytes[..<headerEnd] + Array("]}".utf8)))
        else { return nil }
        let empty = written(fields)
        guard empty.count > 4, bytes[..<headerEnd].elementsEqual(empty.dropLast(4)) else { return nil }
        var entries: [Entry] = []
        // One entry a line: reserved at once, the list is never copied as it grows.
        entries.reserveCapacity(bytes[headerEnd...].reduce(0) { $1 == newline ? $0 + 1 : $0 })
        var start = headerEnd + 1
        // Whether the last entry's line ended in a comma: another entry must follow.
        var continues = true
        while let end = bytes[start...].firstIndex(of: newline) {
            if bytes[start..<end].elementsEqual("]}".utf8) {
                guard entries.isEmpty || !continues, end + 1 == bytes.count else { return nil }
                fields[keyPath: list] = entries
                return fields
            }
            guard continues, entries.count % 1_000 != 0 || !Task.isCancelled else { return nil }
            continues = end > start && bytes[end - 1] == UInt8(ascii: ",")
            guard let read = Entry(scanning: bytes, in: start..<(continues ? end - 1 : end)) else { return nil }
            entries.append(read)
            start = end + 1
        }
        return nil
    }
}
