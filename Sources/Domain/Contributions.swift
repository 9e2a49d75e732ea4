/// A day of the Gregorian calendar, in UTC, as GitHub's contribution calendar names it (`2025-01-31`).
/// Plain integer arithmetic, so no locale, time zone or formatter can move a day.
package struct CalendarDay: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Days since 1970-01-01.
    package let ordinal: Int

    package init(ordinal: Int) {
        self.ordinal = ordinal
    }

    /// Nil for a date that does not exist (February 30th) or lies outside years 1 to 9999.
    package init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), (1...12).contains(month), day >= 1,
            day <= Self.length(ofMonth: month, year: year)
        else { return nil }
        // Counted from 0000-03-01, so a leap day falls at the end of a 400-year era.
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = shiftedYear / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        ordinal = era * 146_097 + dayOfEra - 719_468
    }

    /// Exactly `YYYY-MM-DD`; anything else (a time, an offset, a short year) is nil.
    package init?(_ text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for byte in bytes[range] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10) else { return nil }
        self.init(year: year, month: month, day: day)
    }

    /// The UTC day `secondsSince1970` falls on.
    package init(secondsSince1970 seconds: Double) {
        ordinal = Int((seconds / 86_400).rounded(.down))
    }

    package var year: Int { civil.year }
    package var month: Int { civil.month }
    package var day: Int { civil.day }
    /// 0 for Sunday through 6 for Saturday, as GitHub's calendar rows go.
    package var weekday: Int { ((ordinal % 7) + 7 + 4) % 7 }

    package func adding(days: Int) -> CalendarDay { CalendarDay(ordinal: ordinal + days) }

    package var description: String {
        let (year, month, day) = civil
        func pad(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))"
    }

    package static func < (lhs: CalendarDay, rhs: CalendarDay) -> Bool { lhs.ordinal < rhs.ordinal }

    private var civil: (year: Int, month: Int, day: Int) {
        let shifted = ordinal + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let marchBased = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * marchBased + 2) / 5 + 1
        let month = marchBased < 10 ? marchBased + 3 : marchBased - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func length(ofMonth month: Int, year: Int) -> Int {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}

/// GitHub's shade for a day, by where its count falls among the span's days (`ContributionLevel`).
package enum ContributionLevel: String, Sendable, CaseIterable {
    case none = "NONE"
    case firstQuartile = "FIRST_QUARTILE"
    case secondQuartile = "SECOND_QUARTILE"
    case thirdQuartile = "THIRD_QUARTILE"
    case fourthQuartile = "FOURTH_QUARTILE"
}

/// One day of a contribution calendar.
package struct ContributionDay: Sendable, Equatable {
    package let date: CalendarDay
    package let count: Int
    /// The level it is drawn at: GitHub's, or for a level this version does not know the nearest known one.
    package let level: ContributionLevel
    /// GitHub's level as sent when it is none of the known ones (`sentLevel` is then what records say).
    package let unknownLevel: String?

    package init(date: CalendarDay, count: Int, level: ContributionLevel, unknownLevel: String? = nil) {
        self.date = date
        self.count = count
        self.level = level
        self.unknownLevel = unknownLevel
    }

    /// The level as GitHub sent it.
    package var sentLevel: String { unknownLevel ?? level.rawValue }
}

extension ContributionLevel {
    /// The known level to draw a day of an unknown one at: none for a day without contributions, else the
    /// level of the known day whose count is nearest (the higher on a tie), else the first quartile.
    package static func nearest(count: Int, among known: [(count: Int, level: ContributionLevel)]) -> Self {
        guard count > 0 else { return .none }
        var best: (distance: Int, count: Int, level: ContributionLevel)?
        for day in known where day.count > 0 {
            let distance = abs(day.count - count)
            if best.map({ distance < $0.distance || (distance == $0.distance && day.count > $0.count) }) ?? true {
                best = (distance, day.count, day.level)
            }
        }
        return best?.level ?? .firstQuartile
    }
}

/// A contribution calendar: GitHub's total and the days in date order, each once.
package struct ContributionCalendar: Sendable, Equatable {
    package let total: Int
    package let days: [ContributionDay]
    /// How many of GitHub's answers it was joined from: each answer's levels are GitHub's quartiles over that
    /// answer's days alone (`drawnDays`).
    package let pieces: Int
    /// The account's login as GitHub spells it (`octocat` for `OCTOCAT`), when its answer gave it.
    package var login: String?

    package init(total: Int, days: [ContributionDay], pieces: Int = 1, login: String? = nil) {
        self.total = total
        self.days = days
        self.pieces = pieces
        self.login = login
    }

    /// The days at the level a heatmap draws them at. From one answer: GitHub's levels. Joined from several,
    /// each answer's levels are quartiles over its own days, so one count could be drawn at two levels; so every
    /// day is drawn at a level worked out once over the whole span from the counts alone: NONE for a count of
    /// 0; else, with `active` the span's days with a count above 0 and `below` how many of them have a smaller
    /// count than this day, quartile `1 + 4 * below / active` (integer division, 1 to 4). The lowest count is
    /// the first quartile, a count above more than three quarters of the active days the fourth, and equal
    /// counts are always one level. GitHub's own levels stay in `days` (records write them).
    package var drawnDays: [ContributionDay] {
        guard pieces > 1 else { return days }
        let active = days.map(\.count).filter { $0 > 0 }.sorted()
        // How many active days have a smaller count: the first place of each count in the sorted counts.
        var below: [Int: Int] = [:]
        for (place, count) in active.enumerated() where below[count] == nil { below[count] = place }
        let quartiles: [ContributionLevel] = [.firstQuartile, .secondQuartile, .thirdQuartile, .fourthQuartile]
        return days.map { day in
            let level = below[day.count].map { quartiles[4 * $0 / active.count] } ?? .none
            return ContributionDay(date: day.date, count: day.count, level: level, unknownLevel: day.unknownLevel)
        }
    }

    /// What is wrong with the days for `span`, which they must hold each exactly once, in order: nil when
    /// nothing is.
    package func problem(for span: ClosedRange<CalendarDay>) -> String? {
        var expected = span.lowerBound
        for day in days {
            if day.date < expected { return "the day \(day.date) comes twice or out of order" }
            if day.date > expected { return "the day \(expected) is missing" }
            expected = expected.adding(days: 1)
        }
        return expected <= span.upperBound ? "the days from \(expected) to \(span.upperBound) are missing" : nil
    }
}

/// What GitHub answered for one piece of a span.
package enum ContributionsPiece: Sendable, Equatable {
    case calendar(ContributionCalendar)
    /// GitHub refused the piece as too much work (`RESOURCE_LIMITS_EXCEEDED`, since July 2026 for accounts with
    /// long histories): a shorter piece may pass. The message is GitHub's.
    case tooLong(message: String)
}

/// Reads one account's calendar for a span GitHub answers in one request. Data implements it over GraphQL; an
/// organization or a bot is `.refused` (it has no calendar), an unknown login `.notFound`.
package protocol ContributionsRepository: Sendable {
    func contributions(of login: Login, in span: ClosedRange<CalendarDay>) async throws(DomainError)
        -> ContributionsPiece
}

/// How a span is cut into requests. GitHub answers at most a year per `contributionsCollection` ("The total
/// time spanned by 'from' and 'to' must not exceed 1 year"), and since July 2026 refuses a year for accounts
/// with long histories (`RESOURCE_LIMITS_EXCEEDED`) while six months pass (reported by markscribe #103 and
/// github-profile-3d-contrib #163/#164), so pieces are at most 182 days (26 weeks, within any six months), each
/// from 00:00:00 of its first day to 23:59:59 of its last (UTC). A piece GitHub refuses is halved, down to a month.
package enum ContributionSpan {
    package static let daysPerPiece = 182
    /// The shortest piece a refusal halves to; one this short that is refused ends the run with GitHub's message.
    package static let shortestPiece = 30
    /// What the span defaults to: a year, as GitHub's calendar shows.
    package static let daysPerYear = 365

    package static func pieces(of span: ClosedRange<CalendarDay>, days: Int = daysPerPiece) -> [ClosedRange<
        CalendarDay
    >] {
        var pieces: [ClosedRange<CalendarDay>] = []
        var start = span.lowerBound
        while start <= span.upperBound {
            let end = min(span.upperBound, start.adding(days: days - 1))
            pieces.append(start...end)
            start = end.adding(days: 1)
        }
        return pieces
    }

    /// The 365 days up to `today`.
    package static func lastYear(until today: CalendarDay) -> ClosedRange<CalendarDay> {
        today.adding(days: 1 - daysPerYear)...today
    }

    /// How long a piece after a refusal of `length` days is: half, rounded up, but not under a month; nil when
    /// `length` was already that short.
    package static func halved(_ length: Int) -> Int? {
        length > shortestPiece ? max(shortestPiece, (length + 1) / 2) : nil
    }
}

/// The longest run of days with at least one contribution, and the run that ends the span. Today does not
/// break the run while it has none yet: the day is not over.
package struct ContributionStreaks: Sendable, Equatable {
    package let longest: Int
    package let current: Int

    package init(longest: Int, current: Int) {
        self.longest = longest
        self.current = current
    }

    /// `days` in date order; days after `today` have not happened and count for nothing.
    package init(_ days: [ContributionDay], today: CalendarDay) {
        var past = days.filter { $0.date <= today }
        var longest = 0
        var run = 0
        var previous: CalendarDay?
        for day in past {
            let follows = previous.map { day.date.ordinal == $0.ordinal + 1 } ?? false
            run = day.count > 0 ? (follows ? run + 1 : 1) : 0
            longest = max(longest, run)
            previous = day.date
        }
        if let last = past.last, last.date == today, last.count == 0 { past.removeLast() }
        var current = 0
        var next: CalendarDay?
        for day in past.reversed() {
            guard day.count > 0, next.map({ day.date.ordinal + 1 == $0.ordinal }) ?? true else { break }
            current += 1
            next = day.date
        }
        self.init(longest: longest, current: current)
    }
}

/// One account's calendar over any span: asked in pieces of at most six months, one after another, a refused
/// piece halved (down to a month), and joined. Every day of the span must come exactly once.
package struct GetContributionsUseCase: Sendable {
    private let repository: any ContributionsRepository

    package init(repository: any ContributionsRepository) {
        self.repository = repository
    }

    package func execute(_ login: Login, span: ClosedRange<CalendarDay>) async throws(DomainError)
        -> ContributionCalendar
    {
        var total = 0
        var days: [ContributionDay] = []
        var pieces = 0
        var spelled: String?
        var length = ContributionSpan.daysPerPiece
        var start = span.lowerBound
        while start <= span.upperBound {
            let piece = start...min(span.upperBound, start.adding(days: length - 1))
            switch try await repository.contributions(of: login, in: piece) {
            case .calendar(let calendar):
                if let problem = calendar.problem(for: piece) {
                    throw .malformedResponse(
                        endpoint: "GraphQL contributionsCollection",
                        detail: "the calendar from \(piece.lowerBound) to \(piece.upperBound) is not whole: \(problem)")
                }
                let (sum, overflow) = total.addingReportingOverflow(calendar.total)
                total = overflow ? Int.max : sum
                days += calendar.days
                pieces += 1
                // GitHub's spelling of the same login, case aside; another login is no answer about this one.
                spelled = spelled ?? calendar.login.flatMap { $0.lowercased() == login.value.lowercased() ? $0 : nil }
                start = piece.upperBound.adding(days: 1)
            case .tooLong(let message):
                let asked = piece.upperBound.ordinal - piece.lowerBound.ordinal + 1
                guard let shorter = ContributionSpan.halved(asked) else {
                    throw .refused(
                        "GitHub refused the contributions of '\(login.value)' from \(piece.lowerBound) to "
                            + "\(piece.upperBound), even \(asked) days at a time: GraphQL: \(message)")
                }
                length = shorter
            }
        }
        return ContributionCalendar(total: total, days: days, pieces: pieces, login: spelled)
    }
}
