import Domain
import Foundation
import Testing

@testable import gh_users

/// `star-history`'s chart on a terminal: the running total fitted to the width, with and without colour.
struct StarHistoryChartTests {
    private func context(width: Int, colour: Bool) -> RenderContext {
        RenderContext(format: .table, isTTY: true, colorEnabled: colour, width: width, now: Date())
    }

    /// `count` days from 2025-01-01, one star a day from 1,000 on.
    private func days(_ count: Int) -> [StarPoint] {
        let first = CalendarDay("2025-01-01")!
        return (0..<count).map { StarPoint(start: first.adding(days: $0), gained: 1, total: 1_001 + $0) }
    }

    private func visible(_ line: Substring) -> String {
        String(line).replacingOccurrences(of: "\u{1B}[33m", with: "").replacingOccurrences(of: "\u{1B}[0m", with: "")
    }

    @Test(arguments: [80, 200])
    func aYearFitsTheWidthAndRisesToTheTop(width: Int) {
        let chart = StarHistoryChart.render(
            days(365), title: "octocat/Hello-World", context: context(width: width, colour: false))
        let lines = chart.split(separator: "\n")
        #expect(lines.count == 1 + StarHistoryChart.rows + 1)
        #expect(lines.allSatisfy { $0.count <= width }, "\(chart)")
        // The totals on the axis: before the first day, and at the last.
        #expect(lines[1].hasPrefix("1,365 ┤") && lines[StarHistoryChart.rows].hasPrefix("1,000 ┤"))
        // Rising: the last column reaches the top row, the first only the bottom one.
        let top = lines[1].dropFirst("1,365 ┤".count)
        let bottom = lines[StarHistoryChart.rows].dropFirst("1,000 ┤".count)
        #expect(top.last == "█" && top.first == " ")
        #expect(bottom.first != " " && bottom.count == min(365, width - 7))
        #expect(lines.last?.contains("2025-01-01") == true && lines.last?.hasSuffix("2025-12-31") == true)
    }

    /// Too few columns for both dates apart: the last follows the first where the width has room (before, only
    /// the first was shown, helper-313), and goes on a line of its own where it has not (before, it was lost at
    /// 20 columns, helper-329).
    @Test func aNarrowChartStillSaysItsLastDate() {
        let wide = StarHistoryChart.render(days(3), title: "t", context: context(width: 80, colour: false))
        #expect(wide.split(separator: "\n").last == "       2025-01-01 to 2025-01-03")
        let narrow = StarHistoryChart.render(days(3), title: "t", context: context(width: 20, colour: false))
        #expect(narrow.split(separator: "\n").suffix(2) == ["       2025-01-01", "       to 2025-01-03"])
        #expect(narrow.split(separator: "\n").allSatisfy { $0.count <= 20 }, "\(narrow)")
        let one = StarHistoryChart.render(days(1), title: "t", context: context(width: 80, colour: false))
        #expect(one.split(separator: "\n").last == "       2025-01-01")
    }

    @Test func colourIsYellowOnlyWhenOn() {
        let coloured = StarHistoryChart.render(days(30), title: "t", context: context(width: 80, colour: true))
        let plain = StarHistoryChart.render(days(30), title: "t", context: context(width: 80, colour: false))
        #expect(coloured.contains("\u{1B}[33m") && !plain.contains("\u{1B}"))
        #expect(coloured.split(separator: "\n").map(visible) == plain.split(separator: "\n").map(String.init))
    }

    @Test func moreDaysThanColumnsAreRunsShownAtTheirLastTotal() {
        let runs = StarHistoryChart.buckets(days(365), columns: 40)
        #expect(runs.count == 40)
        #expect(runs.last?.total == 1_365 && runs.first?.start == CalendarDay("2025-01-01"))
        #expect(runs.reduce(0) { $0 + $1.gained } == 365)
        #expect(StarHistoryChart.buckets(days(10), columns: 40).count == 10)
    }

    /// A total that never moved is drawn from 0, in full bars (before: from itself, no bars at all, which read as
    /// no stars); no stars at all is still no bars.
    @Test func aFlatHistoryIsFullBarsFromZero() {
        let first = CalendarDay("2025-01-01")!
        let flat = (0..<10).map { StarPoint(start: first.adding(days: $0), gained: 0, total: 42) }
        let lines = StarHistoryChart.render(flat, title: "t", context: context(width: 80, colour: false)).split(
            separator: "\n")
        let full = String(repeating: "█", count: 10)
        #expect(lines[1] == "42 ┤" + full && lines[StarHistoryChart.rows] == " 0 ┤" + full)
        let none = (0..<10).map { StarPoint(start: first.adding(days: $0), gained: 0, total: 0) }
        let empty = StarHistoryChart.render(none, title: "t", context: context(width: 80, colour: false)).split(
            separator: "\n")
        #expect(empty[1] == "0 ┤" && empty[StarHistoryChart.rows] == "0 ┤")
    }

    /// A server's count is any whole number: 2^57 stars and none gained in the span overflowed the bars' scale,
    /// and the run died with SIGILL, printing nothing (a review's find). The bars are drawn, full.
    @Test func aCountPastWhatTheScaleMultipliedIsDrawn() {
        let first = CalendarDay("2025-01-01")!
        for total in [1 << 57, Int.max] {
            let flat = (0..<10).map { StarPoint(start: first.adding(days: $0), gained: 0, total: total) }
            let lines = StarHistoryChart.render(flat, title: "t", context: context(width: 80, colour: false)).split(
                separator: "\n")
            #expect(lines[1].hasSuffix("┤" + String(repeating: "█", count: 10)), "\(lines)")
        }
        let odd = [StarPoint(start: first, gained: Int.min, total: Int.max)]
        #expect(StarHistoryChart.render(odd, title: "t", context: context(width: 80, colour: false)).hasPrefix("t\n"))
    }

    @Test func numbersAreGroupedInThousands() {
        #expect(Counted.grouped(0) == "0")
        #expect(Counted.grouped(999) == "999")
        #expect(Counted.grouped(1_234_567) == "1,234,567")
        #expect(Counted.grouped(-1_234) == "-1,234")
    }
}
