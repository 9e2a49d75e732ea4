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

struct MoreRoutesTests {
    @Test func reposWithEveryOption() throws {
        var options = ListReposOptions(login: try Login(validating: "octocat"))
        options.query = RepoQuery(kind: .all, sort: .pushed, direction: .asc, forks: .sourcesOnly)
        options.paging.limit = .count(10)
        #expect(
            route("repos octocat --type all --sort pushed --direction asc --sources -L 10")
                == .listRepos(options, CommonOptions())
        )
        // Filtering on forks reads full pages.
        #expect(options.plan.perPage == 100)
        #expect(ListReposOptions(login: try Login(validating: "x")).plan.perPage == 30)
    }

    @Test func followersAndFollowing() throws {
        let login = try Login(validating: "octocat")
        #expect(
            route("followers octocat")
                == .followers(RelationsOptions(login: login), CommonOptions()))
        var following = RelationsOptions(login: login)
        following.paging.limit = .all
        #expect(route("following octocat --all") == .following(following, CommonOptions()))
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
    }

    @Test func rateLimitAndShowByID() {
        #expect(route("rate-limit") == .rateLimit(CommonOptions()))
        #expect(route("show --id 583231") == .showUsers(ShowUsersOptions(references: [.id(583231)]), CommonOptions()))
    }

    @Test(arguments: [
        ("repos", "repos needs a LOGIN"), ("repos a b", "unexpected argument 'b'"),
        ("repos a --type private", "invalid value 'private' for '--type'"),
        ("repos a --sort stars", "invalid value 'stars' for '--sort'"),
        ("repos a --direction up", "invalid value 'up' for '--direction'"),
        ("repos a --sources --forks", "--sources and --forks cannot be used together"),
        ("repos ../a", "invalid login '../a'"),
        ("followers a b", "unexpected argument 'b'"), ("following a --limit 0", "invalid value '0' for '--limit'"),
        ("search", "search needs a QUERY"), ("search x --sort stars", "invalid value 'stars' for '--sort'"),
        ("search x --order up", "invalid value 'up' for '--order'"), ("rate-limit now", "unexpected argument 'now'"),
        ("show --id 0", "invalid value '0' for '--id'"), ("show --id x", "invalid value 'x' for '--id'"),
        ("show octocat --id 1", "give either LOGINs or --id, not both"),
    ])
    func usageErrors(arguments: String, messageStart: String) throws {
        guard case .usageError(let error) = route(arguments) else {
            Issue.record("expected a usage error for \(arguments)")
            return
        }
        #expect(error.message.hasPrefix(messageStart), "got: \(error.message)")
    }

    @Test func everyCommandHasHelpWithExamples() {
        for command in CommandCatalog.specs {
            guard let text = route("\(command.name) --help").helpText else {
                Issue.record("no help for \(command.name)")
                continue
            }
            #expect(text.contains("USAGE"), "\(command.name)")
            #expect(text.contains("EXAMPLES"), "\(command.name)")
            #expect(route("help \(command.name)").helpText == text)
        }
    }
}

struct MoreCoordinatorTests {
    @Test func reposFiltersForksAcrossPagesUntilTheLimit() async {
        let data = FakeGitHub()
        data.script(
            "/users/octocat/repos?per_page=100",
            Result<Page<Repo>, DomainError>.success(
                Page(
                    items: [makeRepo(1, "a", fork: true), makeRepo(2, "b"), makeRepo(3, "c", fork: true)],
                    next: PageCursor(url: "p2"))
            ))
        data.scriptPage(
            "p2",
            Result<Page<Repo>, DomainError>.success(
                Page(
                    items: [makeRepo(4, "d", fork: true), makeRepo(5, "e"), makeRepo(6, "f")],
                    next: PageCursor(url: "p3"))))
        let (env, out, err) = AppEnvironment.test(github: data)
        #expect(await run(["repos", "octocat", "--sources", "--limit", "3"], env) == 0)
        #expect(
            out.text.split(separator: "\n").map { $0.split(separator: "\t")[0] } == [
                "octocat/b", "octocat/e", "octocat/f",
            ])
        #expect(err.text.isEmpty)
        #expect(data.calls == ["GET /users/octocat/repos?per_page=100", "page p2"])
    }

    @Test func reposTableFitsAndShowsRelativeTimesOnATerminal() async {
        let data = FakeGitHub()
        var repo = makeRepo(1, "Hello-World")
        repo.pushedAt = Date(timeIntervalSince1970: 1_800_000_000 - 2 * 86_400)
        repo.description = "A \u{1B}[31mred\u{1B}[0m " + String(repeating: "long ", count: 40)
        data.script(
            "/users/octocat/repos?per_page=30", Result<Page<Repo>, DomainError>.success(Page(items: [repo], next: nil)))
        let (env, out, _) = AppEnvironment.test(github: data, stdoutTTY: true, width: 70)
        #expect(await run(["repos", "octocat", "--color", "never"], env) == 0)
        let lines = out.text.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("NAME") == true)
        #expect(lines.last?.contains("2 days ago") == true)
        #expect(lines.allSatisfy { DisplayWidth.of($0) <= 70 })
        #expect(!out.text.contains("\u{1B}[31m"))
    }

    @Test func followersNeverRepeatAnAccountWhenPagesShift() async throws {
        let users = FakeGitHub()
        users.script(
            "/users/octocat/followers?per_page=100",
            Result<Page<User>, DomainError>.success(
                Page(
                    items: [makeUser(1), makeUser(2)],
                    next: PageCursor(url: "https://api.github.com/user/1/followers?page=2"))
            ))
        users.scriptPage(
            "https://api.github.com/user/1/followers?page=2",
            Result<Page<User>, DomainError>.success(
                Page(items: [makeUser(2), makeUser(3)], next: nil)))
        let (env, out, _) = AppEnvironment.test(github: users)
        #expect(await run(["followers", "octocat", "--all", "--json"], env) == 0)
        let ids = try #require(try JSONSerialization.jsonObject(with: Data(out.text.utf8)) as? [[String: Any]])
            .compactMap { $0["id"] as? Int }
        #expect(ids == [1, 2, 3])
    }

    @Test func anUnknownLoginIsExitThree() async {
        let users = FakeGitHub()
        users.script(
            "/users/ghost/following?per_page=30",
            Result<Page<User>, DomainError>.failure(.notFound(resource: "user 'ghost'")))
        let (env, out, err) = AppEnvironment.test(github: users)
        #expect(await run(["following", "ghost"], env) == 3)
        #expect(out.text.isEmpty)
        #expect(err.text == "gh-users: no user 'ghost' (HTTP 404)\n")
    }

    @Test func searchStopsAtGitHubsCapAndSaysSo() async {
        let data = FakeGitHub()
        var next = "s2"
        data.script(
            "/search/users?q=type%3Auser&per_page=100",
            Result<Page<User>, DomainError>.success(
                Page(items: (1...100).map { makeUser(Int64($0)) }, next: PageCursor(url: next), totalCount: 2500)
            ))
        for page in 2...10 {
            let following = "s\(page + 1)"
            let items = ((page - 1) * 100 + 1...page * 100).map { makeUser(Int64($0)) }
            data.scriptPage(
                next,
                Result<Page<User>, DomainError>.success(
                    Page(items: items, next: PageCursor(url: following), totalCount: 2500)))
            next = following
        }
        let (env, out, err) = AppEnvironment.test(github: data)
        #expect(await run(["search", "type:user", "--all", "--format", "ndjson"], env) == 0)
        #expect(out.text.split(separator: "\n").count == 1000)
        #expect(data.calls.count == 10)
        #expect(
            err.text
                == "gh-users: GitHub returns only the first 1000 of the 2500 results; narrow the query (for example with created:<DATE) to reach the rest.\n"
        )
    }

    @Test func aSmallSearchSaysNothingWhenPipedAndShowsTheTotalOnATerminal() async {
        let data = FakeGitHub()
        data.script(
            "/search/users?q=mona&per_page=30",
            Result<Page<User>, DomainError>.success(
                Page(items: (1...30).map { makeUser(Int64($0)) }, next: PageCursor(url: "s2"), totalCount: 77)
            ))
        let (piped, _, pipedErr) = AppEnvironment.test(github: data)
        #expect(await run(["search", "mona"], piped) == 0)
        #expect(pipedErr.text.isEmpty)
        let (tty, _, ttyErr) = AppEnvironment.test(github: data, stdoutTTY: true)
        #expect(await run(["search", "mona"], tty) == 0)
        #expect(ttyErr.text == "Showing 30 accounts of 77. Use --limit N or --all for more.\n")
    }

    @Test func anIncompleteSearchIsFlagged() {
        let notes = SearchUsersCommand.notes(taken: 5, total: 5, incomplete: true, wantedMore: false)
        #expect(notes == ["gh-users: GitHub's search timed out before it finished: these results may be incomplete."])
    }

    @Test func rateLimitTableAndJSON() async throws {
        let data = FakeGitHub()
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let raw = RawJSON(
            #"{"resources":{"core":{"limit":5000,"used":1,"remaining":4999,"reset":1800002520}},"rate":{}}"#)
        data.script(
            "/rate_limit",
            Result<RateLimitOverview, DomainError>.success(
                RateLimitOverview(
                    buckets: [
                        RateLimitBucket(
                            resource: "core", limit: 5000, remaining: 4999, used: 1,
                            resetAt: now.addingTimeInterval(2520)),
                        RateLimitBucket(
                            resource: "search", limit: 30, remaining: 30, used: 0, resetAt: now.addingTimeInterval(60)),
                    ],
                    raw: raw
                )
            ))
        let (tty, out, _) = AppEnvironment.test(github: data, stdoutTTY: true)
        #expect(await run(["rate-limit", "--color", "never"], tty) == 0)
        let lines = out.text.split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        #expect(lines[0].hasPrefix("RESOURCE  LIMIT  REMAINING  USED  RESETS"))
        #expect(lines[1].hasPrefix("core      5000   4999       1     "))
        #expect(lines[1].hasSuffix("(in 42m 0s)"))
        let (piped, json, _) = AppEnvironment.test(github: data)
        #expect(await run(["rate-limit", "--json"], piped) == 0)
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(json.text.utf8)) as? [String: Any])
        #expect((parsed["resources"] as? [String: Any])?["core"] != nil)
        let (tsv, tsvOut, _) = AppEnvironment.test(github: data)
        #expect(await run(["rate-limit"], tsv) == 0)
        #expect(tsvOut.text.hasPrefix("core\t5000\t4999\t1\t2027-01-15T08:42:00Z\n"))
    }
}

struct ProgressTests {
    private func repository() -> FakeGitHub {
        let users = FakeGitHub()
        users.script(
            "/users?since=0&per_page=2",
            Result<Page<User>, DomainError>.success(
                Page(items: [makeUser(1), makeUser(2)], next: PageCursor(url: "p2"))))
        users.scriptPage("p2", .success(Page(items: [makeUser(3), makeUser(4)], next: PageCursor(url: "p3"))))
        users.scriptPage("p3", .success(Page(items: [makeUser(5)], next: nil)))
        return users
    }

    @Test func aMultiPageListingShowsProgressOnATerminalAndErasesIt() async {
        let (io, out, err) = IOStreams.test(stderrTTY: true)
        var (env, _, _) = AppEnvironment.test(github: repository())
        env.io = io
        #expect(await GhUsersApp(environment: env).run(["list", "--all", "--per-page", "2"]) == 0)
        #expect(out.text.split(separator: "\n").count == 5)
        #expect(err.text.contains("Fetched 1 page · 2 accounts"))
        #expect(err.text.contains("Fetched 2 pages · 4 accounts"))
        #expect(err.text.hasSuffix("\r\u{1B}[2K"))
        #expect(!out.text.contains("Fetched"))
    }

    @Test func offATerminalThereIsNoProgress() async {
        let (env, _, err) = AppEnvironment.test(github: repository())
        #expect(await GhUsersApp(environment: env).run(["list", "--all", "--per-page", "2"]) == 0)
        #expect(err.text.isEmpty)
    }

    @Test func aSinglePageShowsNone() async {
        let users = FakeGitHub()
        users.script("/users?since=0&per_page=30", .success(Page(items: [makeUser(1)], next: nil)))
        let (io, _, err) = IOStreams.test(stderrTTY: true)
        var (env, _, _) = AppEnvironment.test(github: users)
        env.io = io
        #expect(await GhUsersApp(environment: env).run(["list"]) == 0)
        #expect(err.text.isEmpty)
    }
}

struct ReposColumnsTests {
    private func render(_ repos: [Repo], _ format: OutputFormat, width: Int = 80) -> String {
        let context = RenderContext(
            format: format, isTTY: format == .table, colorEnabled: false, width: width,
            now: Date(timeIntervalSince1970: 1_800_000_000))
        var writer = RecordStreamWriter(
            context: context, columns: ListReposCommand.columns(context), raw: { $0.raw })
        return String(decoding: writer.render(repos) + writer.finish(completed: true), as: UTF8.self)
    }

    @Test func dataFormatsKeepTheDescriptionAsSentAndGiveForkItsOwnColumn() {
        var fork = makeRepo(1, "a", fork: true)
        fork.description = nil
        let original = makeRepo(2, "b")
        let tsv = render([fork, original], .tsv).split(separator: "\n").map {
            $0.split(separator: "\t", omittingEmptySubsequences: false)
        }
        #expect(tsv[0][1] == "true")
        #expect(tsv[0].last == "")
        #expect(tsv[1][1] == "false")
        #expect(tsv[1].last == "about b")
        let csv = render([fork], .csv)
        #expect(csv.hasPrefix("full_name,fork,language,stargazers_count,forks_count,pushed_at,description\r\n"))
        #expect(!csv.contains("(fork)"))
    }

    @Test func theTableLabelsTheTimeItShows() {
        var repo = makeRepo(1, "a")
        repo.pushedAt = Date(timeIntervalSince1970: 1_800_000_000 - 3 * 86_400)
        repo.updatedAt = Date(timeIntervalSince1970: 1_800_000_000 - 86_400)
        let table = render([repo], .table)
        #expect(table.hasPrefix("NAME"))
        #expect(table.contains("PUSHED"))
        #expect(table.contains("3 days ago"))
    }

    @Test func aNarrowTableCutsTheDescriptionBeforeAnyName() {
        let long = String(repeating: "x", count: 15)
        var first = makeRepo(1, "Alpha-\(long)-1")
        var second = makeRepo(2, "Alpha-\(long)-2")
        first.description = String(repeating: "words ", count: 20)
        second.description = String(repeating: "more ", count: 20)
        let lines = render([first, second], .table).split(separator: "\n").map(String.init)
        #expect(lines.allSatisfy { DisplayWidth.of($0) <= 80 })
        #expect(lines[1].contains("octocat/Alpha-\(long)-1"))
        #expect(lines[2].contains("octocat/Alpha-\(long)-2"))
    }
}
