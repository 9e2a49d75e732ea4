import AtomicCore
import Domain
import JSONBytes

/// `contributions` output: the heatmap as its table, `{"login","from","to","total","days"}` as its JSON, and one
/// record per day (date, count, level) in every other format or with `--fields`.
enum ContributionsRenderer {
    static func render(_ report: ContributionsReport, context: RenderContext) -> [UInt8] {
        switch context.format {
        case .table where context.fields == nil:
            return Array(ContributionsHeatmap.render(report, context: context).utf8)
        case .json where context.fields == nil:
            let document = JSONValue.object([
                .init("login", .string(report.login)),
                .init("from", .string(report.span.lowerBound.description)),
                .init("to", .string(report.span.upperBound.description)),
                .init("total", .integer(Int64(report.calendar.total))),
                .init("days", .array(report.calendar.days.map(dayValue))),
            ])
            var output: [UInt8] = []
            JSONText.pretty(document.bytes, into: &output)
            return output + [UInt8(ascii: "\n")]
        default:
            var writer = RecordStreamWriter(context: context, columns: columns)
            return writer.render(report.calendar.days) + writer.finish(completed: true)
        }
    }

    static let columns: [Column<ContributionDay>] = [
        Column("DATE") { $0.date.description },
        Column("COUNT") { String($0.count) },
        Column("LEVEL") { $0.sentLevel },
    ]

    fileprivate static func dayValue(_ day: ContributionDay) -> JSONValue {
        .object([
            .init("date", .string(day.date.description)), .init("count", .integer(Int64(day.count))),
            .init("level", .string(day.sentLevel)),
        ])
    }
}

/// The calendar drawn as GitHub draws it: a column per week (Sunday on top), month names over the weeks they
/// start, Mon, Wed and Fri labelled, each day a cell of its level (`ContributionCalendar.drawnDays`: one set of
/// quartiles over the span, also when it was asked in pieces); then a legend, a line when the width left
/// earlier weeks out, the total and the streaks.
enum ContributionsHeatmap {
    /// "Mon " before each row; each week then takes a cell and a space.
    static let labelWidth = 4
    static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    static let weekdayLabels = ["", "Mon", "", "Wed", "", "Fri", ""]
    /// With colour off each level has its own glyph, darker for more.
    static let glyphs: [ContributionLevel: String] = [
        .none: "·", .firstQuartile: "░", .secondQuartile: "▒", .thirdQuartile: "▓", .fourthQuartile: "█",
    ]
    /// xterm 256-colour greens after GitHub's, from the empty grey to the brightest.
    static let colours: [ContributionLevel: Int] = [
        .none: 237, .firstQuartile: 22, .secondQuartile: 28, .thirdQuartile: 34, .fourthQuartile: 40,
    ]

    static func render(_ report: ContributionsReport, context: RenderContext) -> String {
        // A calendar joined from several answers is drawn at levels worked out over the whole span.
        let weeks = Self.weeks(report.calendar.drawnDays)
        let fitting = max(1, (context.width - labelWidth + 1) / 2)
        let shown = Array(weeks.suffix(fitting))
        var lines = [monthLine(shown, width: context.width)]
        for row in 0..<7 {
            let cells = shown.map { week in week[row].map { cell($0.level, context: context) } ?? " " }
            lines.append(pad(weekdayLabels[row]) + cells.joined(separator: " "))
        }
        let legend = ContributionLevel.allCases.map { cell($0, context: context) }.joined(separator: " ")
        // Under the map's labels when there is room, else at the left edge (20 columns, the narrowest).
        let legendWidth = "Less  More".count + 2 * ContributionLevel.allCases.count - 1
        lines.append((labelWidth + legendWidth <= context.width ? pad("") : "") + "Less " + legend + " More")
        var footer: [[String]] = []
        if shown.count < weeks.count, let first = shown.first?.compactMap({ $0 }).first {
            footer.append([
                "Cut to the last " + kept("\(shown.count) of \(weeks.count) weeks,"), kept("from \(first.date)."),
            ])
        }
        let span = report.span
        footer.append(
            [
                kept(Counted.text(report.calendar.total, "contribution")),
                kept("from \(span.lowerBound)") + " " + kept("to \(span.upperBound)"),
            ])
        let today = CalendarDay(secondsSince1970: context.now.timeIntervalSince1970)
        let streaks = ContributionStreaks(report.calendar.days, today: today)
        footer.append(["Longest streak:", Counted.text(streaks.longest, "day")])
        let ending = span.upperBound >= today.adding(days: -1) ? "Current streak" : "Streak at \(span.upperBound)"
        footer.append(["\(ending):", Counted.text(streaks.current, "day")])
        lines += footer.flatMap { fitted($0, width: context.width) }
        return lines.map(trimmed).joined(separator: "\n") + "\n"
    }

    /// A statement of the footer on one line when it fits the width; else a phrase a line, and a phrase wider
    /// still filled to the width between the words that are not `kept` together, so a narrow terminal never
    /// breaks one in the middle of a date nor parts "from" from it.
    static func fitted(_ phrases: [String], width: Int) -> [String] {
        let whole = phrases.joined(separator: " ")
        let lines =
            DisplayWidth.of(whole) <= width
            ? [whole]
            : phrases.flatMap { phrase in
                HelpRenderer.fill(phrase, indent: 0, width: width).split(separator: "\n").map(String.init)
            }
        return lines.map { $0.replacingOccurrences(of: unbroken, with: " ") }
    }

    /// Joins words that a narrow terminal's line is never broken between (`from 2026-01-04`, `13 of 53 weeks,`);
    /// `fitted` turns the joins back into spaces.
    private static func kept(_ words: String) -> String {
        words.replacingOccurrences(of: " ", with: unbroken)
    }

    /// A no-break space: what `kept` joins words with.
    private static let unbroken = "\u{A0}"

    /// The days by week, Sunday first; a slot outside the days (before the first, after the last) is nil.
    private static func weeks(_ days: [ContributionDay]) -> [[ContributionDay?]] {
        guard let first = days.first else { return [] }
        let start = first.date.adding(days: -first.date.weekday).ordinal
        var weeks: [[ContributionDay?]] = []
        for day in days {
            let index = (day.date.ordinal - start) / 7
            while weeks.count <= index { weeks.append(Array(repeating: nil, count: 7)) }
            weeks[index][day.date.weekday] = day
        }
        return weeks
    }

    /// A month's name over the first week that starts in it, where it does not run into the one before nor past
    /// the width; the first week's month only when the next name leaves room for it.
    private static func monthLine(_ weeks: [[ContributionDay?]], width: Int) -> String {
        let months = weeks.map { week in week.compactMap { $0 }.first?.date.month ?? 0 }
        var line = Array(repeating: Character(" "), count: labelWidth + 2 * weeks.count + 3)
        var lastEnd = -1
        var lastColumn: Int?
        for (column, month) in months.enumerated() where column == 0 || month != months[column - 1] {
            guard (1...12).contains(month) else { continue }
            let start = labelWidth + 2 * column
            // A month that starts in the last week or two would run past the map's right edge.
            guard start + 3 <= width else { continue }
            if start <= lastEnd {
                guard lastColumn == 0 else { continue }
                // The first week's month gives way to the month that starts right after it.
                for index in labelWidth..<lastEnd { line[index] = " " }
            }
            for (offset, letter) in monthNames[month - 1].enumerated() { line[start + offset] = letter }
            lastEnd = start + 3
            lastColumn = column
        }
        return String(line)
    }

    /// A day: its level's glyph, in its 256-colour green; on a terminal of 8 colours (helper-340's E10: `TERM=linux`
    /// drew the codes as other colours or none) in plain green; with colour off, alone. Never by colour alone: one
    /// square for every level left the levels to colour, which not every reader tells apart (helper-360, WCAG 1.4.1).
    private static func cell(_ level: ContributionLevel, context: RenderContext) -> String {
        let glyph = glyphs[level] ?? "?"
        guard context.colorEnabled else { return glyph }
        guard context.extendedColors else { return level == .none ? glyph : "\u{1B}[32m" + glyph + "\u{1B}[0m" }
        return "\u{1B}[38;5;\(colours[level] ?? 237)m" + glyph + "\u{1B}[0m"
    }

    private static func pad(_ label: String) -> String {
        label + String(repeating: " ", count: labelWidth - label.count)
    }

    private static func trimmed(_ line: String) -> String {
        var line = line
        while line.last == " " { line.removeLast() }
        return line
    }
}

extension ContributionDay: JSONRecord {
    var raw: RawJSON { RawJSON(bytes: ContributionsRenderer.dayValue(self).bytes) }
}
