import Domain
import Foundation
import Networking

/// One collaborator edge as GitHub gave it, before the organization's membership says how the person stands.
struct AccessEdge: Sendable, Equatable {
    let login: String
    let id: Int64
    let permission: RepositoryPermissionLevel
    let sources: [AccessRecord.Source]
}

/// What one aliased page of a batch came back as.
enum AccessPageAnswer: Sendable, Equatable {
    /// The page's people, and the cursor of the next page (nil at the end).
    case page([AccessEdge], next: String?)
    /// GitHub refused this repository's collaborators (`FORBIDDEN` at its path): `reason` is GitHub's message.
    case unreadable(reason: String)
    /// No such repository (`NOT_FOUND` at its path, or null): gone since it was listed, or never there.
    case gone
}

/// Reads the access map's answers. Every byte is untrusted: an edge without its login, id or permission, or a
/// page that says there is more without saying where, is a malformed answer (exit 1), never a made-up record.
enum GraphQLAccessResponse {
    /// The failure an answer's HTTP status is, if any: a batch's 502 or 504 is a query that ran out of time, too
    /// large; a page's (the members, the listing, which cannot be asked smaller) was retried as a GET's is, and
    /// is the server's failure once the retries are spent.
    private static func statusFailure(_ response: HTTPResponse, endpoint: String, batch: Bool = false)
        -> GraphQLBatchFailure?
    {
        if batch, response.status == 502 || response.status == 504 {
            return .tooLarge("\(endpoint) answered HTTP \(response.status)")
        }
        return ErrorMapping.graphQLError(for: response, endpoint: endpoint).map { .failed($0) }
    }

    /// The organization, or why there is none: null with a NOT_FOUND error (or with none) is no such
    /// organization (exit 3); any other error beside the data stops the run, naming it.
    private static func organizationAnswer(
        _ response: HTTPResponse, of login: String, endpoint: String
    ) throws(GraphQLBatchFailure) -> (GraphQLAccessMembersDTO.Organization, cost: Int?, viewer: Int64?) {
        if let failure = statusFailure(response, endpoint: endpoint) { throw failure }
        let answer = GraphQLListAnswer(response, endpoint: endpoint)
        let (dto, errors) = try answer.decode(
            response, as: GraphQLAccessMembersDTO.self, shape: "the organization GitHub's schema gives")
        if let limited = errors.first(where: GraphQLProfileResponse.isTooMuchWork) {
            throw .tooLarge(limited.message ?? "Resource limits for this query exceeded.")
        }
        guard let organization = dto.data?.organization else {
            if errors.isEmpty, dto.data == nil { throw answer.malformed("no data and no errors") }
            if let failure = answer.failure(errors.filter { $0.type != "NOT_FOUND" }, response) { throw failure }
            throw .failed(.notFound(resource: "organization '\(login)'", requestID: answer.requestID, byGraphQL: true))
        }
        try answer.refuse(errors, response)
        return (organization, dto.data?.rateLimit?.cost, dto.data?.viewer?.databaseId)
    }

    /// One page of `membersWithRole`: each member's id, whether an owner, and the two-factor state; and the
    /// token's account's id (`viewer`), nil where the answer has none.
    static func members(_ response: HTTPResponse, of login: String, endpoint: String) throws(GraphQLBatchFailure)
        -> (members: [(id: Int64, member: AccessMember)], viewer: Int64?, next: String?, cost: Int?)
    {
        let answer = GraphQLListAnswer(response, endpoint: endpoint)
        let (organization, cost, viewer) = try organizationAnswer(response, of: login, endpoint: endpoint)
        guard let connection = organization.membersWithRole else { throw answer.malformed("no membersWithRole") }
        try answer.refuseOverfull(connection.edges?.count, of: "the members")
        var members: [(id: Int64, member: AccessMember)] = []
        guard let edges = connection.edges else { throw answer.malformed("a page of members without its edges") }
        for edge in edges {
            guard let edge, let id = edge.node?.databaseId, let role = edge.role, role == "ADMIN" || role == "MEMBER"
            else { throw answer.malformed("a member without its id or its role (ADMIN or MEMBER)") }
            members.append(
                (id: id, member: AccessMember(isOwner: role == "ADMIN", twoFactor: edge.hasTwoFactorEnabled)))
        }
        let next = try answer.nextCursor(
            hasNextPage: connection.pageInfo?.hasNextPage, endCursor: connection.pageInfo?.endCursor)
        return (members, viewer, next, cost)
    }

    /// One page of the organization's repositories, as "ORG/NAME", and how many the listing counts.
    static func repositories(_ response: HTTPResponse, of login: String, endpoint: String)
        throws(GraphQLBatchFailure) -> (names: [String], next: String?, cost: Int?, total: Int?)
    {
        let answer = GraphQLListAnswer(response, endpoint: endpoint)
        let (organization, cost, _) = try organizationAnswer(response, of: login, endpoint: endpoint)
        guard let connection = organization.repositories else { throw answer.malformed("no repositories") }
        try answer.refuseOverfull(connection.nodes?.count, of: "the repository listing")
        var names: [String] = []
        guard let nodes = connection.nodes else { throw answer.malformed("a page of repositories without its nodes") }
        for node in nodes {
            guard let node, let name = node.nameWithOwner, name.contains("/"), !name.hasSuffix("/") else {
                throw answer.malformed("a repository without its nameWithOwner")
            }
            // The map is of the organization's repositories: another owner's would be mapped and recorded as its.
            guard name.lowercased().hasPrefix(login.lowercased() + "/") else {
                throw answer.malformed("a repository of another owner in the organization's listing")
            }
            names.append(name)
        }
        let next = try answer.nextCursor(
            hasNextPage: connection.pageInfo?.hasNextPage, endCursor: connection.pageInfo?.endCursor)
        return (names, next, cost, connection.totalCount)
    }

    /// One batch's answer: a page answer per ask, in the order asked, and what the query cost. A batch too large
    /// (the node limit, GitHub's resource limits, a 502 or 504) is `tooLarge`, asked again smaller; an error
    /// that is about none of the aliases, or about one in a way other than a refusal, stops the run.
    static func batch(_ response: HTTPResponse, asked pages: [AccessPageAsk], endpoint: String)
        throws(GraphQLBatchFailure) -> (answers: [AccessPageAnswer], cost: Int?)
    {
        if let failure = statusFailure(response, endpoint: endpoint, batch: true) { throw failure }
        let answer = GraphQLListAnswer(response, endpoint: endpoint)
        let (dto, errors) = try answer.decode(
            response, as: GraphQLAccessBatchDTO.self, shape: "the collaborator connections GitHub's schema gives")
        if let limited = errors.first(where: GraphQLProfileResponse.isTooMuchWork) {
            throw .tooLarge(limited.message ?? "Resource limits for this query exceeded.")
        }
        let refusals = try aliased(errors, of: ["FORBIDDEN", "NOT_FOUND"], asked: pages.count, response, answer)
        guard let data = dto.data else { throw answer.malformed("no data and no errors") }
        var answers: [AccessPageAnswer] = []
        for index in pages.indices {
            let alias = GraphQLAccessQuery.alias(index)
            if let refusal = refusals[alias] {
                answers.append(
                    refusal.type == "NOT_FOUND" ? .gone : .unreadable(reason: refusal.message ?? "FORBIDDEN"))
                continue
            }
            guard case .some(.some(let repository)) = data.repositories[alias] else {
                // Null with no error: the repository went between its listing and this read.
                if case .some(.none) = data.repositories[alias] {
                    answers.append(.gone)
                    continue
                }
                throw answer.malformed("no answer for \(pages[index].repository)")
            }
            guard let connection = repository.collaborators else {
                throw answer.malformed("no collaborators for \(pages[index].repository), and no error saying why")
            }
            try answer.refuseOverfull(connection.edges?.count, of: "\(pages[index].repository)'s collaborators")
            var edges: [AccessEdge] = []
            guard let connectionEdges = connection.edges else {
                throw answer.malformed("a page of \(pages[index].repository)'s collaborators without its edges")
            }
            for edge in connectionEdges {
                switch accessEdge(edge) {
                case .success(let made): edges.append(made)
                case .failure(let flaw):
                    throw answer.malformed("\(flaw.text), in \(pages[index].repository)'s collaborators")
                }
            }
            let next = try answer.nextCursor(
                hasNextPage: connection.pageInfo?.hasNextPage, endCursor: connection.pageInfo?.endCursor)
            answers.append(.page(edges, next: next))
        }
        return (answers, data.rateLimit?.cost)
    }

    /// `errors` by the alias at the start of their path, each of one of `types` and about the repository itself
    /// (`NOT_FOUND` at `[alias]`) or its collaborators (`FORBIDDEN` at `[alias]` or `[alias, collaborators]`), of
    /// one of the `asked` aliases; any other error stops the run, naming it (a refusal of the token among them
    /// first: a missing scope is about the whole query). A `NOT_FOUND` deeper in (one collaborator's) is no
    /// repository gone: taken as one, it left the whole repository out, exit 0 (helper-226).
    private static func aliased(
        _ errors: [GraphQLProfileResponseDTO.ErrorDTO], of types: Set<String>, asked: Int,
        _ response: HTTPResponse, _ answer: GraphQLListAnswer
    ) throws(GraphQLBatchFailure) -> [String: GraphQLProfileResponseDTO.ErrorDTO] {
        let aliases = Set((0..<asked).map(GraphQLAccessQuery.alias))
        var aliased: [String: GraphQLProfileResponseDTO.ErrorDTO] = [:]
        var others: [GraphQLProfileResponseDTO.ErrorDTO] = []
        for error in errors {
            let path = (error.path ?? []).map(\.text)
            let alias = path.first ?? ""
            let about =
                path.count == 1 || (error.type == "FORBIDDEN" && path.count == 2 && path[1] == "collaborators")
            guard aliases.contains(alias), about, let type = error.type, types.contains(type) else {
                others.append(error)
                continue
            }
            aliased[alias] = error
        }
        if let failure = answer.failure(others, response) { throw failure }
        return aliased
    }

    /// The answer to `GraphQLAccessQuery.names`: the name GitHub gives each repository asked ("ORG/NAME"), in
    /// the order asked; nil for one that is not there (null, with a `NOT_FOUND` error at its alias or none).
    static func names(_ response: HTTPResponse, asked repositories: [AccessPageAsk], endpoint: String)
        throws(GraphQLBatchFailure) -> (names: [String?], cost: Int?)
    {
        if let failure = statusFailure(response, endpoint: endpoint) { throw failure }
        let answer = GraphQLListAnswer(response, endpoint: endpoint)
        let (dto, errors) = try answer.decode(
            response, as: GraphQLAccessBatchDTO.self, shape: "the repositories GitHub's schema gives")
        _ = try aliased(errors, of: ["NOT_FOUND"], asked: repositories.count, response, answer)
        guard let data = dto.data else { throw answer.malformed("no data and no errors") }
        var names: [String?] = []
        for (index, asked) in repositories.enumerated() {
            switch data.repositories[GraphQLAccessQuery.alias(index)] {
            case .some(.some(let repository)):
                guard let name = repository.nameWithOwner, name.contains("/"), !name.hasSuffix("/") else {
                    throw answer.malformed("no nameWithOwner for \(asked.repository)")
                }
                names.append(name)
            case .some(.none): names.append(nil)
            case .none: throw answer.malformed("no answer for \(asked.repository)")
            }
        }
        return (names, data.rateLimit?.cost)
    }

    /// What is wrong with a collaborator's edge, said in the malformed answer: a permission or a kind of source
    /// GitHub has added since (a new role, an enterprise's teams) is named, not taken for a missing field.
    struct EdgeFlaw: Error { let text: String }

    private static func accessEdge(_ edge: GraphQLAccessBatchDTO.Edge?) -> Result<AccessEdge, EdgeFlaw> {
        guard let edge, let login = edge.node?.login, !login.isEmpty, let id = edge.node?.databaseId else {
            return .failure(EdgeFlaw(text: "a collaborator without its login or id"))
        }
        let named = "the collaborator " + quoted(login)
        guard let given = edge.permission else { return .failure(EdgeFlaw(text: named + " has no permission")) }
        guard let permission = RepositoryPermissionLevel(rawValue: given.lowercased()) else {
            return .failure(
                EdgeFlaw(
                    text: "\(named) has the permission \(quoted(given)), none of read, triage, write, maintain, admin"))
        }
        var sources: [AccessRecord.Source] = []
        for source in edge.permissionSources ?? [] {
            guard let source, let made = Self.source(source) else {
                let kind = source?.source?.typename
                guard let kind, !["Organization", "Team", "Repository"].contains(kind) else {
                    return .failure(EdgeFlaw(text: "\(named) has a permission source without its kind, name or role"))
                }
                return .failure(
                    EdgeFlaw(
                        text:
                            "\(named) has a permission source of the kind \(quoted(kind)), none of Organization, Team, "
                            + "Repository"))
            }
            sources.append(made)
        }
        return .success(AccessEdge(login: login, id: id, permission: permission, sources: sources))
    }

    /// A value GitHub sent, quoted and cut to 60 characters for a message.
    private static func quoted(_ text: String) -> String {
        "'" + (text.count > 60 ? text.prefix(59) + "…" : text) + "'"
    }

    /// A `PermissionSource`: its granter by kind and name, and the role it grants: `roleName` where GitHub gives
    /// one (it tells triage from read and maintain from write, which `permission` does not), else `permission`
    /// in lower case. A built-in role's name is said in lower case as well, whatever case it comes in; a custom
    /// role's name is kept as the organization spelled it.
    private static func source(_ dto: GraphQLAccessBatchDTO.PermissionSource) -> AccessRecord.Source? {
        guard let granter = dto.source, let permission = dto.permission, !permission.isEmpty else { return nil }
        let named = dto.roleName.flatMap { $0.isEmpty ? nil : $0 }
        let role =
            named.map { RepositoryPermissionLevel(rawValue: $0.lowercased()) == nil ? $0 : $0.lowercased() }
            ?? permission.lowercased()
        // A custom role is ranked by the level GitHub says it grants (helper-346's R2).
        let base = RepositoryPermissionLevel(rawValue: permission.lowercased())
        switch granter.typename {
        case "Organization":
            guard let login = granter.login else { return nil }
            return AccessRecord.Source(kind: .organization, name: login, permission: role, base: base)
        case "Team":
            guard let slug = granter.slug else { return nil }
            return AccessRecord.Source(kind: .team, name: slug, permission: role, base: base)
        case "Repository":
            guard let name = granter.nameWithOwner else { return nil }
            return AccessRecord.Source(kind: .repository, name: name, permission: role, base: base)
        default:
            return nil
        }
    }
}
