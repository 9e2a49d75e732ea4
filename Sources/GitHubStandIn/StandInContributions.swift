/// A user's contribution calendar, made up from the account alone so every request agrees with every other:
/// the same day always has the same count, whatever span it is asked in. Days before the account was created,
/// and days after now, have none. Levels are GitHub's quartiles of the span's non-zero days, so, as on
/// GitHub, the same count may shade differently in two spans.
struct StandInContributions {
    struct Day {
        /// Unix seconds of the day's midnight, UTC.
        let midnight: Int
        let count: Int
        let level: String
    }

    /// GitHub's words, since July 2026, for a calendar too much work to make: a window over six months of an
    /// account with a long history (github-profile-3d-contrib issue #163, 2026-07-19).
    static let resourceLimitsExceeded = "Resource limits for this query exceeded."

    /// The longest window GitHub still makes for such an account: six months (muesli/markscribe #103).
    static let longestBusyWindow = 184 * 86_400

    /// Whether GitHub refuses the window with `RESOURCE_LIMITS_EXCEEDED`: here, a window over six months of an
    /// account that contributes most days (every fourth ordinal), standing for GitHub's long histories.
    static func exceedsResourceLimits(user: StandInUser, from: Int, to: Int) -> Bool {
        user.ordinal % 4 == 3 && to - from > longestBusyWindow
    }

    /// GitHub's words when `to` is more than a year after `from`.
    static let spanTooLong = "The total time spanned by 'from' and 'to' must not exceed 1 year"

    let days: [Day]

    var total: Int { days.reduce(0) { $0 + $1.count } }

    /// The days from `from`'s through `to`'s, both Unix seconds.
    init(user: StandInUser, from: Int, to: Int, now: Int) {
        let first = from - Self.floorModulo(from, 86_400)
        let created = user.createdAt - Self.floorModulo(user.createdAt, 86_400)
        // Some accounts contribute most days (ordinal % 4 == 3: the long histories), some now and then.
        let activity = [20, 45, 70, 90][user.ordinal % 4]
        var counts: [(Int, Int)] = []
        var midnight = first
        while midnight <= to {
            var count = 0
            if midnight >= created, midnight <= now {
                var random = StandInSeededBytes(seed: user.id &* 100_003 &+ midnight / 86_400, salt: 0xC0_471B)
                if random.next(below: 100) < activity { count = 1 + random.next(below: 3 + user.ordinal % 12) }
            }
            counts.append((midnight, count))
            midnight += 86_400
        }
        let active = counts.map(\.1).filter { $0 > 0 }.sorted()
        func quartile(_ share: Int) -> Int { active.isEmpty ? 0 : active[(active.count - 1) * share / 4] }
        let bounds = [quartile(1), quartile(2), quartile(3)]
        days = counts.map { midnight, count in
            let level: String
            switch count {
            case 0: level = "NONE"
            case ...bounds[0]: level = "FIRST_QUARTILE"
            case ...bounds[1]: level = "SECOND_QUARTILE"
            case ...bounds[2]: level = "THIRD_QUARTILE"
            default: level = "FOURTH_QUARTILE"
            }
            return Day(midnight: midnight, count: count, level: level)
        }
    }

    /// The days in GitHub's weeks: each from a Sunday, the first and last cut to the span.
    var weeks: [[Day]] {
        var weeks: [[Day]] = []
        for day in days {
            if weeks.isEmpty || UTCTimestamp.fields(of: day.midnight).weekday == 0 { weeks.append([]) }
            weeks[weeks.count - 1].append(day)
        }
        return weeks
    }

    /// GitHub's words for `from` or `to` that is no DateTime, or a span longer than a year (taken as 365.2425
    /// days); nil when the arguments will do.
    static func argumentProblem(_ arguments: [String: StandInGraphQLDocument.Value]) -> String? {
        for name in ["from", "to"] {
            guard let value = arguments[name] else { continue }
            guard case .string(let text) = value, UTCTimestamp.epochSeconds(iso8601: text) != nil else {
                return "Argument '\(name)' on Field 'contributionsCollection' has an invalid value. Expected type "
                    + "'DateTime'."
            }
        }
        if case .string(let from) = arguments["from"], case .string(let to) = arguments["to"],
            let start = UTCTimestamp.epochSeconds(iso8601: from), let end = UTCTimestamp.epochSeconds(iso8601: to),
            end - start > 31_556_952
        {
            return spanTooLong
        }
        return nil
    }

    /// The span asked for, in Unix seconds: `to` defaults to now, `from` to a year before `to`.
    static func span(_ arguments: [String: StandInGraphQLDocument.Value], now: Int) -> (from: Int, to: Int) {
        func seconds(_ name: String) -> Int? {
            guard case .string(let text) = arguments[name] else { return nil }
            return UTCTimestamp.epochSeconds(iso8601: text)
        }
        let to = seconds("to") ?? now
        return (seconds("from") ?? to - 31_536_000, to)
    }

    private static func floorModulo(_ value: Int, _ divisor: Int) -> Int {
        ((value % divisor) + divisor) % divisor
    }
}
