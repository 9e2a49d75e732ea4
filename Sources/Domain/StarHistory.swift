/// The stars a repository gained in one week, as `GET /repos/{owner}/{repo}/stargazers/history` gives it
/// (September 2026 on): the week's first day, a Sunday, and a count for each of its seven days.
package struct StarWeek: Sendable, Equatable {
    package let start: CalendarDay
    /// Sunday first.
    package let days: [Int]

    /// Nil for what GitHub's schema does not allow: not seven days, a negative count, a week not starting on a
    /// Sunday at midnight UTC.
    package init?(startSeconds: Int64, days: [Int]) {
        guard days.count == 7, days.allSatisfy({ $0 >= 0 }), startSeconds % 86_400 == 0 else { return nil }
        let start = CalendarDay(ordinal: Int(startSeconds / 86_400))
        guard start.weekday == 0 else { return nil }
        self.start = start
        self.days = days
    }
}

/// One day or week of a star history: the stars gained in it, and how many the repository had at its end.
package struct StarPoint: Sendable, Equatable {
    package let start: CalendarDay
    package let gained: Int
    package let total: Int

    package init(start: CalendarDay, gained: Int, total: Int) {
        self.start = start
        self.gained = gained
        self.total = total
    }
}

/// A repository's stars over time: GitHub's weeks, newest first as it pages them, and today's count
/// (`GET /repos/{owner}/{repo}/stargazers/count`). The running total is counted back from today's count, so
/// at the end of a day it is today's count less the stars gained since; a star taken back since is not
/// subtracted, since the history counts only stars given.
package struct StarHistory: Sendable, Equatable {
    package let count: Int
    /// Oldest first, one a week at most.
    package let weeks: [StarWeek]

    package init(count: Int, weeks: [StarWeek]) {
        self.count = count
        var byStart: [CalendarDay: StarWeek] = [:]
        for week in weeks where byStart[week.start] == nil { byStart[week.start] = week }
        self.weeks = byStart.values.sorted { $0.start < $1.start }
    }

    /// Each day of `span`, oldest first; a day GitHub gave no week for gained nothing.
    package func days(in span: ClosedRange<CalendarDay>) -> [StarPoint] {
        var gained: [CalendarDay: Int] = [:]
        for week in weeks {
            for (offset, stars) in week.days.enumerated() { gained[week.start.adding(days: offset)] = stars }
        }
        let after = gained.filter { $0.key > span.upperBound }.values.reduce(0, +)
        var total = count - after
        var points: [StarPoint] = []
        var day = span.upperBound
        while day >= span.lowerBound {
            let stars = gained[day] ?? 0
            points.append(StarPoint(start: day, gained: stars, total: total))
            total -= stars
            day = day.adding(days: -1)
        }
        return points.reversed()
    }

    /// Each week (from its Sunday) that meets `span`, oldest first, counting only the span's days: a week the
    /// span starts in is dated from the span's first day, since that is where its count starts (a record dated
    /// Sunday that left out Sunday's stars said less than its date claims).
    package func weeks(in span: ClosedRange<CalendarDay>) -> [StarPoint] {
        var points: [StarPoint] = []
        for day in days(in: span) {
            let sunday = max(day.start.adding(days: -day.start.weekday), span.lowerBound)
            if let last = points.last, last.start == sunday {
                points[points.count - 1] = StarPoint(start: sunday, gained: last.gained + day.gained, total: day.total)
            } else {
                points.append(StarPoint(start: sunday, gained: day.gained, total: day.total))
            }
        }
        return points
    }
}
