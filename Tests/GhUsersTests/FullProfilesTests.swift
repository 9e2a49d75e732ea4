import AtomicCore
import Domain
import Foundation
import TestSupport
import Testing

@testable import gh_users

/// A profile distinct from the summary the list carries, so a test can tell which one was written.
private func profile(_ id: Int64, _ login: String? = nil) -> String {
    #"{"login":"\#(login ?? "user\(id)")","id":\#(id),"name":"Full \#(id)","followers":\#(id * 10)}"#
}

/// The same profile as GitHub's GraphQL API answers it.
private func graphQLProfile(_ id: Int64, _ login: String? = nil) -> String {
    graphQLOwner(id, login ?? "user\(id)", name: "Full \(id)", followers: Int(id) * 10)
}

/// `/users` pages of the given ids (per page `perPage`), each linking to the next, and the profile of each
/// account but those in `except` (a test answers those itself).
private func crawl(_ ids: [[Int64]], perPage: Int, except: Set<Int64> = []) -> StubTransport {
    let github = StubTransport()
    var since: Int64 = 0
    for (index, pageIDs) in ids.enumerated() {
        let request = "GET /users?since=\(since)&per_page=\(perPage)"
        since = pageIDs.last ?? since
        github.answer(
            request, accounts: pageIDs, next: index + 1 < ids.count ? "/users?since=\(since)&per_page=\(perPage)" : nil)
        for id in pageIDs where !except.contains(id) { github.answer("GET /users/user\(id)", json: profile(id)) }
    }
    return github
}

private func run(_ arguments: String, _ env: AppEnvironment) async -> Int32 {
    await GhUsersApp(environment: env).run(arguments.split(separator: " ").map(String.init))
}

private func names(_ ndjson: String) -> [String] {
    ndjson.split(separator: "\n").compactMap { line in
        (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["name"] as? String
    }
}

struct ExpansionWindowTests {
    /// Results come back in the order items went in, whatever order the batches finish in, and no more than
    /// `concurrency` batches run at once.
    @Test func keepsTheOrderAndTheBound() async {
        let gauge = InFlightGauge()
        let window = ExpansionWindow(
            ItemExpansion<Int>(batchSize: 1, concurrency: 3) { items in
                gauge.enter()
                try? await Task.sleep(for: .milliseconds(Int.random(in: 1...15)))
                gauge.leave()
                return items.map { .success($0 * 2) }
            })
        window.enqueue(Array(0..<20))
        window.enqueue(Array(20..<40))
        var results: [Int] = []
        var pageEnds: [Int] = []
        while let batch = await window.next() {
            results += batch.results.compactMap { try? $0.get() }
            if batch.endsPage { pageEnds.append(results.last ?? -1) }
        }
        #expect(results == (0..<40).map { $0 * 2 })
        #expect(pageEnds == [38, 78])
        #expect(gauge.maximum <= 3)
        #expect(gauge.maximum >= 2)
        #expect(window.isEmpty)
    }

    /// A batch never takes items from two pages, so the end of a page is the end of a batch.
    @Test func batchesStopAtTheEndOfAPage() async {
        let batches = Batches()
        let window = ExpansionWindow(
            ItemExpansion<Int>(batchSize: 4, concurrency: 1) { items in
                batches.record(items)
                return items.map { .success($0) }
            })
        window.enqueue(Array(0..<6))
        window.enqueue(Array(6..<9))
        var ends: [Bool] = []
        while let batch = await window.next() { ends.append(batch.endsPage) }
        #expect(batches.all.map(\.count) == [4, 2, 3])
        #expect(ends == [false, true, true])
    }

    /// The window asks for the next page while it has room to start more batches, and not once it is full.
    @Test func wantsItemsOnlyWhileThereIsRoom() {
        let window = ExpansionWindow(
            ItemExpansion<Int>(batchSize: 10, concurrency: 1) { items in
                try? await Task.sleep(for: .seconds(30))
                return items.map { .success($0) }
            })
        #expect(window.wantsItems)
        window.enqueue(Array(0..<25))
        #expect(window.wantsItems)
        window.enqueue(Array(25..<85))
        #expect(!window.wantsItems)
        window.cancel()
    }

    /// A slow batch at the head does not hold the other slots idle: later batches run and wait for it.
    @Test func aSlowHeadDoesNotIdleTheOtherSlots() async {
        let finished = Counter()
        let window = ExpansionWindow(
            ItemExpansion<Int>(batchSize: 1, concurrency: 2) { items in
                if items == [0] {
                    // Only a guard against hanging when the slots do idle: the outcome is the count it saw.
                    // 10 s was seen to run out on a loaded machine before six one-item batches were done.
                    let deadline = ContinuousClock.now + .seconds(120)
                    while finished.value < 6, ContinuousClock.now < deadline {
                        try? await Task.sleep(for: .milliseconds(5))
                    }
                    return [.success(finished.value)]
                }
                finished.increment()
                return items.map { .success($0) }
            })
        window.enqueue(Array(0..<8))
        let head = await window.next()
        #expect((try? head?.results.first?.get()) ?? 0 >= 6)
        window.cancel()
    }

    /// A batch stops at the end of a page even when that page's last items were left pending because every slot
    /// was busy when it came (helper-330: dropping `!endsPage` in launch() went unseen; a `--state` crawl with
    /// `--full --via graphql` then held its records until some batch happened to end a page).
    @Test func aPageLeftPendingWhileTheWindowIsFullStillEndsItsBatch() async {
        let seen = Batches()
        // concurrency 1: 4 batches in flight at most, so of the first page's nine items one is left pending.
        let window = ExpansionWindow(
            ItemExpansion<Int>(batchSize: 2, concurrency: 1) { items in
                seen.record(items)
                return items.map { .success($0) }
            })
        window.enqueue(Array(0..<9))
        window.enqueue(Array(9..<12))
        var results: [Int] = []
        var ends: [Bool] = []
        while let batch = await window.next() {
            results += batch.results.compactMap { try? $0.get() }
            ends.append(batch.endsPage)
        }
        #expect(results == Array(0..<12))
        #expect(!seen.all.contains { $0.contains(8) && $0.contains(9) }, "\(seen.all)")
        #expect(ends == [false, false, false, false, true, false, true], "\(ends)")
    }

    /// Once more than 256 items were taken, the pending queue is compacted; every item is still expanded and handed
    /// out exactly once (helper-330: an off-by-one there was caught by an end-to-end test alone).
    @Test func aQueuePastItsCompactionHandsOutEveryItemOnce() async {
        let window = ExpansionWindow(
            ItemExpansion<Int>(batchSize: 1, concurrency: 1) { items in items.map { .success($0) } })
        window.enqueue(Array(0..<600))
        var results: [Int] = []
        while let batch = await window.next() { results += batch.results.compactMap { try? $0.get() } }
        #expect(results.count == 600)
        #expect(results == Array(0..<600))
    }
}

struct FullProfilesCommandTests {
    @Test func writesEachAccountsProfileInTheListsOrder() async {
        let github = crawl([[1, 2, 3], [4, 5, 6], [7]], perPage: 3)
        let gauge = InFlightGauge()
        let profiles = github.transport(latency: .milliseconds(5), gauge: gauge) {
            $0.url.path.hasPrefix("/users/")
        }
        let (env, out, err) = AppEnvironment.test(http: github, transport: profiles)
        let status = await run("list --all --per-page 3 --full --concurrency 2 --format ndjson", env)
        #expect(status == 0)
        #expect(names(out.text) == (1...7).map { "Full \($0)" })
        #expect(err.text.isEmpty)
        #expect(gauge.maximum <= 2)
        #expect(github.calls.filter { $0.hasPrefix("GET /users/") }.count == 7)
    }

    /// The limit counts listed accounts, and no profile is fetched beyond it.
    @Test func theLimitStopsTheProfilesToo() async {
        let github = crawl([[1, 2, 3], [4, 5, 6]], perPage: 3)
        let (env, out, _) = AppEnvironment.test(http: github)
        #expect(await run("list --limit 4 --per-page 3 --full --format ndjson", env) == 0)
        #expect(names(out.text) == ["Full 1", "Full 2", "Full 3", "Full 4"])
        #expect(!github.calls.contains("GET /users/user5"))
    }

    /// A renamed account answers by id; a deleted one is left out with a word on stderr, and the crawl goes on.
    @Test func aRenamedAccountIsFoundByIDAndADeletedOneIsLeftOut() async {
        let github = crawl([[1, 2, 3]], perPage: 3, except: [2, 3])
        github.refuse("GET /users/user2", status: 404, message: "Not Found")
        github.answer("GET /user/2", json: profile(2, "renamed2"))
        github.refuse("GET /users/user3", status: 404, message: "Not Found")
        github.refuse("GET /user/3", status: 404, message: "Not Found")
        let (env, out, err) = AppEnvironment.test(http: github)
        #expect(await run("list --limit 3 --full --format ndjson", env) == 0)
        #expect(names(out.text) == ["Full 1", "Full 2"])
        #expect(err.text.contains("1 listed account was gone (deleted)"))
    }

    /// A login renamed away and taken by another account answers with that account: the listed one is looked
    /// up by id instead, so neither the output nor a resume point ever jumps to the other account's id.
    @Test func aLoginNowNamingAnotherAccountIsLookedUpById() async {
        let github = crawl([[1, 2, 3]], perPage: 3, except: [2])
        github.answer("GET /users/user2", json: profile(5_000_000, "user2"))
        github.answer("GET /user/2", json: profile(2, "renamed2"))
        let (env, out, err) = AppEnvironment.test(http: github)
        #expect(await run("list --limit 3 --full --format ndjson", env) == 0)
        #expect(names(out.text) == ["Full 1", "Full 2", "Full 3"])
        #expect(!out.text.contains("5000000"))
        #expect(github.calls.contains("GET /user/2"))
        #expect(err.text.isEmpty)
    }

    /// A profile that cannot be read stops the crawl after the accounts before it, with the place to go on from.
    @Test func aFailedProfileStopsAfterTheOnesBeforeItAndSaysWhereToResume() async {
        let github = crawl([[1, 2, 3], [4, 5, 6]], perPage: 3, except: [3])
        github.refuse(
            "GET /users/user3", status: 502, message: "Bad Gateway", times: StubTransport.attemptsWithDefaultRetries)
        let (env, out, err) = AppEnvironment.test(http: github)
        let status = await run("list --all --per-page 3 --full --concurrency 1 --format ndjson", env)
        #expect(status == 1)
        #expect(names(out.text) == ["Full 1", "Full 2"])
        #expect(err.text.contains("gh-users list --since 2 --all --per-page 3 --full --concurrency 1"))
    }

    /// A page that fails after profiles were asked for: those profiles are written before the error.
    @Test func aFailedPageStillWritesTheProfilesAlreadyAskedFor() async {
        let github = StubTransport()
        github.answer("GET /users?since=0&per_page=3", accounts: [1, 2, 3], next: "/users?since=3&per_page=3")
        for id in 1...3 { github.answer("GET /users/user\(id)", json: profile(Int64(id))) }
        github.refuse(
            "GET /users?since=3&per_page=3", status: 500, message: "boom",
            times: StubTransport.attemptsWithDefaultRetries)
        let (env, out, err) = AppEnvironment.test(http: github)
        let status = await run("list --all --per-page 3 --full --format json", env)
        #expect(status == 1)
        let array = try? JSONSerialization.jsonObject(with: Data(out.text.utf8)) as? [[String: Any]]
        #expect(array?.compactMap { $0["name"] as? String } == ["Full 1", "Full 2", "Full 3"])
        #expect(err.text.contains("--since 3"))
    }

    @Test func theTableShowsWhoTheAccountsAre() async {
        let github = crawl([[1, 2]], perPage: 2)
        let (env, out, _) = AppEnvironment.test(http: github, stdoutTTY: true, width: 100)
        #expect(await run("list --limit 2 --full", env) == 0)
        let header = out.text.split(separator: "\n").first.map(String.init) ?? ""
        #expect(header.contains("NAME") && header.contains("FOLLOWERS"))
        #expect(out.text.contains("Full 2"))
    }

    @Test(arguments: [
        ("list --concurrency 3", "--concurrency applies only with --full"),
        ("list --fields login,location", "the field 'location' is in a profile, not in this list: add --full"),
        // A path into one too: it was a blank column, exit 0.
        ("list --fields login,location.x", "the field 'location.x' is in a profile, not in this list: add --full"),
        ("search mona --full --fields login,score", "the field 'score' is not in a profile"),
        // With the fields --full writes, as any unknown field is said (helper-286: no list).
        (
            "followers octocat --full --fields nosuch",
            "which --full writes\nValid fields with --full: login, id, node_id, avatar_url"
        ),
        (
            "collaborators o/r --full --fields role_nam",
            "is not in a profile, which --full writes; did you mean 'role_name'?\nValid fields with --full: login, "
        ),
        // The fork's own date, which --full keeps beside the profile, is no profile's (it said "is in a profile").
        ("forkers o/r --fields login,forked_at", "the field 'forked_at' is one --full adds, not in this list: add"),
        ("followers octocat --full --concurrency 11", "--concurrency"),
    ])
    func refusesWhatCannotWork(arguments: String, message: String) async {
        let (env, out, err) = AppEnvironment.test()
        #expect(await run(arguments, env) == 64)
        #expect(out.text.isEmpty)
        #expect(err.text.contains(message))
    }

    /// With --full a path into a profile's field is taken as the field is (before: "not in a profile", after
    /// the message without --full had said to add --full).
    @Test func withFullAPathIntoAProfilesFieldIsTaken() async {
        let github = StubTransport()
        github.answer("GET /users/octocat/followers?per_page=30", json: "[]")
        let (env, _, err) = AppEnvironment.test(http: github)
        #expect(await run("followers octocat --full --fields login,location.x", env) == 0, "\(err.text)")
    }

    @Test func profileFieldsAreTakenWithFull() async {
        let github = crawl([[1, 2]], perPage: 2)
        let (env, out, err) = AppEnvironment.test(http: github)
        #expect(await run("list --limit 2 --full --fields login,name,followers", env) == 0)
        #expect(out.text == "user1\tFull 1\t10\nuser2\tFull 2\t20\n")
        #expect(err.text.isEmpty)
    }
}

/// The batches an expansion was handed, in the order they came.
private final class Batches: @unchecked Sendable {
    private let lock = NSLock()
    private var batches: [[Int]] = []

    var all: [[Int]] { lock.withLock { batches } }

    func record(_ items: [Int]) { lock.withLock { batches.append(items) } }
}

private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    var value: Int { lock.withLock { count } }

    func increment() { lock.withLock { count += 1 } }
}

struct FullProfilesViaGraphQLTests {
    private func environment(_ github: StubTransport, token: Bool, stderrTTY: Bool = false)
        -> (AppEnvironment, out: CapturedOutput, err: CapturedOutput)
    {
        var (env, _, _) = AppEnvironment.test(http: github, environment: token ? ["GH_TOKEN": "t0k"] : [:])
        let (io, out, err) = IOStreams.test(stderrTTY: stderrTTY)
        env.io = io
        return (env, out, err)
    }

    /// One batch for the page's accounts; one that GraphQL cannot give (a bot, an organization) comes from
    /// REST, and a terminal's stderr hears what the batches spent and saved.
    @Test func aPageIsOneBatchAndRESTAnswersWhatGraphQLCannot() async {
        let github = crawl([[1, 2, 3]], perPage: 3, except: [1, 3])
        github.answer("POST /graphql", json: graphQLProfiles([graphQLProfile(1), nil, graphQLProfile(3)]))
        let (env, out, err) = environment(github, token: true, stderrTTY: true)
        #expect(await run("list --limit 3 --full --via graphql --format ndjson", env) == 0)
        #expect(names(out.text) == ["Full 1", "Full 2", "Full 3"])
        #expect(github.calls.filter { $0.hasPrefix("POST /graphql") }.count == 1)
        #expect(github.graphQLLoginsAsked == [["user1", "user2", "user3"]])
        #expect(github.calls.filter { $0.hasPrefix("GET /users/") } == ["GET /users/user2"])
        #expect(err.text.contains("1 GraphQL request spent 1 point of the graphql limit"))
    }

    /// A login GraphQL and REST both call missing is looked for by id at once, never by login a second time;
    /// a GraphQL profile of another account (the login was taken since) is replaced by the listed id's.
    @Test func missingAndReusedLoginsAreLookedUpById() async {
        let github = crawl([[1, 2, 3]], perPage: 3, except: [1, 2, 3])
        github.answer(
            "POST /graphql", json: graphQLProfiles([graphQLProfile(1), nil, graphQLProfile(9_999, "user3")]))
        github.refuse("GET /users/user2", status: 404, message: "Not Found")
        github.answer("GET /user/2", json: profile(2, "renamed2"))
        github.answer("GET /user/3", json: profile(3, "renamed3"))
        let (env, out, _) = environment(github, token: true)
        #expect(await run("list --limit 3 --full --via graphql --format ndjson", env) == 0)
        #expect(names(out.text) == ["Full 1", "Full 2", "Full 3"])
        #expect(github.calls.filter { $0 == "GET /users/user2" }.count == 1)
        #expect(github.calls.contains("GET /user/2") && github.calls.contains("GET /user/3"))
    }

    /// GraphQL answers only with a token: without one the run stops with status 4 and a hint, before any request.
    @Test func withoutATokenItIsExitFourWithAHint() async {
        let github = StubTransport()
        let (env, out, err) = environment(github, token: false)
        #expect(await run("followers octocat --full --via graphql", env) == 4)
        #expect(out.text.isEmpty)
        #expect(err.text.hasPrefix("gh-users: followers --via graphql needs a token"))
        #expect(err.text.contains("leave out --via graphql"))
        #expect(github.calls.isEmpty)
    }

    @Test func viaNeedsFull() async {
        let (env, _, err) = environment(StubTransport(), token: true)
        #expect(await run("list --via graphql", env) == 64)
        #expect(err.text.contains("--via applies only with --full"))
    }
}
