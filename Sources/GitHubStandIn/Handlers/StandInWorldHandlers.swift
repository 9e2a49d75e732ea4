import Domain
import Foundation
import JSONBytes

extension StandInRouteRequest {
    static let worldLists: [Endpoint] = [
        .organization, .members, .publicMembers, .outsideCollaborators, .invitations, .teamMembers, .repository,
        .collaborators, .contributors, .assignees, .stargazers, .watchers, .forks, .starCount, .starHistory, .repos,
        .orgs, .starred,
    ]

    /// The lists of organizations, teams and repositories, answered from the world by GitHub's generic rules: an
    /// unknown one is 404; a non-member is sent to the public members; owners alone see outside collaborators and
    /// invitations and filter by 2FA; members alone see teams; stargazers and watchers are listed to those with a
    /// grant, collaborators to those who can push; `role`, `filter`, `affiliation`, `permission` and `anon` filter.
    func worldList(_ list: Endpoint) -> StandInHTTPResponse {
        let world = context.world.current
        let caller = signedInAccount?.login
        if list == .repos || list == .orgs || list == .starred {
            guard let account else { return notFound }
            if list == .starred { return starred(by: account, in: world) }
            guard list == .orgs else { return repositories(ownedBy: account) }
            // GitHub lists the organizations an account is a public member of.
            let joined = world.organizations.filter { $0.member(account.login)?.isPublic == true }
            return pagedRecords(
                joined.compactMap { world.organizationAccount(login: $0.login) }.map { account in
                    let values: [String: any Sendable] = ["login": account.login, "id": account.id]
                    let renaming = [("yaml", account.login), ("69535", "\(account.id)")]
                    return replacing(values, in: Self.listedOrganization, renaming: renaming)
                })
        }
        if let org = parameters["org"] {
            return world.organization(org).flatMap { worldList(list, $0, in: world, caller: caller) } ?? notFound
        }
        let repository = parameters["repo"].flatMap { world.repository(parameters["owner"] ?? "", $0) }
        return repository.flatMap { worldList(list, $0, in: world, caller: caller) } ?? notFound
    }

    /// Nil for GitHub's 404.
    private func worldList(
        _ list: Endpoint, _ organization: StandInWorld.Organization, in world: StandInWorld, caller: String?
    ) -> StandInHTTPResponse? {
        let member = organization.member(caller)
        let ownerOnly = "You must be an owner of \(organization.login) to see this"
        let role = request.query["role"].flatMap { $0 == "all" ? nil : $0 }
        let twoFactor = request.query["filter"].flatMap { $0 == "all" ? nil : $0 }
        switch list {
        case .organization:
            guard let account = world.organizationAccount(login: organization.login) else { return nil }
            let values: [String: any Sendable] = ["login": account.login, "id": account.id, "node_id": account.nodeID]
            let body = replacing(
                values, in: Self.fullOrganization, renaming: [("/orgs/github", "/orgs/\(account.login)")])
            return StandInHTTPResponse(status: 200, body: body)
        case .members, .publicMembers:
            // To whoever is not a member, the public members, with 200 (GitHub's reference lists 200 and 422 only;
            // the 302 its early docs named was removed in 2014, github/developer.github.com#574).
            var listed = organization.members(shownTo: list == .members ? caller : nil)
            if list == .members {
                listed = listed.filter { role == nil || $0.role == role }
                if let twoFactor {
                    guard member?.role == "admin" else { return refusal(422, "Only owners can use this filter.") }
                    listed = listed.filter { "2fa_" + $0.twoFactor == twoFactor }
                }
            }
            return peopleList(listed.map(\.login), byLogin: true)
        case .outsideCollaborators, .invitations:
            guard member?.role == "admin" else { return refusal(403, ownerOnly) }
            guard list == .invitations else {
                // An account's 2FA state is the one its memberships record (none: on).
                return peopleList(
                    world.outsideCollaborators(of: organization).filter { login in
                        twoFactor == nil
                            || world.organizations.contains {
                                "2fa_" + ($0.member(login)?.twoFactor ?? "") == twoFactor
                            }
                    })
            }
            return pagedRecords(world.invitations[organization.login.lowercased()] ?? [])
        case .teamMembers:
            guard let team = organization.team(parameters["team_slug"], shownTo: caller) else { return nil }
            let listed = world.members(of: team, in: organization).filter { role == nil || $0.role == role }
            // GitHub's `team-member-items`: each with their `role` and whether a child team makes them one.
            return peopleList(listed.map(\.login)) { user, writer in
                let member = listed.first { $0.login.isSame(as: user.login) }
                writer.raw(",\"role\":")
                writer.string(member?.role ?? "member")
                writer.raw(",\"inherited\":")
                writer.boolean(!team.members.contains { $0.login.isSame(as: user.login) })
            }
        default:
            return nil
        }
    }

    /// Nil for GitHub's 404.
    private func worldList(
        _ list: Endpoint, _ repository: StandInWorld.Repository, in world: StandInWorld, caller: String?
    ) -> StandInHTTPResponse? {
        let access = caller.flatMap { world.permission(of: $0, on: repository) }
        let stargazers = StandInStargazerList(repository, in: population)
        switch list {
        case .repository:
            return StandInHTTPResponse(
                status: 200, body: repositoryRecord(repository, in: world, from: Self.fullRepository))
        case .starCount:
            return StandInHTTPResponse(status: 200, body: Array("{\"count\":\(stargazers.count)}".utf8))
        case .starHistory:
            // 30 weeks a page at most, GitHub's documented limit.
            return pagedRecords(stargazers.weeks(), cap: Endpoint.starHistory.itemCap, perPageLimit: 30)
        case .stargazers:
            guard access != nil else { return nil }
            let pastCap = StandInStargazerList.paginationLimited
            return paged(count: stargazers.count, cap: StandInStargazerList.restCap, pastCap: pastCap) {
                let (user, at) = stargazers.star(at: $0)
                $1.bytes += starRecord(list, at: at, "user", user.simpleUserBytes)
            }
        case .forks:
            // Newest first, GitHub's default `sort` (gh-users asks no other); each created when it was forked, with
            // no stars, watchers or forks of its own, and without a full record's `subscribers_count` and
            // `network_count` (github3.py's `Repository_forks`, 276 records).
            let id = StandInWorld.repositoryID(world.repositoryIndex(repository.fullName) ?? 0)
            let forks = repository.forks.enumerated().filter { population.user(login: $1.login) != nil }
                .sorted { $0.1.createdAt > $1.1.createdAt }
            let counts = ["stargazers_count", "watchers_count", "forks_count"].map { ($0, 0 as any Sendable) }
            return pagedRecords(
                forks.map { index, fork in
                    let record = repositoryRecord(fork.login + "/" + repository.name, in: world, id: id + index + 1)
                    let times = ["created_at", "updated_at", "pushed_at"].map { ($0, fork.createdAt as any Sendable) }
                    let values = Dictionary(uniqueKeysWithValues: times + counts)
                    return dropping(["subscribers_count", "network_count"], from: replacing(values, in: record))
                })
        case .watchers:
            guard access != nil else { return nil }
            // In the order they began to watch, not by id or login (octokit.rb's `lists_all_the_users_watching_the_
            // repository`, github3.py's `Repository_subscribers`).
            return pagedUsers(repository.watchers.compactMap(population.user(login:)))
        case .assignees:
            // Who may be assigned: whoever can push to the repository.
            let pushers = world.people(of: repository).filter { ($0.grants.level ?? 0) >= 2 }
            return peopleList(pushers.map(\.login), byLogin: true)
        case .contributors:
            return contributors(repository)
        case .collaborators:
            guard world.canPush(caller, to: repository) else {
                return refusal(403, "Must have push access to view repository collaborators.")
            }
            var listed = world.people(of: repository)
            let organization = world.organization(repository.owner)
            switch request.query["affiliation"] {
            case "outside":
                listed = listed.filter { person in
                    organization.map { $0.member(person.login) == nil } ?? (person.login != repository.owner)
                }
            case "direct": listed = listed.filter { $0.grants.contains { $0.source == "direct" } }
            default: break
            }
            if let permission = request.query["permission"] {
                listed = listed.filter { $0.grants.level == StandInWorld.level(permission) }
            }
            let levels = Dictionary(listed.map { ($0.login.lowercased(), $0.grants.level ?? 0) }) { first, _ in first }
            return peopleList(listed.map(\.login)) { user, writer in
                let level = levels[user.login.lowercased()] ?? 0
                writer.raw(",\"permissions\":")
                writer.bytes += Self.permissions(level)
                writer.raw(",\"role_name\":")
                writer.string(StandInWorld.roleName(level))
            }
        default:
            return nil
        }
    }

    /// GitHub's `permissions` of a repository record, for a permission's level, `admin` first as GitHub writes it
    /// (octokit/fixtures' `add-and-remove-repository-collaborator`).
    static func permissions(_ level: Int) -> [UInt8] {
        let members = StandInWorld.permissions.enumerated().reversed().map { JSONValue.Member($1, .bool(level >= $0)) }
        return JSONValue.object(members).bytes
    }

    /// The repositories the world gives an account (`GET /users/{username}/repos`), or an organization of the
    /// world (`/orgs/{org}/repos`, which gh-users reads through GraphQL and curl can ask).
    func repositories(ownedBy account: StandInUser? = nil) -> StandInHTTPResponse {
        let world = context.world.current
        guard let owner = account ?? world.organizationAccount(login: parameters["org"] ?? "") else { return notFound }
        let owned = world.repositories.filter { $0.owner.isSame(as: owner.login) }
        return pagedRecords(owned.map { repositoryRecord($0, in: world, from: Self.listedRepository) })
    }

    /// The world's repositories `account` starred, newest first (GitHub's default sort, `created`, descending), in
    /// the star media type as `{"starred_at", "repo"}`.
    private func starred(by account: StandInUser, in world: StandInWorld) -> StandInHTTPResponse {
        let stars = world.repositories.compactMap { repository in
            StandInStargazerList(repository, in: population).starredAt(by: account).map { (repository, $0) }
        }
        let sorted = stars.sorted { request.query["direction"] == "asc" ? $0.1 < $1.1 : $0.1 > $1.1 }
        return pagedRecords(
            sorted.map { repository, at in
                let record = repositoryRecord(repository, in: world, from: Self.listedRepository)
                return starRecord(.starred, at: at, "repo", record)
            })
    }

    /// In `list`'s star media type, when `Accept` names it (with or without `vnd.github.v3.`), GitHub's
    /// `{"starred_at", key: record}`; else the record.
    private func starRecord(_ list: Endpoint, at: Int, _ key: String, _ record: [UInt8]) -> [UInt8] {
        let accept = header("Accept")?.lowercased() ?? ""
        guard let media = list.mediaType,
            accept.contains(media) || accept.contains(media.replacing("vnd.github.", with: "vnd.github.v3."))
        else { return record }
        return JSONByteWriter.object([("starred_at", JSONValue.string(UTCTimestamp.iso8601(at)).bytes), (key, record)])
    }

    /// A repository's record as GitHub gives it to the caller, made from the documented `template`: the world's name, owner and counts, the caller's `permissions` (read to anyone signed in: the
    /// world's repositories are public), `organization` for an organization's; no `parent` or `source`, since none
    /// is a fork.
    func repositoryRecord(_ repository: StandInWorld.Repository, in world: StandInWorld, from template: [UInt8])
        -> [UInt8]
    {
        let stars = StandInStargazerList(repository, in: population).count
        let forks = repository.forks.filter { population.user(login: $0.login) != nil }.count
        let level = signedInAccount.map { world.permission(of: $0.login, on: repository) ?? 0 }
        let organization = world.organizationAccount(login: repository.owner)
        var values: [String: any Sendable] = [
            "stargazers_count": stars, "watchers_count": stars, "watchers": stars, "forks_count": forks,
            "forks": forks, "network_count": forks, "subscribers_count": repository.watchers.count,
            "permissions": Self.permissions(level ?? 0), "archived": repository.archived ?? false,
        ]
        values["organization"] = organization?.simpleUserBytes
        let record = replacing(values, in: repositoryRecord(repository.fullName, in: world, from: template))
        let dropped =
            ["parent", "source"] + (organization == nil ? ["organization"] : []) + (level == nil ? ["permissions"] : [])
        return dropping(dropped, from: record)
    }

    /// `record` without its top-level `keys`.
    private func dropping(_ keys: [String], from record: [UInt8]) -> [UInt8] {
        JSONText.project(record, keys: JSONText.keyTexts(at: [], in: record).filter { !keys.contains($0) })
    }

    /// Accounts by commits, most first; with `anon` the authors with no account too.
    private func contributors(_ repository: StandInWorld.Repository) -> StandInHTTPResponse {
        let anonymous = ["1", "true"].contains(request.query["anon"]?.lowercased() ?? "")
        let listed = repository.contributors.sorted { $0.contributions > $1.contributions }.compactMap { contributor in
            contributor.login == nil
                ? (anonymous ? (contributor, nil) : nil)
                : population.user(login: contributor.login ?? "").map { (contributor, $0) }
        }
        return paged(count: listed.count) { position, writer in
            let (contributor, user) = listed[position]
            if let user {
                user.writeSimpleUserFields(into: &writer)
            } else {
                writer.raw("{\"email\":")
                writer.optionalString(contributor.email)
                writer.raw(",\"name\":")
                writer.optionalString(contributor.name)
                writer.raw(",\"type\":\"Anonymous\"")
            }
            writer.raw(",\"contributions\":")
            writer.integer(contributor.contributions)
            writer.raw("}")
        }
    }

    /// A documented body with some top-level values replaced (bytes as the JSON they are, a number as its digits,
    /// anything else as a string), and in each of its other strings the example's own names and ids (`renaming`)
    /// replaced by its own.
    func replacing(_ values: [String: any Sendable], in body: [UInt8], renaming: [(String, String)] = []) -> [UInt8] {
        var body = body
        let members = (try? JSONText.objectMembers(body)) ?? [:]
        for (key, range) in members.sorted(by: { $0.value.lowerBound > $1.value.lowerBound }) {
            let text = body[range.lowerBound] == UInt8(ascii: "\"") ? JSONText.text(of: key, in: body) : ""
            let renamed = renaming.reduce(text) { $0.replacing($1.0, with: $1.1) }
            guard let value = values[key] ?? (renamed == text ? nil : renamed) else { continue }
            let literal = value is Int || value is Bool
            let json = value as? [UInt8] ?? (literal ? Array("\(value)".utf8) : JSONValue.string("\(value)").bytes)
            body.replaceSubrange(range, with: json)
        }
        return body
    }
}
