import Domain
import Foundation
import JSONBytes
import Networking

/// The contribution calendar query: `repositoryOwner` rather than `user`, because GitHub answers `user(login:)`
/// for an organization exactly as for a login that does not exist ("Could not resolve to a User"), while a
/// `repositoryOwner` says which it is (`__typename`). The calendar itself is asked only `... on User`.
enum GraphQLContributionsQuery {
    /// `from` at 00:00:00 and `to` at 23:59:59 UTC, so the days asked are exactly the span's.
    static func text(for login: Login, in span: ClosedRange<CalendarDay>) -> String {
        let literal = String(decoding: JSONValue.string(login.value).bytes, as: UTF8.self)
        return """
            query GhUsersContributions {
              repositoryOwner(login: \(literal)) {
                __typename
                ... on User {
                  contributionsCollection(from: "\(span.lowerBound)T00:00:00Z", to: "\(span.upperBound)T23:59:59Z") {
                    contributionCalendar {
                      totalContributions
                      weeks { contributionDays { date contributionCount contributionLevel } }
                    }
                  }
                }
              }
            }

            """
    }

    /// The POST body: `{"query": "…"}`.
    static func body(for login: Login, in span: ClosedRange<CalendarDay>) -> [UInt8] {
        JSONValue.object([.init("query", .string(text(for: login, in: span)))]).bytes
    }
}

/// GitHub's answer to `GraphQLContributionsQuery`.
struct GraphQLContributionsResponseDTO: Decodable {
    struct DayDTO: Decodable {
        let date: String
        let contributionCount: Int
        let contributionLevel: String
    }

    struct WeekDTO: Decodable {
        let contributionDays: [DayDTO]
    }

    struct CalendarDTO: Decodable {
        let totalContributions: Int
        let weeks: [WeekDTO]
    }

    struct CollectionDTO: Decodable {
        let contributionCalendar: CalendarDTO
    }

    struct OwnerDTO: Decodable {
        let typename: String?
        let contributionsCollection: CollectionDTO?

        enum CodingKeys: String, CodingKey {
            case typename = "__typename"
            case contributionsCollection
        }
    }

    struct DataDTO: Decodable {
        let repositoryOwner: OwnerDTO?
    }

    let data: DataDTO?
    let errors: [GraphQLProfileResponseDTO.ErrorDTO]?
}

/// What GitHub said about the account asked for.
enum GraphQLContributionsAnswer: Equatable {
    case calendar(ContributionCalendar)
    /// An account of another type (`Organization`), which has no calendar.
    case notAUser(type: String)
    /// No `RepositoryOwner` by that login: it does not exist, or it is a bot (a GitHub App is none).
    case notFound
}

/// Reads one contributions answer. Every byte is untrusted: a day outside the span, out of order, with a
/// negative count or an unknown level is a malformed answer (exit 1), never a crash or a made-up day.
enum GraphQLContributionsResponse {
    static func decode(_ response: HTTPResponse, span: ClosedRange<CalendarDay>, endpoint: String)
        throws(GraphQLBatchFailure) -> GraphQLContributionsAnswer
    {
        let requestID = ErrorMapping.requestID(response)
        if let error = ErrorMapping.domainError(for: response, resource: "GraphQL API") {
            // A 404 is the endpoint's, not the account's: an unknown login is a NOT_FOUND error in a 200.
            guard case .notFound = error else { throw .failed(error) }
            throw .failed(
                .server(
                    status: 404, message: "\(endpoint) was not found: this server has no GraphQL API",
                    requestID: requestID))
        }
        func malformed(_ detail: String) -> GraphQLBatchFailure {
            .failed(.malformedResponse(endpoint: endpoint, detail: detail, requestID: requestID))
        }
        let dto: GraphQLContributionsResponseDTO
        do {
            dto = try JSONDecoder().decode(GraphQLContributionsResponseDTO.self, from: response.body)
        } catch {
            throw malformed("the body is not the contribution calendar GitHub documents")
        }
        let errors = dto.errors ?? []
        if let limited = GraphQLProfileResponse.spentLimit(errors, response: response) {
            throw .failed(limited.answered(requestID: requestID))
        }
        if let owner = dto.data?.repositoryOwner {
            guard owner.typename == "User" else { return .notAUser(type: owner.typename ?? "unknown type") }
            guard let calendar = owner.contributionsCollection?.contributionCalendar else {
                throw malformed("a required field 'contributionsCollection' is missing")
            }
            return .calendar(try days(of: calendar, span: span, malformed: malformed))
        }
        if errors.contains(where: { $0.type == "NOT_FOUND" }) { return .notFound }
        guard let first = errors.first else { throw malformed("no data and no errors") }
        throw .failed(
            .server(
                status: response.status, message: "GraphQL: " + (first.message ?? first.type ?? "an error"),
                requestID: requestID))
    }

    private static func days(
        of calendar: GraphQLContributionsResponseDTO.CalendarDTO, span: ClosedRange<CalendarDay>,
        malformed: (String) -> GraphQLBatchFailure
    ) throws(GraphQLBatchFailure) -> ContributionCalendar {
        guard calendar.totalContributions >= 0 else { throw malformed("totalContributions is negative") }
        var days: [ContributionDay] = []
        for dto in calendar.weeks.flatMap(\.contributionDays) {
            guard let date = CalendarDay(dto.date), span.contains(date) else {
                throw malformed("a day '\(dto.date)' that is not in the span asked for")
            }
            if let last = days.last, last.date >= date { throw malformed("the days are not in date order") }
            guard dto.contributionCount >= 0 else { throw malformed("a day's contributionCount is negative") }
            guard let level = ContributionLevel(rawValue: dto.contributionLevel) else {
                throw malformed("an unknown contributionLevel '\(dto.contributionLevel)'")
            }
            days.append(ContributionDay(date: date, count: dto.contributionCount, level: level))
        }
        return ContributionCalendar(total: calendar.totalContributions, days: days)
    }
}

extension GitHubRepository {
    /// One span of at most a year. GraphQL cannot tell a login nobody has from a bot's, so REST settles it: an
    /// honest 404, or the account's type.
    package func contributions(of login: Login, in span: ClosedRange<CalendarDay>) async throws(DomainError)
        -> ContributionCalendar
    {
        let answer: GraphQLContributionsAnswer
        do {
            answer = try await graphQL(GraphQLContributionsQuery.body(for: login, in: span)) {
                response, endpoint throws(GraphQLBatchFailure) in
                try GraphQLContributionsResponse.decode(response, span: span, endpoint: endpoint)
            }
        } catch {
            switch error {
            case .failed(let failure): throw failure
            case .tooLarge(let reason), .unsupported(let reason): throw .refused(reason)
            }
        }
        switch answer {
        case .calendar(let calendar):
            return calendar
        case .notAUser(let type):
            throw Self.noCalendar(login, type: type)
        case .notFound:
            let account = try await user(login: login)
            guard account.type == .user else { throw Self.noCalendar(login, type: account.type.name) }
            throw DomainError.refused("GitHub's GraphQL API has no contribution calendar for '\(login.value)'")
        }
    }

    private static func noCalendar(_ login: Login, type: String) -> DomainError {
        let kind = type == "Organization" ? "an organization" : "a \(type) account, not a user"
        return .refused("'\(login.value)' is \(kind): GitHub keeps contribution calendars for users only")
    }
}
