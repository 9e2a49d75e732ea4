import Domain
import Foundation
import JSONBytes
import Networking

/// `organization(login:) { viewerIsAMember }`: whether the token's account is an active member of the
/// organization (GitHub's public schema: "Viewer is an active member of this organization"). REST cannot say:
/// it answers a non-member's `GET /orgs/{org}/members` with the public members, 200, as it answers a member
/// with all of them.
enum GraphQLMembershipQuery {
    static let text = """
        query GhUsersMembership($org: String!) {
          organization(login: $org) { viewerIsAMember }
        }

        """

    static func body(for organization: String) -> [UInt8] {
        let variables = JSONValue.object([.init("org", .string(organization))])
        return JSONValue.object([.init("query", .string(text)), .init("variables", variables)]).bytes
    }
}

/// GitHub's answer to `GraphQLMembershipQuery`; every field optional, so a missing one is a malformed answer.
struct GraphQLMembershipDTO: GraphQLListAnswerDTO {
    struct Organization: Decodable {
        let viewerIsAMember: Bool?
    }

    struct DataDTO: Decodable {
        let organization: Organization?
    }

    let data: DataDTO?
    let errors: [GraphQLProfileResponseDTO.ErrorDTO]?
}

extension GitHubRepository {
    /// Whether the token's account is an active member of `organization` (a pending invitation is none). An
    /// organization GitHub does not find is GitHub's 404 (exit 3); any error beside the answer stops the run.
    package func viewerIsMember(of organization: String) async throws(DomainError) -> Bool {
        do {
            return try await graphQL(GraphQLMembershipQuery.body(for: organization), repeating: .asIs) {
                response, endpoint throws(GraphQLBatchFailure) in
                if let error = ErrorMapping.graphQLError(for: response, endpoint: endpoint) {
                    throw .failed(error)
                }
                let answer = GraphQLListAnswer(response, endpoint: endpoint)
                let (dto, errors) = try answer.decode(
                    response, as: GraphQLMembershipDTO.self, shape: "an organization's viewerIsAMember")
                if dto.data?.organization == nil, errors.contains(where: { $0.type == "NOT_FOUND" }) {
                    throw .failed(
                        .notFound(
                            resource: "organization '\(organization)'", requestID: answer.requestID, byGraphQL: true))
                }
                try answer.refuse(errors, response)
                guard let member = dto.data?.organization?.viewerIsAMember else {
                    throw answer.malformed("a required field 'viewerIsAMember' is missing")
                }
                return member
            }
        } catch {
            switch error {
            case .failed(let failure): throw failure
            case .tooLarge(let reason), .unsupported(let reason): throw .refused(reason)
            }
        }
    }
}
