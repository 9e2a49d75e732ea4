import Data
import Domain

/// `gh-users star-history`: whose stars, over which days, and by day or by week (the rest is decided when it
/// runs, from today's date).
struct StarHistoryOptions: Sendable, Equatable {
    enum Grouping: String, Sendable, CaseIterable {
        case day, week
    }

    var repository: RepositoryName
    var from: CalendarDay?
    var to: CalendarDay?
    /// Nil is by day.
    var by: Grouping?
}

/// What `star-history` found: the repository, the span, today's count and a point a day or a week.
struct StarHistoryReport: Sendable, Equatable {
    let repository: RepositoryName
    let span: ClosedRange<CalendarDay>
    let grouping: StarHistoryOptions.Grouping
    let count: Int
    /// Oldest first.
    let points: [StarPoint]
    /// Whether a total counted back went below 0, and is 0 instead: the history counts stars given, and more were
    /// given since than the repository has now (the others were taken back, or came between the two requests).
    var floored = false

    var gained: Int { points.reduce(0) { $0 + $1.gained } }
}

/// `gh-users star-history OWNER/REPO`: the stars a public repository gained a day or a week
/// (`GET /repos/{owner}/{repo}/stargazers/history`, September 2026 on), with the running total counted back
/// from today's count (`/stargazers/count`); drawn as a chart on a terminal, else one record per day or week.
enum StarHistoryCommand {
    /// GitHub serves at most 30 weeks a page.
    static let weeksAPage = 30

    static let options = GroupDeclaration<StarHistoryOptions>(
        title: "OPTIONS",
        options: [
            DaySpan.from(at: \.from), DaySpan.to(at: \.to),
            .choice(
                OptionSpec(
                    "by", value: "UNIT", help: "One record a day, or a week (from its Sunday; the first from --from).",
                    default: "day",
                    choices: StarHistoryOptions.Grouping.allCases.map(\.rawValue)),
                at: \.by),
        ]
    )

    static let spec = CommandSpec(
        name: "star-history",
        abstract: "Show the stars a repository gained a day or a week (\(Endpoint.starHistory)).",
        usage: "gh-users star-history OWNER/REPO [--from DATE] [--to DATE] [--by day|week] [options]",
        discussion: """
            Asks how many stars the repository has now (\(Endpoint.starCount)), then GitHub's star history,
            newest week first, back to --from and no further. Since September 2026 GitHub gives it for any
            public repository, with or without a token, while it lists who starred (stargazers) only to a
            repository's admins and collaborators.

            The total at the end of each day is counted back from today's count: today's count less the
            stars gained since. GitHub does not document whether its history still counts a star that was
            taken back; if it does, a day's total is lower than the count was that day by the stars taken
            back since.

            The span defaults to the 365 days up to today (UTC); a --to after today is cut at today. On a
            terminal (or with --format table) a line says the count now and the stars gained in the span,
            and a chart of the running total fits the width: as many days or weeks as it holds, else runs
            of them, each drawn at the total it ended with. --json gives
            {"repository","from","to","by","count","gained","history"} (with --fields, the history alone);
            ndjson, csv and tsv (the default when piped) give one record per day or week: date (the day, or
            the week's Sunday, or --from in the week it starts), stars (gained in it), total (at its end). A repository that does not exist
            is exit 3.
            """,
        arguments: [("OWNER/REPO", "The repository, such as octocat/Hello-World.")],
        options: options.group.options,
        examples: [
            ("gh-users star-history octocat/Hello-World", "The last year's stars, as a chart."),
            (
                "gh-users star-history octocat/Hello-World --from 2020-01-01 --by week --format csv",
                "Every week since 2020, with its running total."
            ),
            (
                "gh-users star-history octocat/Hello-World --json | jq .gained",
                "How many stars the last year brought."
            ),
        ],
        fields: ["date", "stars", "total"]
    ).taking(.repository).holdingOwnRecords()

    /// Today's count, then the history's pages, newest first, until one reaches back to the span's first day,
    /// the pages end, or GitHub's 100 pages are read.
    static func load(_ options: StarHistoryOptions, span: ClosedRange<CalendarDay>, _ github: GitHubReader)
        async throws(DomainError) -> StarHistoryReport
    {
        let count: Int
        // The count and the history came to github.com in September 2026: a server without them answers 404,
        // which is no missing repository when the repository answers (a server with the count alone, too).
        let repository = GitHubEndpoints.repository(.repository(options.repository))
        do {
            count = try await github.fetch(GitHubEndpoints.starCount(of: options.repository))
        } catch {
            throw await github.unservedAnswer(
                to: error, of: repository, asked: "GET /repos/{owner}/{repo}/stargazers/count")
        }
        // The run's first answer: a copy taken so far is the count's.
        var ages = AnswerAges()
        ages.note(github.unconfirmedCopy)
        let list = GitHubEndpoints.starHistory(of: options.repository)
        var page: Page<StarWeek>
        do {
            page = try await github.firstPage(list, perPage: weeksAPage)
        } catch {
            throw await github.unservedAnswer(
                to: error, of: repository, asked: "GET /repos/{owner}/{repo}/stargazers/history")
        }
        var weeks = page.items
        ages.note(page.cachedCopy)
        let pages = (Endpoint.starHistory.itemCap ?? weeksAPage) / weeksAPage
        // Newest first: paged until a week at or before the span's first day, or the end. A link back to a page
        // read is refused, as a list's is; an empty page that links on is followed; and a history that ends at
        // GitHub's page cap before the span's first day is refused, since every total before it would be made up.
        var visited = URLDigests()
        var oldest = page.items.map(\.start).min()
        var read = 1
        while let next = page.next, oldest.map({ $0 > span.lowerBound }) ?? true {
            guard read < pages else {
                throw .refused(
                    "GitHub's star history of \(options.repository) ended after \(pages) pages, GitHub's most, "
                        + (oldest.map { "at the week of \($0)" } ?? "with no week") + ", before \(span.lowerBound): "
                        + "the totals before it cannot be told; ask for a later --from")
            }
            guard visited.insert(next.url) else { throw PagedListViewModel<User>.linkCycle(next: next) }
            page = try await github.page(list, at: next)
            read += 1
            ages.note(page.cachedCopy)
            weeks += page.items
            if let first = page.items.map(\.start).min() { oldest = min(oldest ?? first, first) }
        }
        // Totals count back from the count: answers of two ages (one the cache gave while the network was down,
        // beside others GitHub gave now) would make them up. Answers all from the cache are the history as GitHub
        // last gave it, as under --offline (helper-317: the same copies were refused, and taken under --offline).
        if let copy = ages.twoAges {
            throw .refused(
                copy.said + ", and other answers by GitHub now, so the history was not worked out: its totals count "
                    + "back from the star count, and answers of two ages would make them up. Run it again once GitHub "
                    + "can be reached.")
        }
        let history = StarHistory(count: count, weeks: weeks)
        let grouping = options.by ?? .day
        let points = grouping == .week ? history.weeks(in: span) : history.days(in: span)
        return StarHistoryReport(
            repository: options.repository, span: span, grouping: grouping, count: count,
            points: points.map { StarPoint(start: $0.start, gained: $0.gained, total: max(0, $0.total)) },
            floored: points.contains { $0.total < 0 })
    }
}

extension StarHistoryOptions: GitHubCommand {
    static var spec: CommandSpec { StarHistoryCommand.spec }

    /// OWNER/REPO, then `--from`, `--to` and `--by`.
    init(_ parsed: ParsedArguments, spec: CommandSpec) throws(UsageError) {
        self.init(repository: try parsed.repository(spec))
        try StarHistoryCommand.options.parse(parsed, spec: spec, into: &self)
    }

    /// The span, today's count and the history back to its first day, drawn as a chart or written as records.
    func run(_ context: CommandContext, _ github: GitHubReader) async -> CommandOutcome {
        let report = await Result.of { () throws(DomainError) in
            let span = try DaySpan.resolve(from: from, to: to, context: context, ending: "the history")
            return try await StarHistoryCommand.load(self, span: span, github)
        }
        if case .success(let report) = report, report.floored {
            context.io.writeErr(
                "gh-users: note: GitHub's history counts more stars given since \(report.span.lowerBound) than the "
                    + "\(report.count) the repository has now (stars taken back that it still counts, or stars "
                    + "given between the two answers), so a total that would be below 0 is 0\n")
        }
        let load = ResourceLoad([report])
        return load.write(
            load.values.first.map { StarHistoryRenderer.render($0, context: context.render) } ?? [], to: context)
    }
}

extension StarHistoryOptions: CheckedOptions {
    /// The span's rules are checked once both ends are read.
    func check(_ parsed: ParsedArguments, spec: CommandSpec) throws(UsageError) {
        try DaySpan.check(from: from, to: to, nothing: "no repository has stars", spec: spec)
    }
}
