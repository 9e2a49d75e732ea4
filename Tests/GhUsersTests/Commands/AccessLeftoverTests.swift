import Foundation
import Testing

@testable import gh_users

#if canImport(Glibc)
    import Glibc
#endif

/// What a resumed `access --state` does with the bytes a stop left past its state (`AccessLeftover`): they are
/// kept when this run's first records begin with them to the byte, and refused otherwise; nothing is cut.
struct AccessLeftoverTests {
    private static let leftover: AccessLeftover = {
        var state = AccessState(organization: "o", filters: [:], format: .tsv, fields: nil, apiURL: nil)
        (state.after, state.records, state.outputBytes) = ("o/a", 3, 6)
        return AccessLeftover(state: state, recorded: 6)
    }()

    private enum Outcome: Equatable {
        case success(String)
        case failure(String)
    }

    private static func rest(_ first: String?, held: String) -> Outcome {
        let result = Self.leftover.rest(
            of: first.map { Array($0.utf8) }, held: Array(held.utf8), repository: "o/b", path: "/m.tsv",
            stateShown: "'s'")
        switch result {
        case .success(let rest): return .success(String(decoding: rest, as: UTF8.self))
        case .failure(let refusal): return .failure(refusal.message)
        }
    }

    /// The stop's records, whole or cut inside a line (a csv quote left open among them), are this run's first
    /// records: only what follows them is written.
    @Test func recordsThatBeginThisRunsAreKeptAndTheRestFollows() {
        #expect(Self.rest("o/b\tmona\no/b\thubot\n", held: "o/b\tmona\no/b\thubot\n") == .success(""))
        #expect(Self.rest("o/b\tmona\no/b\thubot\n", held: "o/b\tmona\no/b\thu") == .success("bot\n"))
        #expect(Self.rest("o/b,mona,\"[{\"\"kind\"\"}]\"\n", held: "o/b,mona,\"[{") == .success("\"\"kind\"\"}]\"\n"))
    }

    /// Anything else is refused, with nothing written: another run's lines after a cut line (a review lost 151
    /// records of a map appended after a csv line cut inside its quotes), records of a person the map's
    /// `--person` leaves out, more than the first repository's records, or none to compare.
    @Test func whatThisRunDoesNotWriteFirstIsRefused() {
        let differ = "they differ from this run's records of o/b"
        for held in [
            "o/b,mona,\"[{o/a,x\no/c,y\n", "o/b\tmona\no/b\thubot\n", "o/b\tmona\no/c\tmona\n", "note",
        ] {
            guard case .failure(let message) = Self.rest("o/b\tmona\n", held: held) else {
                Issue.record("kept \(held)")
                continue
            }
            #expect(message.contains(differ), "\(message)")
            #expect(message.contains("Nothing was written, and both were left as they are"))
            #expect(message.contains("(truncate -s 6 /m.tsv)"))
        }
        guard case .failure(let none) = Self.rest(nil, held: "o/b\tmona\n") else {
            Issue.record("a run with no records to write kept what the stop left")
            return
        }
        #expect(none.contains("this run has no records to write of o/b"), "\(none)")
    }

    /// The fingerprint of the bytes before a recorded length finds the file by its content wherever it is: the
    /// same bytes at another path give the same one, another byte within the last 4 KiB another; none at 0.
    @Test func theFingerprintIsOfTheBytesBeforeTheLength() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gh-users-tail-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        func fingerprint(_ text: String, before length: Int64) throws -> String? {
            let path = folder.appendingPathComponent(UUID().uuidString).path
            try text.write(toFile: path, atomically: false, encoding: .utf8)
            let descriptor = open(path, O_RDONLY)
            defer { close(descriptor) }
            return AccessLeftover.fingerprint(descriptor, before: length)
        }
        let map = String(repeating: "o/a\tmona\n", count: 1_000)
        let recorded = Int64(map.utf8.count)
        #expect(try fingerprint(map + "o/b\tx", before: recorded) == fingerprint(map, before: recorded))
        #expect(try fingerprint(map, before: recorded) != fingerprint("O" + map.dropFirst(), before: recorded - 1))
        #expect(try fingerprint(map, before: recorded) != fingerprint(map.dropLast(2) + "x\n", before: recorded))
        // Only the last 4 KiB: a change before them is not seen, and the length still is.
        #expect(try fingerprint(map, before: recorded) == fingerprint("O" + map.dropFirst(), before: recorded))
        // Nothing before 0 tells one file from another: a state of 0 bytes knows its file otherwise.
        #expect(try fingerprint(map, before: 0) == nil)
        #expect(try fingerprint(map, before: recorded + 1) == nil)
    }

    /// A rerun that writes the map's rest elsewhere while the state's own file, still at its path, holds bytes a
    /// stop left past what the state counts says so: to another file with the cut that removes them, to a pipe or
    /// the terminal with how many bytes are the map. A file that ends where the state counts gets no note
    /// (mutation round 13, M13-5 and M13-6).
    @Test func aStopsBytesInTheStatesOwnFileAreNamedOnce() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gh-users-stray-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("map.tsv").path
        let map = "o/a\tmona\no/a\thubot\n"
        func note(_ text: String, toFile: Bool) throws -> String? {
            try text.write(toFile: path, atomically: false, encoding: .utf8)
            let descriptor = open(path, O_RDONLY)
            defer { close(descriptor) }
            var state = AccessState(organization: "o", filters: [:], format: .tsv, fields: nil, apiURL: nil)
            (state.after, state.records, state.outputBytes) = ("o/a", 2, Int64(map.utf8.count))
            (state.output, state.outputTail) = (path, AccessLeftover.fingerprint(descriptor, before: 19))
            return AccessLeftover(state: state, recorded: 19).strayNote(stateShown: "'s'", toFile: toFile)
        }
        let toFile = try #require(try note(map + "o/b\tx\n", toFile: true))
        #expect(
            toFile.contains("holds 6 bytes past it that a stop left, which this run writes again here: "), "\(toFile)")
        #expect(toFile.contains("remove them from it (truncate -s 19 "), "\(toFile)")
        let toPipe = try #require(try note(map + "o/b\tx\n", toFile: false))
        #expect(
            toPipe.contains("which this run writes again: the map up to the stop is its first 19 bytes."), "\(toPipe)")
        #expect(!toPipe.contains("truncate"), "\(toPipe)")
        #expect(try note(map, toFile: true) == nil)
        #expect(try note(map, toFile: false) == nil)
    }
}
