import Domain
import Foundation
import TestSupport
import Testing

@testable import gh_users

/// `contributions LOGIN` through GraphQL: the `--json` envelope and a record per day, the refusals made before
/// anything is sent, an unknown login, an organization and a bot told apart, and a spent GraphQL limit. The
/// heatmap at a terminal's width and a span asked in pieces are `ContributionsEndToEndTests`'.
struct ContributionsCommandTests {
    private static let calendar = StubbedAnswer("POST /graphql", status: 200, body: "graphql-contributions-calendar")
    private static let notFound = StubbedAnswer(
        "POST /graphql", status: 200, body: "graphql-repository-owner-not-found")
    /// GitHub's answer for a login nobody has: the owner null, and no error (see `Bodies/NOTICE.md`).
    private static let nullOwner = StubbedAnswer("POST /graphql", status: 200, body: "graphql-repository-owner-null")

    @Test func jsonIsTheEnvelopeAndPipedOutputIsOneRecordPerDay() async throws {
        let days = ["--from", "2023-11-26", "--to", "2023-11-28"]
        let harness = CommandHarness.signedIn()
        harness.expect(Self.calendar.request, body: Self.calendar.body)
        let json = await harness.run(["contributions", "octocat", "--json"] + days)
        #expect(json.status == 0, "\(json.err)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
        #expect(Set(object.keys) == ["login", "from", "to", "total", "days"])
        #expect(object["login"] as? String == "octocat")
        #expect(object["from"] as? String == "2023-11-26" && object["to"] as? String == "2023-11-28")
        #expect(object["total"] as? Int == 5)
        let records = try #require(object["days"] as? [[String: Any]])
        #expect(records.map { Set($0.keys) } == Array(repeating: ["date", "count", "level"], count: 3))
        harness.expect(Self.calendar.request, body: Self.calendar.body)
        let piped = await harness.run(["contributions", "octocat"] + days)
        #expect(piped.out == "2023-11-26\t0\tNONE\n2023-11-27\t1\tFIRST_QUARTILE\n2023-11-28\t4\tFOURTH_QUARTILE\n")
        #expect(piped.err.isEmpty)
    }

    @Test(arguments: [
        AnsweredCase("contributions octocat", token: false, status: 4, err: "contributions needs a token"),
        AnsweredCase("contributions octocat --from 2025-02-29", status: 64, err: "2025-02 has no day 29"),
        AnsweredCase("contributions octocat --to yesterday", status: 64, err: "a date as YYYY-MM-DD"),
        AnsweredCase(
            "contributions octocat --from 2025-02-01 --to 2025-01-01", status: 64,
            err: "--from 2025-02-01 comes after --to 2025-01-01"),
        AnsweredCase(
            "contributions octocat --from 2999-01-01", status: 64, err: "is in the future: today is 2027-01-15"),
        AnsweredCase(
            "contributions no-such-account",
            answers: [notFound, StubbedAnswer("GET /users/no-such-account", status: 404, body: "error-404")],
            status: 3, err: "no user 'no-such-account'"),
        // Issue 26, item 3: GitHub's own answer, no error. Before: "no data and no errors", exit 1.
        AnsweredCase(
            "contributions no-such-account",
            answers: [nullOwner, StubbedAnswer("GET /users/no-such-account", status: 404, body: "error-404")],
            status: 3, err: "no user 'no-such-account'"),
        // A redirected query is refused in words; followed, it went without its body and the 400 misled.
        AnsweredCase(
            "contributions octocat", answers: [StubbedAnswer("POST /graphql", status: 307, body: "empty-list")],
            status: 1, err: "the POST was redirected; a GraphQL query is sent only where it was asked"),
        // A 304 is no redirect (before: "the POST was redirected", with no Location; helper-291).
        AnsweredCase(
            "contributions octocat", answers: [StubbedAnswer("POST /graphql", status: 304, body: "empty-list")],
            status: 1, err: "GitHub answered HTTP 304: unexpected status"),
        AnsweredCase(
            "contributions github",
            answers: [StubbedAnswer("POST /graphql", status: 200, body: "graphql-repository-owner-organization")],
            status: 1, err: "'github' is an organization"),
        AnsweredCase(
            "contributions shipit[bot]",
            answers: [
                notFound, StubbedAnswer("GET /users/shipit%5Bbot%5D", status: 200, body: "users-get-by-username-bot"),
            ],
            status: 1, err: "is a Bot account, not a user"),
    ])
    func noCalendarIsAStatusAndAMessage(_ example: AnsweredCase) async {
        await example.run()
    }

    /// The first piece meets GitHub's spent GraphQL limit.
    /// A `--from` after today says so: it said it "comes after --to" today's date, a --to never given.
    @Test func aStartInTheFutureIsSaidAsSuch() async {
        let harness = CommandHarness.signedIn()
        let run = await harness.run(["contributions", "octocat", "--from", "2099-01-01", "--to", "2099-02-01"])
        #expect(run.status == 64)
        #expect(run.err.contains("--from 2099-01-01 is in the future: today is 2027-01-15 (UTC)"), "\(run.err)")
        #expect(harness.http.received.isEmpty)
    }

    /// helper-268: on a clock before October 2007, with no --from or --to given, the default span said
    /// "--from 2007-10-01 comes after --to 1970-01-01"; it names the clock.
    @Test(arguments: [["contributions", "octocat"], ["star-history", "octocat/Hello-World"]])
    func aClockBeforeGitHubBeganIsNamedNotAnOption(_ arguments: [String]) async {
        var harness = CommandHarness.signedIn()
        harness.clock = Date(timeIntervalSince1970: 0)
        let run = await harness.run(arguments)
        #expect(run.status == 64)
        #expect(
            run.err.contains(
                "this machine's clock says today is 1970-01-01 (UTC), before GitHub began (2007-10-01)"),
            "\(run.err)")
        #expect(!run.err.contains("--from"), "\(run.err)")
        #expect(harness.http.received.isEmpty)
    }

    @Test func aSpentGraphQLLimitIsExitFiveWithTheWaitHint() async {
        let harness = CommandHarness.signedIn()
        harness.expect(
            "POST /graphql", headers: [("x-ratelimit-reset", "1800000600"), ("x-ratelimit-resource", "graphql")],
            body: "graphql-rate-limit")
        let run = await harness.run([
            "contributions", "octocat", "--from", "2023-11-26", "--to", "2025-11-24", "--json",
        ])
        #expect(run.status == 5, "\(run.err)")
        #expect(run.err.contains("GraphQL: API rate limit"), "\(run.err)")
        #expect(run.err.contains("--wait-on-rate-limit"))
        #expect(run.out.isEmpty)
    }

    /// Issue 26, item 3: a --to after today (the harness's clock: 2027-01-15) is cut at today, said once; before,
    /// `--to 9999-12-31` asked GitHub about 8,000 pieces of days that have not happened.
    @Test func aToInTheFutureIsCutAtToday() async throws {
        let harness = CommandHarness.signedIn()
        let run = await harness.run([
            "contributions", "octocat", "--from", "2027-01-16", "--to", "9999-12-31", "--json",
        ])
        #expect(run.status == 64, "\(run.err)")
        #expect(run.err.contains("--from 2027-01-16 is in the future: today is 2027-01-15 (UTC)"), "\(run.err)")
        let options = ContributionsOptions(login: try Login(validating: "octocat"), to: CalendarDay("9999-12-31"))
        #expect(
            options.span(today: CalendarDay("2027-01-15")!) == CalendarDay("2026-01-16")!...CalendarDay("2027-01-15")!)
    }

    /// Issue 26, item 3: a level this version does not know is drawn at the nearest known one with a note, and
    /// records keep GitHub's word (before: the whole command failed, exit 1).
    @Test func anUnknownLevelIsANoteNotAFailure() async throws {
        let harness = CommandHarness.signedIn()
        let body = String(decoding: Bodies.named("graphql-contributions-calendar"), as: UTF8.self)
            .replacingOccurrences(of: "FOURTH_QUARTILE", with: #"FIFTH_QUARTILE\u001b]52;c;x\u0007"#)
        harness.http.register(RequestMatcher("POST /graphql"), status: 200, headers: [], body: Data(body.utf8))
        let run = await harness.run(["contributions", "octocat", "--from", "2023-11-26", "--to", "2023-11-28"])
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out.hasPrefix("2023-11-26\t0\tNONE\n2023-11-27\t1\tFIRST_QUARTILE\n2023-11-28\t4\tFIFTH_QUARTILE"))
        #expect(run.err.contains("GitHub gave 1 day a contributionLevel this gh-users does not know"), "\(run.err)")
        #expect(!run.err.contains("\u{1B}"), "\(run.err)")
    }
}
