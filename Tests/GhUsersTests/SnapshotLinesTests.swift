import Foundation
import TestSupport
import Testing

@testable import gh_users

/// `--changes` snapshots are read a line at a time where gh-users wrote them (`SnapshotLines`), and by
/// `JSONDecoder` whole otherwise: the line reader must be taken for every file gh-users writes, and must never read a
/// file otherwise than `JSONDecoder` does.
struct SnapshotLinesTests {
    static let people = PeopleSnapshot(
        subject: .init(command: "invitations", owner: "octo-org", filters: ["role": "billing_manager"]),
        people: [
            .init(id: 1, login: "octocat", role: "admin"), .init(id: 9, login: "hubot"),
            .init(id: 12, login: "say \"hi\"@example.com", role: "direct_member"),
        ],
        ownerID: 9_919, apiURL: "https://api.github.com")

    static let follows = FollowSnapshot(
        subject: FollowSnapshotSubject(
            relation: .followers, account: .init(id: 583_231, login: "octocat"), filter: "mutual"),
        accounts: [.init(id: 1, login: "mojombo"), .init(id: 2, login: "defunkt")], apiURL: nil)

    static func linesOfPeople(_ bytes: [UInt8]) -> PeopleSnapshot.Fields? {
        SnapshotLines.lines(bytes, list: \.people, written: PeopleSnapshot.Fields.written)
    }

    static func decoded<Fields: Decodable>(_ bytes: [UInt8], as: Fields.Type) -> Fields? {
        try? JSONDecoder().decode(Fields.self, from: Data(bytes))
    }

    static let writtenPeople: [PeopleSnapshot] = [
        people,
        PeopleSnapshot(subject: people.subject, people: [], ownerID: nil, apiURL: nil),
        PeopleSnapshot(
            subject: .init(command: "stargazers", owner: "octocat/Hello-World", filters: [:]),
            people: (1...300).map { .init(id: Int64($0), login: "user-\($0)") }, ownerID: 1_296_269, apiURL: nil),
    ]

    @Test(arguments: writtenPeople)
    func aPeopleSnapshotAsGhUsersWritesItIsReadALineAtATime(_ snapshot: PeopleSnapshot) throws {
        let bytes = snapshot.encoded
        let lines = try #require(Self.linesOfPeople(bytes))
        #expect(lines == Self.decoded(bytes, as: PeopleSnapshot.Fields.self))
        #expect(lines.people == snapshot.people)
        #expect(PeopleSnapshot.decode(bytes) == .success(snapshot))
    }

    @Test func aFollowerSnapshotAsGhUsersWritesItIsReadALineAtATime() throws {
        for snapshot in [Self.follows, FollowSnapshot(subject: Self.follows.subject, accounts: [], apiURL: "x")] {
            let bytes = snapshot.encoded
            let lines = try #require(
                SnapshotLines.lines(bytes, list: \.accounts, written: FollowSnapshot.Fields.written))
            #expect(lines == Self.decoded(bytes, as: FollowSnapshot.Fields.self))
            #expect(lines.accounts == snapshot.accounts)
        }
    }

    /// Files edited or damaged in the ways a person or a disk does it: each is read as `JSONDecoder` reads it
    /// (the same fields, or refused), whichever reader took it.
    static let edits: [(String, @Sendable (String) -> String)] = [
        ("a comma after the last entry", { $0.replacing("\"direct_member\"}\n]}", with: "\"direct_member\"},\n]}") }),
        ("no newline at the end", { String($0.dropLast()) }),
        ("cut before the end", { String($0.dropLast(4)) }),
        ("bytes after the end", { $0 + "x" }),
        ("a blank line after the end", { $0 + "\n" }),
        ("an id given twice", { $0.replacing("{\"id\":9,", with: "{\"id\":9,\"id\":10,") }),
        ("an id as text", { $0.replacing("{\"id\":9,", with: "{\"id\":\"9\",") }),
        ("an id as a fraction", { $0.replacing("{\"id\":9,", with: "{\"id\":9.0,") }),
        ("a role that is a number", { $0.replacing("\"role\":\"admin\"", with: "\"role\":5") }),
        ("a role that is null", { $0.replacing("\"role\":\"admin\"", with: "\"role\":null") }),
        ("a key the reader does not know", { $0.replacing("{\"id\":9,", with: "{\"x\":[1,{}],\"id\":9,") }),
        ("spaces inside an entry", { $0.replacing("{\"id\":9,", with: "{ \"id\" : 9 , ") }),
        ("an entry over two lines", { $0.replacing("{\"id\":9,", with: "{\"id\":9,\n") }),
        ("two entries on one line", { $0.replacing("},\n{\"id\":9", with: "},{\"id\":9") }),
        ("line ends of CR LF", { $0.replacing("\n", with: "\r\n") }),
        ("a byte order mark", { "\u{FEFF}" + $0 }),
        (
            "the header's keys in another order",
            { $0.replacing("{\"version\":1,", with: "{").replacing("\"people\":[", with: "\"version\":1,\"people\":[") }
        ),
        (
            "the list given twice",
            { $0.replacing("\"people\":[", with: "\"people\":[{\"id\":5,\"login\":\"ghost\"}],\"people\":[") }
        ),
        ("a login that is not ASCII", { $0.replacing("\"hubot\"", with: "\"hübot\"") }),
        ("a login with a \\u escape", { $0.replacing("\"hubot\"", with: "\"h\\u0075bot\"") }),
        ("a raw newline in a login", { $0.replacing("\"hubot\"", with: "\"hu\nbot\"") }),
        ("another version", { $0.replacing("{\"version\":1,", with: "{\"version\":2,") }),
        (
            "no entries and a comma",
            { _ in "{\"version\":1,\"command\":\"members\",\"of\":\"o\",\"filters\":{},\"people\":[\n,\n]}\n" }
        ),
        ("empty", { _ in "" }),
        ("a header alone", { $0.prefix { $0 != "\n" } + "\n" }),
    ]

    /// The edits the line reader takes itself: JSON's whitespace, a null role and a key it does not read. The
    /// others go to `JSONDecoder`.
    static let readByLines: Set<String> = [
        "spaces inside an entry", "a role that is null", "a key the reader does not know",
    ]

    /// The edits read an entry at a time (`SnapshotLines.elementwise`): valid JSON with no key given twice, in
    /// the file's bytes and the entries, not in the seven times the file that `JSONDecoder` took whole
    /// (helper-291: a snapshot of 1,000,000 people missing its last newline, under `ulimit -v`, ended in a
    /// backtrace). Those it refuses, `JSONDecoder` refuses too; the rest (not JSON, a key twice) are left to it.
    static let readElementwise: Set<String> = [
        "no newline at the end", "a blank line after the end", "an id as a fraction", "a role that is null",
        "a key the reader does not know", "spaces inside an entry", "an entry over two lines",
        "two entries on one line", "line ends of CR LF", "the header's keys in another order",
        "a login that is not ASCII", "a login with a \\u escape", "another version",
    ]
    static let refusedElementwise: Set<String> = ["an id as text", "a role that is a number"]

    @Test func anEditedOrDamagedFileIsReadAsJSONDecoderReadsIt() {
        let written = String(decoding: Self.people.encoded, as: UTF8.self)
        for (name, edit) in Self.edits {
            let bytes = Array(edit(written).utf8)
            #expect(bytes != Self.people.encoded, "\(name): no edit")
            #expect(
                PeopleSnapshot.Fields.read(bytes) == Self.decoded(bytes, as: PeopleSnapshot.Fields.self), "\(name)")
            #expect((Self.linesOfPeople(bytes) != nil) == Self.readByLines.contains(name), "\(name)")
            // Which of the other readings takes it: an entry at a time, or `JSONDecoder` whole.
            let reading = SnapshotLines.elementwise(bytes, list: \PeopleSnapshot.Fields.people, key: "people")
            switch reading {
            case .read(let fields):
                #expect(Self.readElementwise.contains(name), "\(name)")
                #expect(fields == Self.decoded(bytes, as: PeopleSnapshot.Fields.self), "\(name)")
            case .refused: #expect(Self.refusedElementwise.contains(name), "\(name)")
            case .notApplicable:
                #expect(!Self.readElementwise.contains(name) && !Self.refusedElementwise.contains(name), "\(name)")
            }
        }
    }

    /// Every one-byte change, insertion and removal of JSON's own bytes at seeded places: read as `JSONDecoder`
    /// reads it.
    @Test func everySmallDamageIsReadAsJSONDecoderReadsIt() {
        let written = Self.people.encoded
        let alphabet = Array("{}[],:\" \n\\0159-ax".utf8)
        var generator = SplitMix(seed: 20_261_204)
        var lineReaderTook = 0
        for _ in 0..<3_000 {
            var bytes = written
            let place = Int(generator.next() % UInt64(bytes.count))
            let byte = alphabet[Int(generator.next() % UInt64(alphabet.count))]
            switch generator.next() % 3 {
            case 0: bytes[place] = byte
            case 1: bytes.insert(byte, at: place)
            default: bytes.remove(at: place)
            }
            let read = PeopleSnapshot.Fields.read(bytes)
            #expect(
                read == Self.decoded(bytes, as: PeopleSnapshot.Fields.self), "\(String(decoding: bytes, as: UTF8.self))"
            )
            if Self.linesOfPeople(bytes) != nil { lineReaderTook += 1 }
        }
        // Spaces and changed digits leave many files that the line reader takes: both readers were compared.
        #expect(lineReaderTook > 100)
    }

    /// Under a signal the reading stops within a thousand lines, and the file is not read whole again by
    /// `JSONDecoder` (`SnapshotFile.load` then says the run was interrupted).
    @Test func aSignalStopsTheReading() async {
        let bytes = Self.writtenPeople[2].encoded
        let read = await Task { () -> PeopleSnapshot.Fields? in
            withUnsafeCurrentTask { $0?.cancel() }
            return PeopleSnapshot.Fields.read(bytes)
        }.value
        #expect(read == nil)
        #expect(PeopleSnapshot.Fields.read(bytes) != nil)
    }

    @Test func aVersionOneFollowerSnapshotIsReadByJSONDecoder() {
        let text =
            "{\"version\":1,\"command\":\"followers\",\"login\":\"octocat\",\"filter\":null,\"accounts\":[\n"
            + "{\"id\":1,\"login\":\"mojombo\"}\n]}\n"
        let bytes = Array(text.utf8)
        #expect(
            SnapshotLines.lines(bytes, list: \.accounts, written: FollowSnapshot.Fields.written) == nil)
        let read = FollowSnapshot.Fields.read(bytes)
        #expect(read != nil)
        #expect(read == Self.decoded(bytes, as: FollowSnapshot.Fields.self))
    }

    /// Two snapshots one after the other in one file are no snapshot, as `JSONDecoder` refuses them: the line
    /// reader must not stop at the first one's end (mutation round 10, M10-803).
    @Test func twoSnapshotsInOneFileAreNone() {
        let twice = Self.people.encoded + Self.people.encoded
        #expect(Self.decoded(twice, as: PeopleSnapshot.Fields.self) == nil)
        #expect(Self.linesOfPeople(twice) == nil)
    }
}
