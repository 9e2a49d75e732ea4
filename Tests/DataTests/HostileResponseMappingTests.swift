import Foundation
import Networking
import TestSupport
import Testing

@testable import Data
@testable import Domain

private let now = Date(timeIntervalSince1970: 1_700_000_000)
private let usersURL = "https://api.github.com/users?since=0&per_page=2"
private let page = #"[{"login":"a","id":1},{"login":"b","id":2}]"#

private func response(_ status: Int, _ headers: [(String, String)], body: String = #"{"message":"m"}"#)
    -> HTTPResponse
{
    HTTPResponse(
        status: status,
        headers: HTTPHeaders(headers.map { (name: $0.0, value: $0.1) }),
        body: Data(body.utf8),
        url: URL(string: usersURL)!
    )
}

/// Rate-limit answers with values no server means: malformed (exit 1, with a message), never a crash, and
/// a wait too long to take is a rate limit with its time (exit 5).
struct HostileStatusMappingTests {
    private func map(_ response: HTTPResponse) -> DomainError? {
        ErrorMapping.domainError(for: response, resource: "users", now: now)
    }

    @Test(arguments: ["nan", "1e19", "1e308", "-1"])
    func aSpentLimitWithAResetOutOfRangeIsMalformed(reset: String) {
        let error = map(response(403, [("x-ratelimit-remaining", "0"), ("x-ratelimit-reset", reset)]))
        guard case .malformedResponse(let endpoint, let detail) = error else {
            Issue.record("got \(String(describing: error))")
            return
        }
        #expect(endpoint == "GET /users?since=0&per_page=2")
        #expect(detail.contains("x-ratelimit-reset '\(reset)'"))
    }

    @Test func aRemainingCountThatIsNotOneIsMalformed() {
        let error = map(response(429, [("x-ratelimit-remaining", "\u{1B}[2J")]))
        guard case .malformedResponse(_, let detail) = error else {
            Issue.record("got \(String(describing: error))")
            return
        }
        #expect(detail.hasPrefix("x-ratelimit-remaining '"))
    }

    @Test func aRetryAfterOutOfRangeIsMalformed() {
        let error = map(response(429, [("Retry-After", "9223372036854775807")]))
        guard case .malformedResponse(_, let detail) = error else {
            Issue.record("got \(String(describing: error))")
            return
        }
        #expect(detail.hasPrefix("Retry-After '9223372036854775807' is neither"))
    }

    @Test func aSecondaryLimitHandedBackIsARateLimitWithItsTime() {
        #expect(
            map(response(429, [("Retry-After", "999999")], body: #"{"message":"slow down"}"#))
                == .rateLimited(resetAt: now.addingTimeInterval(999_999), message: "slow down"))
        #expect(
            map(response(403, [("Retry-After", "Tue, 14 Nov 2023 23:13:20 GMT")]))
                == .rateLimited(resetAt: now.addingTimeInterval(3600), message: "m"))
        // Before, a 403 secondary limit that outlasted the retries read as "authentication failed" (exit 4).
        let secondary = #"{"message":"You have exceeded a secondary rate limit."}"#
        #expect(
            map(response(403, [], body: secondary))
                == .rateLimited(resetAt: nil, message: "You have exceeded a secondary rate limit."))
    }

    @Test func thePrimaryLimitRuleIsTheClientsOwn() {
        let reset = String(Int(now.timeIntervalSince1970) + 60)
        #expect(
            map(response(403, [("x-ratelimit-remaining", " 0 "), ("x-ratelimit-reset", reset)]))
                == .rateLimited(resetAt: now.addingTimeInterval(60), message: "m"))
        #expect(map(response(403, [("x-ratelimit-remaining", "12")])) == .unauthorized(status: 403, message: "m"))
    }
}
