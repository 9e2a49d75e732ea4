import AtomicCore
import Domain
import Foundation
import TestSupport
import Testing

@testable import gh_users

/// Issue 19, items 8 and 9: what a spent limit or a refusal says is true for the bucket, the flags given and
/// the answer GitHub sent.
struct RateLimitHintTests {
    private let now = Date(timeIntervalSince1970: 1_700_000_000)
    private let message = "API rate limit exceeded for 127.0.0.1."

    private func present(_ error: DomainError, hasToken: Bool = false, wait: Bool = false, maxWait: Double = 900)
        -> String
    {
        ErrorPresenter(now: now, hasToken: hasToken, waitOnRateLimit: wait, maxWait: maxWait).present(error).message
    }

    @Test func aSpentSearchBucketWithoutATokenNamesTheSearchNumbers() {
        let shown = present(.rateLimited(resetAt: now.addingTimeInterval(40), message: message, resource: "search"))
        #expect(shown.contains("Searches without a token get 10 a minute: set GH_TOKEN for 30."))
        #expect(!shown.contains("60 an hour"))
        #expect(!shown.contains("5,000"))
        let core = present(.rateLimited(resetAt: now.addingTimeInterval(40), message: message, resource: "core"))
        #expect(core.contains("Requests without a token get 60 an hour: set GH_TOKEN for 5,000."))
        #expect(
            !present(.rateLimited(resetAt: nil, message: message, resource: "search"), hasToken: true).contains("token")
        )
    }

    /// A GitHub Enterprise host reads GH_ENTERPRISE_TOKEN alone: the hint names it, not GH_TOKEN, which that host
    /// is never sent, and no github.com numbers, as its administrators set its limits (before: "for 5,000").
    @Test func anEnterpriseHostsHintNamesItsOwnVariable() {
        var presenter = ErrorPresenter(now: now, hasToken: false)
        presenter.tokenOrigin = TokenOrigin(
            source: nil, variables: ["GH_ENTERPRISE_TOKEN", "GITHUB_ENTERPRISE_TOKEN"], enterpriseHost: "ghe.example")
        let shown = presenter.present(.rateLimited(resetAt: nil, message: message, resource: "core")).message
        #expect(
            shown.contains("This server sets its own limits, usually higher with a token: set GH_ENTERPRISE_TOKEN."))
        #expect(!shown.contains("5,000") && !shown.contains("60 an hour"), "\(shown)")
    }

    @Test func noResetTimeMeansAboutAMinute() {
        let shown = present(.rateLimited(resetAt: nil, message: message))
        #expect(shown.contains("GitHub gave no reset time: try again in about a minute."))
        #expect(shown.contains("Add --wait-on-rate-limit to wait for the reset and carry on."))
    }

    /// A `--split` search waits out the search limit without the flag: its hint asks for a longer --max-wait
    /// alone (before: "Add --wait-on-rate-limit", which a split does not need); another bucket still gets the flag.
    @Test func aSplitSearchsHintAsksForMaxWaitAlone() {
        var presenter = ErrorPresenter(now: now, hasToken: true)
        presenter.waitsOutSearchLimit = true
        presenter.maxWait = 2
        let reset = now.addingTimeInterval(30)
        let search = presenter.present(.rateLimited(resetAt: reset, message: message, resource: "search")).message
        #expect(!search.contains("--wait-on-rate-limit"), "\(search)")
        #expect(search.contains("That is longer than --max-wait allows (2s): run again then, or give --max-wait 31"))
        let core = presenter.present(.rateLimited(resetAt: reset, message: message, resource: "core")).message
        #expect(core.contains("Add --wait-on-rate-limit --max-wait 31 to wait for the reset"), "\(core)")
    }

    /// A `--max-wait` with a fraction is echoed as given: "(2s)" for 1.5 named a wait it did not allow (helper-313).
    @Test func aFractionOfASecondIsEchoedAsGiven() {
        let shown = present(
            .rateLimited(resetAt: now.addingTimeInterval(30), message: message), wait: true, maxWait: 1.5)
        #expect(shown.contains("That is longer than --max-wait allows (1.5s): run again then"), "\(shown)")
        // Past a minute, and far below a second, too (helper-321: "1m 31s" and "1e-05s").
        for (given, said) in [(90.5, "90.5s"), (0.00001, "0.00001s"), (0.0000001, "1e-07s")] {
            let echoed = present(
                .rateLimited(resetAt: now.addingTimeInterval(300), message: message), wait: true, maxWait: given)
            #expect(echoed.contains("That is longer than --max-wait allows (\(said)): run again then"), "\(echoed)")
        }
    }

    @Test func neverAsksForWaitOnRateLimitWhenItWasGiven() {
        let shown = present(.rateLimited(resetAt: nil, message: message), wait: true, maxWait: 5)
        #expect(!shown.contains("Add --wait-on-rate-limit"))
        #expect(shown.contains("in about a minute"))
        #expect(
            shown.contains("That is longer than --max-wait allows (5s): run again then, or give --max-wait 60 or more.")
        )
        let reset = present(
            .rateLimited(resetAt: now.addingTimeInterval(600), message: message), wait: true, maxWait: 60)
        #expect(!reset.contains("Add --wait-on-rate-limit"))
        #expect(reset.contains("give --max-wait 601 or more"))
        // Waited within --max-wait and still spent (a server that never resets): no option to give, but the
        // waits said, as exit 5 after a --wait-on-rate-limit otherwise reads as if nothing was waited.
        let waited = present(
            .rateLimited(resetAt: now.addingTimeInterval(30), message: message), wait: true, maxWait: 3660)
        #expect(!waited.contains("--wait-on-rate-limit") && !waited.contains("--max-wait"))
        #expect(waited.contains("gh-users waited for its reset 10 times and it stayed spent: run again later."))
        // The client waits GitHub's minute, not 61 s, where no reset is named, and a second where the reset passed
        // a moment ago: --max-wait 60, or 30, let those waits happen, so they were waited out and are not blamed
        // (before: "longer than --max-wait allows (30s) … give --max-wait 61", after ten one-second waits).
        for (reset, limit) in [(nil, 60.0), (now.addingTimeInterval(-0.5), 30), (now, 1)] as [(Date?, Double)] {
            let spent = present(.rateLimited(resetAt: reset, message: message), wait: true, maxWait: limit)
            #expect(spent.contains("gh-users waited for its reset 10 times"), "\(String(describing: reset)): \(spent)")
            // And the line above says a moment, as the hint does, where the client waits a second.
            #expect(reset == nil || spent.contains("try again in a moment."), "\(spent)")
            #expect(!spent.contains("--max-wait"), "\(spent)")
        }
        // A reset long past here is GitHub's minute: --max-wait 30 did refuse that wait.
        let behind = present(
            .rateLimited(resetAt: now.addingTimeInterval(-300), message: message), wait: true, maxWait: 30)
        #expect(behind.contains("give --max-wait 60 or more"), "\(behind)")
    }

    /// A limit met long after the presenter was made (an hour into a crawl) is worded at that time: the wait
    /// left and the option that stopped it are counted from then (before: from the start of the run, so a 5 s
    /// Retry-After met after 600 s said "in 10m 5s" and blamed --max-wait).
    @Test func aLimitIsWordedAtTheTimeItIsMet() {
        struct Later: PresentationClock {
            let date: Date
            func time() -> Date { date }
        }
        let met = now.addingTimeInterval(600)
        var presenter = ErrorPresenter(now: now, hasToken: true, maxWait: 12)
        presenter.clock = Later(date: met)
        let shown = presenter.present(
            .rateLimited(
                resetAt: met.addingTimeInterval(5), message: "You have exceeded a secondary rate limit.",
                resource: DomainError.secondaryLimit)
        ).message
        #expect(shown.contains(", in 5s."), "\(shown)")
        #expect(shown.contains("(--retries)") && !shown.contains("--max-wait"), "\(shown)")
    }

    /// A write sent once only (`PATCH /user`) is never retried through a secondary limit: the hint says so, and
    /// names no --retries that would change nothing (before: "It was retried 3 times (--retries)").
    @Test func aWriteSentOnceNamesNoRetries() async {
        let harness = CommandHarness.signedIn()
        harness.http.answer(
            "PATCH /user", status: 403, headers: [("Retry-After", "30")],
            json: #"{"message":"You have exceeded a secondary rate limit."}"#)
        let run = await harness.run(["me", "edit", "--bio", "x"])
        #expect(run.status == 5, "\(run.err)")
        #expect(
            run.err.contains("A write is never sent twice, so it was not retried: run it again then."), "\(run.err)")
        #expect(!run.err.contains("--retries") && !run.err.contains("--wait-on-rate-limit"), "\(run.err)")
        #expect(harness.http.received.count == 1)
    }

    /// One report of failures is worded at one time, so a limit every lookup met reads the same each time and is
    /// said once (a fresh-clone CI said it twice, "in 59m 41s" then "in 59m 40s", once the clock ticked between).
    @Test func aReportHeldAtOneTimeSaysTheSameFailureAlike() {
        final class Ticking: PresentationClock, @unchecked Sendable {
            var date: Date
            init(_ date: Date) { self.date = date }
            func time() -> Date {
                date = date.addingTimeInterval(1)
                return date
            }
        }
        var presenter = ErrorPresenter(now: now, hasToken: true)
        presenter.clock = Ticking(now)
        let limit = DomainError.rateLimited(
            resetAt: now.addingTimeInterval(3600), message: message, resource: "graphql")
        #expect(presenter.present(limit) != presenter.present(limit))
        let held = presenter.heldAtNow()
        #expect(held.present(limit) == held.present(limit))
    }

    /// A reset already past is not "in 0s": it says so, and the wait is GitHub's minute. No clock is blamed: a reset
    /// is moved onto this clock by GitHub's `Date`, so it passed by GitHub's too (helper-322).
    @Test func aResetAlreadyPastIsSaidAndWaitedAsAMinute() {
        let shown = present(.rateLimited(resetAt: now.addingTimeInterval(-100), message: message, resource: "core"))
        #expect(shown.contains("has passed, and GitHub still says it is spent: try again in about a minute."))
        #expect(!shown.contains("clock"), "\(shown)")
        #expect(!shown.contains("in 0s"))
        #expect(shown.contains("Add --wait-on-rate-limit to wait for the reset and carry on."))
        // A secondary limit's end is GitHub's Retry-After (`0` here), counted from its answer: no clock is to blame.
        let secondary = present(.rateLimited(resetAt: now, message: message, resource: DomainError.secondaryLimit))
        #expect(secondary.contains("has passed, and GitHub still says it is spent: try again in about a minute."))
    }

    @Test func withoutTheFlagAResetPastItsCeilingAsksForMaxWaitToo() {
        let far = present(.rateLimited(resetAt: now.addingTimeInterval(7200), message: message), hasToken: true)
        #expect(far.contains("Add --wait-on-rate-limit --max-wait 7201 to wait for the reset and carry on."))
    }

    /// A secondary limit is waited out with or without --wait-on-rate-limit, up to --retries times and within
    /// --max-wait: the hint names the one that stopped it, and the time it lifts is no "reset" (before: "Add
    /// --wait-on-rate-limit", which changed nothing).
    @Test(arguments: [false, true])
    func aSecondaryLimitNamesRetriesOrMaxWaitNeverTheFlag(waiting: Bool) {
        func secondary(_ resetAt: Date?, maxWait: Double, retries: Int = 3) -> String {
            var presenter = ErrorPresenter(now: now, hasToken: false, waitOnRateLimit: waiting, maxWait: maxWait)
            presenter.retries = retries
            return presenter.present(
                .rateLimited(
                    resetAt: resetAt, message: "You have exceeded a secondary rate limit.",
                    resource: DomainError.secondaryLimit)
            ).message
        }
        // The client waits Retry-After exactly, or GitHub's minute: --max-wait 60 lets it (before: "61"), and a
        // wait --max-wait let happen was waited, so --retries stopped it (before: "--max-wait 2" after a 1 s wait).
        let long = secondary(nil, maxWait: 5)
        #expect(
            long.contains("That is longer than --max-wait allows (5s): run again then, or give --max-wait 60 or more."))
        #expect(
            secondary(nil, maxWait: 60).contains("(--retries)") && !secondary(nil, maxWait: 60).contains("max-wait"))
        #expect(secondary(now.addingTimeInterval(0.99), maxWait: 1).contains("(--retries)"))
        // A Retry-After of 0, or one passed, was no wait at all (before: "give --max-wait 60").
        #expect(secondary(now.addingTimeInterval(-1), maxWait: 30).contains("(--retries)"))
        #expect(secondary(now.addingTimeInterval(1.99), maxWait: 1).contains("give --max-wait 2 or more"))
        let spent = secondary(now.addingTimeInterval(5), maxWait: 900)
        #expect(spent.contains("It lifts at "), "\(spent)")
        // The clock time names its zone, for a cron job's mail read elsewhere (before: "5:40:41 PM"; a review's
        // find).
        #expect(spent.contains(LocalTime.text(now.addingTimeInterval(5))), "\(spent)")
        #expect(spent.contains("It was retried 3 times (--retries): run again then, or give --retries 4 or more."))
        #expect(secondary(now.addingTimeInterval(5), maxWait: 900, retries: 0).contains("give --retries 1 or more"))
        for shown in [long, spent] {
            #expect(
                !shown.contains("--wait-on-rate-limit") && !shown.contains("resets") && !shown.contains("60 an hour"))
        }
    }

    @Test(arguments: [
        "Request forbidden by administrative rules. Please make sure your request has a User-Agent header",
        "Resource not accessible by personal access token",
    ])
    func a403NotAboutScopesPrintsGitHubsMessageAndNoScopeHint(github: String) {
        let presentation = ErrorPresenter(now: now, hasToken: true).present(
            .unauthorized(status: 403, message: github, problem: .unstated))
        #expect(presentation.message == "gh-users: GitHub refused the request (HTTP 403: \(github))\n")
        #expect(presentation.exitCode == 4)
    }

    @Test func a403AboutScopesOrSingleSignOnSaysWhatToDo() {
        let presenter = ErrorPresenter(now: now, hasToken: true)
        let scope = presenter.present(
            .unauthorized(status: 403, message: "Forbidden", problem: .scope(accepted: "user")))
        #expect(
            scope.message
                == "gh-users: GitHub refused the request (HTTP 403: Forbidden)\n"
                + "The token may lack a scope or access to this resource (GitHub accepts: user).\n")
        let sso = presenter.present(
            .unauthorized(status: 403, message: "SAML", problem: .singleSignOn(url: "https://github.com/orgs/o/sso")))
        #expect(sso.message.contains("single sign-on wants the token authorized: https://github.com/orgs/o/sso\n"))
        // A token GitHub took and refused a request of is no failed authentication: that is a 401's, or an expired
        // token's, headline alone (helper-341: a 403 said it beside a scope hint, and not without one).
        #expect(sso.message.hasPrefix("gh-users: GitHub refused the request (HTTP 403: SAML)\n"), "\(sso.message)")
        let bad = presenter.present(.unauthorized(status: 401, message: "Bad credentials", problem: .unstated))
        #expect(bad.message.hasPrefix("gh-users: authentication failed (HTTP 401: Bad credentials)\n"))
        let expired = presenter.present(
            .unauthorized(status: 403, message: "Expired", problem: .expired(at: Date(timeIntervalSince1970: 0))))
        #expect(
            expired.message.hasPrefix("gh-users: authentication failed (HTTP 403: Expired)\n"), "\(expired.message)")
    }

    @Test func theTokenMessageNamesTheCommandOnce() {
        let shown = ErrorPresenter(now: now, hasToken: false).present(.tokenRequired(command: "me")).message
        #expect(shown.hasPrefix("gh-users: me needs a token: "))
        #expect(!shown.contains("gh-users: gh-users"))
    }
}

/// A wait for a limit that names no reset says why it is a minute.
struct UnknownResetWaitTests {
    @Test func theWaitIsAnnouncedAsGitHubsMinute() async throws {
        let (io, _, err) = IOStreams.test(stderrTTY: false)
        let announcer = WaitAnnouncer(io: io, times: .following { Date() }, pause: { _ in })
        try await announcer.sleep(.seconds(60), reason: .primaryRateLimit(resetAt: nil))
        #expect(
            err.text
                == "gh-users: the rate limit is spent and GitHub gave no reset time; waiting 1m 0s before retrying, "
                + "as GitHub advises\n")
    }
}

/// A wait past the longest `--max-wait` allowed (a week) names no `--max-wait` to give, which the command line
/// would refuse (exit 64): no wait allowed is long enough. A `Retry-After` in the year 9999 once asked for
/// `--max-wait 251600077229`.
struct WaitPastTheLongestMaxWaitTests {
    @Test(arguments: [false, true])
    func aRetryAfterInTheYear9999AsksForNoMaxWait(waiting: Bool) async {
        let harness = CommandHarness.signedIn()
        harness.http.register(
            RequestMatcher("GET /users/octocat"), status: 429,
            headers: [("Retry-After", "Wed, 21 Oct 9999 07:28:00 GMT")],
            body: Data(#"{"message":"You have exceeded a secondary rate limit."}"#.utf8))
        let run = await harness.run(["show", "octocat", "--retries", "0"] + (waiting ? ["--wait-on-rate-limit"] : []))
        #expect(run.status == 5, "\(run.err)")
        #expect(!run.err.contains("--max-wait 2"), "\(run.err)")
        #expect(
            run.err.contains("That is longer than any --max-wait allows (a week at most): run again then.\n"),
            "\(run.err)")
    }

    /// A week to the second is still a --max-wait to give; a second more is not.
    @Test func aWeekIsTheLastWaitNamed() {
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        let presenter = ErrorPresenter(now: now, hasToken: true)
        let week = presenter.present(.rateLimited(resetAt: now.addingTimeInterval(604_799), message: "m")).message
        #expect(week.contains("Add --wait-on-rate-limit --max-wait 604800 to wait"), "\(week)")
        let past = presenter.present(.rateLimited(resetAt: now.addingTimeInterval(604_800), message: "m")).message
        #expect(past.contains("longer than any --max-wait allows"), "\(past)")
    }
}
