import Foundation
import GitHubStandIn
import Testing

/// `gh-users contributions` against the stand-in's GraphQL calendar, as a user runs it: the heatmap at the width
/// `COLUMNS` gives, with and without colour, and two years asked in two pieces. The envelope, the records per
/// day, the refusals and the exit statuses are `ContributionsCommandTests`'.
struct ContributionsEndToEndTests {
    static let token = ["GH_TOKEN": "ghp_contributionsE2E"]
    /// 365 days, Monday 2024-11-25 through Monday 2025-11-24: 53 weeks from Sunday 2024-11-24.
    static let year = ["--from", "2024-11-25", "--to", "2025-11-24"]
    static let glyphs = [
        "NONE": "·", "FIRST_QUARTILE": "░", "SECOND_QUARTILE": "▒", "THIRD_QUARTILE": "▓", "FOURTH_QUARTILE": "█",
    ]
    static let greens = [
        "NONE": 237, "FIRST_QUARTILE": 22, "SECOND_QUARTILE": 28, "THIRD_QUARTILE": 34, "FOURTH_QUARTILE": 40,
    ]

    private func run(_ server: StandInServer, _ arguments: [String], environment: [String: String] = token)
        async throws -> RunResult
    {
        try await BinaryRunner.run(
            ["contributions"] + arguments + ["--api-url", server.baseURL, "--no-cache"], environment: environment)
    }

    private func days(_ result: RunResult) throws -> [[String: Any]] {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        return try #require(object["days"] as? [[String: Any]])
    }

    /// The level a span asked in more than one piece is drawn at, from the counts alone (USAGE.md): NONE for 0,
    /// else quartile 1 + 4 × (days with a smaller count above 0) / (days with a count above 0).
    private func spanLevels(_ days: [[String: Any]]) -> [String] {
        let counts = days.map { $0["count"] as? Int ?? 0 }
        let active = counts.filter { $0 > 0 }
        let names = ["FIRST_QUARTILE", "SECOND_QUARTILE", "THIRD_QUARTILE", "FOURTH_QUARTILE"]
        return counts.map { count in
            count > 0 ? names[4 * active.filter { $0 < count }.count / active.count] : "NONE"
        }
    }

    /// The map rows the binary must draw for `days` (from 2024-11-25, a Monday) when `weeks` of them fit: 365
    /// days are three pieces, so at levels over the whole span.
    private func expectedRows(_ days: [[String: Any]], weeks: Int, cell: (String) -> String) -> [String] {
        // Slot 1 of the first week is 2024-11-25; slot 0 (the Sunday before) is not in the span.
        let slots: [String?] = [nil] + spanLevels(days)
        let allWeeks = stride(from: 0, to: slots.count, by: 7).map { Array(slots[$0..<min(slots.count, $0 + 7)]) }
        let shown = allWeeks.suffix(weeks)
        return (0..<7).map { row in
            let label = ["", "Mon", "", "Wed", "", "Fri", ""][row].padding(toLength: 4, withPad: " ", startingAt: 0)
            var line =
                label
                + shown.map { week in row < week.count ? week[row].map(cell) ?? " " : " " }
                .joined(separator: " ")
            while line.last == " " { line.removeLast() }
            return line
        }
    }

    @Test(arguments: [(80, 38), (200, 53)])
    func theHeatmapFitsTheWidthWithAndWithoutColour(columns: Int, weeks: Int) async throws {
        try await withStandIn(users: 20) { server in
            let json = try await run(server, ["octocat", "--json"] + Self.year)
            #expect(json.status == 0, "\(json.stderr)")
            let days = try days(json)
            #expect(days.count == 365)
            // 256 colours where TERM names them; on a terminal of 8 (TERM=linux), each level's glyph in green
            // (helper-340's E10: the 256-colour codes went there too).
            for (colour, term) in [("never", "xterm-256color"), ("always", "xterm-256color"), ("always", "linux")] {
                let map = try await BinaryRunner.run(
                    ["contributions", "octocat", "--format", "table", "--color", colour] + Self.year
                        + ["--api-url", server.baseURL, "--no-cache"],
                    environment: Self.token.merging(["COLUMNS": String(columns), "TERM": term]) { $1 })
                #expect(map.status == 0, "\(map.stderr)")
                let lines = map.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
                let basic: (String) -> String = { level in
                    level == "NONE" ? "·" : "\u{1B}[32m" + (Self.glyphs[level] ?? "?") + "\u{1B}[0m"
                }
                let cell: (String) -> String =
                    colour == "never"
                    ? { Self.glyphs[$0] ?? "?" }
                    : term == "linux"
                        ? basic : { "\u{1B}[38;5;\(Self.greens[$0] ?? 0)m" + (Self.glyphs[$0] ?? "?") + "\u{1B}[0m" }
                #expect(Array(lines[1...7]) == expectedRows(days, weeks: weeks, cell: cell), "\(map.stdout)")
                let visible = lines.map {
                    $0.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
                }
                #expect(visible.allSatisfy { $0.count <= columns }, "\(map.stdout)")
                #expect(lines.contains { $0.hasPrefix("    Less ") })
                let cut = "Cut to the last 38 of 53 weeks, from 2025-03-09."
                #expect(lines.contains(cut) == (weeks < 53))
                let total = days.reduce(0) { $0 + ($1["count"] as? Int ?? 0) }
                #expect(lines.contains("\(total) contributions from 2024-11-25 to 2025-11-24"))
                #expect(lines.contains { $0.hasPrefix("Longest streak: ") })
                #expect(lines.contains { $0.hasPrefix("Streak at 2025-11-24: ") })
                #expect(colour == "never" ? !map.stdout.contains("\u{1B}") : map.stdout.contains("\u{1B}["))
                #expect(map.stdout.contains("\u{1B}[38;5;") == (colour == "always" && term != "linux"))
            }
        }
    }

    /// Issue 26, item 3: pieces of at most six months (182 days), since GitHub refuses a year of a long history.
    @Test func twoYearsAreAskedInSixMonthPiecesAndJoined() async throws {
        try await withStandIn(users: 20) { server in
            let result = try await run(server, ["octocat", "--from", "2023-11-26", "--to", "2025-11-24", "--json"])
            #expect(result.status == 0, "\(result.stderr)")
            let posts = server.requests.filter { $0.path == "/graphql" }
            #expect(posts.count == 5)
            #expect(posts.allSatisfy { $0.method == "POST" && $0.header("Authorization") != nil })
            let queries = try posts.map { post in
                let body = try #require(try JSONSerialization.jsonObject(with: Data(post.body)) as? [String: Any])
                return try #require(body["query"] as? String)
            }
            #expect(queries.first?.contains(#"from: "2023-11-26T00:00:00Z", to: "2024-05-25T23:59:59Z""#) == true)
            #expect(queries.last?.contains(#"from: "2025-11-23T00:00:00Z", to: "2025-11-24T23:59:59Z""#) == true)
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
            let days = try #require(object["days"] as? [[String: Any]])
            #expect(days.count == 730)
            #expect(days.first?["date"] as? String == "2023-11-26" && days.last?["date"] as? String == "2025-11-24")
            #expect(object["total"] as? Int == days.reduce(0) { $0 + ($1["count"] as? Int ?? 0) })
        }
    }

    /// Issue 26, item 3: an account with a long history, whose year the stand-in refuses as GitHub does, is drawn
    /// from six-month pieces; an unknown login, null with no error as GitHub answers it, is exit 3.
    @Test func aLongHistoryAndAnUnknownLoginAnswerAsOnGitHub() async throws {
        try await withStandIn(users: 20) { server in
            let busy = try #require(server.population.users.first { $0.type == "User" && $0.ordinal % 4 == 3 })
            let result = try await run(server, [busy.login, "--from", "2025-01-01", "--to", "2025-12-31", "--json"])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(server.requests.filter { $0.path == "/graphql" }.count == 3)
            let unknown = try await run(server, ["no-such-account-anywhere"])
            #expect(unknown.status == 3, "\(unknown.stderr)")
            #expect(unknown.stderr.contains("no user 'no-such-account-anywhere'"))
        }
    }
}
