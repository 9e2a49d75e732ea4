import Domain
import Foundation
import Networking
import TestSupport
import Testing

@testable import gh_users

/// `stargazers` past REST's 400 pages, through GraphQL, and under `--full`. GitHub's documented bodies answer the
/// REST requests (`Sources/GitHubStandIn/Bodies/NOTICE.md`); the GraphQL answers are made here (below).
struct StargazersCommandTests {
    static let star = "application/vnd.github.star+json"
    static let repository = "octocat/Hello-World"

    /// GitHub's documented repository (`repos-get`) with its own `stargazers_count` (80) changed to `count`.
    static func repositoryCounting(_ count: Int) -> Data {
        let documented = String(decoding: Bodies.named("repos-get"), as: UTF8.self)
        let changed = documented.replacing(
            #""stargazers_count": 80"#, with: #""stargazers_count": \#(count)"#, maxReplacements: 1)
        #expect(changed != documented)
        return Data(changed.utf8)
    }

    /// An answer to `GraphQLStargazersQuery`, made for these tests. It follows GitHub's schema as octokit/graphql-
    /// schema publishes it (schema.graphql @ 82ff2d4780080e6929ebb95608cefa22dfa05ac7, MIT, Copyright (c) GitHub
    /// 2025): `StargazerConnection { totalCount, pageInfo: PageInfo { hasNextPage, endCursor }, edges:
    /// [StargazerEdge { cursor, starredAt, node: User }] }`, with the `User` fields the query asks.
    static func graphQLPage(_ ids: some Sequence<Int64>, total: Int, next: String?) -> String {
        let edges = ids.map { id in
            let login = id == 1 ? "octocat" : "user\(id)"
            let nodeID = id == 1 ? "MDQ6VXNlcjE=" : "U_\(id)"
            return #"{"cursor":"s\#(id)","starredAt":"\#(starredAt(id))","node":{"databaseId":\#(id),"#
                + #""id":"\#(nodeID)","login":"\#(login)","avatarUrl":"https://avatars.githubusercontent.com/u/\#(id)?v=4","#
                + #""url":"https://github.com/\#(login)","isSiteAdmin":false}}"#
        }
        let pageInfo = #"{"hasNextPage":\#(next != nil),"endCursor":\#(next.map { "\"\($0)\"" } ?? "null")}"#
        return #"{"data":{"rateLimit":{"cost":1,"remaining":4999,"resetAt":"2027-01-15T08:00:00Z"},"#
            + #""repository":{"stargazers":{"totalCount":\#(total),"pageInfo":\#(pageInfo),"#
            + #""edges":[\#(edges.joined(separator: ","))]}}}}"#
    }

    /// octocat's is the documented record's; the others' follow it, a second apart.
    static func starredAt(_ id: Int64) -> String {
        id == 1 ? "2011-01-16T19:06:43Z" : "2020-01-01T00:00:00Z"
    }

    /// GitHub's documented stargazer record (`activity-list-stargazers-for-repo`) cut down to what these tests
    /// read, its `starred_at` and its user's `login` and `id`, made each user's: 40,000 whole ones take a debug
    /// build ten seconds to read.
    static func restRecord(_ id: Int) -> String {
        #"{"starred_at":"\#(starredAt(Int64(id)))","user":{"login":"user\#(id)","id":\#(id)}}"#
    }

    private static func register(_ harness: CommandHarness, graphQL body: String) {
        harness.http.register(RequestMatcher("POST /graphql"), status: 200, headers: [], body: Data(body.utf8))
    }

    private static func ids(_ ndjson: String) -> [Int64] {
        ndjson.split(separator: "\n").compactMap { line in
            let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            return ((object?["user"] as? [String: Any])?["id"] as? NSNumber)?.int64Value
        }
    }

    /// `--all` of a repository that counts more than 40,000 stargazers asks its count first and reads the list
    /// through GraphQL from the start, following its cursor: REST's list, which stops at 400 pages, is never
    /// asked (the strict stub would refuse it). Before: REST's links, and a list quietly 40,000 long. Whether a
    /// smaller page lowers REST's cap GitHub does not say, so at 50 a page the reach is taken as 400 pages of 50:
    /// a count past 20,000 is read through GraphQL too.
    ///
    /// The closing note names the count and the reach that applied (before: "stops at 40,000 (400 pages)" at 50 a
    /// page too, where REST's 400 pages reach 20,000).
    @Test(arguments: [
        ([String](), 40_001, "40,001 stargazers and GitHub's REST list reaches 40,000 (400 pages of 100)"),
        (["--per-page", "50"], 20_001, "20,001 stargazers and GitHub's REST list reaches 20,000 (400 pages of 50)"),
    ])
    func aCountPastRESTsReachIsReadThroughGraphQLFromTheStart(perPage: [String], count: Int, note: String)
        async throws
    {
        let harness = CommandHarness.signedIn()
        harness.http.register(
            RequestMatcher("GET /repos/\(Self.repository)"), status: 200, headers: [],
            body: Self.repositoryCounting(count))
        Self.register(harness, graphQL: Self.graphQLPage([1, 2], total: 3, next: "Y3Vyc29yOjI="))
        Self.register(harness, graphQL: Self.graphQLPage([3], total: 3, next: nil))
        let run = await harness.run(["stargazers", Self.repository, "--all", "--format", "ndjson"] + perPage)
        #expect(run.status == 0)
        #expect(Self.ids(run.out) == [1, 2, 3])
        #expect(run.err == "gh-users: the repository counts \(note), so they were read through GraphQL.\n")
        let queries = harness.http.received.filter { $0.method == .post }.map {
            String(decoding: $0.body ?? Data(), as: UTF8.self)
        }
        try #require(queries.count == 2)
        #expect(!queries[0].contains("after:"))
        #expect(queries[1].contains(#"after: \"Y3Vyc29yOjI=\""#))
        #expect(queries.allSatisfy { $0.contains("orderBy: {field: STARRED_AT, direction: ASC}") })
    }

    /// Accounts where stargazers were asked for (a proxy that dropped the star media type: GitHub's documented
    /// list of accounts) are refused under `--fields starred_at` too, though the login column finds a login in
    /// both shapes: it is computed, and says nothing of the shape (before this commit's fix: blank rows, exit 0).
    @Test(arguments: ["starred_at", "starred_at,user"])
    func accountsWithoutTheStarMediaTypeAreRefusedUnderFields(fields: String) async {
        let harness = CommandHarness.signedIn()
        harness.expect(
            "GET /repos/\(Self.repository)/stargazers?per_page=30", body: "users-list-followers-for-user")
        let run = await harness.run(["stargazers", Self.repository, "--fields", fields, "--format", "tsv"])
        #expect(run.status == 1, "\(run.err)")
        #expect(run.out.isEmpty)
        #expect(run.err.contains("have none of the keys this output reads"), "\(run.err)")
    }

    /// A stargazer read through GraphQL is written as REST writes it: GitHub's documented record of octocat,
    /// key for key and in order, but for `avatar_url`, which REST gives in its github.com form, and
    /// `user_view_type`, which GitHub's answers have after `type` since 2024 and its examples leave out.
    @Test func aStargazerReadThroughGraphQLIsTheRESTRecord() async throws {
        let harness = CommandHarness.signedIn()
        Self.register(harness, graphQL: Self.graphQLPage([1], total: 1, next: nil))
        let run = await harness.run(["stargazers", Self.repository, "--via", "graphql", "--format", "json"])
        #expect(run.status == 0)
        let documented = Bodies.compact("activity-list-stargazers-for-repo").replacing(
            "https://github.com/images/error/octocat_happy.gif", with: "https://avatars.githubusercontent.com/u/1?v=4"
        ).replacing(#""type":"User","#, with: #""type":"User","user_view_type":"public","#)
        #expect(Bodies.compact(Array(run.out.utf8)) == documented)
        #expect(run.err.isEmpty)
    }

    /// `--via graphql --all` reads GraphQL from the start without asking REST or the count: no note says REST
    /// stopped.
    @Test func viaGraphQLSaysNothingOfREST() async throws {
        let harness = CommandHarness.signedIn()
        Self.register(harness, graphQL: Self.graphQLPage([1, 2], total: 3, next: "Y3Vyc29yOjI="))
        Self.register(harness, graphQL: Self.graphQLPage([3], total: 3, next: nil))
        let run = await harness.run(["stargazers", Self.repository, "--via", "graphql", "--all", "--format", "ndjson"])
        #expect(run.status == 0)
        #expect(Self.ids(run.out) == [1, 2, 3])
        #expect(run.err.isEmpty, "\(run.err)")
    }

    /// GraphQL refuses anonymous callers: `--via graphql` without a token is exit 4, and nothing is sent.
    @Test func viaGraphQLWithoutATokenIsRefusedBeforeAnythingIsSent() async {
        let run = await CommandHarness().run(["stargazers", Self.repository, "--via", "graphql"])
        #expect(run.status == 4)
        #expect(run.out.isEmpty)
        #expect(run.err.contains("stargazers --via graphql"))
    }

    /// Since July 2026 GraphQL answers those who are not admins or collaborators an empty list: for a repository
    /// that counts stars, that is withheld (exit 4), as REST's empty list is.
    @Test func anEmptyGraphQLListOfARepositoryWithStarsIsWithheld() async {
        let harness = CommandHarness.signedIn()
        Self.register(harness, graphQL: Self.graphQLPage([], total: 0, next: nil))
        harness.expect("GET /repos/\(Self.repository)", body: "repos-get")
        let run = await harness.run(["stargazers", Self.repository, "--via", "graphql"])
        #expect(run.status == 4)
        #expect(run.out.isEmpty)
        #expect(run.err.contains("an empty list, of 80; since July 2026"))
    }

    /// Others report GitHub's GraphQL answering the same rule with `FORBIDDEN` (anuraghazra/github-readme-stats#4921,
    /// pkgjs/statusboard#54). This body is made in the shape of GitHub's `FORBIDDEN` answers, as
    /// electron/repos-using-electron#26 quotes one, with the words REST's 403 says for the rule
    /// (ingo-eichhorst/Irrlicht#1187): the same refusal, with GitHub's words. Before, "GraphQL: Resource not
    /// accessible…" alone, with no word of the rule.
    @Test func aForbiddenGraphQLListIsWithheldWithGitHubsWords() async {
        let harness = CommandHarness.signedIn()
        let forbidden =
            #"{"data":{"repository":null},"errors":[{"type":"FORBIDDEN","path":["repository","stargazers"],"#
            + #""locations":[{"line":1,"column":60}],"message":"Resource not accessible by personal access token"}]}"#
        Self.register(harness, graphQL: forbidden)
        let run = await harness.run(["stargazers", Self.repository, "--via", "graphql"])
        #expect(run.status == 4)
        #expect(run.out.isEmpty)
        let rule = "since July 2026 GitHub lists a repository's stargazers only to its admins"
        #expect(run.err.contains(rule), "\(run.err)")
        #expect(run.err.contains("(GitHub said: Resource not accessible by personal access token)"), "\(run.err)")
        // A token GitHub refuses (401) is no withheld list: said as a refused token, as REST's 401 is.
        let revoked = CommandHarness.signedIn()
        revoked.http.register(
            RequestMatcher("POST /graphql"), status: 401, headers: [],
            body: Data(#"{"message":"Bad credentials"}"#.utf8))
        let refused = await revoked.run(["stargazers", Self.repository, "--via", "graphql"])
        #expect(refused.status == 4 && !refused.err.contains("July 2026"), "\(refused.err)")
        // Nor is a FORBIDDEN at the repository itself (an IP allow list's), or a 403 of the endpoint.
        let allowList = CommandHarness.signedIn()
        Self.register(allowList, graphQL: forbidden.replacing(#","stargazers"]"#, with: "]"))
        let listed = await allowList.run(["stargazers", Self.repository, "--via", "graphql"])
        #expect(listed.status == 4 && !listed.err.contains("July 2026"), "\(listed.err)")
        let endpoint = CommandHarness.signedIn()
        endpoint.http.register(
            RequestMatcher("POST /graphql"), status: 403, headers: [],
            body: Data(#"{"message":"Request forbidden by administrative rules."}"#.utf8))
        let ruled = await endpoint.run(["stargazers", Self.repository, "--via", "graphql"])
        #expect(ruled.status == 4 && !ruled.err.contains("July 2026"), "\(ruled.err)")
    }

    /// A GitHub of a few lines for a repository past REST's cap: `GET /repos/{owner}/{repo}` counts `counts(n)`
    /// stargazers when it is the n-th request (from 0); REST's list pages users from 1, `per_page` a page (100
    /// unless asked), linking up to page 400 only, as GitHub does; GraphQL pages `graphQL` 100 at a time (nil: a
    /// POST is a 500).
    static func script(
        _ http: StubTransport, counts: @escaping @Sendable (Int) -> Int, graphQL: [Int64]?, shiftedPage: Int? = nil
    ) {
        http.answerEvery { request, index in
            let url = request.url
            func answer(_ body: Data, _ headers: [(name: String, value: String)] = [], status: Int = 200)
                -> HTTPResponse
            {
                HTTPResponse(status: status, headers: HTTPHeaders(headers), body: body, url: url)
            }
            if url.path.hasSuffix("/Hello-World") { return answer(repositoryCounting(counts(index))) }
            if request.method == .post {
                guard let graphQL else { return answer(Data(), status: 500) }
                let query = String(decoding: request.body ?? Data(), as: UTF8.self)
                let start =
                    query.firstRange(of: #"after: \"p"#).flatMap { range in
                        Int(query[range.upperBound...].prefix { $0.isNumber })
                    } ?? 0
                let page = graphQL[start..<min(graphQL.count, start + 100)]
                let next = start + 100 < graphQL.count ? "p\(start + 100)" : nil
                return answer(Data(graphQLPage(page, total: graphQL.count, next: next).utf8))
            }
            let query = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
            func value(_ name: String) -> Int? { query.first { $0.name == name }.flatMap { Int($0.value ?? "") } }
            let number = value("page") ?? 1
            let size = value("per_page") ?? 100
            // A shifted page starts one early: its first repeats the page before's last, and its last is left out.
            let shift = number == shiftedPage ? 1 : 0
            let records = (((number - 1) * size + 1 - shift)...(number * size - shift)).map(restRecord)
            let next = "https://api.github.com/repos/\(repository)/stargazers?per_page=\(size)&page=\(number + 1)"
            let link = number < 400 ? [(name: "Link", value: "<\(next)>; rel=\"next\"")] : []
            return answer(Data(("[" + records.joined(separator: ",") + "]").utf8), link)
        }
    }

    /// REST ends at its 400th page while the repository now counts more (stars added during the run): the
    /// list goes on through GraphQL from its start, skipping every stargazer REST gave by id. Meanwhile user 5
    /// unstarred and three starred: REST's 4,000 are written once, then the three, and no one twice. Before:
    /// 4,000 and a quiet end. At 10 a page REST's 400 pages reach 4,000 (at 100, 40,000: the same run with ten
    /// times the records to read, which `aCountPastRESTsReachIsReadThroughGraphQLFromTheStart` covers).
    @Test func restEndingAtItsCapGoesOnThroughGraphQLWithNoneTwiceAndNoneLeftOut() async throws {
        let harness = CommandHarness.signedIn()
        Self.script(
            harness.http, counts: { $0 == 0 ? 4_000 : 4_003 }, graphQL: (1...Int64(4_003)).filter { $0 != 5 })
        let run = await harness.run([
            "stargazers", Self.repository, "--all", "--per-page", "10", "--format", "ndjson",
        ])
        #expect(run.status == 0)
        let written = Self.ids(run.out)
        #expect(written.count == 4_003)
        #expect(Set(written).count == written.count)
        // Compared as a Bool, so a failure does not print 4,000 ids.
        #expect(written.elementsEqual(1...Int64(4_003)))
        // The reach that applied, 400 pages of 10 (before: "stops at 40,000 (400 pages)").
        #expect(
            run.err
                == "gh-users: GitHub's REST list of stargazers stopped at 4,000 (400 pages of 10) while the repository "
                + "counted more (stars added during the run), so the rest were read through GraphQL.\n")
        // The count before REST and again after its 400th page, then GraphQL.
        let sent = harness.http.received
        #expect(sent.filter { $0.url.path.hasSuffix("/Hello-World") }.count == 2)
        #expect(sent.filter { $0.url.path.hasSuffix("/stargazers") }.count == 400)
        #expect(sent.contains { $0.method == .post })
    }

    /// REST's 400 pages of a list that shifted (page 2 starts one early: user 10 twice, user 20 never) meet its
    /// reach with 3,999 stargazers, and the repository counts 4,001: GraphQL goes on, and 20 and 4,001 are
    /// written. Before, the reach counted ids: 3,999 fell short of it, and the run ended there, exit 0
    /// (helper-240).
    @Test func aListThatShiftedUnderRESTStillGoesOnThroughGraphQL() async throws {
        let harness = CommandHarness.signedIn()
        Self.script(
            harness.http, counts: { $0 == 0 ? 4_000 : 4_001 }, graphQL: Array(1...Int64(4_001)), shiftedPage: 2)
        let run = await harness.run([
            "stargazers", Self.repository, "--all", "--per-page", "10", "--format", "ndjson",
        ])
        #expect(run.status == 0, "\(run.err)")
        let written = Self.ids(run.out)
        #expect(written.count == 4_001)
        // Compared as a Bool, so a failure does not print 4,000 ids.
        let everyone = Set(written) == Set(1...Int64(4_001))
        #expect(everyone)
        #expect(harness.http.received.contains { $0.method == .post })
    }

    /// A --limit above REST's reach that its 400 pages leave short goes on through GraphQL as --all does, and
    /// stops at the limit: the note is the same, and true.
    @Test func aLimitPastRESTsReachGoesOnThroughGraphQLToTheLimit() async throws {
        let harness = CommandHarness.signedIn()
        Self.script(
            harness.http, counts: { $0 == 0 ? 4_000 : 4_003 }, graphQL: (1...Int64(4_003)).filter { $0 != 5 })
        let run = await harness.run([
            "stargazers", Self.repository, "--limit", "4002", "--per-page", "10", "--format", "ndjson",
        ])
        #expect(run.status == 0)
        #expect(Self.ids(run.out).elementsEqual(1...Int64(4_002)))
        #expect(run.err.hasPrefix("gh-users: GitHub's REST list of stargazers stopped at 4,000 (400 pages of 10)"))
        #expect(harness.http.received.filter { $0.url.path.hasSuffix("/Hello-World") }.count == 2)
        #expect(harness.http.received.contains { $0.method == .post })
    }

    /// A --limit that REST's 400 pages meet (4,000 at 10 a page, as 40,000 at 100) ends with REST's 400th page:
    /// nothing more is wanted, so neither the count nor GraphQL is asked (the script answers a POST with a 500),
    /// whatever the repository counts, and nothing is said. Before: a `GET /repos/{owner}/{repo}` after the 400th
    /// page, and "stopped at 4,000 (400 pages of 10) ... so the rest were read through GraphQL" on stderr, though
    /// GraphQL was never asked.
    @Test func aLimitRESTsReachMeetsAsksNoCountAndSaysNothing() async throws {
        let harness = CommandHarness.signedIn()
        Self.script(harness.http, counts: { _ in 4_003 }, graphQL: nil)
        let run = await harness.run([
            "stargazers", Self.repository, "--limit", "4000", "--per-page", "10", "--format", "ndjson",
        ])
        #expect(run.status == 0)
        #expect(Self.ids(run.out).elementsEqual(1...Int64(4_000)))
        #expect(run.err.isEmpty, "\(run.err)")
        // REST's 400 pages, and nothing else.
        let sent = harness.http.received
        #expect(sent.count == 400)
        #expect(sent.allSatisfy { $0.method == .get && $0.url.path.hasSuffix("/stargazers") })
    }

    /// A repository with exactly as many stargazers as REST's 400 pages hold (4,000 at 10 a page) ends with
    /// REST's 400th page: its count says nothing is left, so GraphQL is not asked (the script answers a POST with
    /// a 500).
    @Test func restEndingAtItsCapWithNothingMoreCountedEnds() async throws {
        let harness = CommandHarness.signedIn()
        Self.script(harness.http, counts: { _ in 4_000 }, graphQL: nil)
        let run = await harness.run([
            "stargazers", Self.repository, "--all", "--per-page", "10", "--format", "ndjson",
        ])
        #expect(run.status == 0)
        #expect(Self.ids(run.out).count == 4_000)
        #expect(run.err.isEmpty)
        #expect(!harness.http.received.contains { $0.method == .post })
    }

    /// Under `--full` each stargazer is its profile, with the list's own key (`starred_at`) added at its top
    /// level, after the profile's own keys: GitHub's documented profile of octocat and its documented star.
    @Test func underFullEachStargazerIsItsProfileWithStarredAt() async {
        let harness = CommandHarness.signedIn()
        harness.expect(
            "GET /repos/\(Self.repository)/stargazers?per_page=30", accept: Self.star,
            body: "activity-list-stargazers-for-repo")
        harness.expect("GET /users/octocat", body: "users-get-by-username")
        let run = await harness.run(["stargazers", Self.repository, "--full", "--format", "json"])
        #expect(run.status == 0)
        let profile = Bodies.compact("users-get-by-username")
        #expect(
            Bodies.compact(Array(run.out.utf8)) == "[" + profile.dropLast() + #","starred_at":"2011-01-16T19:06:43Z"}]"#
        )
    }

    /// `--fields` takes `starred_at` beside a profile's keys under `--full`, and refuses `user`, which a
    /// profile has not.
    @Test func underFullTheFieldsAreAProfilesAndStarredAt() async {
        let harness = CommandHarness.signedIn()
        harness.expect(
            "GET /repos/\(Self.repository)/stargazers?per_page=30", accept: Self.star,
            body: "activity-list-stargazers-for-repo")
        harness.expect("GET /users/octocat", body: "users-get-by-username")
        let run = await harness.run([
            "stargazers", Self.repository, "--full", "--format", "tsv", "--fields", "login,name,starred_at",
        ])
        #expect(run.status == 0)
        #expect(run.out == "octocat\tmonalisa octocat\t2011-01-16T19:06:43Z\n")
        let refused = await CommandHarness.signedIn().run(["stargazers", Self.repository, "--full", "--fields", "user"])
        #expect(refused.status == 64)
        #expect(refused.err.contains("the field 'user' is not in a profile"))
    }

    /// `--full --via graphql` reads the list and the profiles through GraphQL: one query for the page, one
    /// batch for the profiles; `starred_at` is added as under REST.
    @Test func fullViaGraphQLReadsTheListAndTheProfilesThroughGraphQL() async {
        let harness = CommandHarness.signedIn()
        Self.register(harness, graphQL: Self.graphQLPage([1], total: 1, next: nil))
        Self.register(
            harness,
            graphQL: graphQLProfiles([graphQLOwner(1, "octocat", name: "monalisa octocat", followers: 20)]))
        let run = await harness.run([
            "stargazers", Self.repository, "--full", "--via", "graphql", "--format", "tsv", "--fields",
            "login,name,followers,starred_at",
        ])
        #expect(run.status == 0)
        #expect(run.out == "octocat\tmonalisa octocat\t20\t2011-01-16T19:06:43Z\n")
    }

    /// `login` is the stargazer's login (`user.login`), as on every people list, in every format; a field only
    /// a profile has is a usage error that names the list's own fields. Before: blank lines, `{"login": null}`.
    @Test func loginIsTheStargazersLogin() async {
        let expected = [
            ("csv", "login\r\noctocat\r\n"), ("tsv", "octocat\n"), ("ndjson", #"{"login":"octocat"}"# + "\n"),
        ]
        for (format, output) in expected {
            let harness = CommandHarness.signedIn()
            harness.expect(
                "GET /repos/\(Self.repository)/stargazers?per_page=30", accept: Self.star,
                body: "activity-list-stargazers-for-repo")
            let run = await harness.run(["stargazers", Self.repository, "--format", format, "--fields", "login"])
            #expect(run.status == 0, "\(run.err)")
            #expect(run.out == output)
        }
        let refused = await CommandHarness.signedIn().run(["stargazers", Self.repository, "--fields", "login,id"])
        #expect(refused.status == 64)
        #expect(
            refused.err.hasPrefix(
                "Error: the field 'id' is in a profile, not in this list: add --full, or choose among this list's "
                    + "fields: login, starred_at, user\n"), "\(refused.err)")
    }

    /// A live table (more pages to come) gives LOGIN the room of the longest login GitHub allows, 39 columns,
    /// as every people list does, not the rest of the terminal: before, 88 of a 100-column terminal.
    @Test func aLiveTableGivesLoginTheRoomOfALogin() async throws {
        var harness = CommandHarness.signedIn()
        harness.stdoutTTY = true
        harness.width = 100
        Self.script(harness.http, counts: { _ in 40_000 }, graphQL: nil)
        let run = await harness.run(["stargazers", Self.repository, "--limit", "150"])
        #expect(run.status == 0, "\(run.err)")
        let header = try #require(run.out.split(separator: "\n").first).replacing(/\u{1B}\[[0-9;]*m/, with: "")
        #expect(header == "LOGIN" + String(repeating: " ", count: 39 - 5 + 2) + "STARRED", "\(header)")
    }
}
