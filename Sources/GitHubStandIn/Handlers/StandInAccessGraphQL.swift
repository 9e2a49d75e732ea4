import Foundation
import JSONBytes

/// `POST /graphql` for the three documents of `gh-users access ORG` (`Sources/Data/GraphQLAccessQueries.swift`),
/// answered from the world by its generic access rules (`StandInWorld.grants(of:on:)`), with the fields those
/// documents ask in their order, as GitHub's schema (octokit/graphql-schema's `schema.graphql`) names them:
/// - `organization(login:) { membersWithRole }`: its active members (only the public ones to a non-member), each
///   with `role` (`ADMIN` for an owner, else `MEMBER`) and `hasTwoFactorEnabled`, null unless the caller is an owner;
/// - `organization(login:) { repositories }`: its repositories by name, none archived;
/// - aliased `repository(owner:, name:) { collaborators(affiliation: ALL) }`: everyone with a grant, with the
///   highest as `permission` and every grant as a `PermissionSource`: the organization (ownership, the base
///   permission), the team that grants it (a child team's members name the parent that does), the repository (a
///   direct grant, or an account's own repository). `permission` is GitHub's `DefaultRepositoryPermissionField`
///   (triage shows as `READ`, maintain as `WRITE`) and `roleName` the exact role, as a real answer has them.
/// A caller who cannot push to a repository gets `collaborators: null` beside a `FORBIDDEN` error with the field's
/// path; an unknown repository is null beside `NOT_FOUND`, an unknown organization `organization: null` beside
/// `NOT_FOUND`. Lists are paged by the stand-in's cursors (`StandInStargazers.cursor`), at most 100 a page. Each
/// document costs 1 point per 100 connections asked, at least 1, from the caller's `graphql` bucket.
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
        query.contains("membersWithRole(") || query.contains("collaborators(")
            || (query.contains("organization(login:") && query.contains("repositories("))
    }

    static func respond(_ query: String, to request: StandInRouteRequest) -> StandInHTTPResponse {
        let asks = Self.asks(in: query)
        let limit = request.context.configuration.graphQLNodeLimit
        guard asks.count <= limit else {
            let message = "This query requests up to \(asks.count) nodes which exceeds the maximum limit of \(limit)."
            return StandInGraphQLHandler.errorsOnly(type: "MAX_NODE_LIMIT_EXCEEDED", message)
        }
        let cursors = asks.map(\.after) + [literal(after: "after:", in: query[...])]
        guard cursors.allSatisfy({ $0 == nil || $0.flatMap(StandInStargazers.position(after:)) != nil }) else {
            return StandInGraphQLHandler.errorsOnly(type: nil, "The stand-in gave no such cursor")
        }
        let cost = max(1, (max(1, asks.count) + 50) / 100)
        let charge = request.context.ledger.charge(.graphql, for: request.caller, points: cost, now: request.now)
        guard charge.allowed else {
            let userID = (request.caller.token ?? "").utf8.reduce(7) { ($0 &* 31 &+ Int($1)) & 0xFF_FFFF }
            return StandInGraphQLHandler.rateLimitExceeded(
                request.context.configuration.graphQLRateLimitForm, userID: userID)
        }
        var answer = Answer(request: request, world: request.context.world.current)
        answer.writer.raw("{\"data\":{")
        if query.contains("rateLimit") {
            answer.writer.raw("\"rateLimit\":{\"cost\":")
            answer.writer.integer(cost)
            answer.writer.raw(",\"remaining\":")
            answer.writer.integer(charge.snapshot.remaining)
            answer.writer.raw(",\"resetAt\":")
            answer.writer.string(UTCTimestamp.iso8601(charge.snapshot.reset))
            answer.writer.raw("},")
        }
        if asks.isEmpty {
            answer.organization(query)
        } else {
            for (index, ask) in asks.enumerated() {
                answer.writer.raw(index == 0 ? "" : ",")
                answer.collaborators(ask, first: first(in: query))
            }
        }
        answer.writer.raw("}")
        let errors = answer.errors.map { type, path, message in
            JSONValue.object([
                .init("type", .string(type)), .init("path", .array(path.map(JSONValue.string))),
                .init("locations", .array([.object([.init("line", .integer(1)), .init("column", .integer(1))])])),
                .init("message", .string(message)),
            ])
        }
        if !errors.isEmpty {
            answer.writer.raw(",\"errors\":")
            answer.writer.bytes += JSONValue.array(errors).bytes
        }
        answer.writer.raw("}")
        return StandInHTTPResponse(status: 200, body: answer.writer.bytes)
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
            let start = min(count, cursor.flatMap(StandInStargazers.position(after:)) ?? 0)
            let page = start..<min(count, start + first)
            writer.raw("\"pageInfo\":{\"hasNextPage\":")
            writer.boolean(page.upperBound < count)
            writer.raw(",\"endCursor\":")
            writer.optionalString(page.isEmpty ? nil : StandInStargazers.cursor(page.upperBound - 1))
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
