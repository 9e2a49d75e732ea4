import Foundation
import Testing

@testable import gh_users

/// A scratch folder per test, removed afterwards.
private struct Scratch {
    let directory: String

    init() throws {
        directory =
            FileManager.default.temporaryDirectory.appendingPathComponent("crawl-state-\(UUID().uuidString)")
            .path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    func path(_ name: String) -> String { directory + "/" + name }

    func write(_ name: String, _ text: String, mode: Int = 0o644) throws {
        try Foundation.Data(text.utf8).write(to: URL(fileURLWithPath: path(name)))
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path(name))
    }

    func read(_ name: String) throws -> String {
        try String(contentsOfFile: path(name), encoding: .utf8)
    }

    func mode(_ name: String) throws -> Int {
        try #require(try FileManager.default.attributesOfItem(atPath: path(name))[.posixPermissions] as? Int)
    }

    func remove() { try? FileManager.default.removeItem(atPath: directory) }
}

struct CrawlStateTests {
    @Test(arguments: [
        CrawlState(since: 0, apiURL: "https://api.github.com"),
        CrawlState(since: 583_231, outputBytes: 0), CrawlState(since: 9, outputBytes: 1 << 40),
        CrawlState(since: 5, outputBytes: 12, output: "/data/\"odd\" name \\ é.tsv"),
    ])
    func aStateReadsBackAsItWasWritten(state: CrawlState) {
        #expect(CrawlState.decode(state.encoded) == .success(state))
    }

    @Test func theFileIsOneSmallJSONObjectAPersonCanRead() {
        let text = String(decoding: CrawlState(since: 1234, outputBytes: 56789).encoded, as: UTF8.self)
        #expect(text == #"{"version":1,"since":1234,"output_bytes":56789}"# + "\n")
        #expect(String(decoding: CrawlState(since: 7).encoded, as: UTF8.self) == #"{"version":1,"since":7}"# + "\n")
    }

    @Test(arguments: [
        "", "garbage", "[1,2]", #"{"since":5}"#, #"{"version":2,"since":5}"#, #"{"version":1}"#,
        #"{"version":1,"since":-1}"#, #"{"version":1,"since":"12"}"#, #"{"version":1,"since":1.5}"#,
        #"{"version":1,"since":true}"#, #"{"version":1,"since":5,"output_bytes":-3}"#,
        #"{"version":1,"since":5,"output_bytes":"10"}"#, #"{"version":1,"since":5"#,
        #"{"version":1,"since":99999999999999999999}"#,
        // A field twice (by hand: gh-users never wrote one), whose rerun with those fields is exit 64.
        #"{"version":1,"since":5,"format":"csv","fields":["login","id","login"]}"#,
    ])
    func anythingElseIsNotAState(text: String) {
        guard case .failure = CrawlState.decode(Array(text.utf8)) else {
            Issue.record("\(text) was read as a state")
            return
        }
    }

    @Test func aMissingFileMeansNoStateYet() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        #expect(try CrawlStateFile(path: scratch.path("none")).load() == nil)
    }

    @Test func aCorruptFileIsAnErrorNamingItAndIsLeftAsItIs() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.write("s", "{\"version\":1,\"since\":")
        let file = CrawlStateFile(path: scratch.path("s"))
        #expect {
            try file.load()
        } throws: { error in
            let message = (error as? LocalFileError)?.message ?? ""
            return message.contains("the state file '\(scratch.path("s"))'") && message.contains("left as it is")
        }
        #expect(try scratch.read("s") == "{\"version\":1,\"since\":")
    }

    /// A state that gives a key twice (by hand: gh-users never writes one) is refused: it was read as its first
    /// `since`, 0, where jq shows the last, and the rerun wrote the whole list again after what it had written.
    @Test func aStateGivingAKeyTwiceIsRefusedAndLeftAsItIs() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let text = #"{"version":1,"since":0,"since":3,"output_bytes":0}"#
        try scratch.write("s", text)
        #expect {
            try CrawlStateFile(path: scratch.path("s")).load()
        } throws: { error in
            ((error as? LocalFileError)?.message ?? "").contains(#"gives "since" twice, so it is not"#)
        }
        #expect(try scratch.read("s") == text)
    }

    @Test func anUnreadableFileIsAnError() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try FileManager.default.createDirectory(atPath: scratch.path("dir"), withIntermediateDirectories: false)
        #expect {
            try CrawlStateFile(path: scratch.path("dir")).load()
        } throws: { error in
            ((error as? LocalFileError)?.message ?? "").hasPrefix("cannot read the state file")
        }
    }

    @Test func aReplacementIsWholeAndPrivateAndLeavesNoTemporaryFile() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        // An older state readable by all, and a temporary file a kill left behind, readable by all too.
        try scratch.write("s", #"{"version":1,"since":3}"#, mode: 0o644)
        try scratch.write("s.tmp", #"{"version":1,"si"#, mode: 0o644)
        let file = CrawlStateFile(path: scratch.path("s"))
        try file.replace(with: CrawlState(since: 42, outputBytes: 1000))
        #expect(try file.load() == CrawlState(since: 42, outputBytes: 1000))
        #expect(try scratch.mode("s") == 0o600)
        #expect(!FileManager.default.fileExists(atPath: scratch.path("s.tmp")))
        try file.replace(with: CrawlState(since: 43))
        #expect(try file.load() == CrawlState(since: 43))
        #expect(try scratch.mode("s") == 0o600)
    }

    @Test func aNewStateIsPrivateWhateverTheUmask() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let previous = umask(0)
        defer { umask(previous) }
        try CrawlStateFile(path: scratch.path("s")).replace(with: CrawlState(since: 1))
        #expect(try scratch.mode("s") == 0o600)
    }

    @Test func aStateThatCannotBeWrittenSaysWhere() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        #expect {
            try CrawlStateFile(path: scratch.path("missing/s")).replace(with: CrawlState(since: 1))
        } throws: { error in
            ((error as? LocalFileError)?.message ?? "").contains("no such file or directory")
        }
    }

    @Test(arguments: [("s", "."), ("/s", "/"), ("a/b/s", "a/b"), ("/a/s", "/a")])
    func theDirectoryFlushedIsTheStateFilesOwn(path: String, directory: String) {
        #expect(OwnedFile.directory(of: path) == directory)
    }
}

/// One run at a time per state file: a second is refused at once, and the lock goes with the run that held it.
struct OwnedFileLockTests {
    @Test func aSecondRunIsRefusedWhileTheFirstHoldsTheLock() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let file = CrawlStateFile(path: scratch.path("s"))
        var first: OwnedFileLock? = try file.lock()
        #expect(first != nil)
        #expect(try scratch.mode("s.lock") == 0o600)
        #expect(throws: LocalFileError.self) { _ = try file.lock() }
        do {
            _ = try file.lock()
        } catch {
            #expect(error.message.contains("another gh-users run is using the state file"))
        }
        first = nil
        let again = try file.lock()
        withExtendedLifetime(again) {}
    }
}

struct CrawlOutputFileTests {
    @Test func aFileLongerThanRecordedIsCutBackBeforeAnythingIsWritten() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.write("o", "1\ta\n2\tb\n3\tc")
        let file = try CrawlOutputFile(path: scratch.path("o"), cut: .tsv(8), resumable: true)
        #expect(file.initialLength == 8)
        #expect(try scratch.read("o") == "1\ta\n2\tb\n")
        try file.write(Array("3\tc\n".utf8))
        try file.sync()
        #expect(file.currentLength == 12)
        #expect(try scratch.read("o") == "1\ta\n2\tb\n3\tc\n")
    }

    @Test func aFileShorterThanRecordedHasLostDataAndIsLeftAlone() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.write("o", "1\ta\n")
        #expect {
            try CrawlOutputFile(path: scratch.path("o"), cut: .tsv(100), resumable: true)
        } throws: { error in
            ((error as? LocalFileError)?.message ?? "").contains("holds 4 bytes, fewer than the 100")
        }
        #expect(try scratch.read("o") == "1\ta\n")
    }

    /// An output file moved away (rotated) is not made again, empty, by a run refused for it: nothing is changed,
    /// as the message says.
    @Test func aMissingFileWithARecordedLengthIsNotCreated() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        #expect {
            try CrawlOutputFile(path: scratch.path("o"), cut: .tsv(100), resumable: true)
        } throws: { error in
            // Said as missing, not as "0 bytes" (a review's find).
            ((error as? LocalFileError)?.message ?? "").contains(
                "o' is not there, and the state file recorded 100 bytes of it: data written earlier was lost")
        }
        #expect(!FileManager.default.fileExists(atPath: scratch.path("o")))
    }

    @Test func withoutARecordedLengthTheFileIsAppendedToOrCreated() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.write("o", "old\n")
        let file = try CrawlOutputFile(path: scratch.path("o"), cut: nil, resumable: false)
        #expect(file.initialLength == 4)
        try file.write(Array("new\n".utf8))
        #expect(try scratch.read("o") == "old\nnew\n")
        let fresh = try CrawlOutputFile(path: scratch.path("fresh"), cut: .tsv(0), resumable: true)
        #expect(fresh.initialLength == 0)
        #expect(try scratch.read("fresh") == "")
    }

    @Test func aFileThatCannotBeOpenedSaysWhy() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        #expect {
            try CrawlOutputFile(path: scratch.path("missing/o"), cut: nil, resumable: false)
        } throws: { error in
            ((error as? LocalFileError)?.message ?? "").hasPrefix("cannot open the output file")
        }
        // A folder says the way on, as --state's refusal of one does (helper-341's M8).
        #expect {
            try CrawlOutputFile(path: scratch.path(""), cut: nil, resumable: false)
        } throws: { error in
            ((error as? LocalFileError)?.message ?? "").hasSuffix(": is a directory: give --output a file")
        }
    }
}

extension OutputCut {
    /// A tsv crawl's cut at `recorded` bytes, after account `since`, pages of `perPage`.
    static func tsv(_ recorded: Int64, since: Int64 = 0, until: Int64? = nil, perPage: Int = 100) -> OutputCut {
        cut(recorded, .tsv, since: since, until: until, perPage: perPage)
    }

    static func cut(
        _ recorded: Int64, _ format: OutputFormat, fields: [String]? = nil, full: Bool = false, since: Int64 = 0,
        until: Int64? = nil, perPage: Int = 100
    ) -> OutputCut {
        OutputCut(
            recorded: recorded, since: since, until: until,
            settings: CrawlOutputSettings(format: format, fields: fields, full: full), perPage: perPage)
    }
}

/// What a resumed crawl may cut from its output: its own unsaved page, and nothing else.
struct OutputCutTests {
    private func problem(_ cut: OutputCut, _ text: String) -> String? {
        let bytes = Array(text.utf8)
        return cut.problem(length: Int64(bytes.count)) { Array(bytes[Int($0)...]) }
    }

    @Test func thisCrawlsUnsavedPageIsCut() {
        let saved = "1\ta\n2\tb\n"
        #expect(problem(.tsv(8, since: 2), saved + "3\tc\n4\td\n") == nil)
        // A kill mid-write leaves an unfinished last line, whatever it holds: a part of an id at or below the
        // state's too (M8-2: only a line that happened to parse was tried).
        #expect(problem(.tsv(8, since: 2), saved + "3\tc\n4\t") == nil)
        #expect(problem(.tsv(8, since: 2), saved + "3\tc\n1") == nil)
        // A csv crawl whose --fields leave the id out still drops its header (M8-19).
        let hundred = (0..<100).map { "x\($0)\r\n" }.joined()
        #expect(problem(.cut(0, .csv, fields: ["login"]), "login\r\n" + hundred) == nil)
        // tsv has no quoting: a `"` in a record joins no lines, so the records after it are still checked (M8-20).
        #expect(problem(.tsv(8, since: 2), saved + "4\ta\"b\n3\tc\n")?.contains("order") == true)
        #expect(problem(.tsv(0, since: 0, until: 4), "3\tc\n4\td\n") == nil)
        #expect(problem(.cut(0, .csv), "id,login\r\n3,c\r\n4,\"d,\ne\"\r\n") == nil)
        #expect(problem(.cut(8, .ndjson, since: 2), saved + #"{"login":"c","id":3}"# + "\n") == nil)
        #expect(problem(.cut(8, .tsv, fields: ["login", "id"], since: 2), saved + "c\t3\n") == nil)
        // `--full` writes the profile's columns, login first: the id is the second.
        #expect(problem(.cut(8, .tsv, full: true, since: 2), saved + "c\t3\tUser\n") == nil)
        #expect(problem(.cut(0, .csv, full: true), "login,id,type\r\nc,3,User\r\n") == nil)
        // The stopped run's page may be larger than this run's (`--limit 50` resuming 100 a page).
        let page = (3...102).map { "\($0)\tx\n" }.joined()
        #expect(
            OutputCut(recorded: 8, since: 2, until: nil, settings: .init(format: .tsv)).problem(
                length: Int64(8 + page.utf8.count)
            ) { Array(Array((saved + page).utf8)[Int($0)...]) } == nil)
        // An ndjson id is read as its digits: past 2^53 a Double rounded neighbours into one and refused the cut
        // as "out of order", and Int64.max did not read at all.
        let big = (9_007_199_254_740_993 as Int64)
        let bigs = [big, big + 2, Int64.max].map { #"{"login":"c","id":\#($0)}"# + "\n" }.joined()
        #expect(problem(.cut(8, .ndjson, since: 2), saved + bigs) == nil)
        // Without the id, only the boundary and the count can be checked.
        #expect(problem(.cut(8, .tsv, fields: ["login"], since: 2, perPage: 2), saved + "c\nd\n") == nil)
    }

    @Test func anythingElseIsRefusedWithItsReason() throws {
        let saved = "1\ta\n2\tb\n"
        // Another shard's records, in a file two crawls share.
        #expect(
            problem(.tsv(8, since: 2, until: 4), saved + "1001\tx\n")
                == "they hold the account id 1001, above --until 4")
        #expect(
            problem(.tsv(8, since: 2), saved + "2\tb\n") == "they hold the account id 2, at or below the crawl's 2")
        #expect(problem(.tsv(8, since: 2), saved + "5\te\n4\td\n") == "they hold account ids out of order")
        // A length edited by hand, inside a record.
        #expect(problem(.tsv(3, since: 0), saved) == "the recorded length falls inside a line")
        #expect(
            problem(.tsv(8, since: 2, perPage: 2), saved + "3\tc\n4\td\n5\te\n")
                == "they hold 3 records, more than the 2 of one page")
        #expect(
            problem(.tsv(8, since: 2), saved + "notes\n") == "they hold a line that is not an account of this crawl")
        #expect(
            problem(.cut(8, .ndjson, since: 2), saved + "{}\n")
                == "they hold a line that is not an account of this crawl")
        // Another tool's line: an id that is no number, or more than one object on a line.
        for line in [#"{"login":"x","id":"4"}"#, #"{"login":"x","id":4}garbage"#, #"{"id":4} {"id":5}"#] {
            #expect(
                problem(.cut(8, .ndjson, since: 2), saved + line + "\n")
                    == "they hold a line that is not an account of this crawl", "\(line)")
        }
        // A header is CSV's only in an empty output.
        #expect(
            problem(.cut(8, .csv, since: 2), saved + "id,login\r\n")
                == "they hold a line that is not an account of this crawl")
    }

    /// The refusal on disk: the file and the state as they were, the message naming the file and both lengths.
    @Test func aRefusedCutTouchesNothing() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.write("o", "1\ta\n2\tb\n1001\tx\n")
        #expect {
            try CrawlOutputFile(path: scratch.path("o"), cut: .tsv(8, since: 2, until: 1000), resumable: true)
        } throws: { error in
            let message = (error as? LocalFileError)?.message ?? ""
            return message.hasPrefix(
                "the output file '\(scratch.path("o"))' holds 15 bytes, more than the 8 the state file recorded")
                && message.contains("above --until 1000")
        }
        #expect(try scratch.read("o") == "1\ta\n2\tb\n1001\tx\n")
    }
}

/// Words a state or snapshot file holds reach a refusal through `LocalFileError`, and the file may be anyone's:
/// a line break in them (`"format": "ts\nhint: run again with --api-url https://evil.example"`) is shown, never
/// printed as a line of its own that would pass for gh-users's advice. Before: each line was cleaned, the break
/// kept.
@Test func aLineBreakInAFilesWordsIsShownNotPrinted() {
    let error = LocalFileError(message: "the state file 'f' has the format \"ts\nhint: forged\u{1B}[2J\"")
    #expect(error.message == #"the state file 'f' has the format "ts\nhint: forged\e[2J""#)
    #expect(!error.message.contains("\n"))
}
