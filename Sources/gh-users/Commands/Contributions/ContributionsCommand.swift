import AtomicCore
import Domain
import Foundation

/// `gh-users contributions`: whose calendar, and the span the command line gave (the rest is decided when it
/// runs, from today's date).
struct ContributionsOptions: Sendable, Equatable {
    var login: Login
    var from: CalendarDay?
    var to: CalendarDay?

    /// `--from` and `--to` as given (`DaySpan.resolve`). Nil when the start comes after the end.
    func span(today: CalendarDay) -> ClosedRange<CalendarDay>? {
        DaySpan.resolve(from: from, to: to, today: today)
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
    /// The span's rules are checked once both ends are read.
    static let options = GroupDeclaration<ContributionsOptions>(
        title: "OPTIONS", options: [DaySpan.from(at: \.from), DaySpan.to(at: \.to)])

    static let spec = CommandSpec(
        name: "contributions",
        abstract: "Show an account's contribution calendar (GraphQL contributionsCollection).",
        usage: "gh-users contributions LOGIN [--from DATE] [--to DATE] [options]",
        discussion: """
            On a terminal (or with --format table) the calendar is drawn as GitHub draws it: a column per
            week, a row per weekday from Sunday, month names above, and GitHub's five levels as the glyphs
            · ░ ▒ ▓ █, in green unless colour is off. GitHub's levels are quartiles over the days of one
            answer; a span asked in more than one piece (below) is drawn with one set of quartiles over the
            whole span instead: a day with no contributions is NONE, any other is quartile
            1+4×below/active, where active is the span's days with contributions and below how many of
            them have fewer than this day (integer division), so one count is always one level. The records
            keep GitHub's level. As many of the latest weeks as the width holds are
            drawn, and a line says when earlier ones were left out. Under the map: the total, the longest
            streak and the current one (today does not break it while it has no contributions yet).

            The span defaults to the 365 days up to today (UTC); a --to after today is cut at today. Since
            July 2026 GitHub refuses a year's calendar of an account with a long history, so the span is
            asked in pieces of at most six months (182 days), one after another, and joined; a piece GitHub
            still refuses as too much work, or that runs out of time, is halved, down to a month, and then
            its message is exit 1. --json gives
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
                "Everything since 2020, asked six months at a time."
            ),
            (
                "gh-users contributions octocat --format csv | awk -F, 'NR > 1 && $2 > 0' | wc -l",
                "How many days had a contribution."
            ),
        ],
        fields: ["date", "count", "level"]
    ).taking(.login).holdingOwnRecords()

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
        // A calendar joined from several answers draws every day by its count, so no level is guessed.
        let drawn = calendar.pieces > 1 ? "drawn by its count, as every day is" : "drawn at the nearest known level"
        return "gh-users: GitHub gave \(days) a contributionLevel this gh-users does not know (\(listed)); "
            + "\(drawn).\n"
    }
}

extension ContributionsOptions: GitHubCommand {
    static var spec: CommandSpec { ContributionsCommand.spec }

    /// The LOGIN, then `--from` and `--to`, checked together.
    init(_ parsed: ParsedArguments, spec: CommandSpec) throws(UsageError) {
        self.init(login: try parsed.login(spec))
        try ContributionsCommand.options.parse(parsed, spec: spec, into: &self)
    }

    /// Exit 4 without a token (calendars come from GraphQL); then the span, asked in pieces, and the calendar
    /// drawn or written as records.
    func run(_ context: CommandContext, _ github: GitHubReader) async -> CommandOutcome {
        guard context.presenter.hasToken else {
            return TokenRequirement(
                command: "contributions",
                hint: "Hint: calendars come from GitHub's GraphQL API, which answers only with a token.\n"
            ).refuse(context)
        }
        let result = await Result.of { () throws(DomainError) -> ContributionsReport in
            let span = try DaySpan.resolve(from: from, to: to, context: context, ending: "the calendar")
            let calendar = try await GetContributionsUseCase(repository: github).execute(login, span: span)
            return ContributionsReport(login: calendar.login ?? login.value, span: span, calendar: calendar)
        }
        if case .success(let report) = result, let note = ContributionsCommand.unknownLevelsNote(report.calendar) {
            context.io.writeErr(note)
        }
        let load = ResourceLoad([result])
        return load.write(
            load.values.first.map { ContributionsRenderer.render($0, context: context.render) } ?? [], to: context)
    }
}

extension ContributionsOptions: CheckedOptions {
    func check(_ parsed: ParsedArguments, spec: CommandSpec) throws(UsageError) {
        try DaySpan.check(from: from, to: to, nothing: "no account has contributions", spec: spec)
    }
}
