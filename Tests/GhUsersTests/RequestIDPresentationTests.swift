import Domain
import Foundation
import Testing

@testable import gh_users

/// GitHub Support asks for the answer's `x-github-request-id`: every failure GitHub answered ends with it, on
/// a line of its own, cleaned like any text from the network.
struct RequestIDPresentationTests {
    private let presenter = ErrorPresenter(now: Date(timeIntervalSince1970: 1_700_000_000), hasToken: true)
    private let id = "CB8A:3A5F:1D2E3F4:1E3C5D6:65A1B2C3"

    @Test func everyFailureGitHubAnsweredEndsWithIt() {
        let failures: [DomainError] = [
            .notFound(resource: "user octocat", requestID: id),
            .unauthorized(status: 401, message: "Bad credentials", requestID: id),
            .rateLimited(resetAt: nil, message: "API rate limit exceeded", requestID: id),
            .server(status: 422, message: "Validation Failed", requestID: id),
            .malformedResponse(endpoint: "GET /users", detail: "not JSON", requestID: id),
        ]
        for failure in failures {
            let shown = presenter.present(failure)
            #expect(shown.message.hasSuffix("\nrequest id: \(id)\n"))
            #expect(shown.message.components(separatedBy: "request id:").count == 2)
            #expect(shown.exitCode == presenter.present(failure.answered(requestID: nil)).exitCode)
        }
    }

    @Test func theLineComesLastAndTheRestIsUnchanged() {
        let without = presenter.present(.server(status: 500, message: "boom"))
        let with = presenter.present(.server(status: 500, message: "boom", requestID: id))
        #expect(with.message == without.message + "request id: \(id)\n")
        #expect(with.withoutRequestID == without.message)
    }

    @Test func withoutAnIDThereIsNoLine() {
        #expect(!presenter.present(.server(status: 500, message: "boom")).message.contains("request id"))
        #expect(!presenter.present(.network("cannot connect")).message.contains("request id"))
    }

    @Test func theIDIsCleaned() {
        let shown = presenter.present(.notFound(resource: "user x", requestID: "\u{1B}[2Jabc"))
        #expect(shown.message.hasSuffix("request id: \\e[2Jabc\n"))
        #expect(!shown.message.contains("\u{1B}"))
    }

    @Test func attachingKeepsAnIDAlreadyThereAndLeavesFailuresWithoutAnAnswer() {
        #expect(DomainError.server(status: 1, message: "m", requestID: "a").answered(requestID: "b").requestID == "a")
        #expect(DomainError.network("x").answered(requestID: "b") == .network("x"))
        #expect(DomainError.cancelled.answered(requestID: "b").requestID == nil)
    }
}

/// A refusal is mostly gh-users's own words, the way out last: said whole up to 1,000 columns (a collapse's runs
/// to 400; before, cut at 300 mid-word), and cut past that, since GitHub's words inside one can be any length.
struct RefusalPresentationTests {
    @Test func aRefusalIsSaidWholeUpToAThousandColumns() {
        let presenter = ErrorPresenter(now: Date(timeIntervalSince1970: 1_700_000_000), hasToken: true)
        let long = String(repeating: "word ", count: 199) + "end."
        #expect(presenter.present(.refused(long)).message == "gh-users: \(long)\n")
        let longer = String(repeating: "x", count: 5_000)
        let cut = presenter.present(.refused(longer)).message
        #expect(cut.count < 1_100 && cut.hasPrefix("gh-users: xxx") && cut.hasSuffix("…\n"), "\(cut.count)")
    }
}
