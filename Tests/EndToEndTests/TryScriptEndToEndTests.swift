import Foundation
import Testing

/// `Scripts/try`, the README's first command, run with the binaries the tests built.
struct TryScriptEndToEndTests {
    private static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test func aSecondRunCanAnswerOfflineFromTheScriptsOwnCache() async throws {
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("try-cache-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: cache) }
        let port = Int.random(in: 40_000...60_000)
        // The binary under test (the release build in CI) and the stand-in built beside the test bundle.
        let bin = cache.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            at: bin.appendingPathComponent("gh-users"), withDestinationURL: BinaryRunner.binary)
        try FileManager.default.createSymbolicLink(
            at: bin.appendingPathComponent("github-standin"),
            withDestinationURL: Bundle.main.bundleURL.appendingPathComponent("github-standin"))
        let environment = [
            "TRY_BIN": bin.path,
            "TRY_CACHE": cache.path,
            "TRY_PORT": String(port),
        ]
        let script = Self.root.appendingPathComponent("Scripts/try").path
        let online = try await BinaryRunner.shell(
            #"bash "\#(script)" list --limit 3 && find "$HOME" -mindepth 1 -not -name stdout -not -name stderr"#,
            environment: environment)
        #expect(online.status == 0, "\(online.stderr)")
        let lines = online.stdout.split(separator: "\n")
        #expect(lines.prefix(3).map { $0.split(separator: "\t")[0] } == ["1", "2", "3"])
        // Nothing of the run lands in the home folder: the cache is the script's own.
        #expect(lines.count == 3, "\(online.stdout)")
        #expect(FileManager.default.fileExists(atPath: cache.appendingPathComponent("gh-users").path))
        #expect(!online.stderr.contains(FileManager.default.homeDirectoryForCurrentUser.path + "/.cache"))

        let offline = try await BinaryRunner.shell(
            #"bash "\#(script)" list --limit 3 --offline"#, environment: environment)
        #expect(offline.status == 0, "\(offline.stderr)")
        #expect(offline.stdout == lines.prefix(3).joined(separator: "\n") + "\n")
    }
}
