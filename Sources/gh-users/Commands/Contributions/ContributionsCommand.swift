import AtomicCore
import Domain
import Foundation

/// `gh-users contributions`: whose calendar, and the span the command line gave (the rest is decided when it
/// runs, from today's date).
struct ContributionsOptions: Sendable, Equatable {
    var login: Login
    var from: CalendarDay?
    var to: CalendarDay?

    /// `--from` and `--to` as given; a missing end, or one after today (UTC), is today: no day after it has
    /// happened. A missing start makes the span the 365 days up to the end. Nil when the start comes after the
    /// end.
    func span(today: CalendarDay) -> ClosedRange<CalendarDay>? {
        let end = min(to ?? today, today)
        let start = from ?? ContributionSpan.lastYear(until: end).lowerBound
        return start <= end ? start...end : nil
    }
}

/// What `contributions` found: the account, the span and its calendar.
struct ContributionsReport: Sendable, Equatable {
    let login: String
    let span: ClosedRange<CalendarDay>
    let calendar: ContributionCalendar
}

/// `gh-users contributions LOGIN`: an account's contribution calendar from GraphQL, drawn as GitHub draws it on
/// a terminal, or one record per day.
enum ContributionsCommand {
    static let from = day(
        OptionSpec("from", value: "DATE", help: "First day, YYYY-MM-DD (UTC).", default: "364 days before --to"),
        at: \.from)
    static let to = day(
        OptionSpec("to", value: "DATE", help: "Last day, YYYY-MM-DD (UTC).", default: "today"), at: \.to)
    /// The span's rules are checked once both ends are read.
    static let options = GroupDeclaration<ContributionsOptions>(
        title: "OPTIONS", options: [from, to],
        check: { options, _, spec throws(UsageError) in
            if let start = options.from, let end = options.to, start > end {
                throw UsageError(message: "--from \(start) comes after --to \(end)", command: spec)
            }
            // Each year is a request: a span reaching back before GitHub would spend them on empty years.
            if let start = options.from, start < gitHubBegan {
                throw UsageError(
                    message: "--from \(start) is before GitHub began (\(gitHubBegan)): no account has contributions "
                        + "before then",
                    command: spec)
            }
        }
    )

    static let declaration = Command(
        resource: ResourceDeclaration<ContributionsOptions, _>(
            fetch: { (options: ContributionsOptions, github: any GitHubReader, context: CommandContext) in
                let today = CalendarDay(secondsSince1970: context.render.now.timeIntervalSince1970)
                guard let span = options.span(today: today) else {
                    let end = min(options.to ?? today, today)
                    return [.failure(.invalidInput("--from \(options.from ?? end) comes after --to \(end)"))]
                }
                if let to = options.to, to > today {
                    context.io.writeErr("gh-users: --to \(to) is in the future: the calendar ends today, \(today).\n")
                }
                let result = await Result.of { () throws(DomainError) -> ContributionsReport in
                    let calendar = try await GetContributionsUseCase(repository: github).execute(
                        options.login, span: span)
                    return ContributionsReport(login: options.login.value, span: span, calendar: calendar)
                }
                if case .success(let report) = result, let note = unknownLevelsNote(report.calendar) {
                    context.io.writeErr(note)
                }
                return [result]
            },
            render: { (reports: [ContributionsReport], _: ContributionsOptions, context: RenderContext) in
                reports.first.map { ContributionsRenderer.render($0, context: context) } ?? []
            },
            tokenRequirement: { _ in
                TokenRequirement(
                    command: "contributions",
                    hint: "Hint: calendars come from GitHub's GraphQL API, which answers only with a token.\n")
            }
        ),
        spec: CommandSpec(
            name: "contributions",
            abstract: "Show an account's contribution calendar (GraphQL contributionsCollection).",
            usage: "gh-users contributions LOGIN [--from DATE] [--to DATE] [options]",
            discussion: """
                On a terminal (or with --format table) the calendar is drawn as GitHub draws it: a column per
                week, a row per weekday from Sunday, month names above, and GitHub's five levels in green, or as
                the glyphs · ░ ▒ ▓ █ when colour is off. As many of the latest weeks as the width holds are
                drawn, and a line says when earlier ones were left out. Under the map: the total, the longest
                streak and the current one (today does not break it while it has no contributions yet).

                The span defaults to the 365 days up to today (UTC); a --to after today is cut at today. Since
                July 2026 GitHub refuses a year's calendar of an account with a long history, so the span is
                asked in pieces of at most six months (182 days), one after another, and joined; a piece GitHub
                still refuses as too much work is halved, down to a month, and then its message is exit 1. --json gives
                {"login","from","to","total","days"} (with --fields, the days alone); ndjson, csv and tsv (the
                default when piped) give one record per day: date, count, level. It needs a token. An
                organization or a bot has no calendar (exit 1).
                """,
            arguments: [("LOGIN", "The account whose contributions to show.")],
            options: options.group.options,
            examples: [
                ("gh-users contributions octocat", "The last year, as a heatmap."),
                (
                    "gh-users contributions octocat --from 2020-01-01 --json | jq .total",
                    "Everything since 2020, asked a year at a time."
                ),
                (
                    "gh-users contributions octocat --format csv | awk -F, '$2 > 0' | wc -l",
                    "How many days had a contribution."
                ),
            ],
            fields: ["date", "count", "level"]
        ),
        parse: { parsed, spec throws(UsageError) in
            try options.parse(
                parsed, spec: spec, into: ContributionsOptions(login: try LoginArgument.single(parsed, spec: spec)))
        }
    )

    /// Days whose `contributionLevel` this version does not know are drawn at the nearest known level; records
    /// keep GitHub's word. Said once, naming the levels (sanitised: they are GitHub's text).
    static func unknownLevelsNote(_ calendar: ContributionCalendar) -> String? {
        let unknown = calendar.days.compactMap(\.unknownLevel)
        guard !unknown.isEmpty else { return nil }
        var names: [String] = []
        for name in unknown where !names.contains(name) { names.append(name) }
        let listed =
            names.prefix(3).map { "'" + TerminalSanitizer.sanitize(String($0.prefix(40))) + "'" }
            .joined(separator: ", ") + (names.count > 3 ? ", …" : "")
        let days = unknown.count == 1 ? "1 day" : "\(unknown.count) days"
        return "gh-users: GitHub gave \(days) a contributionLevel this gh-users does not know (\(listed)); "
            + "drawn at the nearest known level.\n"
    }

    /// The day of GitHub's first commit, October 2007: no calendar has a contribution before it.
    static let gitHubBegan = CalendarDay("2007-10-01")!

    /// A day written as YYYY-MM-DD, or the error that says what is wrong with it.
    private static func day(
        _ spec: OptionSpec, at path: WritableKeyPath<ContributionsOptions, CalendarDay?> & Sendable
    ) -> OptionDeclaration<ContributionsOptions> {
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
