import Domain
import Foundation
import Networking

/// A GraphQL answer's body and its `errors`, the part every GraphQL list reads the same way.
protocol GraphQLListAnswerDTO: Decodable {
    var errors: [GraphQLProfileResponseDTO.ErrorDTO]? { get }
}

/// How a GraphQL list (stargazers, team members, contributions) reads its answer once the HTTP status has been
/// dealt with: a body of another shape is malformed (exit 1), and a spent rate limit beside the data stops the
/// run, naming the answer's request id.
struct GraphQLListAnswer {
    let endpoint: String
    let requestID: String?

    init(_ response: HTTPResponse, endpoint: String) {
        self.endpoint = endpoint
        requestID = ErrorMapping.requestID(response)
    }

    func malformed(_ detail: String) -> GraphQLBatchFailure {
        .failed(.malformedResponse(endpoint: endpoint, detail: detail, requestID: requestID))
    }

    /// The body as `DTO` and its errors; `shape` says what it should have been ("the team's members GitHub
    /// documents").
    func decode<DTO: GraphQLListAnswerDTO>(_ response: HTTPResponse, as _: DTO.Type, shape: String)
        throws(GraphQLBatchFailure) -> (DTO, [GraphQLProfileResponseDTO.ErrorDTO])
    {
        let dto: DTO
        do {
            dto = try JSONDecoder().decode(DTO.self, from: response.body)
        } catch {
            throw malformed("the body is not \(shape)")
        }
        let errors = dto.errors ?? []
        if let limited = GraphQLProfileResponse.spentLimit(errors, response: response) {
            throw .failed(limited.answered(requestID: requestID))
        }
        return (dto, errors)
    }

    /// An error beside the data stops the run: the page may be missing what the error is about (a SAML
    /// `FORBIDDEN` drops the members it hides), so it is never taken as whole.
    func refuse(_ errors: [GraphQLProfileResponseDTO.ErrorDTO], _ response: HTTPResponse) throws(GraphQLBatchFailure) {
        if let failure = failure(errors, response) { throw failure }
    }

    /// What `errors` are as a failure, nil when there are none: a refusal of the token (`GraphQLRefusal`, exit 4)
    /// if one of them is, or else GitHub's first error.
    func failure(_ errors: [GraphQLProfileResponseDTO.ErrorDTO], _ response: HTTPResponse) -> GraphQLBatchFailure? {
        GraphQLRefusal.failure(among: errors, response, requestID: requestID).map { .failed($0) }
    }

    /// A page holds at most 100, the most any query asks (`first:`) and GitHub serves: more is no answer GitHub
    /// gives, and is refused before any of it is kept.
    func refuseOverfull(_ count: Int?, of connection: String) throws(GraphQLBatchFailure) {
        guard let count, count > Self.pageLimit else { return }
        throw malformed("a page of \(connection) holds \(count), where a page holds at most \(Self.pageLimit)")
    }

    static let pageLimit = 100

    /// The next page's cursor, nil at the end; a page that says there is more without saying where is
    /// malformed, never the end of the list.
    func nextCursor(hasNextPage: Bool?, endCursor: String?) throws(GraphQLBatchFailure) -> String? {
        // Every connection's pageInfo has it: one without it could not tell the last page from a cut list.
        guard let hasNextPage else { throw malformed("a page without pageInfo.hasNextPage") }
        guard hasNextPage else { return nil }
        guard let endCursor, !endCursor.isEmpty else {
            throw malformed("hasNextPage is true but endCursor is missing")
        }
        return endCursor
    }
}
