import Foundation
import Testing

/// `Scripts/try`, the README's first command, run with the binaries the tests built.
struct TryScriptEndToEndTests {
    private static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    private static let script = root.appendingPathComponent("Scripts/try").path

    /// The environment that runs `Scripts/try` with the binary under test (the release build in CI) and the
    /// stand-in built beside the test bundle, on a port and with a cache of the test's own.
    private static func environment(cache: URL) throws -> [String: String] {
        let bin = cache.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            at: bin.appendingPathComponent("gh-users"), withDestinationURL: BinaryRunner.binary)
        try FileManager.default.createSymbolicLink(
            at: bin.appendingPathComponent("github-standin"),
            withDestinationURL: Bundle.main.bundleURL.appendingPathComponent("github-standin"))
        return [
            "TRY_BIN": bin.path,
            "TRY_CACHE": cache.path,
            // Below Linux's ephemeral range (32768 and up), where a client connection of another test could hold it.
            "TRY_PORT": String(Int.random(in: 20_000...32_000)),
        ]
    }

    /// The demo, then the README's offline command, which answers the demo's first request from the cache; the
    /// demo token lets `me` and a `--full` of more than the 60 anonymous requests run, and the user's own token
    /// is never sent.
    @Test func theDemoAndTheReadmesOfflineCommandAgreeAndATokenIsGiven() async throws {
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("try-cache-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: cache) }
        var environment = try Self.environment(cache: cache)
        environment["GH_TOKEN"] = "ghp_mine_never_sent"
        let demo = try await BinaryRunner.shell(#"bash "\#(Self.script)""#, environment: environment)
        #expect(demo.status == 0, "\(demo.stderr)")
        #expect(demo.stderr.contains("+ Scripts/try me --format table"))
        #expect(demo.stdout.contains("Scopes     repo, user"), "\(demo.stdout)")

        let offline = try await BinaryRunner.shell(
            #"bash "\#(Self.script)" list --limit 5 --offline"#, environment: environment)
        #expect(offline.status == 0, "\(offline.stderr)")
        #expect(offline.stdout.split(separator: "\n").count == 5)

        let full = try await BinaryRunner.shell(
            #"bash "\#(Self.script)" list --limit 70 --full --format ndjson --no-cache"#, environment: environment)
        #expect(full.status == 0, "\(full.stderr)")
        #expect(full.stdout.split(separator: "\n").count == 70)
        let me = try await BinaryRunner.shell(#"bash "\#(Self.script)" me --json"#, environment: environment)
        #expect(me.status == 0, "\(me.stderr)")
        #expect(me.stdout.contains(#""login": "octocat""#), "the demo token signs in as octocat, not as ghp_mine")
    }

    @Test func aSecondRunCanAnswerOfflineFromTheScriptsOwnCache() async throws {
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("try-cache-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: cache) }
        let environment = try Self.environment(cache: cache)
        let script = Self.script
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
