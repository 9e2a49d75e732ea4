import Foundation
import JSONBytes

/// `POST /graphql` for the documents gh-users asks of the world (`Sources/Data/GraphQLAccessQueries.swift`,
/// `GraphQLStargazers.swift`, `GraphQLTeamMembers.swift`), answered by its generic rules with the fields those
/// documents ask in their order, as GitHub's schema (octokit/graphql-schema's `schema.graphql`) names them:
/// - `organization(login:) { membersWithRole }`: its active members (only the public ones to a non-member), each
///   with `role` (`ADMIN` for an owner, else `MEMBER`) and `hasTwoFactorEnabled`, null unless the caller is an owner;
/// - `organization(login:) { repositories }`: its repositories by name, none archived;
/// - aliased `repository(owner:, name:) { collaborators(affiliation: ALL) }`: everyone with a grant, with the
///   highest as `permission` and every grant as a `PermissionSource`: the organization (ownership, the base
///   permission), the team that grants it (a child team's members name the parent that does), the repository (a
///   direct grant, or an account's own repository). `permission` is GitHub's `DefaultRepositoryPermissionField`
///   (triage shows as `READ`, maintain as `WRITE`) and `roleName` the exact role, as a real answer has them;
/// - `repository(owner:, name:) { stargazers }`: the one star list REST serves, with no cap, oldest first; to
///   anyone without a grant an empty list, as GitHub answers since July 2026;
/// - `organization(login: $org) { team(slug: $team) { members(membership: IMMEDIATE) } }`: a team's own members
///   on one page, filtered by `$role`; null to a non-member.
/// A caller who cannot push to a repository gets `collaborators: null` beside a `FORBIDDEN` error with the field's
/// path; an unknown repository is null beside `NOT_FOUND`, an unknown organization `organization: null` beside
/// `NOT_FOUND`. Lists are paged by the stand-in's cursors, at most 100 a page. Each document costs 1 point per 100
/// connections asked, at least 1, from the caller's `graphql` bucket.
enum StandInAccessGraphQL {
    /// One aliased `repository(owner:, name:)` lookup of a batch.
    struct Ask {
        var alias: String
        var owner: String
        var name: String
        var after: String?
        /// `collaborators(login:)`: that one person's access alone.
        var login: String?
    }

    static let permissions = ["READ", "TRIAGE", "WRITE", "MAINTAIN", "ADMIN"]
    /// `DefaultRepositoryPermissionField` for each level of `permissions`.
    static let basePermissions = ["READ", "READ", "WRITE", "WRITE", "ADMIN"]

    static func isAsked(in query: String) -> Bool {
        ["membersWithRole(", "collaborators(", "repository(owner:", "team(slug:"].contains { query.contains($0) }
            || (query.contains("organization(login:") && query.contains("repositories("))
    }

    static func respond(_ query: String, variables: [String: Any], to request: StandInRouteRequest)
        -> StandInHTTPResponse
    {
        let asks = Self.asks(in: query)
        let limit = request.context.configuration.graphQLNodeLimit
        guard asks.count <= limit else {
            let message = "This query requests up to \(asks.count) nodes which exceeds the maximum limit of \(limit)."
            return StandInGraphQLHandler.errorsOnly(type: "MAX_NODE_LIMIT_EXCEEDED", message)
        }
        let cursors = asks.map(\.after) + [literal(after: "after:", in: query[...])]
        guard cursors.allSatisfy({ $0 == nil || $0.flatMap(position(after:)) != nil }) else {
            return StandInGraphQLHandler.errorsOnly(type: nil, "The stand-in gave no such cursor")
        }
        var answer = Answer(request: request, world: request.context.world.current)
        let cost = max(1, (max(1, asks.count) + 50) / 100)
        if let refusal = StandInGraphQLHandler.charge(cost, query, request, into: &answer.writer) { return refusal }
        if !asks.isEmpty {
            for (index, ask) in asks.enumerated() {
                answer.writer.raw(index == 0 ? "" : ",")
                answer.collaborators(ask, first: first(in: query))
            }
        } else if query.contains("team(slug:") {
            answer.team(variables)
        } else if query.contains("repository(owner:") {
            answer.stargazers(query)
        } else {
            answer.organization(query)
        }
        return StandInGraphQLHandler.finish(&answer.writer, errors: answer.errors)
    }

    /// The stand-in's opaque cursors: base64 of `cursor:<position + 1>`.
    static func cursor(_ position: Int) -> String {
        Data("cursor:\(position + 1)".utf8).base64EncodedString()
    }

    static func position(after cursor: String) -> Int? {
        guard let data = Data(base64Encoded: cursor), let text = String(data: data, encoding: .utf8),
            text.hasPrefix("cursor:"), let number = Int(text.dropFirst("cursor:".count)), number >= 0
        else { return nil }
        return number
    }

    /// Each `alias: repository(owner: "…", name: "…")` of the document, with its `after:` up to the lookup's end.
    static func asks(in query: String) -> [Ask] {
        query.ranges(of: ": repository(owner:").compactMap { range in
            let alias = query[..<range.lowerBound].reversed().prefix { $0.isLetter || $0.isNumber || $0 == "_" }
            let end = query[range.upperBound...].firstIndex(of: "}") ?? query.endIndex
            let lookup = query[range.lowerBound..<end]
            guard let owner = literal(after: "owner:", in: lookup), let name = literal(after: "name:", in: lookup)
            else { return nil }
            return Ask(
                alias: String(alias.reversed()), owner: owner, name: name, after: literal(after: "after:", in: lookup),
                login: literal(after: "login:", in: lookup))
        }
    }

    /// The string literal after `label` in `text`; logins, names and the stand-in's cursors hold no quote or
    /// backslash, so it needs no unescaping.
    static func literal(after label: String, in text: Substring) -> String? {
        guard let found = text.range(of: label) else { return nil }
        let rest = text[found.upperBound...].drop { $0 == " " }
        guard rest.first == "\"", let close = rest.dropFirst().firstIndex(of: "\"") else { return nil }
        return String(rest[rest.index(after: rest.startIndex)..<close])
    }

    /// The document's first `first:`, at most 100, as GitHub caps a connection's page.
    static func first(in query: String) -> Int {
        guard let found = query.range(of: "first:") else { return 100 }
        return min(100, Int(String(query[found.upperBound...].drop { $0 == " " }.prefix(while: \.isNumber))) ?? 100)
    }

    /// An answer being written, and the errors to write after its data.
    struct Answer {
        let request: StandInRouteRequest
        let world: StandInWorld
        var writer = JSONByteWriter(reservingCapacity: 64 * 1_024)
        var errors: [(type: String, path: [String], message: String)] = []
        var caller: String { request.signedInAccount?.login.lowercased() ?? "" }

        init(request: StandInRouteRequest, world: StandInWorld) {
            (self.request, self.world) = (request, world)
        }

        /// `"organization":…` for the members or the repositories document.
        mutating func organization(_ query: String) {
            let login = StandInAccessGraphQL.literal(after: "organization(login:", in: query[...]) ?? ""
            guard let organization = world.organization(login) else {
                writer.raw("\"organization\":null")
                let message = "Could not resolve to an Organization with the login of '\(login)'."
                return errors.append(("NOT_FOUND", ["organization"], message))
            }
            let after = StandInAccessGraphQL.literal(after: "after:", in: query[...])
            let first = StandInAccessGraphQL.first(in: query)
            guard query.contains("membersWithRole(") else {
                let repositories = world.repositories.filter {
                    $0.owner.lowercased() == organization.login.lowercased()
                }
                .sorted { $0.name.lowercased() < $1.name.lowercased() }
                writer.raw("\"organization\":{\"repositories\":{\"totalCount\":")
                writer.integer(repositories.count)
                writer.raw(",")
                let page = self.page(count: repositories.count, first: first, after: after)
                writer.raw(",\"nodes\":[")
                for position in page {
                    writer.raw(position == page.lowerBound ? "{\"name\":" : ",{\"name\":")
                    writer.string(repositories[position].name)
                    writer.raw(",\"nameWithOwner\":")
                    writer.string(repositories[position].fullName)
                    writer.raw(",\"isArchived\":false}")
                }
                return writer.raw("]}}")
            }
            let viewer = organization.members.first { $0.active && $0.login.lowercased() == caller }
            let members = organization.members.filter { $0.active && (viewer != nil || $0.isPublic) }
                .compactMap { member in request.population.user(login: member.login).map { (member, $0) } }
            writer.raw("\"organization\":{\"membersWithRole\":{")
            let page = self.page(count: members.count, first: first, after: after)
            writer.raw(",\"edges\":[")
            for position in page {
                let (member, user) = members[position]
                writer.raw(position == page.lowerBound ? "{\"role\":" : ",{\"role\":")
                writer.raw(member.role == "admin" ? "\"ADMIN\"" : "\"MEMBER\"")
                writer.raw(",\"hasTwoFactorEnabled\":")
                writer.optionalBoolean(viewer?.role == "admin" ? member.twoFactor != "disabled" : nil)
                writeNode(user)
            }
            writer.raw("]}}")
        }

        /// `"alias":{"collaborators":…}` for one lookup of a batch.
        mutating func collaborators(_ ask: Ask, first: Int) {
            writer.string(ask.alias)
            guard let repository = world.repository(ask.owner, ask.name) else {
                writer.raw(":null")
                let message = "Could not resolve to a Repository with the name '\(ask.owner)/\(ask.name)'."
                return errors.append(("NOT_FOUND", [ask.alias], message))
            }
            guard (world.permission(of: caller, on: repository) ?? 0) >= 2 else {
                writer.raw(":{\"collaborators\":null}")
                let message = "You do not have permission to view repository collaborators."
                return errors.append(("FORBIDDEN", [ask.alias, "collaborators"], message))
            }
            let people = world.people(of: repository).filter {
                ask.login == nil || $0.lowercased() == ask.login?.lowercased()
            }
            .compactMap(request.population.user(login:))
            writer.raw(":{\"collaborators\":{")
            let page = self.page(count: people.count, first: first, after: ask.after)
            writer.raw(",\"edges\":[")
            for position in page {
                let grants = world.grants(of: people[position].login, on: repository)
                writer.raw(position == page.lowerBound ? "{\"permission\":" : ",{\"permission\":")
                writer.unescaped("\"\(StandInAccessGraphQL.permissions[grants.map(\.level).max() ?? 0])\"")
                writer.raw(",\"permissionSources\":[")
                var written: [String] = []
                for grant in grants {
                    let (type, key, name) = source(of: grant, on: repository)
                    let source =
                        "{\"permission\":\"\(StandInAccessGraphQL.basePermissions[grant.level])\",\"roleName\":"
                    guard !written.contains(source + type + name) else { continue }
                    writer.raw(written.isEmpty ? "" : ",")
                    written.append(source + type + name)
                    writer.unescaped(source + "\"\(StandInWorld.roleName(grant.level))\",\"source\":{\"__typename\":")
                    writer.unescaped("\"\(type)\",\"\(key)\":")
                    writer.string(name)
                    writer.raw("}}")
                }
                writer.raw("]")
                writeNode(people[position])
            }
            writer.raw("]}}")
        }

        /// `"repository":{"stargazers":…}`: empty to a caller without a grant, or for no such repository.
        mutating func stargazers(_ query: String) {
            let owner = StandInAccessGraphQL.literal(after: "owner:", in: query[...]) ?? ""
            let name = StandInAccessGraphQL.literal(after: "name:", in: query[...]) ?? ""
            let list = world.repository(owner, name).flatMap { repository in
                world.permission(of: caller, on: repository).map { _ in
                    StandInStargazerList(repository, in: request.population)
                }
            }
            writer.raw("\"repository\":{\"stargazers\":{\"totalCount\":")
            writer.integer(list?.count ?? 0)
            writer.raw(",")
            let after = StandInAccessGraphQL.literal(after: "after:", in: query[...])
            let page = self.page(count: list?.count ?? 0, first: StandInAccessGraphQL.first(in: query), after: after)
            writer.raw(",\"edges\":[")
            for position in page {
                guard let list else { break }
                writer.raw(position == page.lowerBound ? "{" : ",{")
                if query.contains("cursor") {
                    writer.raw("\"cursor\":")
                    writer.string(StandInAccessGraphQL.cursor(position))
                    writer.raw(",")
                }
                writer.raw("\"starredAt\":")
                writer.string(UTCTimestamp.iso8601(list.starredAt(position)))
                writer.raw(",\"node\":")
                list.user(at: position).writeGraphQLNode(["id", "login", "avatarUrl", "url"], into: &writer)
                writer.raw("}")
            }
            writer.raw("]}}")
        }

        /// `"organization":{"team":…}` with the team's own members, `$role` filtering; null to a non-member.
        mutating func team(_ variables: [String: Any]) {
            let organization = (variables["org"] as? String).flatMap(world.organization)
            guard let organization, world.isMember(caller, of: organization),
                let team = organization.teams.first(where: { $0.slug == variables["team"] as? String })
            else { return writer.raw("\"organization\":{\"team\":null}") }
            let role = (variables["role"] as? String)?.lowercased()
            let members = team.members.filter { role == nil || $0.role == role }.compactMap { member in
                request.population.user(login: member.login).map { (member.role, $0) }
            }
            writer.raw("\"organization\":{\"team\":{\"members\":{\"totalCount\":")
            writer.integer(members.count)
            writer.raw(",\"edges\":[")
            for (index, (role, user)) in members.enumerated() {
                writer.raw(index == 0 ? "{\"role\":" : ",{\"role\":")
                writer.string(role.uppercased())
                writer.raw(",\"node\":")
                user.writeGraphQLNode(["id", "login", "url", "avatarUrl"], into: &writer)
                writer.raw("}")
            }
            writer.raw("],\"pageInfo\":{\"hasNextPage\":false,\"endCursor\":null}}}}")
        }

        /// The granter of `grant`: its `__typename`, the field that names it, and its name.
        func source(of grant: StandInWorld.Grant, on repository: StandInWorld.Repository)
            -> (String, String, String)
        {
            guard let organization = world.organization(repository.owner) else {
                return ("Repository", "nameWithOwner", repository.fullName)
            }
            guard grant.source.hasPrefix("team ") else {
                return grant.source == "direct"
                    ? ("Repository", "nameWithOwner", repository.fullName)
                    : ("Organization", "login", organization.login)
            }
            // The team the person is in, or the nearest team above it whose grant this is.
            let slug = String(grant.source.dropFirst("team ".count))
            let team = organization.teams.first { $0.slug == slug }
            let granting = team.map { world.lineage(of: $0, in: organization) }?.first { ancestor in
                let given = ancestor.repositories.first { $0.key.lowercased() == repository.fullName.lowercased() }
                return given.flatMap { StandInWorld.level($0.value) } == grant.level
            }
            return ("Team", "slug", granting?.slug ?? slug)
        }

        /// `"pageInfo":{…}` of the page after `cursor` of `count` items, and the page's positions.
        mutating func page(count: Int, first: Int, after cursor: String?) -> Range<Int> {
            let start = min(count, cursor.flatMap(StandInAccessGraphQL.position(after:)) ?? 0)
            let page = start..<min(count, start + first)
            writer.raw("\"pageInfo\":{\"hasNextPage\":")
            writer.boolean(page.upperBound < count)
            writer.raw(",\"endCursor\":")
            writer.optionalString(page.isEmpty ? nil : StandInAccessGraphQL.cursor(page.upperBound - 1))
            writer.raw("}")
            return page
        }

        /// `,"node":{"login","databaseId"}}`, closing the edge.
        mutating func writeNode(_ user: StandInUser) {
            writer.raw(",\"node\":{\"login\":")
            writer.string(user.login)
            writer.raw(",\"databaseId\":")
            writer.integer(user.id)
            writer.raw("}}")
        }
    }
}
