import Domain
import Foundation
import JSONBytes
import Networking

/// A repository's stargazers through GraphQL: `Repository.stargazers(first: 100, after:, orderBy: {field:
/// STARRED_AT, direction: ASC})`, REST's order, with no 400-page cap. Each node asks only what REST's
/// `simple-user` needs (`GraphQLUserRebuild.accountKeys`).
enum GraphQLStargazersQuery {
    static let pageSize = 100

    /// Owner and name are written as JSON string literals (GraphQL's string syntax is JSON's); `RepositoryName`
    /// has already refused anything but letters, digits, `-`, `_` and `.`. A cursor is GitHub's, and escaped so.
    static func text(for repository: RepositoryName, after cursor: String?) -> String {
        func literal(_ text: String) -> String { String(decoding: JSONValue.string(text).bytes, as: UTF8.self) }
        let after = cursor.map { ", after: \(literal($0))" } ?? ""
        return """
            query GhUsersStargazers {
              rateLimit { cost remaining resetAt }
              repository(owner: \(literal(repository.owner.value)), name: \(literal(repository.name))) {
                stargazers(first: \(pageSize)\(after), orderBy: {field: STARRED_AT, direction: ASC}) {
                  totalCount
                  pageInfo { hasNextPage endCursor }
                  edges { starredAt node { databaseId id login avatarUrl url isSiteAdmin } }
                }
              }
            }

            """
    }

    /// The POST body: `{"query": "…"}`.
    static func body(for repository: RepositoryName, after cursor: String?) -> [UInt8] {
        JSONValue.object([.init("query", .string(text(for: repository, after: cursor)))]).bytes
    }
}

/// GitHub's answer to `GraphQLStargazersQuery`, as the schema types it (`StargazerConnection`, `StargazerEdge`,
/// `PageInfo`); every field optional here, so a missing one is a malformed answer that says which.
struct GraphQLStargazersResponseDTO: GraphQLListAnswerDTO {
    struct EdgeDTO: Decodable {
        let starredAt: String?
        let node: GraphQLAccountNodeDTO?
    }

    struct PageInfoDTO: Decodable {
        let hasNextPage: Bool
        let endCursor: String?
    }

    struct ConnectionDTO: Decodable {
        let totalCount: Int
        let pageInfo: PageInfoDTO
        let edges: [EdgeDTO?]?
    }

    struct RepositoryDTO: Decodable {
        let stargazers: ConnectionDTO
    }

    struct DataDTO: Decodable {
        let repository: RepositoryDTO?
    }

    let data: DataDTO?
    let errors: [GraphQLProfileResponseDTO.ErrorDTO]?
}

/// Reads one stargazers answer. Every byte is untrusted: an edge without a user's id, login or web address, or a
/// page that says there is more without saying where, is a malformed answer (exit 1), never a made-up record.
enum GraphQLStargazersResponse {
    static func decode(
        _ response: HTTPResponse, repository: RepositoryName, leavingOut leftOut: Set<Int64> = [], endpoint: String
    ) throws(GraphQLBatchFailure) -> StargazerPage {
        let answer = GraphQLListAnswer(response, endpoint: endpoint)
        let requestID = answer.requestID
        if let error = ErrorMapping.graphQLError(for: response, endpoint: endpoint) { throw .failed(error) }
        let (dto, errors) = try answer.decode(
            response, as: GraphQLStargazersResponseDTO.self, shape: "the stargazer connection GitHub's schema gives")
        guard let connection = dto.data?.repository?.stargazers else {
            // `repository` is null with a NOT_FOUND error for a repository the token cannot see or that is gone.
            if errors.contains(where: { $0.type == "NOT_FOUND" }) || (errors.isEmpty && dto.data != nil) {
                throw .failed(.notFound(resource: "repository '\(repository)'", requestID: requestID, byGraphQL: true))
            }
            // `FORBIDDEN` at the stargazers themselves: the list withheld since July 2026, GitHub's words kept.
            if let forbidden = errors.first(where: { $0.type == "FORBIDDEN" && $0.path?.last?.text == "stargazers" }) {
                let problem = AccessProblem.withheld(repository: "\(repository)", list: "stargazers")
                throw .failed(
                    .unauthorized(status: response.status, message: forbidden.message ?? "", problem: problem))
            }
            throw answer.failure(errors, response)
                ?? .failed(
                    .server(status: response.status, message: "GraphQL: no data and no errors", requestID: requestID))
        }
        try answer.refuse(errors, response)
        var records: [Record] = []
        guard let edges = connection.edges else { throw answer.malformed("a page of stargazers without its edges") }
        try answer.refuseOverfull(edges.count, of: "stargazers")
        for (index, edge) in edges.enumerated() {
            guard let edge, let starredAt = edge.starredAt, let account = edge.node?.simpleUser else {
                throw answer.malformed("stargazer \(index + 1) lacks starredAt, or its user's id, login or url")
            }
            let id = account.id
            guard !leftOut.contains(id) else { continue }
            let user = JSONValue.object(account.members)
            let record = JSONValue.object([.init("starred_at", .string(starredAt)), .init("user", user)])
            records.append(Record(id: id, raw: RawJSON(bytes: record.bytes)))
        }
        guard connection.totalCount >= 0 else { throw answer.malformed("totalCount is negative") }
        let next = try answer.nextCursor(
            hasNextPage: connection.pageInfo.hasNextPage, endCursor: connection.pageInfo.endCursor)
        return StargazerPage(records: records, read: edges.count, totalCount: connection.totalCount, endCursor: next)
    }
}

extension GitHubRepository {
    /// One page of stargazers through GraphQL (`GraphQLStargazersQuery`), which has no 400-page cap (REST's list
    /// stops at 40,000), waited out and retried as every GraphQL query is: the page after `cursor` (the first
    /// for nil), 100 stargazers at most, ordered by `starredAt` ascending, without the users whose ids are
    /// `leftOut` (already written: no record is made of them).
    package func stargazers(of repository: RepositoryName, after cursor: String?, leavingOut leftOut: Set<Int64>)
        async throws(DomainError) -> StargazerPage
    {
        do {
            return try await graphQL(GraphQLStargazersQuery.body(for: repository, after: cursor), repeating: .asIs) {
                response, endpoint throws(GraphQLBatchFailure) in
                try GraphQLStargazersResponse.decode(
                    response, repository: repository, leavingOut: leftOut, endpoint: endpoint)
            }
        } catch {
            switch error {
            case .failed(let failure): throw failure
            case .tooLarge(let reason), .unsupported(let reason): throw .refused(reason)
            }
        }
    }
}
