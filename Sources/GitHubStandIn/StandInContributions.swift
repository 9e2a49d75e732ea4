/// A user's contribution calendar, from the account alone, so a day has the same count in every span asked.
/// Levels are GitHub's quartiles of the span's non-zero days.
struct StandInContributions {
    struct Day {
        let midnight: Int
        let count: Int
        let level: String
        var date: String { String(UTCTimestamp.iso8601(midnight).prefix(10)) }
    }

    let days: [Day]

    var total: Int { days.reduce(0) { $0 + $1.count } }

    /// Refused, in GitHub's words since July 2026, where a calendar is too much work: a window over six months (the
    /// longest GitHub still makes, muesli/markscribe #103) of an account with a long history (github-profile-3d-contrib
    /// issue #163, 2026-07-19), which an account that contributes most days stands for here.
    init(user: StandInUser, from: Int, to: Int, now: Int) throws(StandInGraphQLFieldError) {
        guard user.ordinal % 4 != 3 || to - from <= 184 * 86_400 else {
            throw StandInGraphQLFieldError(
                type: "RESOURCE_LIMITS_EXCEEDED", message: "Resource limits for this query exceeded.")
        }
        let first = from - Self.floorModulo(from, 86_400)
        let created = user.createdAt - Self.floorModulo(user.createdAt, 86_400)
        // Some accounts contribute most days (ordinal % 4 == 3: the long histories), some now and then.
        let activity = [20, 45, 70, 90][user.ordinal % 4]
        let counts = Swift.stride(from: first, through: to, by: 86_400).map { midnight in
            let seed = user.id &* 100_003 &+ midnight / 86_400
            guard midnight >= created, midnight <= now, Self.random(seed, 1) % 100 < activity else {
                return (midnight, 0)
            }
            return (midnight, 1 + Int(Self.random(seed, 2) % UInt64(3 + user.ordinal % 12)))
        }
        let active = counts.map(\.1).filter { $0 > 0 }.sorted()
        func quartile(_ share: Int) -> Int { active.isEmpty ? 0 : active[(active.count - 1) * share / 4] }
        let bounds = [quartile(1), quartile(2), quartile(3)]
        let levels = ["NONE", "FIRST_QUARTILE", "SECOND_QUARTILE", "THIRD_QUARTILE", "FOURTH_QUARTILE"]
        days = counts.map { midnight, count in
            // A day's quartile is one more than the number of bounds below its count.
            let level = count == 0 ? 0 : 1 + bounds.filter { count > $0 }.count
            return Day(midnight: midnight, count: count, level: levels[level])
        }
    }

    /// The days in weeks from a Sunday, as GitHub's calendar gives them; the first and last may be short.
    var weeks: [[Day]] {
        // 1970-01-01 was a Thursday, so a Sunday's day number is 3 more than a multiple of 7.
        days.reduce(into: []) { weeks, day in
            if weeks.isEmpty || Self.floorModulo(day.midnight / 86_400, 7) == 3 { weeks.append([]) }
            weeks[weeks.count - 1].append(day)
        }
    }

    /// SplitMix64's finaliser.
    private static func random(_ seed: Int, _ step: UInt64) -> UInt64 {
        var z = (UInt64(truncatingIfNeeded: seed) ^ 0xC0_471B) &+ step &* 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    private static func floorModulo(_ value: Int, _ divisor: Int) -> Int {
        ((value % divisor) + divisor) % divisor
    }
}
