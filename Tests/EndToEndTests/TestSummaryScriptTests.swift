import Foundation
import TestSupport
import Testing

/// `Scripts/test-summary`, which ends `Scripts/run-tests`: thousands of log lines become at most 20, the last
/// of them the counts, with the failures and the reasons for skipping named.
struct TestSummaryScriptTests {
    private static let script = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Scripts/test-summary").path

    private func summary(of lines: [String], status: Int) async throws -> RunResult {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("summary-\(UUID().uuidString).log")
        defer { try? FileManager.default.removeItem(at: log) }
        try (lines.joined(separator: "\n") + "\n").write(to: log, atomically: true, encoding: .utf8)
        return try await BinaryRunner.shell(#"bash "\#(Self.script)" "\#(log.path)" \#(status)"#)
    }

    /// Swift Testing's own lines, as `swift test` prints them, with XCTest's empty run at the top.
    @Test func aLongRunIsTwentyLinesAtMostEndingWithTheCounts() async throws {
        var lines = ["\t Executed 0 tests, with 0 failures (0 unexpected) in 0.0 (0.0) seconds"]
        for index in 0..<500 {
            lines.append("◇ Test passing\(index)() started.")
            lines.append("✔ Test passing\(index)() passed after 0.001 seconds.")
        }
        for index in 0..<12 {
            lines.append("✘ Test failing\(index)() recorded an issue at A.swift:\(index):1: Expectation failed: 1 == 2")
            lines.append("✘ Test failing\(index)() recorded an issue at A.swift:\(index):9: second issue")
            lines.append("✘ Test failing\(index)() failed after 0.002 seconds with 2 issues.")
        }
        for index in 0..<20 {
            lines.append(#"➜ Test skipping\#(index)() skipped: "tool \#(index % 10) is not installed""#)
        }
        lines.append("✘ Test run with 532 tests in 4 suites failed after 3.0 seconds with 24 issues.")
        let result = try await summary(of: lines, status: 1)
        let output = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(output.count <= 20, "\(result.stdout)")
        // Swift Testing's own total beside the lines counted: a line lost from a log shows as a difference.
        #expect(
            output.last
                == "Tests: 500 passed, 12 failed, 20 skipped (Swift Testing: 532 tests in 4 suites failed)")
        #expect(result.stdout.contains("✘ Test failing0() recorded an issue at A.swift:0:1: Expectation failed"))
        #expect(!result.stdout.contains("second issue"), "one issue a test")
        #expect(result.stdout.contains("  2  tool 0 is not installed"))
        #expect(result.stdout.contains("more: see the log"))
        #expect(result.stdout.contains("Full log: "))
    }

    /// A crash names no test: the summary says so and shows where the log ends, never "0 failed" alone.
    @Test func aRunThatDiedShowsTheEndOfItsLog() async throws {
        let lines = ["✔ Test first() passed after 0.001 seconds.", "Fatal error: Index out of range", "*** Signal 4"]
        let result = try await summary(of: lines, status: 132)
        #expect(result.stdout.contains("swift test exited with status 132 without naming a failed test"))
        #expect(result.stdout.contains("  Fatal error: Index out of range"))
        #expect(result.stdout.hasSuffix("Tests: 1 passed, 0 failed, 0 skipped\n"))
    }

    /// The log the summary reads names a hostile argument with what would act on a terminal escaped
    /// (`LoggedText`): written raw, a NUL cut Swift Testing's write short and lost the lines after it, and an escape
    /// sequence reached whoever ran the tests.
    @Test func anArgumentIsLoggedWithItsInvisibleCharactersEscaped() {
        let hostile = "nul\u{0}esc\u{1B}[31m csi\u{9B} rtl\u{202E} line\nsep\u{2028} \"q\" \\ 山田 🦊"
        let shown = String(describingForTest: LoggedText(hostile))
        #expect(shown == #""nul\0esc\u{1B}[31m csi\u{009B} rtl\u{202E} line\nsep\u{2028} \"q\" \\ 山田 🦊""#)
        #expect(!shown.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
    }
}
