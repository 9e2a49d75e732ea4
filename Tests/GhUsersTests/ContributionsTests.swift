import Domain
import Foundation
import TestSupport
import Testing

@testable import gh_users

private func day(_ text: String) -> CalendarDay { CalendarDay(text)! }

/// Midday of `text`, UTC: what "now" is for a renderer or a streak.
private func noon(_ text: String) -> Date { Date(timeIntervalSince1970: Double(day(text).ordinal) * 86_400 + 43_200) }

/// A day per date from `first` through `last`, its count and level by weekday: Sunday and Saturday none,
/// Monday and Friday 1 (first quartile), Tuesday 2, Wednesday 3, Thursday 4 (fourth).
private func weekdayCalendar(_ first: String, _ last: String) -> [ContributionDay] {
    let counts = [0, 1, 2, 3, 4, 1, 0]
    let levels: [ContributionLevel] = [
        .none, .firstQuartile, .secondQuartile, .thirdQuartile, .fourthQuartile, .firstQuartile, .none,
    ]
    return (day(first).ordinal...day(last).ordinal).map { ordinal in
        let date = CalendarDay(ordinal: ordinal)
        return ContributionDay(date: date, count: counts[date.weekday], level: levels[date.weekday])
    }
}

private func report(_ days: [ContributionDay]) -> ContributionsReport {
    ContributionsReport(
        login: "octocat", span: days[0].date...days[days.count - 1].date,
        calendar: ContributionCalendar(total: days.reduce(0) { $0 + $1.count }, days: days))
}

private func heatmap(
    _ days: [ContributionDay], width: Int, color: Bool, now: String, extendedColors: Bool = true
) -> [String] {
    var context = RenderContext(format: .table, isTTY: true, colorEnabled: color, width: width, now: noon(now))
    context.extendedColors = extendedColors
    return String(decoding: ContributionsRenderer.render(report(days), context: context), as: UTF8.self)
        .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
}

/// A map row: its label, then `count` cells of `cell`, a space apart.
private func row(_ label: String, _ cell: String, _ count: Int) -> String {
    label.padding(toLength: 4, withPad: " ", startingAt: 0)
        + Array(repeating: cell, count: count).joined(separator: " ")
}

/// A level's glyph in its 256-colour green: never a square for every level, told apart by colour alone.
private func green(_ colour: Int) -> String {
    let glyph = [237: "·", 22: "░", 28: "▒", 34: "▓", 40: "█"][colour] ?? "?"
    return "\u{1B}[38;5;\(colour)m\(glyph)\u{1B}[0m"
}

struct ContributionsHeatmapTests {
    /// 43 whole weeks, Sunday 2026-01-04 through Saturday 2026-10-31.
    let year = weekdayCalendar("2026-01-04", "2026-10-31")

    /// At 80 columns the latest 38 weeks fit, and a line says so; at 200 all 43 do.
    @Test(arguments: [
        (80, 38, "    Feb   Mar       Apr     May       Jun     Jul     Aug       Sep     Oct"),
        (200, 43, "    Jan     Feb     Mar       Apr     May       Jun     Jul     Aug       Sep     Oct"),
    ])
    func withoutColourEachLevelHasItsGlyph(width: Int, weeks: Int, months: String) {
        let lines = heatmap(year, width: width, color: false, now: "2026-10-31")
        let cut = weeks < 43 ? ["Cut to the last 38 of 43 weeks, from 2026-02-08."] : []
        #expect(
            lines == [
                months, row("", "·", weeks), row("Mon", "░", weeks), row("", "▒", weeks), row("Wed", "▓", weeks),
                row("", "█", weeks), row("Fri", "░", weeks), row("", "·", weeks), "    Less · ░ ▒ ▓ █ More",
            ] + cut + [
                "473 contributions from 2026-01-04 to 2026-10-31", "Longest streak: 5 days",
                "Current streak: 5 days", "",
            ])
        #expect(lines.allSatisfy { $0.count <= width })
    }

    @Test func eightyColumnsInColourDrawEachLevelInItsGreen() {
        let lines = heatmap(year, width: 80, color: true, now: "2026-10-31")
        #expect(
            Array(lines[0...8]) == [
                "    Feb   Mar       Apr     May       Jun     Jul     Aug       Sep     Oct",
                row("", green(237), 38), row("Mon", green(22), 38), row("", green(28), 38),
                row("Wed", green(34), 38), row("", green(40), 38), row("Fri", green(22), 38), row("", green(237), 38),
                "    Less \(green(237)) \(green(22)) \(green(28)) \(green(34)) \(green(40)) More",
            ])
        #expect(lines[9] == "Cut to the last 38 of 43 weeks, from 2026-02-08.")
    }

    /// A terminal of 8 colours (`TERM=linux`, `xterm`) drew the 256-colour codes as other colours or none
    /// (helper-340's E10): there each level keeps its glyph, in the basic green, and an empty day stays plain.
    @Test func eightColourTerminalsGetEachLevelsGlyphInGreen() {
        let lines = heatmap(year, width: 80, color: true, now: "2026-10-31", extendedColors: false)
        let basic = { (glyph: String) in "\u{1B}[32m\(glyph)\u{1B}[0m" }
        #expect(
            Array(lines[1...8]) == [
                row("", "·", 38), row("Mon", basic("░"), 38), row("", basic("▒"), 38),
                row("Wed", basic("▓"), 38), row("", basic("█"), 38), row("Fri", basic("░"), 38), row("", "·", 38),
                "    Less · \(basic("░")) \(basic("▒")) \(basic("▓")) \(basic("█")) More",
            ])
        #expect(!lines.joined().contains("38;5;"))
    }

    @Test func twoHundredColumnsInColourShowEveryWeekAndNoCutLine() {
        let lines = heatmap(year, width: 200, color: true, now: "2026-10-31")
        #expect(lines[2] == row("Mon", green(22), 43))
        #expect(lines[5] == row("", green(40), 43))
        #expect(!lines.contains { $0.hasPrefix("Cut to") })
    }

    @Test func partialWeeksLeaveTheirMissingDaysBlank() {
        let lines = heatmap(weekdayCalendar("2026-01-01", "2026-01-13"), width: 80, color: false, now: "2026-01-13")
        #expect(
            Array(lines[0...7]) == [
                "    Jan", "      · ·", "Mon   ░ ░", "      ▒ ▒", "Wed   ▓", "    █ █", "Fri ░ ░", "    · ·",
            ])
        #expect(lines[9] == "19 contributions from 2026-01-01 to 2026-01-13")
    }

    @Test func theFirstWeeksMonthGivesWayToTheNextWhenThereIsNoRoom() {
        let lines = heatmap(weekdayCalendar("2026-01-28", "2026-02-10"), width: 80, color: false, now: "2026-02-10")
        #expect(lines[0] == "      Feb")
    }

    /// 44 weeks whose last starts a month (Sunday 2026-11-01): its name would run past the map's right edge.
    let monthInTheLastWeek = weekdayCalendar("2026-01-04", "2026-11-07")

    /// A narrow terminal: the footer's statements are broken between their phrases rather than wrapped by the
    /// terminal in the middle of a date, and no month's name runs past the map.
    @Test func atFortyColumnsTheFooterIsBrokenBetweenPhrases() {
        let lines = heatmap(monthInTheLastWeek, width: 40, color: false, now: "2026-11-07")
        #expect(lines[0] == "    Jul     Aug       Sep     Oct")
        #expect(
            Array(lines[9...]) == [
                "Cut to the last 18 of 44 weeks,", "from 2026-07-05.", "484 contributions",
                "from 2026-01-04 to 2026-11-07", "Longest streak: 5 days", "Current streak: 5 days", "",
            ])
    }

    /// Narrower still, a phrase wider than the terminal is broken between its own phrases, never inside one:
    /// "from" stays with its date and "13 of 44 weeks," stays whole.
    @Test(arguments: [
        (
            20,
            [
                "8 of 44 weeks,", "from 2026-09-13.", "from 2026-01-04", "to 2026-11-07", "Longest streak:", "5 days",
                "Current streak:", "5 days",
            ]
        ),
        (
            25,
            [
                "11 of 44 weeks,", "from 2026-08-23.", "from 2026-01-04", "to 2026-11-07", "Longest streak: 5 days",
                "Current streak: 5 days",
            ]
        ),
        (
            30,
            [
                "13 of 44 weeks,", "from 2026-08-09.", "from 2026-01-04 to 2026-11-07", "Longest streak: 5 days",
                "Current streak: 5 days",
            ]
        ),
    ])
    func aNarrowFooterIsBrokenBetweenPhrasesOnly(width: Int, footer: [String]) {
        let lines = heatmap(monthInTheLastWeek, width: width, color: false, now: "2026-11-07")
        let expected = ["Cut to the last"] + footer[0...1] + ["484 contributions"] + footer[2...] + [""]
        #expect(Array(lines[9...]) == expected)
    }

    /// Every line fits, the map's and the footer's, at any width down to the narrowest a table is drawn at (20).
    @Test(arguments: [20, 22, 23, 30, 39, 40, 41, 48, 79, 80])
    func everyLineFitsTheWidth(width: Int) {
        for color in [false, true] {
            let text = heatmap(monthInTheLastWeek, width: width, color: color, now: "2026-11-07")
            #expect(text.count >= 12)
            for line in text {
                // Each colour's escape sequence, from ESC through its closing "m", takes no room.
                var plain = ""
                var inEscape = false
                for character in line {
                    if character == "\u{1B}" { inEscape = true }
                    if !inEscape { plain.append(character) }
                    if character == "m" { inEscape = false }
                }
                #expect(plain.count <= width, "\(width) columns: '\(plain)'")
            }
        }
    }

    @Test func aSpanThatEndedLongAgoNamesItsLastDayInsteadOfCurrent() {
        let lines = heatmap(weekdayCalendar("2026-01-01", "2026-01-13"), width: 80, color: false, now: "2026-06-01")
        #expect(lines[11] == "Streak at 2026-01-13: 2 days")
    }

    /// The legend stands under the map's labels when it fits exactly (4 + 19 = 23 columns)
    /// (mutation round 10, M10-302).
    @Test func aLegendThatJustFitsStandsUnderTheLabels() {
        let lines = heatmap(year, width: 23, color: false, now: "2026-10-31")
        #expect(lines[8] == "    Less · ░ ▒ ▓ █ More")
    }

    /// A month's name that ends exactly at the width is drawn: October starts in the second-to-last of 10 weeks
    /// shown at 23 columns (mutation round 10, M10-305).
    @Test func aMonthNameEndingAtTheWidthIsDrawn() {
        let lines = heatmap(weekdayCalendar("2026-01-04", "2026-10-17"), width: 23, color: false, now: "2026-10-17")
        #expect(lines[0] == "    Aug     Sep     Oct")
    }

    /// A span that ended yesterday still has a current streak: today may have none so far
    /// (mutation round 10, M10-304).
    @Test func aSpanThatEndedYesterdayHasACurrentStreak() {
        let lines = heatmap(year, width: 80, color: false, now: "2026-11-01")
        #expect(lines.contains { $0.hasPrefix("Current streak:") }, "\(lines)")
    }
}

struct ContributionsRecordsTests {
    let days = weekdayCalendar("2026-01-03", "2026-01-05")

    private func render(_ format: OutputFormat) -> String {
        let context = RenderContext(
            format: format, isTTY: false, colorEnabled: false, width: 80, now: noon("2026-01-05"))
        return String(decoding: ContributionsRenderer.render(report(days), context: context), as: UTF8.self)
    }

    @Test func jsonIsTheEnvelopeWithEveryDay() throws {
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(render(.json).utf8)) as? [String: Any])
        #expect(object["login"] as? String == "octocat")
        #expect(object["from"] as? String == "2026-01-03" && object["to"] as? String == "2026-01-05")
        #expect(object["total"] as? Int == 1)
        let days = try #require(object["days"] as? [[String: Any]])
        #expect(days.map { $0["date"] as? String } == ["2026-01-03", "2026-01-04", "2026-01-05"])
        #expect(days.map { $0["level"] as? String } == ["NONE", "NONE", "FIRST_QUARTILE"])
    }

    @Test func csvTsvAndNDJSONAreOneRecordPerDay() {
        // csv lines end in CRLF, as RFC 4180 has them.
        #expect(
            render(.csv)
                == "date,count,level\r\n2026-01-03,0,NONE\r\n2026-01-04,0,NONE\r\n2026-01-05,1,FIRST_QUARTILE\r\n")
        #expect(render(.tsv) == "2026-01-03\t0\tNONE\n2026-01-04\t0\tNONE\n2026-01-05\t1\tFIRST_QUARTILE\n")
        #expect(
            render(.ndjson).split(separator: "\n").last == #"{"date":"2026-01-05","count":1,"level":"FIRST_QUARTILE"}"#)
    }
}

struct ContributionStreakTests {
    private func days(_ counts: [Int], endingOn last: String) -> [ContributionDay] {
        let start = day(last).adding(days: 1 - counts.count)
        return counts.enumerated().map { offset, count in
            ContributionDay(date: start.adding(days: offset), count: count, level: count > 0 ? .firstQuartile : .none)
        }
    }

    @Test func longestAndCurrentRuns() {
        let streaks = ContributionStreaks(
            days([1, 1, 1, 1, 0, 2, 3], endingOn: "2026-03-10"), today: day("2026-03-10"))
        #expect(streaks == ContributionStreaks(longest: 4, current: 2))
    }

    @Test func todayWithNoneSoFarDoesNotBreakTheCurrentStreak() {
        let streaks = ContributionStreaks(days([0, 1, 1, 1, 0], endingOn: "2026-03-10"), today: day("2026-03-10"))
        #expect(streaks == ContributionStreaks(longest: 3, current: 3))
    }

    @Test func yesterdayWithNoneEndsIt() {
        let streaks = ContributionStreaks(days([1, 1, 0, 0], endingOn: "2026-03-10"), today: day("2026-03-10"))
        #expect(streaks == ContributionStreaks(longest: 2, current: 0))
    }

    @Test func daysAfterTodayCountForNothing() {
        let streaks = ContributionStreaks(days([1, 1, 0, 0, 0], endingOn: "2026-03-12"), today: day("2026-03-09"))
        #expect(streaks == ContributionStreaks(longest: 2, current: 2))
    }

    /// A span that ends before today ends its streak on its last day: one of no contributions is a streak of 0
    /// (mutation round 8's M8-5: the last day was dropped as if it were today's, still under way).
    @Test func aSpanEndingBeforeTodayWithNoneOnItsLastDayEndsItsStreak() {
        let streaks = ContributionStreaks(days([1, 3, 5, 0], endingOn: "2026-11-30"), today: day("2026-12-10"))
        #expect(streaks == ContributionStreaks(longest: 3, current: 0))
    }

    @Test func aMissingDayBreaksARun() {
        var gapped = days([1, 1, 1], endingOn: "2026-03-10")
        gapped.remove(at: 1)
        #expect(ContributionStreaks(gapped, today: day("2026-03-10")) == ContributionStreaks(longest: 1, current: 1))
    }
}

struct ContributionSpanTests {
    /// Issue 26, item 3: since July 2026 GitHub refuses a year for long histories and answers six months
    /// (muesli/markscribe #103), so a piece is at most 182 days.
    @Test func aYearIsAskedInPiecesOfAtMostSixMonths() {
        #expect(
            ContributionSpan.pieces(of: day("2025-03-01")...day("2026-02-28")) == [
                day("2025-03-01")...day("2025-08-29"), day("2025-08-30")...day("2026-02-27"),
                day("2026-02-28")...day("2026-02-28"),
            ])
        let lastYear = ContributionSpan.lastYear(until: day("2024-12-31"))
        #expect(lastYear == day("2024-01-02")...day("2024-12-31"))
        #expect(
            ContributionSpan.pieces(of: lastYear).allSatisfy { $0.upperBound.ordinal - $0.lowerBound.ordinal < 182 })
    }

    @Test func aRefusedPieceIsHalvedDownToAMonth() {
        #expect(ContributionSpan.halved(182) == 91)
        #expect(ContributionSpan.halved(91) == 46)
        #expect(ContributionSpan.halved(46) == 30)
        #expect(ContributionSpan.halved(30) == nil)
    }

    @Test func oneDayIsOnePiece() {
        #expect(ContributionSpan.pieces(of: day("2026-01-01")...day("2026-01-01")).count == 1)
    }

    /// An answer that lacks only the span's last day is not whole (M8-4: it was taken, and the day left out).
    @Test func aCalendarWithoutItsLastDayIsNotWhole() {
        let days = (0..<6).map { ContributionDay(date: day("2026-03-01").adding(days: $0), count: 1, level: .none) }
        let calendar = ContributionCalendar(total: 6, days: days)
        #expect(
            calendar.problem(for: day("2026-03-01")...day("2026-03-07"))
                == "the days from 2026-03-07 to 2026-03-07 are missing")
        #expect(calendar.problem(for: day("2026-03-01")...day("2026-03-06")) == nil)
    }

    @Test func calendarDaysReadOnlyRealDates() {
        #expect(CalendarDay("1970-01-01")?.ordinal == 0)
        #expect(CalendarDay("2026-01-04")?.weekday == 0)
        #expect(CalendarDay("2024-02-29")?.description == "2024-02-29")
        // 2000 was a leap year, as every fourth century is (M8-12: without the 400 rule, --from 2000-02-29 was
        // refused), and 1900 was not.
        #expect(CalendarDay("2000-02-29")?.description == "2000-02-29")
        for bad in ["2025-02-29", "1900-02-29", "2025-13-01", "2025-1-01", "2025-01-01T00:00:00Z", "", "０２０２-01-01"] {
            #expect(CalendarDay(bad) == nil, "\(bad)")
        }
    }
}

/// GitHub's answer to the contributions query (the shape of Bodies/graphql-contributions-calendar.json), with
/// the days a test needs.
private func calendarAnswer(total: Int, _ days: [ContributionDay], login: String = "octocat") -> String {
    let days = days.map {
        #"{"date":"\#($0.date)","contributionCount":\#($0.count),"contributionLevel":"\#($0.level.rawValue)"}"#
    }
    return #"{"data":{"repositoryOwner":{"__typename":"User","login":"\#(login)","#
        + #""contributionsCollection":{"contributionCalendar":"#
        + #"{"totalContributions":\#(total),"weeks":[{"contributionDays":["# + days.joined(separator: ",") + "]}]}}}}}"
}

/// GitHub's refusal of a span too long to count (recorded in github-profile-3d-contrib issue #163, see
/// GraphQLContributionsTests.resourceLimitsAreATooLongSpanNotAFailure).
private func tooLongAnswer(_ message: String) -> String {
    #"{"data":{"repositoryOwner":null},"errors":[{"type":"RESOURCE_LIMITS_EXCEEDED","#
        + #""path":["repositoryOwner","contributionsCollection","contributionCalendar"],"message":"\#(message)"}]}"#
}

/// The login and span each contributions query sent asked for: `octocat 2025-01-01...2025-07-01`.
private func spansAsked(_ http: StubTransport) -> [String] {
    http.received.compactMap { request in
        guard let body = request.body,
            let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any],
            let query = object["query"] as? String,
            let login = query.firstMatch(of: /repositoryOwner\(login: "([^"]+)"\)/)?.1,
            let span = query.firstMatch(of: /from: "([0-9-]+)T00:00:00Z", to: "([0-9-]+)T23:59:59Z"/)
        else { return nil }
        return "\(login) \(span.1)...\(span.2)"
    }
}

struct GetContributionsUseCaseTests {
    @Test func piecesAreAskedInOrderAndJoined() async throws {
        let github = StubTransport()
        github.answer("POST /graphql", json: calendarAnswer(total: 10, weekdayCalendar("2025-01-01", "2025-07-01")))
        github.answer("POST /graphql", json: calendarAnswer(total: 5, weekdayCalendar("2025-07-02", "2025-07-31")))
        let calendar = try await GetContributionsUseCase(repository: github.repository()).execute(
            try Login(validating: "octocat"), span: day("2025-01-01")...day("2025-07-31"))
        #expect(
            spansAsked(github) == ["octocat 2025-01-01...2025-07-01", "octocat 2025-07-02...2025-07-31"])
        #expect(calendar.total == 15)
        #expect(calendar.days == weekdayCalendar("2025-01-01", "2025-07-31"))
    }

    /// The login is GitHub's spelling, as `show` gives it (before: as typed, `OCTOCAT`); a server that names
    /// another account is not believed.
    @Test(arguments: [("octocat", "octocat"), ("someone-else", nil)])
    func theLoginIsGitHubsSpellingOfTheOneAsked(answered: String, kept: String?) async throws {
        let github = StubTransport()
        github.answer(
            "POST /graphql",
            json: calendarAnswer(total: 1, weekdayCalendar("2025-01-01", "2025-01-31"), login: answered))
        let calendar = try await GetContributionsUseCase(repository: github.repository()).execute(
            try Login(validating: "OCTOCAT"), span: day("2025-01-01")...day("2025-01-31"))
        #expect(calendar.login == kept)
    }

    /// Issue 26, item 3: a piece GitHub refuses with RESOURCE_LIMITS_EXCEEDED is asked again halved (before: the
    /// refusal ended the run), and the run goes on at the shorter length.
    @Test func aRefusedPieceIsAskedAgainHalved() async throws {
        let github = StubTransport()
        github.answer("POST /graphql", json: tooLongAnswer("Resource limits for this query exceeded."))
        github.answer("POST /graphql", json: calendarAnswer(total: 1, weekdayCalendar("2025-01-01", "2025-03-01")))
        github.answer("POST /graphql", json: calendarAnswer(total: 2, weekdayCalendar("2025-03-02", "2025-04-30")))
        let calendar = try await GetContributionsUseCase(repository: github.repository()).execute(
            try Login(validating: "octocat"), span: day("2025-01-01")...day("2025-04-30"))
        #expect(
            spansAsked(github) == [
                "octocat 2025-01-01...2025-04-30", "octocat 2025-01-01...2025-03-01", "octocat 2025-03-02...2025-04-30",
            ])
        #expect(calendar.total == 3)
        #expect(calendar.days == weekdayCalendar("2025-01-01", "2025-04-30"))
    }

    @Test func aMonthStillRefusedIsGitHubsMessage() async throws {
        let github = StubTransport()
        let message = "Resource limits for this query exceeded."
        for _ in 0..<4 { github.answer("POST /graphql", json: tooLongAnswer(message)) }
        await #expect(
            throws: DomainError.refused(
                "GitHub refused the contributions of 'octocat' from 2025-01-01 to 2025-01-30, even 30 days at a time: "
                    + "GraphQL: " + message)
        ) {
            _ = try await GetContributionsUseCase(repository: github.repository()).execute(
                try Login(validating: "octocat"), span: day("2025-01-01")...day("2025-12-31"))
        }
        #expect(
            spansAsked(github) == [
                "octocat 2025-01-01...2025-07-01", "octocat 2025-01-01...2025-04-01", "octocat 2025-01-01...2025-02-15",
                "octocat 2025-01-01...2025-01-30",
            ])
    }

    /// Every day of the span exactly once: a gap or a repeat is refused, never joined quietly (before: a repeated
    /// day was dropped and a missing one left out).
    @Test(arguments: [("2025-01-02", "2025-07-01"), ("2025-01-01", "2025-06-30")])
    func aCalendarThatIsNotWholeIsRefused(_ bounds: (String, String)) async throws {
        let github = StubTransport()
        var days = weekdayCalendar(bounds.0, bounds.1)
        if bounds.0 == "2025-01-01" { days.insert(days[0], at: 1) }
        github.answer("POST /graphql", json: calendarAnswer(total: 0, days))
        await #expect(throws: DomainError.self) {
            _ = try await GetContributionsUseCase(repository: github.repository()).execute(
                try Login(validating: "octocat"), span: day("2025-01-01")...day("2025-07-01"))
        }
    }

    @Test func aFailingPieceStopsTheRun() async throws {
        let github = StubTransport()
        github.register(RequestMatcher("POST /graphql"), body: Bodies.named("graphql-repository-owner-null"))
        github.refuse("GET /users/octocat", status: 404, message: "Not Found")
        await #expect(throws: DomainError.notFound(resource: "user 'octocat'")) {
            _ = try await GetContributionsUseCase(repository: github.repository()).execute(
                try Login(validating: "octocat"), span: day("2024-11-25")...day("2026-11-24"))
        }
        #expect(github.calls == ["POST /graphql", "GET /users/octocat"])
    }
}

/// One count, one level: each piece's `contributionLevel` is GitHub's quartile over that piece alone, so a span
/// asked in pieces is drawn at levels worked out once over the whole span (`ContributionCalendar.drawnDays`).
struct ContributionsSpanLevelTests {
    /// `weekdayCalendar`'s counts with the levels GitHub gives a piece whose quartiles sit lower: 2 is the first
    /// quartile there, 3 the second, 4 the third.
    private static func lowerQuartiles(_ first: String, _ last: String) -> [ContributionDay] {
        let levels: [Int: ContributionLevel] = [
            0: .none, 1: .firstQuartile, 2: .firstQuartile, 3: .secondQuartile, 4: .thirdQuartile,
        ]
        return weekdayCalendar(first, last).map { day in
            ContributionDay(date: day.date, count: day.count, level: levels[day.count] ?? .none)
        }
    }

    /// Two pieces, 2026-01-04 to 2026-07-04 and 2026-07-05 to 2026-10-31, whose levels disagree for every
    /// count: the heatmap draws each count in one glyph across all 43 weeks (before: Thursday's 4 was █ to July
    /// and ▓ after it), and the records keep GitHub's own level of each day.
    @Test func aSpanOfTwoPiecesDrawsEachCountAtOneLevel() async {
        var harness = CommandHarness.signedIn()
        harness.width = 200
        func answerBothPieces() {
            harness.http.answer(
                "POST /graphql", json: calendarAnswer(total: 0, weekdayCalendar("2026-01-04", "2026-07-04")))
            harness.http.answer(
                "POST /graphql", json: calendarAnswer(total: 0, Self.lowerQuartiles("2026-07-05", "2026-10-31")))
        }
        let arguments = ["contributions", "octocat", "--from", "2026-01-04", "--to", "2026-10-31"]
        answerBothPieces()
        let table = await harness.run(arguments + ["--format", "table"])
        #expect(table.status == 0, "\(table.err)")
        #expect(
            spansAsked(harness.http).prefix(2) == [
                "octocat 2026-01-04...2026-07-04", "octocat 2026-07-05...2026-10-31",
            ])
        let lines = table.out.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(
            Array(lines.dropFirst().prefix(7)) == [
                row("", "·", 43), row("Mon", "░", 43), row("", "▒", 43), row("Wed", "▓", 43), row("", "█", 43),
                row("Fri", "░", 43), row("", "·", 43),
            ])
        answerBothPieces()
        let csv = await harness.run(arguments + ["--format", "csv"])
        #expect(csv.status == 0, "\(csv.err)")
        let records = csv.out.split(separator: "\r\n").map(String.init)
        #expect(records.contains("2026-07-02,4,FOURTH_QUARTILE") && records.contains("2026-07-09,4,THIRD_QUARTILE"))
    }

    /// The rule: none for 0; else quartile 1 + 4 × (active days with a smaller count) / (active days).
    @Test func levelsOverTheSpanComeFromTheCountsAlone() {
        let counts = [0, 1, 1, 1, 10, 2, 1, 0]
        let days = counts.enumerated().map { offset, count in
            ContributionDay(date: day("2026-03-01").adding(days: offset), count: count, level: .fourthQuartile)
        }
        let joined = ContributionCalendar(total: 17, days: days, pieces: 2)
        // 6 active days: 1 has none below (first), 2 has 4 below (4 × 4 / 6 = 2: third), 10 has 5 (fourth).
        #expect(
            joined.drawnDays.map(\.level) == [
                .none, .firstQuartile, .firstQuartile, .firstQuartile, .fourthQuartile, .thirdQuartile,
                .firstQuartile, .none,
            ])
        #expect(joined.days == days)
        // One piece: GitHub's own levels, as it sent them.
        #expect(ContributionCalendar(total: 17, days: days).drawnDays == days)
    }
}
