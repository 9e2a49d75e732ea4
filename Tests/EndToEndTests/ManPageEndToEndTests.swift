import Foundation
import Testing

/// The man page `Scripts/install.sh` installs, generated from the binary's own help.
struct ManPageEndToEndTests {
    private static let script = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Scripts/make-manpage").path

    @Test func theManPageCoversEveryCommandAndListsTheGlobalOptionsOnce() async throws {
        let result = try await BinaryRunner.shell(#"bash "\#(Self.script)" "$GH_USERS""#)
        #expect(result.status == 0, "\(result.stderr)")
        let roff = result.stdout
        #expect(roff.hasPrefix(".TH GH-USERS 1"))
        #expect(roff.components(separatedBy: "GLOBAL OPTIONS").count == 2)
        for command in [
            "list", "show", "repos", "followers", "following", "search", "rate-limit", "cache", "completion",
        ] {
            #expect(roff.contains(#".SH "gh-users \#(command)""#), "\(command)")
        }
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/man"), "man is not installed: skipped"))
    func theRenderedPageFitsEightyColumns() async throws {
        let result = try await BinaryRunner.shell(
            #"bash "\#(Self.script)" "$GH_USERS" > "$HOME/page.1" && MANWIDTH=80 man -l "$HOME/page.1""#)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count > 300)
        let wide = lines.filter { $0.count > 80 }
        #expect(wide.isEmpty, "\(wide.prefix(3))")
    }
}
