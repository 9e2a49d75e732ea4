import Domain
import Foundation
import JSONBytes
import Networking

/// `organization(login:) { team(slug:) { members(membership: IMMEDIATE) } }`: a team's own members, with each
/// one's role on the team (`TeamMemberEdge.role`), as GitHub's public schema describes them.
enum GraphQLTeamMembersQuery {
    static let text = """
        query GhUsersTeamMembers($org: String!, $team: String!, $first: Int!, $after: String, $role: TeamMemberRole) {
          organization(login: $org) {
            team(slug: $team) {
              members(first: $first, after: $after, membership: IMMEDIATE, role: $role) {
                totalCount
                edges { role node { databaseId id login url avatarUrl isSiteAdmin } }
                pageInfo { hasNextPage endCursor }
              }
            }
          }
        }

        """

    /// The POST body: the query and its variables, strings escaped as JSON.
    static func body(for team: TeamName, role: String?, first: Int, after: String?) -> [UInt8] {
        let variables = JSONValue.object([
            .init("org", .string(team.organization.value)),
            .init("team", .string(team.slug)),
            .init("first", .integer(Int64(first))),
            .init("after", after.map(JSONValue.string) ?? .null),
            .init("role", role.map(JSONValue.string) ?? .null),
        ])
        return JSONValue.object([.init("query", .string(text)), .init("variables", variables)]).bytes
    }
}

/// GitHub's answer to `GraphQLTeamMembersQuery`; every field optional, so a missing one is a malformed answer
/// said in words, never a crash.
struct GraphQLTeamMembersDTO: GraphQLListAnswerDTO {
    struct Edge: Decodable {
        let role: String?
        let node: GraphQLAccountNodeDTO?
    }

    struct Members: Decodable {
        let edges: [Edge?]?
        let pageInfo: GraphQLPageInfoDTO?
    }

    struct Team: Decodable {
        let members: Members?
    }

    struct Organization: Decodable {
        let team: Team?
    }

    struct DataDTO: Decodable {
        let organization: Organization?
    }

    let data: DataDTO?
    let errors: [GraphQLProfileResponseDTO.ErrorDTO]?
}

enum GraphQLTeamMembersResponse {
    /// One page, or why there is none: no such organization or team (`null`, with or without a NOT_FOUND error)
    /// is GraphQL's not-found, which may be a token that cannot see it: `directMembers` asks the organization, as
    /// for REST's 404 (exit 4 naming read:org when it exists).
    static func decode(_ response: HTTPResponse, team: TeamName, endpoint: String) throws(GraphQLBatchFailure)
        -> Page<User>
    {
        let answer = GraphQLListAnswer(response, endpoint: endpoint)
        let requestID = answer.requestID
        if let error = ErrorMapping.graphQLError(for: response, endpoint: endpoint) { throw .failed(error) }
        let (dto, errors) = try answer.decode(
            response, as: GraphQLTeamMembersDTO.self, shape: "the team's members GitHub documents")
        guard let members = dto.data?.organization?.team?.members else {
            if let failure = answer.failure(errors.filter { $0.type != "NOT_FOUND" }, response) { throw failure }
            // `data` null beside a NOT_FOUND is not-found too (helper-294: "no data and no errors", exit 1).
            guard dto.data != nil || errors.contains(where: { $0.type == "NOT_FOUND" }) else {
                throw answer.malformed("no data and no errors")
            }
            throw .failed(.notFound(resource: "team '\(team)'", requestID: requestID, byGraphQL: true))
        }
        try answer.refuse(errors, response)
        var users: [User] = []
        guard let edges = members.edges else { throw answer.malformed("a page of members without its edges") }
        try answer.refuseOverfull(edges.count, of: "the team's members")
        for edge in edges {
            guard let edge, let user = user(edge) else {
                throw answer.malformed("a member without its id, login or url")
            }
            users.append(user)
        }
        let next = try answer.nextCursor(
            hasNextPage: members.pageInfo?.hasNextPage, endCursor: members.pageInfo?.endCursor)
        return Page(items: users, next: next.map { PageCursor(url: $0) })
    }

    /// REST's team-member object: the summary keys, `type`, `site_admin`, then `role` lowercased and `inherited`,
    /// false: a team's own member is not one through a child team.
    private static func user(_ edge: GraphQLTeamMembersDTO.Edge) -> User? {
        guard let node = edge.node, let account = node.simpleUser else { return nil }
        let object = JSONValue.object(
            account.members + [
                .init("role", edge.role.map { .string($0.lowercased()) } ?? .null), .init("inherited", .bool(false)),
            ])
        return User(
            id: account.id, login: account.login, siteAdmin: node.isSiteAdmin ?? false, htmlURL: account.htmlURL,
            raw: RawJSON(bytes: object.bytes))
    }
}

extension GitHubRepository {
    /// A team's own members, without its child teams' (`team-members --direct`): REST's list has no such filter,
    /// so this asks GraphQL's `Team.members(membership: IMMEDIATE)`, each member in REST's team-member shape (its
    /// summary keys, then `role`: `member` or `maintainer`, and `inherited`: false), so a script sees one shape.
    /// One page of at most `first` members; `role` is `MEMBER` or `MAINTAINER` (nil: both); `after` is the `next`
    /// of the page before (GraphQL's `endCursor`, opaque), nil for the first. An unknown organization or team is
    /// refused as REST refuses it (a 404 that may be a token that cannot see it).
    package func directMembers(of team: TeamName, role: String?, first: Int, after: PageCursor?)
        async throws(DomainError) -> Page<User>
    {
        do {
            return try await graphQL(
                GraphQLTeamMembersQuery.body(for: team, role: role, first: first, after: after?.url), repeating: .asIs
            ) { response, endpoint throws(GraphQLBatchFailure) in
                try GraphQLTeamMembersResponse.decode(response, team: team, endpoint: endpoint)
            }
        } catch {
            switch error {
            case .failed(let failure):
                // A team GraphQL does not find may be one the token may not see: its organization is asked, as
                // for REST's list (`ResourceRepository.firstPage(_:perPage:)`).
                guard after == nil else { throw failure }
                throw await ownerAnswer(
                    to: failure, of: GitHubEndpoints.owner(.team(team)), team: team, scope: Endpoint.teamMembers.scope)
            case .tooLarge(let reason), .unsupported(let reason): throw .refused(reason)
            }
        }
    }
}

/// A team's own members, without its child teams' (`team-members --direct`), paged through GraphQL
/// (`GitHubRepository.directMembers(of:role:first:after:)`), `perPage` a page; each page's `next` is GraphQL's
/// `endCursor`. It has no head to tell of the next page early.
package struct DirectTeamMembers: PageSource {
    package let team: TeamName
    /// GraphQL's `TeamMemberRole`: `MEMBER` or `MAINTAINER`; nil for both.
    package let role: String?
    package let perPage: Int
    package let github: GitHubRepository

    package func page(at cursor: PageCursor?, nextPage: NextPageListener?) async throws(DomainError) -> Page<User> {
        try await github.directMembers(of: team, role: role, first: perPage, after: cursor)
    }
}

extension GitHubRepository {
    /// A team's own members, `perPage` a page, `restRole` as REST's list filters it (`member`, `maintainer`, or
    /// `all` or nil for both) turned into GraphQL's `TeamMemberRole`.
    package func directMembers(of team: TeamName, restRole: String?, perPage: Int) -> DirectTeamMembers {
        let role = restRole.flatMap { $0 == "all" ? nil : $0.uppercased() }
        return DirectTeamMembers(team: team, role: role, perPage: perPage, github: self)
    }
}
