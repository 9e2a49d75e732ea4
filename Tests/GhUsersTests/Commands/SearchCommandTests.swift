import AtomicCore
import Domain
import Foundation
import TestSupport
import Testing

@testable import gh_users

private func run(_ arguments: [String], _ env: AppEnvironment) async -> Int32 {
    await GhUsersApp(environment: env).run(arguments)
}

private func route(_ arguments: String) -> Route {
    CommandRouter().route(arguments.split(separator: " ").map(String.init))
}

/// `search QUERY`: its words and sorting, GitHub's 1,000-result cap and the notes it prints, and what `--split`
/// cannot honour.
struct SearchCommandTests {
    /// A qualifier's quotes and spaces reach GitHub encoded, as one `q`.
    @Test func aQuotedQualifierIsSentEncoded() async {
        let harness = CommandHarness()
        harness.expect("GET /search/users?q=location%3A%22San+Francisco%22&per_page=30", body: "search-users")
        let run = await harness.run(["search", #"location:"San Francisco""#, "--format", "tsv", "--fields", "login"])
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out == "mojombo\n")
    }

    /// `score` is a search hit's, not a profile's: help and the man page say so, as `--full` refuses it.
    @Test func helpSaysScoreIsNotWithFull() async throws {
        await expectUsageError(
            ["search", "mona", "--full", "--fields", "login,score"], saying: "the field 'score' is not in a profile")
        let help = HelpRenderer.render(.command("search"), width: 400)
        let fields = try #require(help.components(separatedBy: "\nFIELDS\n").last)
        #expect(fields.hasPrefix("  " + FieldCatalog.account.joined(separator: ", ") + ", score (not with --full)\n"))
        let page = ManPageRenderer.render("search", version: "9.9", date: Date(timeIntervalSince1970: 0))
        #expect(page.contains(Roff.escape("site_admin, score (not with --full)\n")))
    }

    @Test func anEmptyQueryIsAUsageErrorAndSendsNothing() async {
        await expectUsageError(["search", "  "])
    }

    @Test(arguments: [
        (["--sort", "followers"], "cannot be combined with --sort or --order"),
        (["--order", "asc"], "cannot be combined with --sort or --order"),
        (["created:>2015-01-01"], "--split makes its own created: ranges; leave created: out of the query"),
        (["mona -CREATED:2015-01-01"], "--split makes its own created: ranges; leave created: out of the query"),
        // Before: each piece's created: went inside the quote, so every piece counted the whole (helper-221).
        (["location:\"San Francisco"], "the query has a quote that is not closed"),
    ])
    func splitRefusesWhatItCannotHonourAndSendsNothing(_ extra: [String], _ message: String) async {
        await expectUsageError(["search", "type:user", "--split"] + extra, saying: message)
    }

    /// GitHub's search reference: `order` "is ignored unless you provide `sort`", so the answer would come in
    /// best-match order, not the one asked for.
    @Test func orderWithoutSortIsAUsageErrorAndSendsNothing() async {
        await expectUsageError(["search", "mona", "--order", "asc"], saying: "--order orders by --sort")
    }

    @Test func searchJoinsItsWordsAndCapsAtAThousand() throws {
        var expected = SearchUsersOptions(
            query: try UserSearchQuery(text: "type:org location:Berlin", sort: .followers, order: .asc))
        expected.paging.limit = .all
        #expect(
            route("search type:org location:Berlin --sort followers --order asc --all")
                == .searchUsers(expected, CommonOptions()))
        #expect(expected.plan.limit == .count(1000))
        #expect(expected.plan.perPage == 100)
        var small = expected
        small.paging.limit = .count(50)
        #expect(small.plan == PagingPlan(limit: .count(50)))
        // A count past the cap is the cap too: before, GitHub's 422 past page 10 (helper-331's mutation S1).
        small.paging.limit = .count(5000)
        #expect(small.plan.limit == .count(1000))
    }

    /// The note names --split only for a query --split takes: not one with a created: or --sort.
    @Test(arguments: [
        (
            [String](), "q=type%3Auser",
            "--split reaches them all, or narrow the query (for example with created:<DATE)."
        ),
        (
            ["--sort", "followers"], "q=type%3Auser&sort=followers",
            "narrow the query (for example with created:<DATE) to reach the rest."
        ),
        (
            ["created:>2010-01-01"], "q=type%3Auser+created%3A%3E2010-01-01",
            "narrow the query (for example with created:<DATE) to reach the rest."
        ),
    ])
    func searchStopsAtGitHubsCapAndSaysSo(extra: [String], query: String, advice: String) async {
        let data = StubTransport()
        let search = "/search/users?\(query)&per_page=100"
        for page in 1...10 {
            let ids = ((page - 1) * 100 + 1...page * 100).map(Int64.init)
            data.answer(
                "GET " + search + (page == 1 ? "" : "&page=\(page)"),
                headers: [StubTransport.link(next: search + "&page=\(page + 1)")],
                json: #"{"total_count":2500,"incomplete_results":false,"items":\#(accounts(ids))}"#)
        }
        let (env, out, err) = AppEnvironment.test(http: data)
        #expect(await run(["search", "type:user"] + extra + ["--all", "--format", "ndjson"], env) == 0, "\(err.text)")
        #expect(out.text.split(separator: "\n").count == 1000)
        #expect(data.calls.count == 10)
        #expect(err.text == "gh-users: GitHub returns only the first 1000 of the 2500 results; " + advice + "\n")
    }

    @Test func aSmallSearchSaysNothingWhenPipedAndShowsTheTotalOnATerminal() async {
        let data = StubTransport()
        for _ in 0..<2 {
            data.answer(
                "GET /search/users?q=mona&per_page=30",
                headers: [StubTransport.link(next: "/search/users?q=mona&per_page=30&page=2")],
                json: #"{"total_count":77,"incomplete_results":false,"items":\#(accounts(Array(1...30)))}"#)
        }
        let (piped, _, pipedErr) = AppEnvironment.test(http: data)
        #expect(await run(["search", "mona"], piped) == 0)
        #expect(pipedErr.text.isEmpty)
        let (tty, _, ttyErr) = AppEnvironment.test(http: data, stdoutTTY: true)
        #expect(await run(["search", "mona"], tty) == 0)
        #expect(ttyErr.text == "Showing 30 accounts of 77. Use --limit N or --all for more.\n")
    }

    @Test func anIncompleteSearchIsFlagged() {
        let notes = SearchUsersCommand.notes(taken: 5, total: 5, incomplete: true, wantedMore: false)
        // A query --split refuses (a created:, or --sort) is not told to use it.
        let capped = SearchUsersCommand.notes(taken: 1000, total: 2500, incomplete: false, wantedMore: true)
        #expect(capped.first?.contains("--split reaches them all") == true)
        let sorted = SearchUsersCommand.notes(
            taken: 1000, total: 2500, incomplete: false, wantedMore: true, splittable: false)
        #expect(
            sorted == [
                "gh-users: GitHub returns only the first 1000 of the 2500 results; narrow the query (for example with created:<DATE) to reach the rest."
            ])
        #expect(notes == ["gh-users: GitHub's search timed out before it finished: these results may be incomplete."])
    }
}
