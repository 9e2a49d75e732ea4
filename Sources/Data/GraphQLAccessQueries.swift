import Domain
import Foundation
import JSONBytes

/// The GraphQL queries of an organization's access map, written to GitHub's public schema
/// (octokit/graphql-schema's `schema.graphql`):
/// - `Organization.membersWithRole(first:, after:)`: `OrganizationMemberEdge` { `role` (`ADMIN`, `MEMBER`),
///   `hasTwoFactorEnabled` (nullable: null when the viewer may not see it), `node` { `login`, `databaseId` } },
///   beside `Query.viewer` (`User!`: the token's account) { `login`, `databaseId` }, to tell whether the list is
///   every member (`AccessMembership.isComplete`);
/// - `Organization.repositories(first:, after:, ownerAffiliations: OWNER, orderBy: {field: NAME, direction: ASC})`,
///   archived ones too (no `isArchived` filter): `name`, `nameWithOwner`, `isArchived`; the owner's alone, where
///   the schema's default (`[OWNER, COLLABORATOR]`) would let another owner's in, which the map refuses;
/// - for `--repo`, aliased `repository(owner:, name:)` lookups of `nameWithOwner` (the name as GitHub spells it,
///   through a rename: `followRenames` is true unless asked otherwise);
/// - aliased `repository(owner:, name:)` lookups, each one page of `collaborators(first: 100, affiliation: ALL,
///   after:)`: `RepositoryCollaboratorEdge` { `permission` (`RepositoryPermission`), `permissionSources`
///   [`PermissionSource` { `permission` (`DefaultRepositoryPermissionField`: `NONE`, `READ`, `WRITE`, `ADMIN`),
///   `roleName`, `source` (`Organization` | `Repository` | `Team`) }], `node` { `login`, `databaseId` } }.
/// Names and cursors are written as JSON string literals (GraphQL's string syntax is JSON's), escaped so.
enum GraphQLAccessQuery {
    /// People per page, and repositories per listing page: the most a connection gives.
    static let pageSize = 100

    static func literal(_ text: String) -> String { String(decoding: JSONValue.string(text).bytes, as: UTF8.self) }

    private static func after(_ cursor: String?) -> String { cursor.map { ", after: \(literal($0))" } ?? "" }

    static func members(of organization: String, after cursor: String?) -> [UInt8] {
        body(
            """
            query GhUsersAccessMembers {
              rateLimit { cost remaining resetAt }
              viewer { login databaseId }
              organization(login: \(literal(organization))) {
                membersWithRole(first: \(pageSize)\(after(cursor))) {
                  pageInfo { hasNextPage endCursor }
                  edges { role hasTwoFactorEnabled node { login databaseId } }
                }
              }
            }

            """)
    }

    static func repositories(of organization: String, after cursor: String?) -> [UInt8] {
        body(
            """
            query GhUsersAccessRepositories {
              rateLimit { cost remaining resetAt }
              organization(login: \(literal(organization))) {
                repositories(
                  first: \(pageSize)\(after(cursor)), ownerAffiliations: OWNER, orderBy: {field: NAME, direction: ASC}
                ) {
                  totalCount
                  pageInfo { hasNextPage endCursor }
                  nodes { name nameWithOwner isArchived }
                }
              }
            }

            """)
    }

    /// The name GitHub gives each of `repositories` (their cursors aside), in one POST.
    static func names(_ repositories: [AccessPageAsk]) -> [UInt8] {
        var lines = ["query GhUsersAccessNames {", "  rateLimit { cost remaining resetAt }"]
        for (index, repository) in repositories.enumerated() {
            lines.append(
                "  \(alias(index)): repository(owner: \(literal(repository.owner)), name: \(literal(repository.name))) "
                    + "{ nameWithOwner }")
        }
        return body(lines.joined(separator: "\n") + "\n}\n")
    }

    /// The alias of the `index`th page asked in a batch.
    static func alias(_ index: Int) -> String { "r\(index)" }

    static func isAlias(_ key: String) -> Bool {
        key.count > 1 && key.first == "r" && key.dropFirst().allSatisfy(\.isASCII) && Int(key.dropFirst()) != nil
    }

    /// One page of collaborators for each of `pages`, in one POST; with `login`, that one person's access alone
    /// (`collaborators(login:)`), a page of at most one.
    static func collaborators(_ pages: [AccessPageAsk], login: String? = nil) -> [UInt8] {
        let filter = login.map { "first: 1, affiliation: ALL, login: \(literal($0))" }
        var lines = ["query GhUsersAccessCollaborators {", "  rateLimit { cost remaining resetAt }"]
        for (index, page) in pages.enumerated() {
            lines.append(
                "  \(alias(index)): repository(owner: \(literal(page.owner)), name: \(literal(page.name))) {")
            lines.append(
                "    collaborators(\(filter ?? "first: \(pageSize), affiliation: ALL")\(after(page.cursor))) "
                    + "{ ...GhUsersAccess }")
            lines.append("  }")
        }
        lines.append("}")
        lines.append(
            """
            fragment GhUsersAccess on RepositoryCollaboratorConnection {
              pageInfo { hasNextPage endCursor }
              edges {
                permission
                permissionSources {
                  permission
                  roleName
                  source {
                    __typename
                    ... on Organization { login }
                    ... on Team { slug }
                    ... on Repository { nameWithOwner }
                  }
                }
                node { login databaseId }
              }
            }

            """)
        return body(lines.joined(separator: "\n"))
    }

    private static func body(_ text: String) -> [UInt8] {
        JSONValue.object([.init("query", .string(text))]).bytes
    }
}

/// One page of one repository's collaborators to ask for: the first (`cursor` nil) or the one after `cursor`.
struct AccessPageAsk: Sendable, Equatable {
    /// "ORG/NAME" as GitHub listed it.
    let repository: String
    let cursor: String?

    var owner: String { String(repository.prefix { $0 != "/" }) }
    var name: String {
        guard let slash = repository.firstIndex(of: "/") else { return repository }
        return String(repository[repository.index(after: slash)...])
    }
}

/// GraphQL's `PageInfo`, as the lists read it: every field optional, so a missing one is said in words.
struct GraphQLPageInfoDTO: Decodable {
    let hasNextPage: Bool?
    let endCursor: String?
}

/// The answer to `GraphQLAccessQuery.members`.
struct GraphQLAccessMembersDTO: GraphQLListAnswerDTO {
    struct Node: Decodable {
        let login: String?
        let databaseId: Int64?
    }

    struct Edge: Decodable {
        let role: String?
        let hasTwoFactorEnabled: Bool?
        let node: Node?
    }

    struct Members: Decodable {
        let pageInfo: GraphQLPageInfoDTO?
        let edges: [Edge?]?
    }

    struct Organization: Decodable {
        let membersWithRole: Members?
        let repositories: Repositories?
    }

    struct Repositories: Decodable {
        struct Node: Decodable {
            let name: String?
            let nameWithOwner: String?
            let isArchived: Bool?
        }

        let totalCount: Int?
        let pageInfo: GraphQLPageInfoDTO?
        let nodes: [Node?]?
    }

    struct DataDTO: Decodable {
        let rateLimit: GraphQLProfileResponseDTO.RateLimit?
        /// The token's account, asked beside the members.
        let viewer: Node?
        let organization: Organization?
    }

    let data: DataDTO?
    let errors: [GraphQLProfileResponseDTO.ErrorDTO]?
}

/// The answer to `GraphQLAccessQuery.collaborators`: `rateLimit` and one member per alias, null where the
/// repository is gone; its `collaborators` null where GitHub refuses them (an error of type `FORBIDDEN` whose
/// `path` is `[alias, "collaborators"]`). The answer to `GraphQLAccessQuery.names` has the same shape, each
/// repository's `nameWithOwner` in place of its collaborators.
struct GraphQLAccessBatchDTO: GraphQLListAnswerDTO {
    struct Source: Decodable {
        let typename: String?
        let login: String?
        let slug: String?
        let nameWithOwner: String?

        enum CodingKeys: String, CodingKey {
            case typename = "__typename"
            case login, slug, nameWithOwner
        }
    }

    struct PermissionSource: Decodable {
        let permission: String?
        let roleName: String?
        let source: Source?
    }

    struct Edge: Decodable {
        let permission: String?
        let permissionSources: [PermissionSource?]?
        let node: GraphQLAccessMembersDTO.Node?
    }

    struct Collaborators: Decodable {
        let pageInfo: GraphQLPageInfoDTO?
        let edges: [Edge?]?
    }

    struct Repository: Decodable {
        /// Asked by `GraphQLAccessQuery.names` alone.
        let nameWithOwner: String?
        let collaborators: Collaborators?
    }

    struct DataDTO: Decodable {
        let rateLimit: GraphQLProfileResponseDTO.RateLimit?
        let repositories: [String: Repository?]

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: GraphQLProfileResponseDTO.DataDTO.Key.self)
            rateLimit = try? container.decodeIfPresent(
                GraphQLProfileResponseDTO.RateLimit.self,
                forKey: GraphQLProfileResponseDTO.DataDTO.Key(stringValue: "rateLimit"))
            var repositories: [String: Repository?] = [:]
            for key in container.allKeys where GraphQLAccessQuery.isAlias(key.stringValue) {
                repositories[key.stringValue] = try container.decode(Repository?.self, forKey: key)
            }
            self.repositories = repositories
        }
    }

    let data: DataDTO?
    let errors: [GraphQLProfileResponseDTO.ErrorDTO]?
}
