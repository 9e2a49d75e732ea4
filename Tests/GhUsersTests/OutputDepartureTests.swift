import AtomicCore
import Foundation
import Testing

@testable import gh_users

/// A crawl's `--output` (and `access --state`'s stdout file) is named by its path in the state: a file removed,
/// moved, replaced or cut while the run wrote it had the run end 0, every later record in a file no state names
/// (helper-343). The next page's checkpoint now finds it and stops the run, with the way on and no rerun line.
struct OutputDepartureTests {
    private let folder: String

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("gh-users-departure-\(UUID())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    private func opened() throws -> (CrawlOutputFile, String) {
        let path = folder + "/o.tsv"
        let file = try CrawlOutputFile(path: path, cut: .tsv(0), resumable: true)
        try file.write(Array("1\toctocat\n2\tYamada-Taro\n".utf8))
        return (file, path)
    }

    @Test func anOutputLeftAsItWasGoesOn() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (file, _) = try opened()
        try file.checkStillNamed()
        try file.write(Array("3\tkitsune-fox\n".utf8))
        try file.checkStillNamed()
    }

    @Test(arguments: ["removed", "moved", "replaced", "cut", "appended"])
    func anOutputThatLeftItsPathStopsTheCrawl(how: String) throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (file, path) = try opened()
        switch how {
        case "removed": try FileManager.default.removeItem(atPath: path)
        case "moved": try FileManager.default.moveItem(atPath: path, toPath: path + ".1")
        case "replaced":
            // As `sed -i` does: a new file renamed over the path.
            try Data("1\toctocat\n".utf8).write(to: URL(fileURLWithPath: path + ".new"))
            _ = rename(path + ".new", path)
        case "appended":
            // Another program's bytes among the run's: the state's length would no longer end its records (Q3).
            let other = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
            try other.seekToEnd()
            try other.write(contentsOf: Data("extra line\n".utf8))
            try other.close()
        default: _ = truncate(path, 0)
        }
        let departure = [
            "removed": "was removed or moved away", "moved": "was removed or moved away",
            "replaced": "was replaced by another file", "cut": "was cut to 0 bytes from 24",
            "appended": "had 11 bytes written to it by another program",
        ]
        #expect(
            throws: OutputWriteError.self,
            performing: { try file.checkStillNamed() })
        do {
            try file.checkStillNamed()
        } catch {
            #expect(
                error.message
                    == "the output file '\(path)' \(departure[how] ?? "") while this run wrote it, so the crawl "
                    + "stopped and the state file still counts only what the file held before. Put the file back as "
                    + "it was to go on, or remove the state file to start again")
            #expect(!error.resumable)
        }
    }
}
