import AtomicCore
import Domain
import Foundation
import TestSupport
import Testing

@testable import gh_users

private func run(_ arguments: [String], _ env: AppEnvironment) async -> Int32 {
    await GhUsersApp(environment: env).run(arguments)
}

/// GitHub's profile cut to the fields the follow graph reads: its two counts.
private func profile(_ login: String, followers: Int, following: Int) -> String {
    #"{"login":"\#(login)","id":1,"followers":\#(followers),"following":\#(following)}"#
}

private let token = ["GH_TOKEN": "t"]

struct FollowsTests {
    @Test func aYesIsZeroAndCostsOneRequest() async {
        let github = StubTransport()
        github.answer("GET /users/alice/following/bob", status: 204, json: "")
        let (env, out, _) = AppEnvironment.test(http: github, stdoutTTY: true)
        #expect(await run(["follows", "alice", "bob"], env) == 0)
        #expect(out.text == "alice follows bob.\n")
        #expect(github.calls == ["GET /users/alice/following/bob"])
    }

    @Test func anUnknownAccountIsThreeAndAGeneralFailureIsTwo() async {
        let github = StubTransport()
        github.refuse("GET /users/alice/following/ghost", status: 404, message: "Not Found")
        github.answer("GET /users/alice", json: account(1, "alice"))
        github.refuse("GET /users/ghost", status: 404, message: "Not Found")
        let (env, out, err) = AppEnvironment.test(http: github)
        #expect(await run(["follows", "alice", "ghost"], env) == 3)
        #expect(out.text.isEmpty)
        #expect(err.text.contains("no user 'ghost'"))
        let broken = StubTransport()
        for _ in 0..<StubTransport.attemptsWithDefaultRetries {
            broken.fail("https://api.github.com/users/a/following/b", with: .connectionLost)
        }
        let (env2, _, _) = AppEnvironment.test(http: broken)
        #expect(await run(["follows", "a", "b"], env2) == 2)
    }

    /// A token problem and a spent rate limit keep their own statuses, as `follows --help`, README and USAGE say.
    @Test func aRefusedTokenIsFourAndASpentLimitFive() async {
        let refused = StubTransport()
        refused.refuse("GET /users/a/following/b", status: 401, message: "Bad credentials")
        #expect(await run(["follows", "a", "b"], AppEnvironment.test(http: refused).0) == 4)
        let limited = StubTransport()
        limited.refuseAsRateLimited("GET /users/a/following/b")
        #expect(await run(["follows", "a", "b"], AppEnvironment.test(http: limited).0) == 5)
    }
}

struct FollowGraphSetTests {
    private func graph(followers: [Int64], following: [Int64]) -> StubTransport {
        let github = StubTransport()
        github.answer("GET /users/me", json: profile("me", followers: followers.count, following: following.count))
        github.answer("GET /users/me/followers?per_page=100", accounts: followers)
        github.answer("GET /users/me/following?per_page=100", accounts: following)
        return github
    }

    private func ids(_ text: String) -> [String] {
        text.split(separator: "\n").map { String($0.split(separator: "\t")[0]) }
    }

    @Test(arguments: [
        // The other list smaller (held as ids) and larger (the output held as records): the same answers.
        ([Int64](1...6), [Int64]([2, 4, 9])), ([2, 4, 9], [Int64](1...6)),
    ])
    func setOperationsAgreeWhicheverListIsHeld(first: [Int64], second: [Int64]) async {
        for (arguments, expected) in [
            (["followers", "me", "--mutual"], first.filter(second.contains)),
            (["followers", "me", "--not-followed-back"], first.filter { !second.contains($0) }),
            (["following", "me", "--not-following-back"], second.filter { !first.contains($0) }),
        ] {
            let github = graph(followers: first, following: second)
            let (env, out, err) = AppEnvironment.test(http: github)
            #expect(await run(arguments, env) == 0, "\(arguments) \(err.text)")
            #expect(ids(out.text) == expected.map(String.init), "\(arguments)")
            #expect(github.problems.isEmpty, "\(github.problems)")
        }
    }

    /// A set keeps some of what it reads, so it reads full pages whatever `--limit` says: `--mutual --limit 1`
    /// read the followers one a request (1,235 requests for 1,233 followers), as `repos --forks` does not.
    @Test func aSetReadsFullPagesWhateverItsLimit() async {
        let github = graph(followers: Array(1...6), following: [2, 4, 9])
        let (env, out, err) = AppEnvironment.test(http: github)
        #expect(await run(["followers", "me", "--mutual", "--limit", "1"], env) == 0, "\(err.text)")
        #expect(ids(out.text) == ["2"])
        #expect(github.problems.isEmpty, "\(github.problems)")
    }

    @Test func aListIsBoundByItsProfilesCountAndAMarginUpToTheMost() {
        #expect(FollowGraph.bound(forCount: 0) == 1_000)
        #expect(FollowGraph.bound(forCount: 3) == 1_003)
        #expect(FollowGraph.bound(forCount: 50_000) == 55_000)
        // A profile's count is GitHub's word: a huge one neither traps nor lifts the bound past the most
        // gh-users reads of one list.
        #expect(FollowGraph.bound(forCount: 1_900_000) == 2_000_000)
        #expect(FollowGraph.bound(forCount: 2_000_000) == 2_000_000)
        #expect(FollowGraph.bound(forCount: Int.max) == 2_000_000)
        #expect(FollowGraph.bound(forCount: nil) == 1_000_000)
        #expect(FollowGraph.bound(forCount: -5) == 1_000_000)
    }

    @Test func aHeldListPastItsBoundStopsWithStatusOneAndWritesNothing() async {
        // The profile says 2 followers; the list brings 1,100 on one long page.
        let github = StubTransport()
        github.answer("GET /users/me", json: profile("me", followers: 2, following: 50))
        github.answer("GET /users/me/followers?per_page=100", accounts: Array(1...1_100))
        github.answer("GET /users/me/following?per_page=100", accounts: [1])
        let (env, out, err) = AppEnvironment.test(http: github)
        #expect(await run(["followers", "me", "--mutual", "--all"], env) == 1)
        #expect(out.text.isEmpty)
        #expect(
            err.text
                == "gh-users: me's followers ran past 1002 accounts (the 2 its profile counts, plus a margin of 1000), "
                + "so --mutual stopped rather than read a list that does not end\n")
    }

    /// A set worked out from an other list that came back empty while the profile counts people in it is
    /// refused: `--not-following-back` would be everyone followed, and the documented clean-up pipeline would
    /// unfollow them all (before: all 3 listed, exit 0). Held or streamed, the other list is checked.
    @Test(arguments: [(following: 3, followers: 25), (following: 30, followers: 2)])
    func aSetFromAnOtherListThatCameBackEmptyIsRefused(following: Int, followers: Int) async {
        let github = StubTransport()
        github.answer("GET /users/me", json: profile("me", followers: followers, following: following))
        github.answer("GET /users/me/followers?per_page=100", accounts: [])
        github.answer("GET /users/me/following?per_page=100", accounts: Array(1...Int64(following)))
        let (env, out, err) = AppEnvironment.test(http: github)
        #expect(await run(["following", "me", "--not-following-back", "--all"], env) == 1)
        #expect(out.text.isEmpty)
        #expect(
            err.text
                == "gh-users: me's followers came back empty while the profile counts \(followers), so the set was "
                + "not worked out: GitHub answers an empty list for one the token may not see\n", "\(err.text)")
    }

    @Test func aHeldListWhoseLinkComesBackIsRefusedNotCut() async {
        // The following (held): [1] → g2 [2] → back to g2. Cut there, 3 would be "not followed back" wrongly.
        let github = StubTransport()
        github.answer("GET /users/me", json: profile("me", followers: 3, following: 3))
        let g2 = "/users/me/following?per_page=100&page=2"
        github.answer("GET /users/me/following?per_page=100", accounts: [1], next: g2)
        github.answer("GET " + g2, accounts: [2], next: g2)
        github.answer("GET /users/me/followers?per_page=100", accounts: [1, 2, 3])
        let (env, out, err) = AppEnvironment.test(http: github)
        #expect(await run(["followers", "me", "--not-followed-back"], env) == 1)
        #expect(out.text.isEmpty)
        #expect(err.text.contains("the next page's link or cursor leads back to a page already read"), "\(err.text)")
    }

    @Test func aHeldListFollowsAnEmptyPageWithANextLinkAndANegativeCountIsNoBound() async {
        // The following (held): [1], an empty page, then [3]; the profile's counts are nonsense (negative).
        let github = StubTransport()
        github.answer("GET /users/me", json: profile("me", followers: -1, following: Int.min))
        let g2 = "/users/me/following?per_page=100&page=2"
        let g3 = "/users/me/following?per_page=100&page=3"
        github.answer("GET /users/me/following?per_page=100", accounts: [1], next: g2)
        github.answer("GET " + g2, accounts: [], next: g3)
        github.answer("GET " + g3, accounts: [3])
        github.answer("GET /users/me/followers?per_page=100", accounts: [1, 2, 3])
        let (env, out, err) = AppEnvironment.test(http: github)
        #expect(await run(["followers", "me", "--mutual"], env) == 0, "\(err.text)")
        // Before: the empty page ended the held list, and 3 was taken for not followed back.
        #expect(ids(out.text) == ["1", "3"])
    }

    @Test func withoutALoginItIsTheTokensOwnAndNeedsAToken() async {
        let github = StubTransport()
        github.answer("GET /user/followers?per_page=30", accounts: [5])
        let (env, out, _) = AppEnvironment.test(http: github, environment: token)
        #expect(await run(["followers"], env) == 0)
        #expect(ids(out.text) == ["5"])
        let (anonymous, nothing, err) = AppEnvironment.test()
        #expect(await run(["following"], anonymous) == 4)
        #expect(nothing.text.isEmpty)
        #expect(err.text.contains("needs a token"))
    }

    @Test func theFiltersBelongToTheirSide() throws {
        let router = CommandRouter()
        #expect(router.route(["following", "me", "--mutual"]) != .help(.topLevel))
        guard case .usageError(let error) = router.route(["following", "me", "--mutual"]) else {
            Issue.record("--mutual was accepted by following")
            return
        }
        #expect(error.message.contains("--mutual"))
        guard case .usageError(let both) = router.route(["followers", "me", "--mutual", "--not-followed-back"]) else {
            Issue.record("two filters were accepted")
            return
        }
        #expect(both.message == "--mutual and --not-followed-back cannot be used together")
    }
}

struct FollowChangeTests {
    @Test func aDryRunPrintsEachRequestAndSendsNone() async {
        let github = StubTransport()
        let (env, out, _) = AppEnvironment.test(http: github)
        #expect(await run(["unfollow", "--dry-run", "alice", "bob"], env) == 0)
        #expect(
            out.text
                == "DELETE https://api.github.com/user/following/alice\nDELETE https://api.github.com/user/following/bob\n"
        )
        #expect(github.calls.isEmpty)
    }

    @Test func unfollowingSeveralWithoutATerminalNeedsYesBeforeAnythingIsSent() async {
        let github = StubTransport()
        let (env, out, err) = AppEnvironment.test(http: github, environment: token)
        #expect(await run(["unfollow", "alice", "bob"], env) == 64)
        #expect(out.text.isEmpty)
        #expect(err.text.contains("needs --yes"))
        #expect(github.calls.isEmpty)
    }

    @Test func loginsFromStdinSkipBlanksAndCommentsAndAreValidatedFirst() async {
        let github = StubTransport()
        github.answer("PUT /user/following/alice", status: 204, json: "")
        github.answer("PUT /user/following/bob", status: 204, json: "")
        let (io, out, _) = IOStreams.test(stdin: "alice\n\n# a comment\nbob\n")
        var (env, _, _) = AppEnvironment.test(http: github, environment: token)
        env.io = io
        // The writes are a second apart: the clock sees the one wait between them, and the test never sleeps.
        let clock = TickingClock(step: .zero)
        env.writeClock = clock.clock
        #expect(await run(["follow", "-", "--format", "tsv"], env) == 0)
        #expect(clock.waits == [.seconds(1)])
        #expect(github.calls == ["PUT /user/following/alice", "PUT /user/following/bob"])
        #expect(out.text == "alice\tfollow\tfollowed\nbob\tfollow\tfollowed\n")
        let (bad, _, err) = IOStreams.test(stdin: "alice\nnot a login\n")
        var (env2, _, _) = AppEnvironment.test(environment: token)
        env2.io = bad
        #expect(await run(["follow", "-"], env2) == 64)
        #expect(err.text.contains("line 2 of stdin"))
    }

    /// `following --not-following-back … | unfollow --yes -` with nobody to unfollow is nothing to do: exit 0,
    /// a note on stderr, the output's shape (an empty array), and nothing sent. Before, it was exit 64, "no
    /// logins on stdin", so the clean-up job failed once everyone followed back.
    @Test(arguments: ["", "# nobody\n\n"])
    func noLoginsOnStdinIsNothingToDo(stdin: String) async {
        for command in ["unfollow", "follow", "block"] {
            let github = StubTransport()
            let (io, out, err) = IOStreams.test(stdin: stdin)
            var (env, _, _) = AppEnvironment.test(http: github, environment: token)
            env.io = io
            #expect(await run([command, "--yes", "-", "--json"], env) == 0)
            #expect(out.text == "[]\n")
            #expect(err.text == "gh-users: no logins on stdin (one a line; # starts a comment): nothing to do\n")
            #expect(github.calls.isEmpty)
        }
        // The checks every write makes come first, so the status does not depend on the data: --offline is 64
        // and no token 4, as with a login (before: 0 for an empty stdin).
        for (arguments, environment, status) in [
            (["unfollow", "--yes", "-", "--offline"], token, Int32(64)), (["follow", "-"], [:], 4),
        ] {
            let github = StubTransport()
            let (io, out, _) = IOStreams.test(stdin: stdin)
            var (env, _, _) = AppEnvironment.test(http: github, environment: environment)
            env.io = io
            #expect(await run(arguments, env) == status, "\(arguments)")
            #expect(out.text.isEmpty)
            #expect(github.calls.isEmpty)
        }
    }

    @Test func aMissingScopeStopsAtTheFirstRefusalAndSaysWhatIsLeft() async {
        let github = StubTransport()
        github.refuse(
            "PUT /user/following/alice", status: 403, message: "Forbidden",
            headers: [("X-OAuth-Scopes", "read:user"), ("X-Accepted-OAuth-Scopes", "user, user:follow")])
        let (env, out, err) = AppEnvironment.test(http: github, environment: token)
        #expect(await run(["follow", "alice", "bob", "--format", "tsv"], env) == 4)
        #expect(github.calls == ["PUT /user/following/alice"])
        #expect(out.text.contains("bob\tfollow\tnot sent"))
        #expect(err.text.contains("user:follow"))
        // alice was refused, so she is left to do as much as bob is.
        #expect(
            err.text.hasSuffix(
                "To finish, with a token with the user:follow scope: gh-users follow --yes --format tsv alice bob\n"),
            "\(err.text)")
    }

    @Test func everyAccountUnknownIsThreeAndAMixIsOne() async {
        let github = StubTransport()
        for _ in 0..<2 {
            github.refuse("PUT /user/following/ghost", status: 404, message: "Not Found")
            github.refuse("GET /users/ghost", status: 404, message: "Not Found")
        }
        github.answer("PUT /user/following/alice", status: 204, json: "")
        let (env, _, _) = AppEnvironment.test(http: github, environment: token)
        #expect(await run(["follow", "ghost"], env) == 3)
        let (mixed, out, _) = AppEnvironment.test(http: github, environment: token)
        #expect(await run(["follow", "ghost", "alice", "--format", "tsv"], mixed) == 1)
        #expect(out.text == "ghost\tfollow\tno such account\nalice\tfollow\tfollowed\n")
    }

    @Test func aFourOhFourForAnAccountThatExistsIsAMissingScope() async {
        let github = StubTransport()
        github.refuse("DELETE /user/following/alice", status: 404, message: "Not Found")
        github.answer("GET /users/alice", json: account(1, "alice"))
        let (env, _, err) = AppEnvironment.test(http: github, environment: token)
        #expect(await run(["unfollow", "alice"], env) == 4)
        #expect(err.text.contains("user:follow"))
    }
}

struct FollowChangePromisesTests {
    /// The write under way when Ctrl-C came may or may not have reached GitHub; following again is harmless.
    @Test func aWriteInFlightWhenInterruptedIsLeftToFinish() async {
        let github = StubTransport()
        github.answer("PUT /user/following/alice", status: 204, json: "")
        github.fail("https://api.github.com/user/following/bob", with: .cancelled)
        let (env, out, err) = AppEnvironment.test(http: github, environment: token)
        #expect(await run(["follow", "alice", "bob", "carol", "--format", "tsv"], env) == 130)
        #expect(out.text == "alice\tfollow\tfollowed\nbob\tfollow\tinterrupted\ncarol\tfollow\tnot sent\n")
        #expect(err.text.contains("1 done, 1 not sent, bob interrupted in flight"), "\(err.text)")
        #expect(err.text.contains("To finish: gh-users follow --yes --format tsv bob carol\n"), "\(err.text)")
    }

    @Test func anUnfollowFromStdinAsksOnTheTerminalAfterListingTheAccounts() async {
        for (answer, sent) in [("y", 2), ("n", 0)] {
            let github = StubTransport()
            github.answer("DELETE /user/following/alice", status: 204, json: "")
            github.answer("DELETE /user/following/bob", status: 204, json: "")
            var (io, out, err) = IOStreams.test(stderrTTY: true, stdin: "alice\nbob\n", terminal: answer + "\n")
            io.stdinIsTTY = false
            var (env, _, _) = AppEnvironment.test(http: github, environment: token)
            env.io = io
            let status = await run(["unfollow", "-", "--format", "tsv"], env)
            #expect(status == (sent > 0 ? 0 : 1), "\(err.text)")
            #expect(err.text.hasPrefix("To unfollow: alice, bob\nUnfollow 2 accounts? [y/N] "), "\(err.text)")
            #expect(github.calls.count == sent)
            #expect(out.text.isEmpty == (sent == 0))
        }
    }

    /// Ctrl-D at the question ends the input with no newline: the refusal starts a line of its own. It was
    /// "Unfollow 2 accounts? [y/N] gh-users: not confirmed; nothing was sent" (helper-360).
    @Test func endOfInputAtTheQuestionEndsItsLine() async {
        let github = StubTransport()
        var (io, _, err) = IOStreams.test(stderrTTY: true, stdin: "alice\nbob\n", terminal: "")
        io.stdinIsTTY = false
        io.readLine = { nil }
        var (env, _, _) = AppEnvironment.test(http: github, environment: token)
        env.io = io
        #expect(await run(["unfollow", "-", "--format", "tsv"], env) == 1)
        #expect(
            err.text.hasSuffix("Unfollow 2 accounts? [y/N] \ngh-users: not confirmed; nothing was sent\n"),
            "\(err.text)")
        #expect(github.calls.isEmpty)
    }

    @Test func withoutATerminalTheErrorPointsAtUnfollowsHelp() async {
        let github = StubTransport()
        let (env, _, err) = AppEnvironment.test(http: github, environment: token)
        #expect(await run(["unfollow", "alice", "bob"], env) == 64)
        #expect(err.text.contains("See 'gh-users unfollow --help'."), "\(err.text)")
        #expect(github.calls.isEmpty)
    }

    @Test func followNeverClaimsToNeedYes() {
        let help = HelpRenderer.render(Command(FollowCommand.self).spec, width: 100)
        #expect(!help.contains("required without a terminal"))
        #expect(help.contains("follow never asks"))
    }
}

/// The set operation's bound on the streamed output list, counted from several tasks at once, as a view model
/// asking pages ahead would count it (the set's asks none today): every page is counted once, and the page past
/// the bound, and only it, fails. Without the lock, a lost count let that page through.
struct FollowGraphStateStressTests {
    @Test func pagesCountedFromManyTasksAtOnceAreEachCountedOnce() async {
        let tasks = 8
        let pagesEach = Stress.rounds(4) * 5_000
        let state = FollowGraphState()
        let page = Page(items: [makeUser(1)], next: nil)
        state.hold([], outputLimit: tasks * pagesEach, failure: .refused("over the bound"))
        let failures = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<tasks {
                group.addTask {
                    var failed = 0
                    for _ in 0..<pagesEach {
                        do throws(DomainError) { _ = try state.counted(page, of: .followers) } catch { failed += 1 }
                    }
                    return failed
                }
            }
            return await group.reduce(0, +)
        }
        #expect(failures == 0)
        // A count that lost an update leaves room here.
        #expect(throws: DomainError.refused("over the bound")) { try state.counted(page, of: .followers) }
    }
}
