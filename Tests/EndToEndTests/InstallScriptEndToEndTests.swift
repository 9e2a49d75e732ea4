import Foundation
import Testing

/// `Scripts/install.sh --check`: where it looks for libcurl's headers, and what it would run to get them.
struct InstallScriptEndToEndTests {
    private static let script = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Scripts/install.sh").path
    /// The toolchain's folder, which the script's toolchain check needs on PATH.
    private static let path = (ProcessInfo.processInfo.environment["PATH"] ?? "") + ":/usr/bin:/bin"

    private func check(headers: [String], environment: [String: String] = [:], prefix: String = "")
        async throws -> RunResult
    {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("include-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        for header in headers {
            let url = root.appendingPathComponent(header)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            _ = FileManager.default.createFile(atPath: url.path, contents: Data())
        }
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        var environment = environment
        environment["CURL_INCLUDE_ROOT"] = root.path
        environment["PATH"] = Self.path
        return try await BinaryRunner.shell(#"\#(prefix) bash "\#(Self.script)" --check"#, environment: environment)
    }

    /// Debian and Ubuntu keep the headers only under the multiarch folder: that is enough, and nothing is run.
    @Test(arguments: ["x86_64-linux-gnu/curl/curl.h", "aarch64-linux-gnu/curl/curl.h", "curl/curl.h"])
    func headersInEitherPlaceAreFound(header: String) async throws {
        let result = try await check(headers: [header], environment: ["NO_APT": "1"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("Ready: swift build -c release --product gh-users --static-swift-stdlib"))
        #expect(!result.stderr.contains("missing"))
    }

    @Test func missingHeadersWithNoAptSayWhatToInstall() async throws {
        let result = try await check(headers: [], environment: ["NO_APT": "1"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("libcurl4-openssl-dev"))
        #expect(!result.stderr.contains("Running:"))
    }

    @Test(.enabled(if: getuid() == 0, "only root can check what root would run: skipped"))
    func rootIsToldTheCommandBeforeItRuns() async throws {
        let result = try await check(headers: [])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("Would run: apt-get install -y libcurl4-openssl-dev"))
    }

    /// Another user is never sent through sudo unasked: without a terminal the script stops and names the command.
    @Test(
        .enabled(
            if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"),
            "needs root and setpriv to run as another user: skipped"))
    func anotherUserWithoutATerminalIsToldWhatToRun() async throws {
        let result = try await check(headers: [], prefix: "setpriv --reuid=65534 --regid=65534 --clear-groups")
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("run 'sudo apt-get install -y libcurl4-openssl-dev'"))
        #expect(!result.stderr.contains("Running:"))
    }
}
