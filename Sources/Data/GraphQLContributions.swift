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
                login
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
struct GraphQLContributionsResponseDTO: GraphQLListAnswerDTO {
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
        /// GitHub's spelling of the login asked for.
        let login: String?
        let contributionsCollection: CollectionDTO?

        enum CodingKeys: String, CodingKey {
            case typename = "__typename"
            case login, contributionsCollection
        }
    }

    /// `repositoryOwner: null` (no such owner, or nulled by an error) is told from a `data` without the key.
    struct DataDTO: Decodable {
        let repositoryOwner: OwnerDTO?
        let hasOwner: Bool

        enum CodingKeys: String, CodingKey {
            case repositoryOwner
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            hasOwner = container.contains(.repositoryOwner)
            repositoryOwner = try container.decodeIfPresent(OwnerDTO.self, forKey: .repositoryOwner)
        }
    }

    let data: DataDTO?
    let errors: [GraphQLProfileResponseDTO.ErrorDTO]?
}

/// What GitHub said about the account asked for.
enum GraphQLContributionsAnswer: Equatable {
    case calendar(ContributionCalendar)
    /// An account of another type (`Organization`), which has no calendar.
    case notAUser(type: String)
    /// No `RepositoryOwner` by that login: it does not exist, or it is a bot (a GitHub App is none). GitHub
    /// answers `{"data":{"repositoryOwner":null}}` with no error for it.
    case notFound
    /// `RESOURCE_LIMITS_EXCEEDED`, or a query that ran out of time: the span is too much work for GitHub; a
    /// shorter one may pass.
    case tooLong(message: String)
}

/// Reads one contributions answer. Every byte is untrusted: a day outside the span, out of order or with a
/// negative count is a malformed answer (exit 1), never a crash or a made-up day; a level this version does not
/// know is drawn at the nearest known one. An error beside the data is never dropped.
enum GraphQLContributionsResponse {
    static func decode(_ response: HTTPResponse, span: ClosedRange<CalendarDay>, endpoint: String)
        throws(GraphQLBatchFailure) -> GraphQLContributionsAnswer
    {
        let answer = GraphQLListAnswer(response, endpoint: endpoint)
        // A span that ran out of time (a 502 or 504, or GitHub's timeout error) is one to ask for in halves.
        if response.status == 502 || response.status == 504 {
            return .tooLong(message: "\(endpoint) answered HTTP \(response.status)")
        }
        if let error = ErrorMapping.graphQLError(for: response, endpoint: endpoint) { throw .failed(error) }
        let (dto, errors) = try answer.decode(
            response, as: GraphQLContributionsResponseDTO.self, shape: "the contribution calendar GitHub documents")
        if let tooMuch = errors.first(where: GraphQLProfileResponse.isTooMuchWork) {
            return .tooLong(message: tooMuch.message ?? "Resource limits for this query exceeded.")
        }
        if let owner = dto.data?.repositoryOwner {
            guard owner.typename == "User" else { return .notAUser(type: owner.typename ?? "unknown type") }
            try answer.refuse(errors, response)
            guard let calendar = owner.contributionsCollection?.contributionCalendar else {
                throw answer.malformed("a required field 'contributionsCollection' is missing")
            }
            var read = try days(of: calendar, span: span, answer: answer)
            // Only a login shaped as GitHub's are is taken: anything else is no spelling of the one asked.
            read.login = owner.login.flatMap { try? Login(validating: $0) }?.value
            return .calendar(read)
        }
        if errors.contains(where: { $0.type == "NOT_FOUND" }) { return .notFound }
        try answer.refuse(errors, response)
        guard dto.data?.hasOwner == true else { throw answer.malformed("no data and no errors") }
        return .notFound
    }

    private static func days(
        of calendar: GraphQLContributionsResponseDTO.CalendarDTO, span: ClosedRange<CalendarDay>,
        answer: GraphQLListAnswer
    ) throws(GraphQLBatchFailure) -> ContributionCalendar {
        guard calendar.totalContributions >= 0 else { throw answer.malformed("totalContributions is negative") }
        var read: [(date: CalendarDay, count: Int, level: ContributionLevel?, sent: String)] = []
        for dto in calendar.weeks.flatMap(\.contributionDays) {
            guard let date = CalendarDay(dto.date), span.contains(date) else {
                throw answer.malformed("a day '\(dto.date)' that is not in the span asked for")
            }
            if let last = read.last, last.date >= date { throw answer.malformed("the days are not in date order") }
            guard dto.contributionCount >= 0 else { throw answer.malformed("a day's contributionCount is negative") }
            read.append(
                (date, dto.contributionCount, ContributionLevel(rawValue: dto.contributionLevel), dto.contributionLevel)
            )
        }
        let known = read.compactMap { day in day.level.map { (count: day.count, level: $0) } }
        let days = read.map { day in
            ContributionDay(
                date: day.date, count: day.count,
                level: day.level ?? ContributionLevel.nearest(count: day.count, among: known),
                unknownLevel: day.level == nil ? day.sent : nil)
        }
        return ContributionCalendar(total: calendar.totalContributions, days: days)
    }
}

extension GitHubRepository {
    /// One span of at most a year, or GitHub's refusal of it as too much work. GraphQL cannot tell a login nobody has from a bot's, so REST settles it: an
    /// honest 404, or the account's type.
    package func contributions(of login: Login, in span: ClosedRange<CalendarDay>) async throws(DomainError)
        -> ContributionsPiece
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
            return .calendar(calendar)
        case .tooLong(let message):
            return .tooLong(message: message)
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
