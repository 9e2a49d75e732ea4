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

/// `followers LOGIN` and `following LOGIN`: their routes, no account twice, an unknown login, and an empty list.
struct FollowersCommandTests {
    @Test func followingNobodyIsAnEmptyArrayAndSuccess() async {
        let harness = CommandHarness()
        harness.expect("GET /users/octocat/following?per_page=30", body: "empty-list")
        let run = await harness.run(["following", "octocat", "--json"])
        #expect(run.status == 0)
        #expect(run.out == "[]\n")
        #expect(run.err.isEmpty)
    }

    /// A crawl that fails after a page came is still one JSON document, though every account on that page was
    /// gone by the time its profile was read (before: nothing at all on stdout).
    @Test func aFullCrawlThatFailsAfterAPageOfTheGoneIsStillADocument() async {
        let harness = CommandHarness()
        harness.http.answerPages("/users/x/followers?per_page=100", [[1, 2]], failing: 422)
        // Gone by login, and by id (a renamed account is found so).
        for id in [1, 2] {
            harness.http.refuse("GET /users/user\(id)", status: 404, message: "Not Found")
            harness.http.refuse("GET /user/\(id)", status: 404, message: "Not Found")
        }
        let run = await harness.run(["followers", "x", "--all", "--full", "--json"])
        #expect(run.status == 1, "\(run.err)")
        #expect(run.out == "[]\n", "\(run.out)")
        // A page refused for the output's own --fields begins no document: nothing is written, as for show.
        let refused = CommandHarness()
        refused.expect("GET /users/x/followers?per_page=30", body: "users-list-followers-for-user")
        let fields = await refused.run(["followers", "x", "--json", "--fields", "login.x"])
        #expect(fields.status == 1, "\(fields.err)")
        #expect(fields.out.isEmpty, "\(fields.out)")
    }

    /// A list that fails on a later page keeps the records before it, and stderr says they are part of the list:
    /// exit 1 alone told a person nothing (`list`, which can resume, says where from instead).
    @Test func aListThatFailsOnALaterPageSaysItIsIncomplete() async {
        let harness = CommandHarness()
        harness.http.answerPages("/users/x/followers?per_page=100", [[1, 2, 3]], failing: 500)
        let run = await harness.run(["followers", "x", "--all", "--format", "tsv", "--fields", "login"])
        #expect(run.status == 1, "\(run.err)")
        #expect(run.out == "user1\nuser2\nuser3\n")
        #expect(
            run.err.hasSuffix("The output holds the first 3 followers only: the list is incomplete.\n"), "\(run.err)")
    }

    @Test func followersAndFollowing() throws {
        let login = try Login(validating: "octocat")
        #expect(
            route("followers octocat")
                == .followers(FollowListOptions(login: login), CommonOptions()))
        var following = FollowListOptions(login: login)
        following.paging.limit = .all
        #expect(route("following octocat --all") == .following(following, CommonOptions()))
    }

    @Test func followersNeverRepeatAnAccountWhenPagesShift() async throws {
        let users = StubTransport()
        users.answer(
            "GET /users/octocat/followers?per_page=100", accounts: [1, 2], next: "/user/1/followers?page=2")
        users.answer("GET /user/1/followers?page=2", accounts: [2, 3])
        let (env, out, _) = AppEnvironment.test(http: users)
        #expect(await run(["followers", "octocat", "--all", "--json"], env) == 0)
        let ids = try #require(try JSONSerialization.jsonObject(with: Data(out.text.utf8)) as? [[String: Any]])
            .compactMap { $0["id"] as? Int }
        #expect(ids == [1, 2, 3])
    }

    @Test func anUnknownLoginIsExitThree() async {
        let users = StubTransport()
        users.refuse("GET /users/ghost/following?per_page=30", status: 404, message: "Not Found")
        let (env, out, err) = AppEnvironment.test(http: users)
        #expect(await run(["following", "ghost"], env) == 3)
        #expect(out.text.isEmpty)
        #expect(err.text == "gh-users: no user 'ghost' (HTTP 404)\n")
    }
}
