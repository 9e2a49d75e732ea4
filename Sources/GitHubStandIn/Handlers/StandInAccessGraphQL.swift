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
/// - `organization(login: $org) { team(slug: $team) { members(membership: IMMEDIATE) } }`: a team's own members,
///   filtered by `$role`, paged from `$after`; null to a non-member.
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
        let cursors = asks.map(\.after) + [literal(after: "after:", in: query[...]), variables["after"] as? String]
        guard cursors.allSatisfy({ $0 == nil || $0.flatMap(position(after:)) != nil }) else {
            return StandInGraphQLHandler.errorsOnly(type: nil, "The stand-in gave no such cursor")
        }
        var answer = Answer(request: request, world: request.context.world.current, query: query)
        let cost = max(1, (max(1, asks.count) + 50) / 100)
        if let refusal = StandInGraphQLHandler.charge(cost, nodes: asks.count, query, request, into: &answer.writer) {
            return refusal
        }
        if !asks.isEmpty {
            for (index, ask) in asks.enumerated() {
                answer.writer.raw(index == 0 ? "" : ",")
                answer.collaborators(ask)
            }
        } else if query.contains("team(slug:") {
            answer.team(variables)
        } else if query.contains("repository(owner:") {
            answer.stargazers()
        } else {
            answer.organization()
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
            let end = query[range.upperBound...].firstIndex(of: "}") ?? query.endIndex
            let lookup = query[range.lowerBound..<end]
            guard let owner = literal(after: "owner:", in: lookup), let name = literal(after: "name:", in: lookup)
            else { return nil }
            return Ask(
                alias: alias(before: range.lowerBound, in: query), owner: owner, name: name,
                after: literal(after: "after:", in: lookup), login: literal(after: "login:", in: lookup))
        }
    }

    /// The name just before `position` (an alias before its colon).
    static func alias(before position: String.Index, in query: String) -> String {
        String(query[..<position].reversed().prefix { $0.isLetter || $0.isNumber || $0 == "_" }.reversed())
    }

    /// The string literal after `label` in `text`; logins, names, dates and the stand-in's cursors hold no quote or
    /// backslash, so it needs no unescaping.
    static func literal(after label: String, in text: Substring) -> String? {
        guard let found = text.range(of: label) else { return nil }
        let rest = text[found.upperBound...].drop { $0 == " " }
        guard rest.first == "\"", let close = rest.dropFirst().firstIndex(of: "\"") else { return nil }
        return String(rest[rest.index(after: rest.startIndex)..<close])
    }

    /// An answer being written, and the errors to write after its data.
    struct Answer {
        let request: StandInRouteRequest
        let world: StandInWorld
        let query: String
        var writer = JSONByteWriter(reservingCapacity: 64 * 1_024)
        var errors: [(type: String, path: [String], message: String)] = []
        var caller: String { request.signedInAccount?.login.lowercased() ?? "" }

        init(request: StandInRouteRequest, world: StandInWorld, query: String) {
            (self.request, self.world, self.query) = (request, world, query)
        }

        /// `"organization":…` for the members or the repositories document.
        mutating func organization() {
            let login = StandInAccessGraphQL.literal(after: "organization(login:", in: query[...]) ?? ""
            guard let organization = world.organization(login) else {
                writer.raw("\"organization\":null")
                let message = "Could not resolve to an Organization with the login of '\(login)'."
                return errors.append(("NOT_FOUND", ["organization"], message))
            }
            let after = StandInAccessGraphQL.literal(after: "after:", in: query[...])
            guard query.contains("membersWithRole(") else {
                let repositories = world.repositories(of: organization)
                let nodes = connection(repositories.count, after: after, total: true, items: "nodes") { position in
                    .object([
                        .init("name", .string(repositories[position].name)),
                        .init("nameWithOwner", .string(repositories[position].fullName)),
                        .init("isArchived", .bool(false)),
                    ])
                }
                return write("organization", .object([.init("repositories", nodes)]))
            }
            let owner = organization.member(caller)?.role == "admin"
            let members = organization.members(shownTo: caller).compactMap { member in
                request.population.user(login: member.login).map { (member, $0) }
            }
            let edges = connection(members.count, after: after) { position in
                let (member, user) = members[position]
                return .object([
                    .init("role", .string(member.role == "admin" ? "ADMIN" : "MEMBER")),
                    .init("hasTwoFactorEnabled", owner ? .bool(member.twoFactor != "disabled") : .null),
                    .init("node", Self.node(user)),
                ])
            }
            write("organization", .object([.init("membersWithRole", edges)]))
        }

        /// `"alias":{"collaborators":…}` for one lookup of a batch.
        mutating func collaborators(_ ask: Ask) {
            guard let repository = world.repository(ask.owner, ask.name) else {
                let message = "Could not resolve to a Repository with the name '\(ask.owner)/\(ask.name)'."
                errors.append(("NOT_FOUND", [ask.alias], message))
                return write(ask.alias, .null)
            }
            guard (world.permission(of: caller, on: repository) ?? 0) >= 2 else {
                let message = "You do not have permission to view repository collaborators."
                errors.append(("FORBIDDEN", [ask.alias, "collaborators"], message))
                return write(ask.alias, .object([.init("collaborators", .null)]))
            }
            let people = world.people(of: repository).filter { ask.login == nil || $0.isSame(as: ask.login ?? "") }
                .compactMap(request.population.user(login:))
            let world = world
            let edges = connection(people.count, after: ask.after) { position in
                let grants = world.grants(of: people[position].login, on: repository)
                var sources: [JSONValue] = []
                for grant in grants {
                    let (type, key, name) = Self.source(of: grant, on: repository, in: world)
                    let source = JSONValue.object([
                        .init("permission", .string(StandInAccessGraphQL.basePermissions[grant.level])),
                        .init("roleName", .string(StandInWorld.roleName(grant.level))),
                        .init("source", .object([.init("__typename", .string(type)), .init(key, .string(name))])),
                    ])
                    if !sources.contains(source) { sources.append(source) }
                }
                return .object([
                    .init("permission", .string(StandInAccessGraphQL.permissions[grants.map(\.level).max() ?? 0])),
                    .init("permissionSources", .array(sources)), .init("node", Self.node(people[position])),
                ])
            }
            write(ask.alias, .object([.init("collaborators", edges)]))
        }

        /// `"repository":{"stargazers":…}`: empty to a caller without a grant, or for no such repository.
        mutating func stargazers() {
            let owner = StandInAccessGraphQL.literal(after: "owner:", in: query[...]) ?? ""
            let name = StandInAccessGraphQL.literal(after: "name:", in: query[...]) ?? ""
            let list = world.repository(owner, name).flatMap { repository in
                world.permission(of: caller, on: repository).map { _ in
                    StandInStargazerList(repository, in: request.population)
                }
            }
            let after = StandInAccessGraphQL.literal(after: "after:", in: query[...])
            let cursors = query.contains("cursor")
            let edges = connection(list?.count ?? 0, after: after, total: true) { position in
                guard let (user, at) = list?.star(at: position) else { return .null }
                let fields: [JSONValue.Member?] = [
                    cursors ? .init("cursor", .string(StandInAccessGraphQL.cursor(position))) : nil,
                    .init("starredAt", .string(UTCTimestamp.iso8601(at))),
                    .init("node", user.graphQLNode(["id", "login", "avatarUrl", "url"])),
                ]
                return .object(fields.compactMap { $0 })
            }
            write("repository", .object([.init("stargazers", edges)]))
        }

        /// `"organization":{"team":…}` with the team's own members, `$role` filtering; null to a non-member.
        mutating func team(_ variables: [String: Any]) {
            let organization = (variables["org"] as? String).flatMap(world.organization)
            guard let organization, organization.member(caller) != nil,
                let team = organization.teams.first(where: { $0.slug == variables["team"] as? String })
            else { return write("organization", .object([.init("team", .null)])) }
            let role = (variables["role"] as? String)?.lowercased()
            let members = team.members.filter { role == nil || $0.role == role }.compactMap { member in
                request.population.user(login: member.login).map { (member.role, $0) }
            }
            let edges = connection(members.count, after: variables["after"] as? String, total: true) { position in
                .object([
                    .init("role", .string(members[position].0.uppercased())),
                    .init("node", members[position].1.graphQLNode(["id", "login", "url", "avatarUrl"])),
                ])
            }
            write("organization", .object([.init("team", .object([.init("members", edges)]))]))
        }

        /// The granter of `grant`: its `__typename`, the field that names it, and its name.
        static func source(of grant: StandInWorld.Grant, on repository: StandInWorld.Repository, in world: StandInWorld)
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
                let given = ancestor.repositories.first { $0.key.isSame(as: repository.fullName) }
                return given.flatMap { StandInWorld.level($0.value) } == grant.level
            }
            return ("Team", "slug", granting?.slug ?? slug)
        }

        /// The page after `cursor` of `count` items, at most the document's first `first:` (100 at most, as GitHub
        /// caps a page): `totalCount` where asked, `pageInfo`, and what `item` makes of each position.
        func connection(
            _ count: Int, after cursor: String?, total: Bool = false, items: String = "edges",
            _ item: (Int) -> JSONValue
        ) -> JSONValue {
            let asked = query.range(of: "first:").flatMap {
                Int(query[$0.upperBound...].drop { $0 == " " }.prefix(while: \.isNumber))
            }
            let start = min(count, cursor.flatMap(StandInAccessGraphQL.position(after:)) ?? 0)
            let page = start..<min(count, start + min(100, asked ?? 100))
            let info = JSONValue.object([
                .init("hasNextPage", .bool(page.upperBound < count)),
                .init("endCursor", page.isEmpty ? .null : .string(StandInAccessGraphQL.cursor(page.upperBound - 1))),
            ])
            let totalCount = total ? [JSONValue.Member("totalCount", .integer(Int64(count)))] : []
            return .object(totalCount + [.init("pageInfo", info), .init(items, .array(page.map(item)))])
        }

        /// `"key":value`, one member of `data`.
        mutating func write(_ key: String, _ value: JSONValue) {
            writer.string(key)
            writer.raw(":")
            writer.bytes += value.bytes
        }

        /// `{"login","databaseId"}`.
        static func node(_ user: StandInUser) -> JSONValue {
            .object([.init("login", .string(user.login)), .init("databaseId", .integer(Int64(user.id)))])
        }
    }
}
