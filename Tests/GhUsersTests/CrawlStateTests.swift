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
        CrawlState(since: 0), CrawlState(since: 583_231, outputBytes: 0), CrawlState(since: 9, outputBytes: 1 << 40),
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
        try scratch.write("s.tmp", "half a sta", mode: 0o644)
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
        let file = try CrawlOutputFile(path: scratch.path("o"), truncatingTo: 8, resumable: true)
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
            try CrawlOutputFile(path: scratch.path("o"), truncatingTo: 100, resumable: true)
        } throws: { error in
            ((error as? LocalFileError)?.message ?? "").contains("holds 4 bytes, fewer than the 100")
        }
        #expect(try scratch.read("o") == "1\ta\n")
    }

    @Test func withoutARecordedLengthTheFileIsAppendedToOrCreated() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.write("o", "old\n")
        let file = try CrawlOutputFile(path: scratch.path("o"), truncatingTo: nil, resumable: false)
        #expect(file.initialLength == 4)
        try file.write(Array("new\n".utf8))
        #expect(try scratch.read("o") == "old\nnew\n")
        let fresh = try CrawlOutputFile(path: scratch.path("fresh"), truncatingTo: 0, resumable: true)
        #expect(fresh.initialLength == 0)
        #expect(try scratch.read("fresh") == "")
    }

    @Test func aFileThatCannotBeOpenedSaysWhy() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        #expect {
            try CrawlOutputFile(path: scratch.path("missing/o"), truncatingTo: nil, resumable: false)
        } throws: { error in
            ((error as? LocalFileError)?.message ?? "").hasPrefix("cannot open the output file")
        }
    }
}
