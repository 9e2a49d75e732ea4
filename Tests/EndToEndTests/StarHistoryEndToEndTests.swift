import Foundation
import GitHubStandIn
import Testing

/// `gh-users star-history` against the stand-in, whose world gives octocat/Hello-World 12 stars (`World/world.json`),
/// 4 before 2025, 7 in 2025 (3 on Monday 2025-08-11 and 2 on the Tuesday, GitHub's documented week) and one in
/// 2026: the chart at the width `COLUMNS` gives, with and without colour. The requests, the envelope and
/// the records are `StarHistoryCommandTests`'.
struct StarHistoryEndToEndTests {
    /// 365 days, all of 2025: more than either width holds, so the chart draws runs of days.
    static let year = ["--from", "2025-01-01", "--to", "2025-12-31"]

    private func visible(_ line: String) -> String {
        line.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
    }

    @Test(arguments: [80, 200])
    func theChartFitsTheWidthWithAndWithoutColour(columns: Int) async throws {
        try await withStandIn(users: 20) { server in
            for colour in ["never", "always"] {
                let chart = try await BinaryRunner.run(
                    ["star-history", "octocat/Hello-World", "--format", "table", "--color", colour] + Self.year
                        + ["--api-url", server.baseURL, "--no-cache"],
                    environment: ["COLUMNS": String(columns)])
                #expect(chart.status == 0, "\(chart.stderr)")
                #expect(chart.stderr.isEmpty, "\(chart.stderr)")
                let lines = chart.stdout.split(separator: "\n").map(String.init)
                #expect(lines.count == 10, "\(chart.stdout)")
                #expect(lines.allSatisfy { visible($0).count <= columns }, "\(chart.stdout)")
                #expect(lines.first == "octocat/Hello-World: 12 stars now; 7 gained from 2025-01-01 to 2025-12-31")
                // The highest total (the star of 2026 not yet given) on top, the lowest (before 2025) at the bottom,
                // whose row has a bar in every column from 2025-03-03 on: the chart fills the width.
                #expect(visible(lines[1]).hasPrefix("11 ┤") && visible(lines[8]).hasPrefix(" 4 ┤"))
                #expect(visible(lines[8]).count == columns && visible(lines[8]).hasSuffix("█"), "\(chart.stdout)")
                #expect(lines[9].hasPrefix("    2025-01-01") && lines[9].hasSuffix("2025-12-31"))
                #expect(chart.stdout.contains("\u{1B}[33m") == (colour == "always"), "\(chart.stdout)")
            }
            let asked = server.requests.map(\.path)
            #expect(asked.filter { $0.hasSuffix("/stargazers/count") }.count == 2)
            #expect(asked.filter { $0.hasSuffix("/stargazers/history") }.count == 2)
        }
    }
}
