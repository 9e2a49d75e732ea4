import Foundation
import Testing

/// The binary, with no token, offers `gh auth token` when a `gh` is on its PATH, and never runs it.
struct GhTokenHintEndToEndTests {
    @Test func aGhOnPathIsNamedInTheHintAndNeverRun() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gh-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let marker = folder.appendingPathComponent("gh-was-run")
        let gh = folder.appendingPathComponent("gh").path
        let script = "#!/bin/sh\ntouch '\(marker.path)'\necho token-from-gh\n"
        #expect(FileManager.default.createFile(atPath: gh, contents: Data(script.utf8)))
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: gh)

        let withGh = try await BinaryRunner.run(["me"], environment: ["PATH": folder.path + ":/usr/bin:/bin"])
        #expect(withGh.status == 4)
        #expect(withGh.stderr.contains("gh-users: me needs a token"))
        #expect(withGh.stderr.contains("Logged in with gh? Then: export GH_TOKEN=$(gh auth token)\n"))
        #expect(!FileManager.default.fileExists(atPath: marker.path))
        #expect(!withGh.stderr.contains("token-from-gh") && withGh.stdout.isEmpty)

        let withoutGh = try await BinaryRunner.run(["me"], environment: ["PATH": "/nonexistent"])
        #expect(withoutGh.status == 4)
        #expect(!withoutGh.stderr.contains("gh auth token"))
    }
}
