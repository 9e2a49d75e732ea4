import Domain
import Foundation
import Networking
import TestSupport
import Testing

@testable import gh_users

/// `star-history OWNER/REPO` against GitHub's documented answers (`Bodies/activity-get-stargazer-count-for-repo`,
/// `{"count": 42}`, and `…-history-for-repo`, the week of Sunday 2025-08-10 with 12 stars on Monday and 7 on
/// Tuesday): the requests, newest page first and no page past --from; the envelope, the records by day and by
/// week with their running totals; the refusals made before anything is sent, and a repository that does not
/// exist. The chart at a terminal's width is `StarHistoryEndToEndTests`'.
struct StarHistoryCommandTests {
    private static let repository = "/repos/octocat/Hello-World/stargazers"
    /// What the command sends, one request per operation, for the test that every operation has a command row.
    static let requests: [(endpoint: Endpoint, request: String)] = [
        (.starCount, "GET \(repository)/count"),
        (.starHistory, "GET \(repository)/history?per_page=30"),
    ]
    static var endpoints: [Endpoint] { requests.map(\.endpoint) }
    private static let secondPage = "https://api.github.com\(repository)/history?per_page=30&page=2"

    /// A harness answering the count and the first page with GitHub's documented bodies, the page pointing at a
    /// second one when `next` is set.
    private func harness(next: Bool = false) -> CommandHarness {
        let harness = CommandHarness()
        harness.expect(Self.requests[0].request, body: "activity-get-stargazer-count-for-repo")
        harness.expect(
            Self.requests[1].request, headers: next ? [("Link", "<\(Self.secondPage)>; rel=\"next\"")] : [],
            body: "activity-get-stargazer-history-for-repo")
        return harness
    }

    /// The documented week moved a week back, to Sunday 2025-08-03: the page after the documented one.
    private func weekBefore() -> Data {
        let documented = String(decoding: Bodies.named("activity-get-stargazer-history-for-repo"), as: UTF8.self)
        return Data(documented.replacingOccurrences(of: "1754784000", with: "1754179200").utf8)
    }

    @Test func everyRequestIsItsEndpointsMethodAndPath() {
        for (endpoint, request) in Self.requests {
            let matcher = RequestMatcher(request)
            #expect(matcher.method.rawValue == endpoint.method.rawValue)
            #expect(matcher.path == endpoint.path("octocat", "Hello-World"), "\(request) is not \(endpoint)")
        }
    }

    @Test func jsonIsTheEnvelopeWithTheTotalCountedBackFromTodaysCount() async throws {
        let run = await harness().run([
            "star-history", "octocat/Hello-World", "--from", "2025-08-09", "--to", "2025-08-13", "--json",
        ])
        #expect(run.status == 0, "\(run.err)")
        #expect(run.err.isEmpty)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any])
        #expect(Set(object.keys) == ["repository", "from", "to", "by", "count", "gained", "history"])
        #expect(object["repository"] as? String == "octocat/Hello-World" && object["by"] as? String == "day")
        #expect(object["from"] as? String == "2025-08-09" && object["to"] as? String == "2025-08-13")
        #expect(object["count"] as? Int == 42 && object["gained"] as? Int == 19)
        let history = try #require(object["history"] as? [[String: Any]])
        #expect(
            history.map { $0["date"] as? String } == [
                "2025-08-09", "2025-08-10", "2025-08-11", "2025-08-12", "2025-08-13",
            ])
        #expect(history.map { $0["stars"] as? Int } == [0, 0, 12, 7, 0])
        #expect(history.map { $0["total"] as? Int } == [23, 23, 35, 42, 42])
    }

    /// A count below the stars the history says were given since (stars taken back are not in the history, or a
    /// star came between the two requests): a total counted back never goes below 0, and a note says why
    /// (before: totals of -4, and a chart's axis from -4).
    @Test func aTotalThatWouldGoBelowZeroIsZeroWithANote() async throws {
        let harness = CommandHarness()
        harness.http.register(
            RequestMatcher(Self.requests[0].request), status: 200, headers: [], body: Data(#"{"count":15}"#.utf8))
        harness.expect(Self.requests[1].request, body: "activity-get-stargazer-history-for-repo")
        let run = await harness.run([
            "star-history", "octocat/Hello-World", "--from", "2025-08-10", "--to", "2025-08-12", "--format", "tsv",
        ])
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out == "2025-08-10\t0\t0\n2025-08-11\t12\t8\n2025-08-12\t7\t15\n")
        #expect(
            run.err
                == "gh-users: note: GitHub's history counts more stars given since 2025-08-10 than the 15 the "
                + "repository has now (stars taken back that it still counts, or stars given between the two "
                + "answers), so a total that would be below 0 is 0\n")
    }

    @Test func pipedIsARecordADayOrAWeekFromItsSunday() async {
        let span = ["--from", "2025-08-09", "--to", "2025-08-16"]
        let days = await harness().run(["star-history", "octocat/Hello-World"] + span)
        #expect(days.status == 0, "\(days.err)")
        #expect(
            days.out == """
                2025-08-09\t0\t23
                2025-08-10\t0\t23
                2025-08-11\t12\t35
                2025-08-12\t7\t42
                2025-08-13\t0\t42
                2025-08-14\t0\t42
                2025-08-15\t0\t42
                2025-08-16\t0\t42

                """)
        // The Saturday before the documented week is the last day of the week of Sunday 2025-08-03, the one
        // day of it the span holds: that record is dated from --from, where its count starts.
        let weeks = await harness().run(
            ["star-history", "octocat/Hello-World", "--by", "week", "--format", "csv"] + span)
        #expect(weeks.out == "date,stars,total\r\n2025-08-09,0,23\r\n2025-08-10,19,42\r\n", "\(weeks.err)")
        let fields = await harness().run(
            ["star-history", "octocat/Hello-World", "--by", "week", "--json", "--fields", "date,total"] + span)
        #expect(
            Bodies.compact(Array(fields.out.utf8))
                == #"[{"date":"2025-08-09","total":23},{"date":"2025-08-10","total":42}]"#)
    }

    /// A page whose oldest week starts on or before --from is the last one asked, though GitHub points further.
    @Test func noPageIsAskedPastFrom() async {
        let run = await harness(next: true).run([
            "star-history", "octocat/Hello-World", "--from", "2025-08-10", "--to", "2025-08-16",
        ])
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out.hasPrefix("2025-08-10\t0\t23\n2025-08-11\t12\t35\n"))
    }

    /// A --from before the first page's oldest week asks the next page, and its week counts in the totals.
    @Test func anEarlierFromFollowsTheNextPage() async throws {
        let harness = harness(next: true)
        harness.http.register(
            RequestMatcher("GET \(Self.repository)/history?per_page=30&page=2"), body: weekBefore())
        let run = await harness.run([
            "star-history", "octocat/Hello-World", "--from", "2025-08-01", "--to", "2025-08-16", "--by", "week",
        ])
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out == "2025-08-01\t0\t4\n2025-08-03\t19\t23\n2025-08-10\t19\t42\n")
    }

    /// A server whose pages point at a next one for 150 pages, past GitHub's 100: 100 are read, and no more. The
    /// span's first day is before the oldest week they reach, so its totals cannot be told: exit 1, where the
    /// run made up every total before that week with exit 0 (helper-240).
    @Test func aHistoryPastGitHubsHundredPagesStopsAtThem() async {
        let harness = CommandHarness()
        harness.expect(Self.requests[0].request, body: "activity-get-stargazer-count-for-repo")
        let body = weekBefore()
        harness.http.answerEvery { request, index in
            let next = "<\(Self.secondPage)&n=\(index + 1)>; rel=\"next\""
            return HTTPResponse(
                status: 200, headers: HTTPHeaders(index < 150 ? [(name: "Link", value: next)] : []),
                body: body, url: request.url)
        }
        let run = await harness.run(["star-history", "octocat/Hello-World", "--from", "2020-01-01", "--json"])
        #expect(run.status == 1, "\(run.err)")
        #expect(run.out.isEmpty)
        #expect(
            run.err.hasPrefix(
                "gh-users: GitHub's star history of octocat/Hello-World ended after 100 pages, GitHub's most, at the "
                    + "week of 2025-08-03, before 2020-01-01: the totals before it cannot be told"), "\(run.err)")
        #expect(harness.http.received.filter { $0.url.path.hasSuffix("/history") }.count == 100)
    }

    /// A next link back to a page already read is refused before it is asked again, as a list's is (exit 1): before,
    /// the same page was asked 100 times and the history taken as whole (helper-240).
    @Test func aLinkBackToAPageReadIsRefused() async {
        let harness = CommandHarness()
        harness.expect(Self.requests[0].request, body: "activity-get-stargazer-count-for-repo")
        let body = weekBefore()
        harness.http.answerEvery { request, _ in
            HTTPResponse(
                status: 200, headers: HTTPHeaders([(name: "Link", value: "<\(Self.secondPage)>; rel=\"next\"")]),
                body: body, url: request.url)
        }
        let run = await harness.run(["star-history", "octocat/Hello-World", "--from", "2020-01-01", "--json"])
        #expect(run.status == 1)
        #expect(run.err.contains("leads back to a page already read"), "\(run.err)")
        #expect(harness.http.received.filter { $0.url.path.hasSuffix("/history") }.count == 2)
    }

    /// An empty page that links on is followed, as a list's is: the week after it counts (before: paging
    /// stopped at the empty page, and its stars were left out of every total; helper-240).
    @Test func anEmptyPageThatLinksOnIsFollowed() async throws {
        let harness = harness(next: true)
        let third = "https://api.github.com\(Self.repository)/history?per_page=30&page=3"
        harness.http.register(
            RequestMatcher("GET \(Self.repository)/history?per_page=30&page=2"),
            headers: [("Link", "<\(third)>; rel=\"next\"")], body: Data("[]".utf8))
        harness.http.register(RequestMatcher("GET \(Self.repository)/history?per_page=30&page=3"), body: weekBefore())
        let run = await harness.run([
            "star-history", "octocat/Hello-World", "--from", "2025-08-01", "--to", "2025-08-16", "--by", "week",
        ])
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out == "2025-08-01\t0\t4\n2025-08-03\t19\t23\n2025-08-10\t19\t42\n")
    }

    @Test func aMalformedWeekIsAMalformedAnswerNamingTheEndpoint() async {
        let harness = CommandHarness()
        harness.expect(Self.requests[0].request, body: "activity-get-stargazer-count-for-repo")
        harness.http.register(
            RequestMatcher(Self.requests[1].request),
            body: Data(#"[{"week": 1754784000, "total": 19, "days": [0, 12, 7]}]"#.utf8))
        let run = await harness.run(["star-history", "octocat/Hello-World"])
        #expect(run.status == 1, "\(run.err)")
        #expect(run.err.contains("GET /repos/octocat/Hello-World/stargazers/history"), "\(run.err)")
        #expect(run.err.contains("week 1 (\"week\": 1754784000) is not seven counts"), "\(run.err)")
        #expect(run.out.isEmpty)
    }

    /// A key given twice in the count or in a week: Foundation read the first value, jq the last, and the run was
    /// exit 0 (helper-320), where every other reader refuses it.
    @Test(
        arguments: [
            (
                #"{"count": 12, "count": 99999}"#, nil, "GET /repos/octocat/Hello-World/stargazers/count",
                "the key 'count'"
            ),
            (
                nil as String?,
                #"[{"week": 1754784000, "total": 19, "days": [0, 12, 7, 0, 0, 0, 0], "days": [0, 0, 0, 0, 0, 0, 19]}]"#,
                "GET /repos/octocat/Hello-World/stargazers/history?per_page=30", "item 1: the key 'days'"
            ),
        ] as [(String?, String?, String, String)])
    func aKeyGivenTwiceIsAMalformedAnswer(count: String?, history: String?, request: String, key: String) async {
        let harness = CommandHarness()
        if let count {
            harness.http.register(RequestMatcher(Self.requests[0].request), body: Data(count.utf8))
        } else {
            harness.expect(Self.requests[0].request, body: "activity-get-stargazer-count-for-repo")
        }
        if let history { harness.http.register(RequestMatcher(Self.requests[1].request), body: Data(history.utf8)) }
        let run = await harness.run(["star-history", "octocat/Hello-World", "--from", "2025-08-01"])
        #expect(run.status == 1, "\(run.err)")
        #expect(
            run.err.contains("malformed response from \(request): \(key) is given twice"), "\(run.err)")
        #expect(run.out.isEmpty)
    }

    @Test(arguments: [
        AnsweredCase("star-history", status: 64, err: "star-history needs an OWNER/REPO, such as octocat/Hello-World"),
        AnsweredCase("star-history octocat", status: 64, err: "such as octocat/Hello-World"),
        AnsweredCase("star-history octocat/Hello/World", status: 64, err: "give it as OWNER/REPO"),
        AnsweredCase("star-history octocat/.. --json", status: 64, err: "a repository name has 1 to 100"),
        AnsweredCase("star-history octocat/Hello-World extra", status: 64, err: "unexpected argument 'extra'"),
        AnsweredCase(
            "star-history octocat/Hello-World --by month", status: 64,
            err: "invalid value 'month' for '--by': choose one of day, week"),
        AnsweredCase("star-history octocat/Hello-World --from 2025-02-29", status: 64, err: "has no day 29"),
        AnsweredCase(
            "star-history octocat/Hello-World --from 2025-02-01 --to 2025-01-01", status: 64,
            err: "--from 2025-02-01 comes after --to 2025-01-01"),
        AnsweredCase("star-history octocat/Hello-World --from 2001-01-01", status: 64, err: "no repository has stars"),
        // The harness's today is 2027-01-15: a --from after it is no span.
        AnsweredCase(
            "star-history octocat/Hello-World --from 2027-01-16", status: 64,
            err: "--from 2027-01-16 is in the future: today is 2027-01-15"),
        AnsweredCase(
            "star-history octocat/no-such-repository",
            answers: [
                StubbedAnswer(
                    "GET \(repository.replacing("Hello-World", with: "no-such-repository"))/count", status: 404,
                    body: "error-404"),
                StubbedAnswer("GET /repos/octocat/no-such-repository", status: 404, body: "error-404"),
            ],
            status: 3, err: "no repository 'octocat/no-such-repository'"),
        // A server without the endpoint (github.com's since September 2026; an older Enterprise Server's 404) whose
        // repository answers: no "no repository" (exit 3) for one that exists.
        AnsweredCase(
            "star-history octocat/Hello-World",
            answers: [
                StubbedAnswer("GET \(repository)/count", status: 404, body: "error-404"),
                StubbedAnswer("GET /repos/octocat/Hello-World", status: 200, body: "repos-get"),
            ],
            status: 1,
            err: "gh-users: GET /repos/{owner}/{repo}/stargazers/count answered 404 though repository "
                + "'octocat/Hello-World' exists: this server does not serve it"),
        // A server with the count but not the history: the repository answered, so not "no repository" either
        // (before: exit 3, though the count had just been read).
        AnsweredCase(
            "star-history octocat/Hello-World",
            answers: [
                StubbedAnswer("GET \(repository)/count", status: 200, body: "activity-get-stargazer-count-for-repo"),
                StubbedAnswer("GET \(repository)/history?per_page=30", status: 404, body: "error-404"),
                StubbedAnswer("GET /repos/octocat/Hello-World", status: 200, body: "repos-get"),
            ],
            status: 1,
            err: "gh-users: GET /repos/{owner}/{repo}/stargazers/history answered 404 though repository "
                + "'octocat/Hello-World' exists: this server does not serve it"),
    ])
    func refusalsAndAMissingRepositoryAreAStatusAndAMessage(_ example: AnsweredCase) async {
        await example.run()
    }

    /// A --to after today is cut at today (2027-01-15 in the harness), and said once.
    @Test func aToInTheFutureIsCutAtTodayWithANote() async throws {
        let run = await harness().run(["star-history", "octocat/Hello-World", "--to", "2099-01-01", "--json"])
        #expect(run.status == 0, "\(run.err)")
        #expect(run.err == "gh-users: --to 2099-01-01 is in the future: the history ends today, 2027-01-15 (UTC).\n")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any])
        #expect(object["from"] as? String == "2026-01-16" && object["to"] as? String == "2027-01-15")
        #expect((object["history"] as? [Any])?.count == 365 && object["gained"] as? Int == 0)
    }
}
