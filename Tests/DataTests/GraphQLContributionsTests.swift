import Foundation
import Networking
import TestSupport
import Testing

@testable import Data
@testable import Domain

private let span = CalendarDay("2025-01-01")!...CalendarDay("2025-01-03")!

private func decode(_ body: String, status: Int = 200) -> Result<GraphQLContributionsAnswer, GraphQLBatchFailure> {
    let response = HTTPResponse(
        status: status, headers: HTTPHeaders([(name: "x-github-request-id", value: "C0DE:1")]),
        body: Data(body.utf8), url: URL(string: "https://api.github.com/graphql")!)
    return Result { () throws(GraphQLBatchFailure) in
        try GraphQLContributionsResponse.decode(response, span: span, endpoint: "POST /graphql")
    }
}

private func owner(_ days: String, total: Int = 3) -> String {
    #"{"data":{"repositoryOwner":{"__typename":"User","contributionsCollection":{"contributionCalendar":"#
        + #"{"totalContributions":\#(total),"weeks":[{"contributionDays":[\#(days)]}]}}}}}"#
}

private func day(_ date: String, _ count: Int, _ level: String) -> String {
    #"{"date":"\#(date)","contributionCount":\#(count),"contributionLevel":"\#(level)"}"#
}

struct GraphQLContributionsResponseTests {
    @Test func aUsersCalendarIsReadDayByDay() throws {
        let answer = try decode(owner(day("2025-01-01", 0, "NONE") + "," + day("2025-01-02", 3, "FOURTH_QUARTILE")))
            .get()
        #expect(
            answer
                == .calendar(
                    ContributionCalendar(
                        total: 3,
                        days: [
                            ContributionDay(date: CalendarDay("2025-01-01")!, count: 0, level: .none),
                            ContributionDay(date: CalendarDay("2025-01-02")!, count: 3, level: .fourthQuartile),
                        ])))
    }

    @Test func anOrganizationAndAMissingOwnerAreToldApart() throws {
        #expect(
            try decode(#"{"data":{"repositoryOwner":{"__typename":"Organization"}}}"#).get()
                == .notAUser(type: "Organization"))
        let missing =
            #"{"data":{"repositoryOwner":null},"errors":[{"type":"NOT_FOUND","path":["repositoryOwner"],"#
            + #""message":"Could not resolve to a RepositoryOwner with the login of 'x'."}]}"#
        #expect(try decode(missing).get() == .notFound)
    }

    @Test(arguments: [
        day("2024-12-31", 1, "FIRST_QUARTILE"), day("2025-01-02", -1, "NONE"),
        day("2025-01-02", 1, "NONE") + "," + day("2025-01-01", 1, "NONE"), day("2025-1-2", 1, "NONE"),
        // A day given twice, which would be written twice (helper-330: `>` for `>=` in the order check went unseen).
        day("2025-01-02", 2, "FIRST_QUARTILE") + "," + day("2025-01-02", 2, "FIRST_QUARTILE"),
    ])
    func aDayThatCannotBeTrueIsAMalformedAnswer(_ days: String) {
        guard case .failure(.failed(.malformedResponse(_, _, let requestID))) = decode(owner(days)) else {
            Issue.record("\(decode(owner(days)))")
            return
        }
        #expect(requestID == "C0DE:1")
    }

    /// Issue 26, item 3: GitHub answers `repositoryOwner(login:)` for a login nobody has with
    /// `{"data":{"repositoryOwner":null}}` and no error; clients' tests pin exactly that body (found with the search
    /// tool: a Go test `TestGitHubFetchReposUnknownOwner`, a Java `unknownHeadOwner_resolvesEmpty`, a C#
    /// `CreateProject_reports_missing_owner_without_attempting_mutation`). Before: "no data and no errors", exit 1.
    @Test func aNullOwnerWithNoErrorIsNotFound() throws {
        #expect(try decode(#"{"data":{"repositoryOwner":null}}"#).get() == .notFound)
        #expect(throws: GraphQLBatchFailure.self) { try decode(#"{"data":{}}"#).get() }
    }

    /// Since July 2026 GitHub refuses a year's calendar of a long history with the owner nulled and a
    /// `RESOURCE_LIMITS_EXCEEDED` error (github-profile-3d-contrib issue #163, 2026-07-19, recorded the body for
    /// `user(login:)`; the error nulls the owner the same way here).
    @Test func resourceLimitsAreATooLongSpanNotAFailure() throws {
        let refused =
            #"{"data":{"repositoryOwner":null},"errors":[{"type":"RESOURCE_LIMITS_EXCEEDED","#
            + #""path":["repositoryOwner","contributionsCollection","contributionCalendar"],"#
            + #""message":"Resource limits for this query exceeded."}]}"#
        #expect(try decode(refused).get() == .tooLong(message: "Resource limits for this query exceeded."))
    }

    /// A span that ran out of time (a 502 or 504, or GitHub's timeout error in a 200) is asked for in halves, as
    /// one GitHub refuses for its resource limits (before: exit 1 at once).
    @Test(arguments: [
        (GraphQLTimeoutBodies.recorded, 200), (GraphQLTimeoutBodies.dated, 200), ("<html>", 502), ("", 504),
    ])
    func aSpanThatRanOutOfTimeIsTooLong(body: String, status: Int) {
        guard case .success(.tooLong) = decode(body, status: status) else {
            Issue.record("\(decode(body, status: status))")
            return
        }
    }

    /// An error beside a calendar is never dropped (before: the calendar was taken, exit 0).
    @Test func anErrorBesideACalendarFailsIt() {
        let body =
            String(owner(day("2025-01-01", 0, "NONE")).dropLast())
            + #","errors":[{"type":"SERVICE_UNAVAILABLE","path":["repositoryOwner"],"message":"Something went wrong"}]}"#
        guard case .failure(.failed(.server(_, let message, _))) = decode(body) else {
            Issue.record("\(decode(body))")
            return
        }
        #expect(message == "GraphQL: Something went wrong")
    }

    /// A level this version does not know is drawn at the nearest known one, and kept as sent (before: the whole
    /// calendar was a malformed answer, exit 1).
    @Test func anUnknownLevelIsDrawnAtTheNearestKnownOne() throws {
        let days =
            day("2025-01-01", 2, "SECOND_QUARTILE") + "," + day("2025-01-02", 9, "FOURTH_QUARTILE") + ","
            + day("2025-01-03", 8, "FIFTH_QUARTILE")
        guard case .calendar(let calendar) = try decode(owner(days, total: 19)).get() else {
            Issue.record("no calendar")
            return
        }
        #expect(calendar.days.map(\.level) == [.secondQuartile, .fourthQuartile, .fourthQuartile])
        #expect(calendar.days.map(\.sentLevel) == ["SECOND_QUARTILE", "FOURTH_QUARTILE", "FIFTH_QUARTILE"])
        #expect(ContributionLevel.nearest(count: 0, among: []) == .none)
        #expect(ContributionLevel.nearest(count: 4, among: []) == .firstQuartile)
        // A day without contributions is no measure for one with some (M8-10), and a tie goes to the higher (M8-11).
        #expect(ContributionLevel.nearest(count: 1, among: [(0, .none), (3, .secondQuartile)]) == .secondQuartile)
        #expect(
            ContributionLevel.nearest(count: 2, among: [(1, .firstQuartile), (3, .secondQuartile)]) == .secondQuartile)
    }

    @Test func aSpentLimitABadTokenAndAnyOtherErrorFailAsREST() {
        let limited =
            #"{"errors":[{"type":"RATE_LIMIT","code":"graphql_rate_limit","message":"API rate limit exceeded"}]}"#
        guard case .failure(.failed(.rateLimited(_, _, let bucket, _))) = decode(limited) else {
            Issue.record("\(decode(limited))")
            return
        }
        #expect(bucket == "graphql")
        guard
            case .failure(.failed(.unauthorized(401, _, _, _))) = decode(#"{"message":"Bad credentials"}"#, status: 401)
        else {
            Issue.record("not unauthorized")
            return
        }
        let other = #"{"errors":[{"message":"The total time spanned by 'from' and 'to' must not exceed 1 year"}]}"#
        #expect(
            throws: GraphQLBatchFailure.failed(
                .server(
                    status: 200, message: "GraphQL: The total time spanned by 'from' and 'to' must not exceed 1 year",
                    requestID: "C0DE:1"))
        ) {
            try decode(other).get()
        }
        #expect(throws: GraphQLBatchFailure.self) { try decode("<html>").get() }
        // The endpoint's 404 is no unknown login (exit 3): the server has no GraphQL API.
        guard case .failure(.failed(.server(404, let message, _))) = decode(#"{"message":"Not Found"}"#, status: 404)
        else {
            Issue.record("\(decode("", status: 404))")
            return
        }
        #expect(message.contains("no GraphQL API"))
    }
}

/// A 404 from the GraphQL endpoint (a proxy that forwards only `/api/v3`, an API URL with another path) is the
/// same failure for every GraphQL reader: the server has no GraphQL API there (exit 1). Before, `stargazers --via
/// graphql` and `access` said "no GraphQL API" as if a name did not exist (exit 3), and `team-members --direct`
/// blamed the team (exit 4).
struct GraphQLEndpointNotFoundTests {
    private let notFound = HTTPResponse(
        status: 404, headers: HTTPHeaders([]), body: Data(#"{"message":"Not Found"}"#.utf8),
        url: URL(string: "https://ghe.example/api/graphql")!)
    private let saying = DomainError.server(
        status: 404, message: "POST /api/graphql was not found: this server has no GraphQL API")

    @Test func everyReaderSaysTheServerHasNoGraphQLAPI() throws {
        #expect(ErrorMapping.graphQLError(for: notFound, endpoint: "POST /api/graphql") == saying)
        // A proxy's own 404 page says the same.
        let page = HTTPResponse(
            status: 404, headers: HTTPHeaders([(name: "Content-Type", value: "text/html")]),
            body: Data("<html>404 Not Found</html>".utf8), url: notFound.url)
        #expect(ErrorMapping.graphQLError(for: page, endpoint: "POST /api/graphql") == saying)
        // An Enterprise host given without `/api/v3` answers `/graphql` with its web page: the API URL's hint, as
        // REST's reads get (before: "no GraphQL API", of a server that has one at /api/graphql).
        var bare = page
        bare.url = URL(string: "https://ghe.example/graphql")!
        let hint = ErrorMapping.graphQLError(for: bare, endpoint: "POST /graphql")
        #expect(hint?.isWebPage == true && "\(String(describing: hint))".contains("https://HOST/api/v3"), "\(hint)")
        let repository = try RepositoryName(validating: "octo/app")
        #expect(throws: GraphQLBatchFailure.failed(saying)) {
            try GraphQLStargazersResponse.decode(notFound, repository: repository, endpoint: "POST /api/graphql")
        }
        let team = try TeamName(validating: "github/justice-league")
        #expect(throws: GraphQLBatchFailure.failed(saying)) {
            try GraphQLTeamMembersResponse.decode(notFound, team: team, endpoint: "POST /api/graphql")
        }
    }
}

struct GraphQLStargazersNotFoundTests {
    /// A repository GitHub answers null for, with no error beside it, is one the token cannot see or that is gone:
    /// not found, as with a NOT_FOUND error, never a server's failure.
    @Test func aNullRepositoryWithoutAnErrorIsNotFound() throws {
        let answer = HTTPResponse(
            status: 200, headers: HTTPHeaders([]), body: Data(#"{"data":{"repository":null}}"#.utf8),
            url: URL(string: "https://api.github.com/graphql")!)
        let repository = try RepositoryName(validating: "octo/app")
        #expect(
            throws: GraphQLBatchFailure.failed(.notFound(resource: "repository 'octo/app'", byGraphQL: true))
        ) {
            try GraphQLStargazersResponse.decode(answer, repository: repository, endpoint: "POST /graphql")
        }
    }
}
