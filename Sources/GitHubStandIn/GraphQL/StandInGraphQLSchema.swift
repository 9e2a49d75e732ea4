import Foundation

/// The part of GitHub's schema (octokit/graphql-schema's `schema.graphql`) that gh-users asks, resolved against the
/// population (accounts, profiles, stars) and the world (organizations, teams, repositories, grants) by the
/// world's generic rules, so GraphQL and REST always agree:
/// - `repositoryOwner(login:)`: an account, the world's organizations too; one that does not exist, or a bot (a
///   GitHub App's account is no `RepositoryOwner`), is null with no error, as GitHub answers
///   (`{"data":{"repositoryOwner":null}}`, pinned by clients' tests); only `user(login:)` adds `NOT_FOUND` (unserved);
/// - an unknown organization or repository is null beside `NOT_FOUND`;
/// - `viewer`: the token's account; `viewerIsAMember`, whether it is an active member of an organization;
/// - `membersWithRole`: the active members (only the public ones to a non-member), `role` `ADMIN` for an owner,
///   `hasTwoFactorEnabled` null unless the caller is an owner;
/// - `team(slug:)`: null to a non-member; `members(membership: IMMEDIATE)` its own members, else its child teams'
///   too, `role` filtering;
/// - `collaborators`: to a caller who cannot push, null beside `FORBIDDEN`; everyone with a grant, the highest as
///   `permission` and every grant as a `PermissionSource`: the organization (ownership, or else the base
///   permission), the team that grants it (a child team's members name the parent that does), the repository (a
///   direct grant, or ownership: an organization's owner has both). `permission` is GitHub's `DefaultRepositoryPermissionField` (triage shows as `READ`,
///   maintain as `WRITE`) and `roleName` the exact role, as a real answer has them;
/// - `stargazers`: the one star list REST serves, oldest first, with no cap; to anyone without a grant an empty
///   list, as GitHub answers since July 2026;
/// - `contributionsCollection`: `StandInContributions`, refused as GitHub refuses too much work.
/// Lists are paged by the stand-in's cursors, at most 100 a page, as GitHub caps a page.
struct StandInGraphQLSchema {
    typealias Field = StandInGraphQLDocument.Field
    typealias Result = StandInGraphQLResult
    typealias Object = StandInGraphQLObject

    let request: StandInRouteRequest
    let world: StandInWorld
    var caller: String { request.signedInAccount?.login.lowercased() ?? "" }

    var query: Object {
        Object("Query") { field in
            let (login, owner, name) = (field.text("login") ?? "", field.text("owner") ?? "", field.text("name") ?? "")
            switch field.name {
            case "viewer": return request.signedInAccount.map { .object(account($0)) } ?? .null
            case "repositoryOwner":
                let user = request.population.user(login: login) ?? world.organizationAccount(login: login)
                return user.flatMap { $0.type == "Bot" ? nil : .object(account($0)) } ?? .null
            case "organization":
                return try world.organization(login).map { .object(organization($0)) }
                    ?? Self.notFound("an Organization with the login of '\(login)'")
            case "repository":
                return try world.repository(owner, name).map { .object(repository($0)) }
                    ?? Self.notFound("a Repository with the name '\(owner)/\(name)'")
            default: return nil
            }
        }
    }

    static func notFound(_ what: String) throws -> Result {
        throw StandInGraphQLFieldError(type: "NOT_FOUND", message: "Could not resolve to \(what).")
    }

    /// A `User` or `Organization` of the population; its profile's fields are made only for a field that needs
    /// them, once, so that every field of one answer comes from the same profile.
    func account(_ user: StandInUser) -> Object {
        let identity: [String: Result] = [
            "login": .text(user.login), "databaseId": .number(user.id), "id": .text(user.nodeID),
            "url": .text(user.htmlURL), "avatarUrl": .text(user.avatarURL), "isSiteAdmin": .flag(user.siteAdmin),
        ]
        // One answer is executed on one thread, so the object may keep what it made.
        var profile: [String: Result]?
        return Object(user.type) { field in
            if let value = identity[field.name] { return value }
            if field.name == "contributionsCollection" { return user.type == "User" ? contributions(user, field) : nil }
            profile = profile ?? profileFields(request.followGraph.profile(of: user))
            return profile?[field.name]
        }
    }

    /// A profile's fields as GraphQL names them: null where REST says "" for no blog, and "" where REST says null
    /// for no email; `repositories(privacy: PUBLIC, ownerAffiliations: OWNER)` counts the owned public ones, as
    /// REST does.
    private func profileFields(_ profile: StandInUserProfile) -> [String: Result] {
        func count(_ count: Int) -> Result { .object("Connection", ["totalCount": .number(count)]) }
        return [
            "name": .text(profile.name), "company": .text(profile.company), "location": .text(profile.location),
            "bio": .text(profile.bio), "twitterUsername": .text(profile.twitterUsername),
            "websiteUrl": .text(profile.blog.isEmpty ? nil : profile.blog), "email": .text(profile.email ?? ""),
            "isHireable": .flag(profile.hireable ?? false),
            "createdAt": .text(UTCTimestamp.iso8601(profile.createdAt)),
            "updatedAt": .text(UTCTimestamp.iso8601(profile.updatedAt)),
            "followers": count(profile.followers), "following": count(profile.following),
            "repositories": count(profile.publicRepos), "gists": count(profile.publicGists),
        ]
    }

    func organization(_ organization: StandInWorld.Organization) -> Object {
        Object("Organization") { field in
            let owner = organization.member(caller)?.role == "admin"
            switch field.name {
            case "login": return .text(organization.login)
            case "viewerIsAMember": return .flag(organization.member(caller) != nil)
            case "membersWithRole":
                let members = organization.members(shownTo: caller).compactMap { member in
                    request.population.user(login: member.login).map { (member, $0) }
                }
                return try connection("OrganizationMember", field, members.count) { position in
                    let (member, user) = members[position]
                    return [
                        "role": .text(member.role == "admin" ? "ADMIN" : "MEMBER"),
                        "hasTwoFactorEnabled": owner ? .flag(member.twoFactor != "disabled") : .null,
                        "node": .object(account(user)),
                    ]
                }
            case "repositories":
                let repositories = world.repositories(of: organization)
                return try connection("Repository", field, repositories.count) { position in
                    ["node": .object(repository(repositories[position]))]
                }
            case "team":
                let team = organization.team(field.text("slug"), shownTo: caller)
                return team.map { .object(self.team($0, of: organization)) } ?? .null
            default: return nil
            }
        }
    }

    func team(_ team: StandInWorld.Team, of organization: StandInWorld.Organization) -> Object {
        Object("Team") { field in
            switch field.name {
            case "slug": return .text(team.slug)
            case "name": return .text(team.name)
            case "members":
                let direct = field.text("membership") == "IMMEDIATE"
                let role = field.text("role")?.lowercased()
                let members = (direct ? team.members : world.members(of: team, in: organization))
                    .filter { role == nil || $0.role == role }
                    .compactMap { member in request.population.user(login: member.login).map { (member.role, $0) } }
                return try connection("TeamMember", field, members.count) { position in
                    ["role": .text(members[position].0.uppercased()), "node": .object(account(members[position].1))]
                }
            default: return nil
            }
        }
    }

    func repository(_ repository: StandInWorld.Repository) -> Object {
        Object("Repository") { field in
            switch field.name {
            case "name": return .text(repository.name)
            case "nameWithOwner": return .text(repository.fullName)
            case "isArchived": return .flag(repository.archived ?? false)
            case "collaborators": return try collaborators(of: repository, field)
            case "stargazers":
                let list = world.permission(of: caller, on: repository).map { _ in
                    StandInStargazerList(repository, in: request.population)
                }
                return try connection("Stargazer", field, list?.count ?? 0) { position in
                    guard let (user, at) = list?.star(at: position) else { return [:] }
                    return ["starredAt": .text(UTCTimestamp.iso8601(at)), "node": .object(account(user))]
                }
            default: return nil
            }
        }
    }

    /// `collaborators(affiliation: ALL, login:)`, `login` naming one person alone (case aside).
    func collaborators(of repository: StandInWorld.Repository, _ field: Field) throws -> Result {
        guard world.canPush(caller, to: repository) else {
            // GitHub's words since 2021 (peter-evans/slash-command-dispatch#126, refined-github#9817); REST's 403
            // still says "Must have push access to view repository collaborators." (2018).
            let message = "You do not have permission to view repository collaborators."
            throw StandInGraphQLFieldError(type: "FORBIDDEN", message: message)
        }
        let login = field.text("login")
        let people = world.people(of: repository).filter { login == nil || $0.login.isSame(as: login ?? "") }
            .compactMap { person in request.population.user(login: person.login).map { ($0, person.grants) } }
        return try connection("RepositoryCollaborator", field, people.count) { position in
            let (user, grants) = people[position]
            // One source for each granter and level, in the order of the grants.
            var seen = Set<String>()
            let permissionSources = grants.compactMap { grant -> Result? in
                let granter = self.granter(of: grant, on: repository)
                guard seen.insert("\(grant.level) \(granter.name)").inserted else { return nil }
                let fields: [String: Result] = [
                    // GitHub's `DefaultRepositoryPermissionField` for each level of `StandInWorld.permissions`.
                    "permission": .text(["READ", "READ", "WRITE", "WRITE", "ADMIN"][grant.level]),
                    "roleName": .text(StandInWorld.roleName(grant.level)), "source": .object(granter.object),
                ]
                return .object("PermissionSource", fields)
            }
            return [
                "permission": .text(StandInWorld.roleName(grants.level ?? 0).uppercased()),
                "permissionSources": .list(permissionSources), "node": .object(account(user)),
            ]
        }
    }

    /// What grants `grant`: the organization, the team, or the repository; with a name that tells it from the others.
    func granter(of grant: StandInWorld.Grant, on repository: StandInWorld.Repository) -> (object: Object, name: String)
    {
        guard let organization = world.organization(repository.owner), !["direct", "owner"].contains(grant.source)
        else {
            return (self.repository(repository), "repository")
        }
        guard let team = organization.teams.first(where: { "team " + $0.slug == grant.source }) else {
            return (self.organization(organization), "organization")
        }
        return (self.team(team, of: organization), grant.source)
    }
}

extension StandInGraphQLSchema {
    /// A cursor connection over `count` items: the page after `after:` of at most `first:` (100 at most, as GitHub
    /// caps a page), with `totalCount`, `pageInfo`, `edges` (each with its `cursor` and what `edge` gives) and
    /// `nodes` (each edge's `node`). A cursor the stand-in did not give is an error about the query.
    func connection(_ type: String, _ field: Field, _ count: Int, edge: (Int) -> [String: Result]) throws -> Result {
        // Nil for a cursor given that does not read; none given is 0.
        guard let after = field.text("after").map(Self.position(after:)) ?? 0 else {
            throw StandInGraphQLQueryError(message: "The stand-in gave no such cursor")
        }
        let start = min(count, after)
        let page = start..<min(count, start + max(0, min(100, field.integer("first") ?? 100)))
        let edges = page.map { edge($0).merging(["cursor": .text(Self.cursor($0))]) { given, _ in given } }
        let pageInfo = Result.object(
            "PageInfo",
            [
                "hasNextPage": .flag(page.upperBound < count), "hasPreviousPage": .flag(start > 0),
                "startCursor": page.isEmpty ? .null : .text(Self.cursor(page.lowerBound)),
                "endCursor": page.isEmpty ? .null : .text(Self.cursor(page.upperBound - 1)),
            ])
        return .object(
            type + "Connection",
            [
                "totalCount": .number(count), "pageInfo": pageInfo,
                "edges": .list(edges.map { .object(type + "Edge", $0) }),
                "nodes": .list(edges.map { $0["node"] ?? .null }),
            ])
    }

    /// The stand-in's opaque cursors: base64 of `cursor:<position + 1>`.
    static func cursor(_ position: Int) -> String { Data("cursor:\(position + 1)".utf8).base64EncodedString() }

    static func position(after cursor: String) -> Int? {
        guard let data = Data(base64Encoded: cursor), let text = String(data: data, encoding: .utf8),
            text.hasPrefix("cursor:"), let number = Int(text.dropFirst("cursor:".count)), number >= 0
        else { return nil }
        return number
    }

    /// `contributionsCollection(from:to:)`, the year to now unless asked: its calendar in weeks from Sunday,
    /// refused as too much work where `StandInContributions` refuses it.
    func contributions(_ user: StandInUser, _ field: Field) -> Result {
        let to = field.text("to").flatMap(UTCTimestamp.epochSeconds(iso8601:)) ?? request.now
        let from = field.text("from").flatMap(UTCTimestamp.epochSeconds(iso8601:)) ?? to - 31_536_000
        return .object(
            Object("ContributionsCollection") { field in
                guard field.name == "contributionCalendar" else { return nil }
                let calendar = try StandInContributions(user: user, from: from, to: to, now: request.now)
                let weeks = calendar.weeks.map { week in
                    let days = week.map { day in
                        Result.object(
                            "ContributionCalendarDay",
                            [
                                "date": .text(day.date), "contributionCount": .number(day.count),
                                "contributionLevel": .text(day.level),
                            ])
                    }
                    return Result.object(
                        "ContributionCalendarWeek",
                        ["firstDay": .text(week.first?.date), "contributionDays": .list(days)])
                }
                return .object(
                    "ContributionCalendar", ["totalContributions": .number(calendar.total), "weeks": .list(weeks)])
            })
    }
}
