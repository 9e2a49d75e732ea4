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

/// Data's lines (what was tried, what to check, --offline) arrive as they are, each cleaned for the terminal.
struct NetworkMessagePresentationTests {
    @Test func everyLineOfTheNetworkMessageIsPrinted() {
        let presenter = ErrorPresenter(now: Date(timeIntervalSince1970: 1_700_000_000), hasToken: true)
        let detail =
            "cannot connect to 127.0.0.1:9 (refused or unreachable), after 4 attempts over 3.1 s\n"
            + "Check the API URL, http://127.0.0.1:9 (--api-url, GH_USERS_API_URL or GH_HOST), and the network.\n"
            + "A copy of GET /users/octocat is in the cache: --offline answers from it."
        let shown = presenter.present(.network(detail))
        #expect(shown.message == "gh-users: network error: " + detail + "\n")
        #expect(shown.exitCode == 1)
    }
}
