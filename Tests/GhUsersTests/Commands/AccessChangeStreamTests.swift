import Domain
import Foundation
import TestSupport
import Testing

@testable import gh_users

/// `access --changes` compares the maps a repository at a time (`AccessChangeStream`), FILE kept as its text
/// (`AccessSnapshotText`): the changes are those `AccessChange.between` finds for the whole maps, and a FILE
/// not as gh-users writes it, or not in the map's order, is compared whole.
struct AccessChangeStreamTests {
    typealias Entry = AccessSnapshot.Entry
    typealias Source = AccessSnapshot.Source

    private static let org = Source(kind: "organization", name: "o", permission: "read")
    private static let core = Source(kind: "team", name: "core", permission: "write")

    private static func entry(
        _ repository: String, _ login: String, _ id: Int64, _ permission: String = "read", _ sources: [Source] = [org]
    ) -> Entry {
        Entry(repository: repository, login: login, id: id, permission: permission, sources: sources)
    }

    /// FILE as gh-users writes `entries`, read back.
    private static func file(_ entries: [Entry]) throws -> AccessSnapshot {
        let bytes = AccessSnapshot(organization: "o", filters: [:], entries: entries).encoded
        return try AccessSnapshot.decode(bytes).get()
    }

    /// The new map's entries a repository at a time, as the sink hands them on: one call for each repository,
    /// in the order given.
    /// With `lines`, the new lines are handed on as the command hands them, and FILE's repositories whose lines
    /// are the same are not decoded.
    private static func streamed(
        _ old: AccessSnapshot?, _ new: [(String, [Entry])], lines: Bool = true
    ) -> (changes: [AccessChange], streaming: Bool) {
        var stream = AccessChangeStream(old: old)
        var text = AccessSnapshotText(organization: "o", filters: [:])
        for (repository, entries) in new {
            let ranges = entries.map { text.append($0) }
            stream.take(entries, of: repository, at: ranges, in: text, comparingLines: lines)
        }
        let streaming = stream.isStreaming
        text.close()
        return (Array(stream.finish(new: text)), streaming)
    }

    /// The entries grouped by repository in the order they come, each repository once.
    private static func byRepository(_ entries: [Entry], also empty: [String] = []) -> [(String, [Entry])] {
        var groups: [(String, [Entry])] = []
        for entry in entries {
            if groups.last?.0 == entry.repository {
                groups[groups.count - 1].1.append(entry)
            } else {
                groups.append((entry.repository, [entry]))
            }
        }
        for name in empty { groups.append((name, [])) }
        return groups.sorted { AccessOrder.precedes($0.0, $1.0) }
    }

    private static func summary(_ changes: [AccessChange]) -> [String] {
        changes.map { "\($0.change) \($0.repository) \($0.login)" }
    }

    @Test func aFileGhUsersWroteIsKeptAsItsTextAndWrittenBackByteForByte() throws {
        let entries = [Self.entry("o/a", "mona", 1, "write", [Self.org, Self.core]), Self.entry("o/b", "hubot", 2)]
        let bytes = AccessSnapshot(organization: "o", filters: ["person": "mona"], entries: entries).encoded
        #expect(
            String(decoding: bytes, as: UTF8.self)
                == #"{"version":1,"command":"access","of":"o","filters":{"person":"mona"},"access":["# + "\n"
                + #"{"repository":"o/a","login":"mona","id":1,"permission":"write","sources":["#
                + #"{"kind":"organization","name":"o","permission":"read"},"#
                + #"{"kind":"team","name":"core","permission":"write"}]},"# + "\n"
                + #"{"repository":"o/b","login":"hubot","id":2,"permission":"read","sources":["#
                + #"{"kind":"organization","name":"o","permission":"read"}]}"# + "\n]}\n")
        let read = try AccessSnapshot.decode(bytes).get()
        #expect(read.text?.bytes == bytes)
        #expect(read.entries.isEmpty && read.count == 2)
        #expect(read.encoded == bytes)
        var built = AccessSnapshotText(organization: "o", filters: ["person": "mona"])
        for entry in entries { built.append(entry) }
        built.close()
        #expect(built.bytes == bytes)
        let empty = AccessSnapshot(organization: "o", filters: [:], entries: []).encoded
        #expect(try AccessSnapshot.decode(empty).get().text?.bytes == empty)
    }

    @Test func eachKindOfChangeIsFoundARepositoryAtATime() throws {
        let old = [
            Self.entry("o/Api", "mona", 1), Self.entry("o/Api", "octocat", 3, "write", [Self.org, Self.core]),
            Self.entry("o/gone-first", "mona", 1),  // sorts after o/Api, before o/kept
            Self.entry("o/kept", "hubot", 2), Self.entry("o/kept", "mona", 1),
            Self.entry("o/zz-gone-last", "hubot", 2), Self.entry("o/zz-gone-last", "mona", 1),
        ]
        let new: [(String, [Entry])] = [
            ("o/aaa-new-first", [Self.entry("o/aaa-new-first", "mona", 1)]),
            // Renamed, the same sources in another order, another spelling of the repository: no change.
            (
                "o/API",
                [
                    Self.entry("o/API", "mona-renamed", 1),
                    Self.entry("o/API", "octocat", 3, "write", [Self.core, Self.org]),
                ]
            ),
            ("o/kept", [Self.entry("o/kept", "hubot", 2, "admin")]),
            ("o/new-middle", [Self.entry("o/new-middle", "mona", 1)]),
            ("o/zzz-new-last", [Self.entry("o/zzz-new-last", "hubot", 2)]),
        ]
        let (changes, streaming) = Self.streamed(try Self.file(old), new)
        #expect(streaming)
        #expect(
            Self.summary(changes) == [
                "added o/aaa-new-first mona", "removed o/gone-first mona", "changed o/kept hubot",
                "removed o/kept mona", "added o/new-middle mona", "removed o/zz-gone-last hubot",
                "removed o/zz-gone-last mona", "added o/zzz-new-last hubot",
            ])
        #expect(changes == AccessChange.between(old, new.flatMap(\.1)))
        #expect(changes[2].old?.permission == "read" && changes[2].new?.permission == "admin")
    }

    @Test func aRenameWithAnotherPermissionIsAChangeUnderTheNewLogin() throws {
        let old = [Self.entry("o/a", "mona", 1)]
        let (changes, streaming) = Self.streamed(
            try Self.file(old), [("o/a", [Self.entry("o/a", "mona-2", 1, "write")])])
        #expect(streaming)
        #expect(Self.summary(changes) == ["changed o/a mona-2"])
        #expect(changes.first?.old?.login == "mona")
    }

    /// Repositories the new map has with no record (filters left none out), or not at all: FILE's are removed.
    @Test func repositoriesTheNewMapHasNoRecordsOfAreRemoved() throws {
        let old = [Self.entry("o/a", "mona", 1), Self.entry("o/b", "mona", 1), Self.entry("o/c", "mona", 1)]
        let (changes, streaming) = Self.streamed(try Self.file(old), [("o/b", [])])
        #expect(streaming)
        #expect(Self.summary(changes) == ["removed o/a mona", "removed o/b mona", "removed o/c mona"])
        let (nothing, _) = Self.streamed(try Self.file(old), [])
        #expect(nothing.count == 3)
    }

    /// FILE not in the map's order (hand-edited, or another order), or not as gh-users writes it, is decoded
    /// whole and compared whole: the changes are the same.
    @Test(arguments: [
        "out of order", "pretty-printed", "one repository in two places",
    ])
    func aFileNotInTheMapsOrderIsComparedWhole(shape: String) throws {
        let entries = [Self.entry("o/a", "mona", 1), Self.entry("o/b", "mona", 1), Self.entry("o/c", "hubot", 2)]
        let lines = entries.map { String(decoding: $0.line, as: UTF8.self) }
        let header = #"{"version":1,"command":"access","of":"o","filters":{},"access":["#
        let body: String
        switch shape {
        case "out of order": body = "\n" + [lines[1], lines[0], lines[2]].joined(separator: ",\n") + "\n]}\n"
        case "pretty-printed": body = "\n  " + lines.joined(separator: ",\n  ") + "\n]}\n"
        default:
            let again = String(decoding: Self.entry("o/a", "hubot", 2).line, as: UTF8.self)
            body = "\n" + (lines + [again]).joined(separator: ",\n") + "\n]}\n"
        }
        let old = try AccessSnapshot.decode(Array((header + body).utf8)).get()
        #expect(old.text == nil)
        #expect(old.entries.count == (shape == "one repository in two places" ? 4 : 3))
        let new = [Self.entry("o/b", "mona", 1, "admin"), Self.entry("o/c", "hubot", 2)]
        let (changes, streaming) = Self.streamed(old, Self.byRepository(new))
        #expect(!streaming)
        #expect(changes == AccessChange.between(old.entries, new))
        #expect(Self.summary(changes).contains("removed o/a mona"))
    }

    /// A new map whose repositories came out of order would miss their match in FILE: it is compared whole.
    @Test func newRepositoriesOutOfOrderAreComparedWhole() throws {
        let old = [Self.entry("o/a", "mona", 1), Self.entry("o/b", "mona", 1)]
        let new: [(String, [Entry])] = [
            ("o/b", [Self.entry("o/b", "mona", 1)]), ("o/a", [Self.entry("o/a", "mona", 1)]),
        ]
        let (changes, streaming) = Self.streamed(try Self.file(old), new)
        #expect(!streaming)
        #expect(changes.isEmpty)
    }

    /// Text that is not exactly what gh-users writes is never read line by line: the whole decoding reads it, or
    /// refuses it, as it did before, so the line-by-line reading never takes more, nor reads it otherwise.
    @Test(arguments: [
        ("no comma between entries", "\n", "\n]}\n"), ("a comma after the last", ",\n", ",\n]}\n"),
        ("no newline at the end", ",\n", "\n]}"), ("more after the end", ",\n", "\n]}\n\n"),
        ("spaces", ", \n", "\n]}\n"), ("an escaped name", ",\n", "\n]}\n"), ("a zero id", ",\n", "\n]}\n"),
        // Another organization's repository is no record of this map (before: read, and compared as one; a
        // review's find).
        ("another organization's", ",\n", "\n]}\n"),
    ])
    func textNotAsGhUsersWritesItIsDecodedWhole(shape: String, separator: String, end: String) {
        var entries = [Self.entry("o/a", "mona", 1), Self.entry("o/b", "mona", 1)]
        if shape == "an escaped name" { entries[1] = Self.entry("o/b\"c", "mona", 1) }
        if shape == "a zero id" { entries[1] = Self.entry("o/b", "mona", 0) }
        if shape == "another organization's" { entries[1] = Self.entry("p/b", "mona", 1) }
        let text =
            #"{"version":1,"command":"access","of":"o","filters":{},"access":["# + "\n"
            + entries.map { String(decoding: $0.line, as: UTF8.self) }.joined(separator: separator) + end
        let bytes = Array(text.utf8)
        #expect(AccessSnapshotText.read(bytes) == nil)
        #expect(AccessSnapshot.decode(bytes) == AccessSnapshot.decodeWhole(bytes))
        // Read whole an entry at a time where it is valid JSON, in its own bytes and the entries (not the seven
        // times the file `JSONDecoder` took: helper-291), and as `JSONDecoder` reads it.
        let whole = try? JSONDecoder().decode(AccessSnapshot.Fields.self, from: Data(bytes))
        switch SnapshotLines.elementwise(bytes, list: \AccessSnapshot.Fields.access, key: "access") {
        case .read(let fields):
            #expect(shape != "no comma between entries" && shape != "a comma after the last", "\(shape)")
            #expect(fields.access == whole?.access && fields.of == whole?.of, "\(shape)")
        case .refused: Issue.record("\(shape): refused, where JSONDecoder reads \(String(describing: whole))")
        case .notApplicable:
            #expect(shape == "no comma between entries" || shape == "a comma after the last", "\(shape)")
        }
        if ["no comma between entries", "a zero id", "another organization's"].contains(shape) {
            #expect(throws: FileContentProblem.self) { try AccessSnapshot.decode(bytes).get() }
        }
    }

    /// For random maps, FILE written and read back as gh-users does, the changes found a repository at a time
    /// are those `between` finds for the whole maps.
    @Test func randomMapsGiveWhatTheWholeComparisonGives() throws {
        var random = SplitMix(seed: 41)
        let names = ["o/a", "o/A-b", "o/a-b", "o/B", "o/c_d", "o/cd", "o/Z", "o/zz"]
        let logins = ["mona", "Hubot", "octocat", "X", "y", "zed"]
        let pool = [Self.org, Self.core, Source(kind: "team", name: "web", permission: "read")]
        func map() -> [Entry] {
            // Names unique case aside, as GitHub's are, spelt one way or another.
            var chosen: [String: String] = [:]
            for name in names where random.next() % 2 == 0 { chosen[name.lowercased()] = name }
            var entries: [Entry] = []
            for repository in chosen.values {
                // Each person once in a repository, as a map holds them; a login drawn anew is a rename.
                let shift = Int(random.next() % 6)
                for id in 1...4 where random.next() % 2 == 0 {
                    let sources = pool.filter { _ in random.next() % 2 == 0 }
                    entries.append(
                        Self.entry(
                            repository, logins[(id + shift) % 6], Int64(id),
                            ["read", "write", "admin"][Int(random.next() % 3)],
                            random.next() % 2 == 0 ? sources : sources.reversed()))
                }
            }
            return entries.sorted { lhs, rhs in
                let repository = AccessOrder.compare(lhs.repository, rhs.repository)
                return repository != 0 ? repository < 0 : AccessOrder.precedes(lhs.login, rhs.login)
            }
        }
        var compared = 0
        var same = 0
        for round in 0..<400 {
            let old = map()
            // Half the rounds: the same map, or one entry's permission changed; the other repositories' lines are
            // the same.
            var new = round % 2 == 0 ? map() : old
            if round % 2 == 1, !new.isEmpty, random.next() % 3 != 0 {
                let index = Int(random.next() % UInt64(new.count))
                let was = new[index]
                new[index] = Self.entry(was.repository, was.login, was.id, "maintain", was.sources)
            }
            let changes = AccessChange.between(old, new)
            for lines in [true, false] {
                let streamed = Self.streamed(try Self.file(old), Self.byRepository(new), lines: lines)
                #expect(streamed.streaming)
                #expect(streamed.changes == changes)
            }
            compared += changes.count
            same += old == new ? 1 : 0
        }
        #expect(compared > 200 && same > 30, "\(compared) changes, \(same) maps the same")
    }

    /// An entry line is read in one pass as `JSONDecoder` reads it: a line gh-users wrote of plain text scans,
    /// whatever its sources; anything else scans as `JSONDecoder` decodes it, or is left to it (nil).
    @Test func anEntryLineScansAsJSONDecoderDecodesIt() throws {
        let plain = Self.entry("o/api", "mona", 7, "admin", [Self.org, Self.core])
        let bare = Self.entry("o/web", "x", 1, "read", [])
        for entry in [plain, bare] {
            let line = entry.line
            #expect(Entry(scanning: line, in: line.indices) == entry)
        }
        var random = SplitMix(seed: 7)
        let pieces = ["a", "Z", "-", "\"", "\\", "/", "\n", "\u{1}", "é", "山", "😀", " ", "_"]
        func text() -> String { (0..<Int(random.next() % 5)).map { _ in pieces[Int(random.next() % 13)] }.joined() }
        var readable = 0
        for _ in 0..<500 {
            let source = Source(kind: text(), name: text(), permission: text())
            let entry = Self.entry("o/" + text(), text(), Int64(random.next() % 1_000) + 1, text(), [source, Self.org])
            let line = entry.line
            let scanned = Entry(scanning: line, in: line.indices)
            #expect(scanned == nil || scanned == entry, "\(String(decoding: line, as: UTF8.self))")
            // Strings of printable ASCII and the controls JSON escapes by a letter (\n \r \t \b \f), no `\u`:
            // always read in one pass (helper-282: the test's first condition, on the line's bytes, held for 2 of 500).
            let strings =
                [entry.repository, entry.login, entry.permission]
                + entry.sources.flatMap {
                    [$0.kind, $0.name, $0.permission]
                }
            let short: Set<UInt32> = [0x08, 0x09, 0x0A, 0x0C, 0x0D]
            if strings.allSatisfy({
                $0.unicodeScalars.allSatisfy { (0x20...0x7E).contains($0.value) || short.contains($0.value) }
            }) {
                readable += 1
                #expect(scanned == entry)
            }
            #expect(try JSONDecoder().decode(Entry.self, from: Foundation.Data(line)) == entry)
        }
        #expect(readable > 10, "\(readable) of 500 entries readable in one pass")
        let odd = [
            #"{"repository":"o/a","login":"m","id":1,"permission":"read","sources":[],"extra":1}"#,
            #"{"repository":"o/a","login":"m","id":1,"id":2,"permission":"read","sources":[]}"#,
            #"{"repository":"o/a","login":"m","id":1.5,"permission":"read","sources":[]}"#,
            #"{"repository":"o/a","login":"m","id":1,"permission":"read"}"#,
            #"{"repository":"o/a","login":"m","id":1,"permission":"read","sources":[{"kind":"team","name":"t"}]}"#,
            #"{"repository":"o/a","login":"m","id":1,"permission":"read","sources":[{"kind":"team","name":"t","permission":"read","x":"y"}]}"#,
            #"{"repository":"o/a","login":"m","id":1,"permission":"read","sources":[1]}"#,
            #"{"repository":"o/a","login":"m","id":1,"permission":"read","sources":[],}"#,
        ]
        for text in odd {
            let line = Array(text.utf8)
            #expect(Entry(scanning: line, in: line.indices) == nil, "\(text)")
        }
    }

    /// A signal while FILE is read stops the reading, a repository at a time (before: a map of 151,000 records
    /// was read to its end first, two seconds before Ctrl-C was heard, and one of 104 MB ten; helper-220). In
    /// the text's order or not (read whole), a cancelled run's load is `interrupted`, which the run says as any
    /// interrupted run.
    @Test(arguments: [false, true])
    func aSnapshotReadUnderASignalIsInterrupted(shuffled: Bool) async throws {
        var entries: [Entry] = (0..<2_000).map { (index: Int) -> Entry in
            Self.entry("o/r\(1_000 + index / 100)", "u\(index)", Int64(index + 1))
        }
        if shuffled { entries.reverse() }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("gh-users-access-\(UUID())").path
        try Foundation.Data(AccessSnapshot(organization: "o", filters: [:], entries: entries).encoded)
            .write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let file = SnapshotFile<AccessSnapshot>(path: path)
        #expect(try file.load() != nil)
        let cancelled = Task { () -> LocalFileError? in
            withUnsafeCurrentTask { $0?.cancel() }
            do throws(LocalFileError) {
                _ = try file.load()
                return nil
            } catch {
                return error
            }
        }
        #expect(await cancelled.value?.isInterruption == true)
    }
}
