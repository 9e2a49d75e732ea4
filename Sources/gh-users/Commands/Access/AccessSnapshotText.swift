import Data
import Foundation
import JSONBytes

/// An access snapshot's text as gh-users writes it (`AccessSnapshot.encoded`): the header line, then one entry a
/// line, then `]}`. `--changes` keeps both maps this way, about 200 bytes a record rather than the ten times
/// that decoded entries take, and decodes one repository's entries at a time when it compares them
/// (`AccessChangeStream`).
struct AccessSnapshotText: Equatable {
    /// The file's bytes; while the map is read, without the closing `\n]}\n`.
    private(set) var bytes: [UInt8]
    /// Where the first entry line (or the closing line) starts: just past the header line's newline.
    fileprivate let bodyStart: Int
    /// Entries, one a line.
    private(set) var count = 0
    /// Whether the closing `]}` was appended: only a closed text is walked or written.
    private(set) var isClosed = false
    /// An entry the reader would refuse was appended (`Entry.isReadable`): the text is never written.
    private(set) var hasUnreadable = false
    /// The first entry appended whose repository and person (its id, or its login case aside) came before, which
    /// the reader refuses (`Array.repeated`): the text is never written.
    private(set) var repeated: AccessSnapshot.Entry?
    /// The repository being appended (lower case), and its people so far: the map gives each repository's
    /// entries next to each other, so a person twice is found among them.
    private var appending = Appending()

    private struct Appending {
        var repository = ""
        var ids = Set<Int64>()
        var logins = Set<String>()
    }

    /// The same text, whatever was kept to find a repeat while it was appended.
    static func == (lhs: Self, rhs: Self) -> Bool {
        (lhs.bytes, lhs.bodyStart, lhs.count, lhs.isClosed, lhs.hasUnreadable, lhs.repeated)
            == (rhs.bytes, rhs.bodyStart, rhs.count, rhs.isClosed, rhs.hasUnreadable, rhs.repeated)
    }

    /// The text of a map about to be read: the header, and no entry yet. `capacity` is the bytes the whole text
    /// is expected to take (the last map's, on a rerun): reserved at once, the text grows without an array's
    /// doubling, which holds the old bytes and twice as many new ones while it copies.
    init(organization: String, filters: [String: String], apiURL: String? = nil, capacity: Int = 0) {
        bytes = AccessSnapshot.header(organization: organization, filters: filters, apiURL: apiURL)
        bytes.reserveCapacity(capacity)
        bodyStart = bytes.count + 1
    }

    private init(bytes: [UInt8], bodyStart: Int, count: Int) {
        self.bytes = bytes
        self.bodyStart = bodyStart
        self.count = count
        isClosed = true
    }

    /// Appends the next entry's line, in the map's order; where the line is in `bytes`.
    @discardableResult
    mutating func append(_ entry: AccessSnapshot.Entry) -> Range<Int> {
        bytes += Array((count == 0 ? "\n" : ",\n").utf8)
        let start = bytes.count
        bytes += entry.line
        defer { note(entry) }
        return start..<bytes.count
    }

    /// Counts the entry appended, and notes whether the reader would refuse it or it came before.
    private mutating func note(_ entry: AccessSnapshot.Entry) {
        count += 1
        if !entry.isReadable { hasUnreadable = true }
        let repository = entry.repository.lowercased()
        if repository != appending.repository { appending = Appending(repository: repository) }
        let newID = appending.ids.insert(entry.id).inserted
        if !appending.logins.insert(entry.login.lowercased()).inserted || !newID { repeated = repeated ?? entry }
    }

    /// Ends the text: what follows the last entry.
    mutating func close() {
        guard !isClosed else { return }
        bytes += Array("\n]}\n".utf8)
        isClosed = true
    }

    /// One repository's entry lines, `name` its repository in lower case, the form its key (`Entry.key`) has.
    struct Group {
        let name: String
        let lines: [Range<Int>]
    }

    /// The repositories' lines, one group after another as the file holds them: lines of one repository
    /// (case aside) next to each other are one group.
    struct Groups {
        private let text: AccessSnapshotText
        private var index: Int
        /// The next group, not yet taken.
        private(set) var peeked: Group?
        /// A line that is not an entry as gh-users writes it was met: the walk stopped there.
        private(set) var isMalformed = false
        /// The closing line was met.
        private var isEnded = false
        /// The last entry line had a comma after it: another entry follows.
        private var afterComma = false

        fileprivate init(_ text: AccessSnapshotText) {
            self.text = text
            index = text.bodyStart
            peeked = nil
            peeked = group()
        }

        /// Takes the group `peeked` showed, and looks at the next.
        mutating func advance() {
            peeked = group()
        }

        private mutating func group() -> Group? {
            var lines: [Range<Int>] = []
            var name: String?
            while !isMalformed, !isEnded {
                guard let (line, repository) = text.line(at: index) else {
                    // The closing line comes after an entry with no comma after it, or at once.
                    if text.isClosing(at: index), !afterComma { isEnded = true } else { isMalformed = true }
                    break
                }
                // An entry after one with no comma is not JSON.
                if index > text.bodyStart, !afterComma {
                    isMalformed = true
                    break
                }
                let lowered = repository.lowercased()
                if let name, name != lowered { break }
                name = lowered
                lines.append(line)
                afterComma = text.bytes[line.upperBound] == UInt8(ascii: ",")
                index = line.upperBound + (afterComma ? 2 : 1)
            }
            return isMalformed ? nil : name.map { Group(name: $0, lines: lines) }
        }
    }

    /// The groups from the first; a text not closed has none.
    var groups: Groups { Groups(self) }

    /// The group's entries, decoded; nil when they are not entries as gh-users writes them.
    func entries(of group: Group) -> [AccessSnapshot.Entry]? {
        let scanned = group.lines.compactMap { AccessSnapshot.Entry(scanning: bytes, in: $0) }
        if scanned.count == group.lines.count { return scanned }
        var array: [UInt8] = [UInt8(ascii: "[")]
        for (position, line) in group.lines.enumerated() {
            if position > 0 { array.append(UInt8(ascii: ",")) }
            array += bytes[line]
        }
        array.append(UInt8(ascii: "]"))
        guard let entries = try? JSONDecoder().decode([AccessSnapshot.Entry].self, from: Foundation.Data(array)),
            entries.count == group.lines.count
        else { return nil }
        return entries
    }

    private static let opening = Array(#"{"repository":""#.utf8)

    /// The entry line at `start` (without the comma after it) and its repository as written, or nil where no
    /// entry line starts there (the closing line, or anything else).
    fileprivate func line(at start: Int) -> (Range<Int>, String)? {
        guard isClosed, start + Self.opening.count <= bytes.count,
            bytes[start..<start + Self.opening.count].elementsEqual(Self.opening)
        else { return nil }
        let nameStart = start + Self.opening.count
        // A repository's name as GitHub spells it has no escape: a name with one is left to the whole decoding.
        guard
            let quote = bytes[nameStart...].firstIndex(where: { $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }),
            bytes[quote] == UInt8(ascii: "\""),
            let newline = bytes[quote...].firstIndex(of: UInt8(ascii: "\n"))
        else { return nil }
        let end = bytes[newline - 1] == UInt8(ascii: ",") ? newline - 1 : newline
        return (start..<end, String(decoding: bytes[nameStart..<quote], as: UTF8.self))
    }

    /// Whether the closing `]}` line, and nothing after it, is at `index`.
    fileprivate func isClosing(at index: Int) -> Bool {
        index + 3 == bytes.count && bytes[index...].elementsEqual(Array("]}\n".utf8))
    }

    /// The text of `bytes` when it is exactly what gh-users writes for its header and entries, one repository's
    /// entries next to each other and the repositories in the map's order (case aside), each entry one the
    /// reader takes; nil otherwise, for the whole decoding to read (or refuse) as it always has.
    static func read(
        _ bytes: [UInt8]
    ) -> (organization: String, filters: [String: String], apiURL: String?, text: AccessSnapshotText)? {
        guard let newline = bytes.firstIndex(of: UInt8(ascii: "\n")),
            let header = try? JSONDecoder().decode(
                Header.self, from: Foundation.Data(bytes[..<newline] + Array("]}".utf8))),
            header.version == AccessSnapshot.version, header.command == "access", header.access.isEmpty,
            !header.of.isEmpty,
            bytes[..<newline].elementsEqual(
                AccessSnapshot.header(organization: header.of, filters: header.filters, apiURL: header.apiURL))
        else { return nil }
        var text = AccessSnapshotText(bytes: bytes, bodyStart: newline + 1, count: 0)
        var groups = text.groups
        var previous: String?
        while let group = groups.peeked {
            // A signal stops the reading here (a repository at a time), not after every entry is decoded.
            if Task.isCancelled { return nil }
            // An entry twice is left to the whole decoding, which refuses it.
            guard previous.map({ $0 < group.name }) ?? true, let entries = text.entries(of: group),
                entries.repeated == nil
            else { return nil }
            for (entry, line) in zip(entries, group.lines) {
                guard entry.repository.lowercased() == group.name, entry.isReadable(in: header.of),
                    entry.line.elementsEqual(bytes[line])
                else { return nil }
            }
            text.count += entries.count
            previous = group.name
            groups.advance()
        }
        guard !groups.isMalformed else { return nil }
        return (header.of, header.filters, header.apiURL, text)
    }

    private struct Header: Decodable {
        let version: Int
        let command: String
        let of: String
        let filters: [String: String]
        let access: [AccessSnapshot.Entry]
        let apiURL: String?

        enum CodingKeys: String, CodingKey {
            case version, command, of, filters, access
            case apiURL = "api_url"
        }
    }
}

extension AccessSnapshot.Entry: ScannedDTO {
    /// An entry line read in one pass (`JSONMemberReader`), where `JSONDecoder` took about 6 µs a line: the cost
    /// of reading a 151,000-record FILE, and of writing as many changes. Nil for anything but exactly the five
    /// keys, each once and with its type, and sources of exactly `kind`, `name` and `permission`: `JSONDecoder`
    /// then decides, as it always did.
    init?(scanning bytes: [UInt8], in range: Range<Int>) {
        var reader = JSONMemberReader(bytes, in: range)
        var (repository, login, id, permission): (String?, String?, Int64?, String?)
        var sources: [AccessSnapshot.Source]?
        while let (key, value) = reader.next() {
            switch (String(decoding: key, as: UTF8.self), value) {
            case ("repository", .string(let text)): repository = text
            case ("login", .string(let text)): login = text
            case ("id", .integer(let number)): id = number
            case ("permission", .string(let text)): permission = text
            case ("sources", .other): sources = Self.sources(Array(bytes[reader.lastValue]))
            default: return nil
            }
        }
        guard reader.finished, let repository, let login, let id, let permission, let sources else { return nil }
        self.init(repository: repository, login: login, id: id, permission: permission, sources: sources)
    }

    private static func sources(_ array: [UInt8]) -> [AccessSnapshot.Source]? {
        guard let elements = JSONText.strictArrayElements(array) else { return nil }
        var sources: [AccessSnapshot.Source] = []
        for element in elements {
            var reader = JSONMemberReader(array, in: element)
            var fields: [String: String] = [:]
            while let (key, value) = reader.next() {
                guard case .string(let text) = value else { return nil }
                fields[String(decoding: key, as: UTF8.self)] = text
            }
            guard reader.finished, fields.count == 3, let kind = fields["kind"], let name = fields["name"],
                let permission = fields["permission"]
            else { return nil }
            sources.append(AccessSnapshot.Source(kind: kind, name: name, permission: permission))
        }
        return sources
    }
}
