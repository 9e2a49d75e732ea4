import Domain

/// `--from DATE` and `--to DATE` as `contributions` and `star-history` take them: days in UTC, written
/// YYYY-MM-DD; the span defaults to the 365 days up to today, and a --to after today is cut at today.
enum DaySpan {
    /// The day of GitHub's first commit, October 2007: no calendar has a contribution before it, and no
    /// repository a star.
    static let gitHubBegan = CalendarDay("2007-10-01")!

    static func from<Options: Sendable>(at path: WritableKeyPath<Options, CalendarDay?> & Sendable)
        -> OptionDeclaration<Options>
    {
        day(
            OptionSpec(
                "from", value: "DATE", help: "First day, YYYY-MM-DD (UTC).",
                default: "364 days before --to, from 2007-10-01"),
            at: path)
    }

    static func to<Options: Sendable>(at path: WritableKeyPath<Options, CalendarDay?> & Sendable)
        -> OptionDeclaration<Options>
    {
        day(OptionSpec("to", value: "DATE", help: "Last day, YYYY-MM-DD (UTC).", default: "today"), at: path)
    }

    /// The rules of the two ends, once both are read: the start not after the end, neither before GitHub began
    /// (`nothing` says what there is none of before then: "no account has contributions").
    static func check(from: CalendarDay?, to: CalendarDay?, nothing: String, spec: CommandSpec) throws(UsageError) {
        if let start = from, let end = to, start > end {
            throw UsageError(message: "--from \(start) comes after --to \(end)", command: spec)
        }
        // Each page or year asked is a request: a span reaching back before GitHub would spend them for nothing.
        // `--to` alone too: the default start, a year before it, is earlier still.
        for (name, day) in [("from", from), ("to", to)] {
            guard let day, day < gitHubBegan else { continue }
            throw UsageError(
                message: "--\(name) \(day) is before GitHub began (\(gitHubBegan)): \(nothing) before then",
                command: spec)
        }
    }

    /// `--from` and `--to` as given; a missing end, or one after today (UTC), is today: no day after it has
    /// happened. A missing start makes the span the 365 days up to the end, from the day GitHub began at the
    /// earliest, as a start given earlier is refused. Nil when the start comes after the end.
    static func resolve(from: CalendarDay?, to: CalendarDay?, today: CalendarDay) -> ClosedRange<CalendarDay>? {
        let end = min(to ?? today, today)
        let start = from ?? max(ContributionSpan.lastYear(until: end).lowerBound, gitHubBegan)
        return start <= end ? start...end : nil
    }

    /// The span at run time, from the run's today: a --to after today is cut there, and said on stderr (what
    /// `ending` names "ends today"); a --from after today is an error.
    static func resolve(
        from: CalendarDay?, to: CalendarDay?, context: CommandContext, ending: String
    ) throws(DomainError) -> ClosedRange<CalendarDay> {
        let today = CalendarDay(secondsSince1970: context.render.now.timeIntervalSince1970)
        guard let span = resolve(from: from, to: to, today: today) else {
            let end = min(to ?? today, today)
            // A start after today is said as such: the end it comes after is today, not a --to given.
            if let from, from > today {
                throw .invalidInput("--from \(from) is in the future: today is \(today) (UTC)")
            }
            // No option is wrong: the span from GitHub's first day cannot end before it.
            if today < gitHubBegan {
                throw .invalidInput(
                    "this machine's clock says today is \(today) (UTC), before GitHub began (\(gitHubBegan)): "
                        + "set the clock right and run it again")
            }
            throw .invalidInput("--from \(from ?? end) comes after --to \(end)")
        }
        if let to, to > today {
            context.io.writeErr("gh-users: --to \(to) is in the future: \(ending) ends today, \(today) (UTC).\n")
        }
        return span
    }

    /// A day written as YYYY-MM-DD, or the error that says what is wrong with it.
    private static func day<Options: Sendable>(
        _ spec: OptionSpec, at path: WritableKeyPath<Options, CalendarDay?> & Sendable
    ) -> OptionDeclaration<Options> {
        .optional(
            spec, at: path,
            parse: { reading throws(UsageError) in
                guard let day = CalendarDay(reading.text) else {
                    let problem = missingDay(reading.text) ?? "a date as YYYY-MM-DD, such as 2025-01-31"
                    throw reading.usageError("invalid value '\(reading.text)' for '--\(spec.name)': \(problem)")
                }
                return day
            },
            write: \.description)
    }

    /// What is wrong with a date written as YYYY-MM-DD that names no day ("2026-02 has no day 30: it has 28
    /// days"); nil when the text is not of that form.
    static func missingDay(_ text: String) -> String? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3,
            zip(parts, [4, 2, 2]).allSatisfy({ $0.count == $1 && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
            let year = Int(parts[0]), let month = Int(parts[1])
        else { return nil }
        guard (1...12).contains(month) else { return "there is no month \(parts[1]): months are 01 to 12" }
        guard year >= 1 else { return "the year is 0001 to 9999" }
        let length = (28...31).last { CalendarDay(year: year, month: month, day: $0) != nil } ?? 31
        return "\(parts[0])-\(parts[1]) has no day \(parts[2]): it has \(length) days"
    }
}
