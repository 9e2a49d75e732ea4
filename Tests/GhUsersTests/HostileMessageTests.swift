import Foundation
import Testing

@testable import gh_users

/// Durations computed from a server's values: total for any input.
struct DurationTextTests {
    @Test(arguments: [
        (Double.nan, "0s"), (-5, "0s"), (0.2, "1s"), (59, "59s"), (754, "12m 34s"), (7_300, "2h 1m"),
        (999_999, "11d 13h"), (93_600, "1d 2h"), (86_400, "1d 0h"),
        (1e19, "more than 100 years"), (Double.infinity, "more than 100 years"),
        (1e308, "more than 100 years"), (Double(100 * 366 * 86_400), "36600d 0h"),
    ])
    func describesAnyNumberWithoutTrapping(seconds: Double, text: String) {
        #expect(DurationText.describe(seconds: seconds) == text)
    }
}

struct HostileErrorPresentationTests {
    private let presenter = ErrorPresenter(now: Date(timeIntervalSince1970: 1_700_000_000), hasToken: true)

    @Test func aNetworkErrorKeepsDatasHintLineAndCleansEachLine() {
        let shown = presenter.present(
            .network(
                "the TLS certificate of h is not trusted (x\u{1B}[2J)\nAdd the CA.",
                advice: [.cachedCopy(endpoint: "GET /users/\u{1B}[2J")]))
        #expect(
            shown.message == "gh-users: network error: the TLS certificate of h is not trusted (x\\e[2J)\nAdd the CA.\n"
                + "A copy of GET /users/\\e[2J is in the cache: --offline answers from it.\n"
        )
        #expect(shown.exitCode == 1)
    }

    @Test func aResetDaysAwayShowsItsDate() {
        let shown = presenter.present(.rateLimited(resetAt: Date(timeIntervalSince1970: 1_700_999_999), message: "m"))
        #expect(shown.message.contains(", in 11d 13h."))
        #expect(shown.message.contains("2023"))
        #expect(shown.exitCode == 5)
    }
}
