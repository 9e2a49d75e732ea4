import Foundation
import Testing

@testable import Data
@testable import Domain

/// `/stargazers/history` and `/stargazers/count` decoded from GitHub's documented examples, and every answer
/// their schema does not allow refused as a malformed answer naming the endpoint, never a crash.
struct StarHistoryEndpointTests {
    private static let label = "GET /repos/octocat/Hello-World/stargazers/history"
    private let repository = try! RepositoryName(validating: "octocat/Hello-World")

    private func weeks(_ json: String) throws(DomainError) -> Page<StarWeek> {
        try GitHubEndpoints.starHistory(of: repository).first.decode(
            ResourceBody(bytes: Array(json.utf8), next: nil, label: Self.label))
    }

    /// GitHub's documented example: the week of Sunday 2025-08-10, 12 stars on Monday and 7 on Tuesday.
    @Test func theDocumentedWeekIsItsSundayAndItsDays() throws {
        let page = try weeks(#"[{"week": 1754784000, "total": 19, "days": [0, 12, 7, 0, 0, 0, 0]}]"#)
        #expect(page.items == [StarWeek(startSeconds: 1_754_784_000, days: [0, 12, 7, 0, 0, 0, 0])!])
        #expect(page.items.first?.start == CalendarDay("2025-08-10"))
        let count = try GitHubEndpoints.starCount(of: repository).decode(
            ResourceBody(bytes: Array(#"{"count": 42}"#.utf8), next: nil, label: "GET …/count"))
        #expect(count == 42)
    }

    @Test(arguments: [
        #"{"week": 1754784000}"#,
        #"[{"week": 1754784000, "days": [0, 12, 7, 0, 0, 0, 0]}]"#,
        #"[{"week": "1754784000", "total": 19, "days": [0, 12, 7, 0, 0, 0, 0]}]"#,
        #"[{"week": 1754784000.5, "total": 19, "days": [0, 12, 7, 0, 0, 0, 0]}]"#,
        #"[{"week": 1e30, "total": 19, "days": [0, 12, 7, 0, 0, 0, 0]}]"#,
        #"[null]"#,
    ])
    func aBodyThatIsNoListOfWeeksIsMalformed(body: String) {
        #expect(
            throws: DomainError.malformedResponse(
                endpoint: Self.label, detail: #"the answer is not a list of weeks {"week", "total", "days"}"#)
        ) { try weeks(body) }
    }

    /// Monday's midnight, a Sunday's noon, six days, a negative count, a count past any repository's, a negative
    /// total: each names the week.
    @Test(arguments: [
        #"{"week": 1754870400, "total": 0, "days": [0, 0, 0, 0, 0, 0, 0]}"#,
        #"{"week": 1754827200, "total": 0, "days": [0, 0, 0, 0, 0, 0, 0]}"#,
        #"{"week": 1754784000, "total": 0, "days": [0, 0, 0, 0, 0, 0]}"#,
        #"{"week": 1754784000, "total": 0, "days": [0, -1, 0, 0, 0, 0, 0]}"#,
        #"{"week": 1754784000, "total": 0, "days": [0, 9223372036854775807, 0, 0, 0, 0, 0]}"#,
        #"{"week": 1754784000, "total": -1, "days": [0, 0, 0, 0, 0, 0, 0]}"#,
    ])
    func aWeekOutsideTheSchemaIsMalformedAndNamed(week: String) {
        let good = #"{"week": 1754179200, "total": 0, "days": [0, 0, 0, 0, 0, 0, 0]}"#
        do {
            _ = try weeks("[" + good + ", " + week + "]")
            Issue.record("\(week) was read as a week")
        } catch {
            guard case .malformedResponse(let endpoint, let detail, _) = error else {
                Issue.record("got \(error)")
                return
            }
            #expect(endpoint == Self.label)
            #expect(detail.hasPrefix("week 2 (\"week\": "), "\(detail)")
        }
    }

    @Test(arguments: [#"{"count": -1}"#, #"{"count": "42"}"#, #"{"total": 42}"#, "[]", #"{"count": 1e40}"#])
    func aCountThatIsNoCountIsMalformed(body: String) {
        #expect(
            throws: DomainError.malformedResponse(
                endpoint: "GET …/count", detail: #"the answer is not {"count": N} with N a whole number, 0 or more"#)
        ) {
            try GitHubEndpoints.starCount(of: repository).decode(
                ResourceBody(bytes: Array(body.utf8), next: nil, label: "GET …/count"))
        }
    }

    /// A count past 1 MiB is not read, and is said to be too large, not of another shape (it was).
    @Test func aCountPastAMebibyteIsSaidToBeTooLarge() {
        let body =
            Array(#"{"count":5,"pad":""#.utf8) + Array(repeating: UInt8(ascii: "x"), count: 1 << 20) + [0x22, 0x7D]
        let detail = "one object of \(body.count) bytes, where GitHub's are a few kilobytes (1 MiB at most is read)"
        #expect(throws: DomainError.malformedResponse(endpoint: "GET …/count", detail: detail)) {
            try GitHubEndpoints.starCount(of: repository).decode(
                ResourceBody(bytes: body, next: nil, label: "GET …/count"))
        }
    }
}

/// A repository with no stars answers `{"count": 0}`, which is a count, not a malformed answer (helper-330:
/// `> 0` for `>= 0` in starCount(of:) went unseen; only 42 was tried).
struct StarCountOfNoStarsTests {
    @Test func aRepositoryWithNoStarsCountsZero() throws {
        let repository = try RepositoryName(validating: "octocat/Hello-World")
        let count = try GitHubEndpoints.starCount(of: repository).decode(
            ResourceBody(bytes: Array(#"{"count": 0}"#.utf8), next: nil, label: "GET …/count"))
        #expect(count == 0)
    }
}
