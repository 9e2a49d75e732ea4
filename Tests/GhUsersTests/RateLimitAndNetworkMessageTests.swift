import Foundation
import Testing

@testable import gh_users

/// GitHub's rate-limit message is printed once: it already says what happened, so it is not wrapped in ours.
struct RateLimitMessageTests {
    private let presenter = ErrorPresenter(now: Date(timeIntervalSince1970: 1_700_000_000), hasToken: false)

    @Test func githubsPrimaryMessageIsTheHeadlineOnce() {
        let github =
            "API rate limit exceeded for 127.0.0.1. (But here's the good news: Authenticated requests get a higher "
            + "rate limit. Check out the documentation for more details.)"
        let shown = presenter.present(.rateLimited(resetAt: nil, message: github)).message
        #expect(
            shown
                == "gh-users: \(github)\nGitHub gave no reset time: try again in about a minute.\n"
                + "Add --wait-on-rate-limit to wait for the reset and carry on.\n"
                + "Requests without a token get 60 an hour: set GH_TOKEN for 5,000.\n")
        #expect(shown.components(separatedBy: "rate limit exceeded").count == 2)
    }

    @Test func githubsSecondaryMessageIsTheHeadlineOnce() {
        let github = "You have exceeded a secondary rate limit. Please wait a few minutes before you try again."
        let shown = presenter.present(.rateLimited(resetAt: nil, message: github)).message
        #expect(shown.hasPrefix("gh-users: \(github)\n"))
    }

    /// A status's reason phrase (a proxy's HTML page, no JSON) says nothing of a rate limit: ours leads.
    @Test(arguments: ["Too Many Requests", "Forbidden"])
    func aMessageThatDoesNotSaySoGetsOurHeadline(message: String) {
        let shown = presenter.present(.rateLimited(resetAt: nil, message: message)).message
        #expect(shown.hasPrefix("gh-users: API rate limit exceeded (\(message))\n"))
    }

    @Test func githubsTextIsStillCleaned() {
        let shown = presenter.present(.rateLimited(resetAt: nil, message: "API rate limit exceeded\u{1B}[2J")).message
        #expect(shown.hasPrefix("gh-users: API rate limit exceeded\\e[2J\n"))
    }
}

/// Data's lines (what was tried) arrive as they are, each cleaned for the terminal, and its advice is worded in the
/// terms of the command line: the options and variables that set what is to be checked.
struct NetworkMessagePresentationTests {
    private let presenter = ErrorPresenter(now: Date(timeIntervalSince1970: 1_700_000_000), hasToken: true)

    @Test func everyLineOfTheNetworkMessageIsPrintedWithItsAdviceWorded() {
        let shown = presenter.present(
            .network(
                "cannot connect to 127.0.0.1:9 (refused or unreachable), after 4 attempts over 3.1 s",
                advice: [
                    .checkAPIRoot(URL(string: "http://127.0.0.1:9")!, timedOut: false),
                    .cachedCopy(endpoint: "GET /users/octocat"),
                ]))
        #expect(
            shown.message
                == "gh-users: network error: cannot connect to 127.0.0.1:9 (refused or unreachable), after 4 attempts "
                + "over 3.1 s\n"
                + "Check the API URL, http://127.0.0.1:9 (--api-url, GH_USERS_API_URL or GH_HOST), and the network.\n"
                + "A copy of GET /users/octocat is in the cache: --offline answers from it.\n")
        #expect(shown.exitCode == 1)
    }

    @Test func eachAdviceNamesWhereToChangeIt() {
        let root = URL(string: "https://api.github.com")!
        #expect(
            presenter.words(.checkAPIRoot(root, timedOut: true))
                == "Check the API URL, https://api.github.com (--api-url, GH_USERS_API_URL or GH_HOST), and the "
                + "network; --timeout SECONDS gives each attempt longer.")
        #expect(presenter.words(.checkHostName).hasPrefix("Check the host in --api-url or GH_HOST;"))
        #expect(
            presenter.words(.writeMayHaveArrived(method: "PATCH", check: "gh-users me"))
                == "The PATCH may have reached GitHub before its answer was lost: check with gh-users me before "
                + "sending it again.")
        // A follow or a block made twice is made once: sending it again is the way to be sure.
        #expect(
            presenter.words(.writeMayHaveArrived(method: "DELETE", check: nil))
                == "The DELETE may have reached GitHub before its answer was lost: sending it again is safe, as a "
                + "second one changes nothing more.")
        #expect(
            presenter.words(.writeMayHaveArrived(method: "POST", check: nil)).hasSuffix(
                "check before sending it again.")
        )
    }

    /// A cache that is not fit to use says the way out: the option that names another folder.
    @Test func aCacheRemedyNamesTheOption() {
        let shown = presenter.present(.cacheUnavailable("'/c' is not safe to use: x", remedy: .removeOrMove))
        #expect(
            shown.message
                == "gh-users: cache: '/c' is not safe to use: x; remove it by hand, or give --cache-dir another folder\n"
        )
    }

    @Test func refusedGraphQLBatchesPointBackToREST() {
        let shown = presenter.present(.graphQLBatchesRefused(batches: 5, accounts: 1, reason: "too large"))
        #expect(
            shown.message
                == "gh-users: the GraphQL API refused 5 batches in a row, the last one of 1 account (too large); try "
                + "again later, or leave out --via graphql to fetch profiles from REST\n")
        #expect(shown.exitCode == 1)
    }
}
