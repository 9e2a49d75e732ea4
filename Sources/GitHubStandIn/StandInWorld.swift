import Foundation
import JSONBytes

/// The stand-in's world (`World/world.json`): organizations with their members, teams and invitations, and
/// repositories with their collaborators, stars, watchers, forks and contributors. Accounts are named by login and
/// are the population's; one the population does not hold is left out of every list. What GitHub's rules make of
/// it (who is listed to whom, who has which permission) is `StandInWorld`'s generic code, not code per endpoint.
package struct StandInWorld: Decodable, Sendable {
    package struct Member: Decodable, Sendable, Equatable {
        package var login: String
        /// `admin` (an owner) or `member`.
        package var role: String
        package var isPublic = false
        /// `enabled`, `disabled` or `insecure`, as the `2fa_disabled` and `2fa_insecure` filters read it.
        package var twoFactor = "enabled"
        /// False while an invitation is pending (listed to no one, as GitHub's pending memberships are).
        package var active = true

        enum CodingKeys: String, CodingKey {
            case login, role, twoFactor
            case isPublic = "public"
        }
    }

    package struct TeamMember: Decodable, Sendable, Equatable {
        package var login: String
        /// `maintainer` or `member`.
        package var role: String
    }

    package struct Team: Decodable, Sendable {
        package var slug: String
        package var name: String
        package var parent: String?
        package var members: [TeamMember]
        /// Repository full name to the permission the team grants on it (`pull` … `admin`).
        package var repositories: [String: String]
    }

    package struct Organization: Decodable, Sendable {
        package var login: String
        /// `none`, `read`, `write` or `admin`: what every member has on every repository of the organization.
        package var basePermission: String
        package var members: [Member]
        package var teams: [Team]
    }

    /// GitHub's star record, `{"starred_at", "user"}`, with the user by login.
    package struct Star: Decodable, Sendable, Equatable {
        package var starredAt: String
        package var user: String
    }

    /// A fork of a repository: its owner's login, and when they forked it.
    package struct Fork: Decodable, Sendable {
        package var login: String
        package var createdAt: String
    }

    /// GitHub's contributor record: an account's `login`, or an anonymous author's `name` and `email`.
    package struct Contributor: Decodable, Sendable {
        package var login: String?
        package var name: String?
        package var email: String?
        package var contributions: Int
    }

    /// An invitation to collaborate on a repository, waiting for the invitee: no access until they accept it.
    package struct Invitation: Sendable, Equatable {
        package var id: Int
        package var login: String
        package var permission: String
        /// Unix seconds.
        package var createdAt: Int
    }

    package struct Repository: Decodable, Sendable {
        package var fullName: String
        /// Direct grants: login to permission.
        package var collaborators: [String: String]
        /// Pending invitations to become a direct collaborator (none in the file: writes make them).
        package var invitations: [Invitation] = []
        /// Nil when the population stars it (no `stargazers`, `"starred_by": "population"`): every User account, in ordinal order,
        /// the k-th an hour after the (k-1)-th, which gives a repository past REST's 40,000 cap.
        package var stars: [Star]?
        /// For a repository the population stars: the (lowercased) logins that took their star back, and the
        /// stars given since, oldest first. The population itself is never stored.
        package var unstarred: Set<String> = []
        package var laterStars: [Star] = []
        package var watchers: [String]
        package var forks: [Fork]
        package var contributors: [Contributor]
        /// Read-only on GitHub: its people are listed as any repository's.
        package var archived: Bool?

        enum CodingKeys: String, CodingKey {
            case fullName, collaborators, watchers, forks, contributors, archived
            case stars = "stargazers"
        }

        package var owner: String { String(fullName.prefix { $0 != "/" }) }

        package var name: String { String(fullName.drop { $0 != "/" }.dropFirst()) }

        /// `user` stars the repository at `now` (Unix seconds), or takes their star back; a second star, or taking
        /// back one never given, changes nothing, as GitHub's `PUT` and `DELETE /user/starred/…` do.
        package mutating func setStar(by user: StandInUser, _ starring: Bool, now: Int) {
            let login = user.login.lowercased()
            let byPopulation = stars == nil && user.type == "User" && !unstarred.contains(login)
            var given = stars ?? laterStars
            let starred = byPopulation || given.contains { $0.user.isSame(as: login) }
            guard starred != starring else { return }
            if starring {
                given.append(Star(starredAt: UTCTimestamp.iso8601(now), user: user.login))
            } else {
                given.removeAll { $0.user.isSame(as: login) }
                if byPopulation { unstarred.insert(login) }
            }
            if stars == nil { laterStars = given } else { stars = given }
        }
    }

    package var organizations: [Organization]
    package var repositories: [Repository]
    /// Each organization's pending invitations, as GitHub's records (the bytes of the world file).
    var invitations: [String: [[UInt8]]] = [:]
    /// How many repository invitations writes have made: the next one's id is one more.
    package var repositoryInvitationsMade = 0

    enum CodingKeys: String, CodingKey {
        case organizations, repositories
    }

    package static let file = worldFile("world", StandInWorld.init(bytes:))

    /// `World/<name>.json` as `decode` reads it; a file missing from the bundle, or one that does not decode, stops
    /// the stand-in with what is wrong.
    static func worldFile<Value>(_ name: String, _ decode: ([UInt8]) throws -> Value) -> Value {
        guard let url = Bundle.module.url(forResource: name, withExtension: "json", subdirectory: "World"),
            let bytes = try? Array(Data(contentsOf: url))
        else { fatalError("the stand-in's World/\(name).json is missing from its bundle") }
        do {
            return try decode(bytes)
        } catch {
            fatalError("the stand-in's World/\(name).json does not decode: \(error)")
        }
    }

    /// Keys in snake case, as GitHub's; a dictionary's keys (logins, repositories) are kept as they are.
    package init(bytes: [UInt8]) throws {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        self = try decoder.decode(StandInWorld.self, from: Data(bytes))
        // A repository lists its stargazers or says the population stars it, never neither nor both: a key
        // misspelt would otherwise make the whole population its stargazers.
        for (repository, record) in zip(repositories, JSONText.elements(at: ["repositories"], in: bytes)) {
            guard (repository.stars == nil) == (JSONText.text(of: "starred_by", in: record) == "population") else {
                throw DecodingError.dataCorrupted(
                    .init(codingPath: [], debugDescription: "\(repository.fullName): stargazers or starred_by"))
            }
        }
        for organization in JSONText.elements(at: ["organizations"], in: bytes) {
            invitations[JSONText.text(of: "login", in: organization).lowercased()] = JSONText.elements(
                at: ["invitations"], in: organization
            ).map { record in
                var compact: [UInt8] = []
                JSONText.compact(record, into: &compact)
                return compact
            }
        }
    }

    package func organization(_ login: String) -> Organization? {
        organizationIndex(login).map { organizations[$0] }
    }

    package func repository(_ owner: String, _ name: String) -> Repository? {
        repositoryIndex(owner + "/" + name).map { repositories[$0] }
    }

    /// The id of the repository at `index`: the documented example's (octocat/Hello-World's) for the first, and a
    /// thousand apart, so that its forks (`forks[k]` is one more than the k-th) have their own.
    static func repositoryID(_ index: Int) -> Int { 1_296_269 + 1_000 * index }

    /// The organization `login` names, or whose account has the id `id`, as an account (`GET /users/{org}`, a
    /// repository's `owner`); nil for none. The k-th organization's id is 9919 (github's) plus 7k, in the gaps the
    /// population's ids leave (`StandInPopulation.id(forOrdinal:)`).
    func organizationAccount(login: String = "", id: Int = 0) -> StandInUser? {
        organizations.enumerated().map { StandInUser(organization: $1.login, id: 9_919 + 7 * $0) }
            .first { $0.login.isSame(as: login) || $0.id == id }
    }

    package func organizationIndex(_ login: String) -> Int? {
        organizations.firstIndex { $0.login.isSame(as: login) }
    }

    package func repositoryIndex(_ fullName: String) -> Int? {
        repositories.firstIndex { $0.fullName.isSame(as: fullName) }
    }
}

// GitHub's access rules, as "Repository roles for an organization" and "Permission levels for a personal account's
// repository" describe them: an owner is admin; an organization's members have its base permission; a team's
// grant reaches its members and those of its child teams; a direct grant is the person's own. A person's
// permission is the highest of their grants, and every grant is kept, named by where it comes from.
extension StandInWorld {
    /// From least to most: what a higher one grants includes the lower ones.
    package static let permissions = ["pull", "triage", "push", "maintain", "admin"]

    /// A permission as a grant names it (`read`, `write` as an organization's base permission does) in
    /// `permissions`' terms; nil for `none` or anything unknown.
    package static func level(_ permission: String) -> Int? {
        permissions.firstIndex(of: ["read": "pull", "write": "push"][permission] ?? permission)
    }

    /// GitHub's `role_name` for a permission: `read`, `triage`, `write`, `maintain`, `admin`.
    package static func roleName(_ level: Int) -> String { ["read", "triage", "write", "maintain", "admin"][level] }

    package struct Grant: Sendable, Equatable {
        /// `owner` (the repository's: its account, or an owner of its organization), `organization owner`, `base
        /// permission`, `team <slug>` (the team that grants it), or `direct`.
        package var source: String
        package var level: Int
    }

    /// The organization's repositories, by name.
    func repositories(of organization: Organization) -> [Repository] {
        repositories.filter { $0.owner.isSame(as: organization.login) }.sorted {
            $0.name.lowercased() < $1.name.lowercased()
        }
    }

    /// The team and every team above it, nearest first.
    func lineage(of team: Team, in organization: Organization) -> [Team] {
        var chain = [team]
        while let parent = chain.last?.parent, chain.count <= organization.teams.count,
            let next = organization.teams.first(where: { $0.slug == parent })
        {
            chain.append(next)
        }
        return chain
    }

    /// Every grant `login` has on `repository`, in the order above; empty for someone with no access of their own.
    package func grants(of login: String, on repository: Repository) -> [Grant] {
        people(of: repository).first { $0.login.isSame(as: login) }?.grants ?? []
    }

    package func permission(of login: String, on repository: Repository) -> Int? {
        grants(of: login, on: repository).level
    }

    /// Whether `login` may push to the repository: who may list its collaborators, and be assigned to its issues.
    func canPush(_ login: String?, to repository: Repository) -> Bool {
        (login.flatMap { permission(of: $0, on: repository) } ?? 0) >= 2
    }

    /// Everyone with a grant on the repository, with their grants in the order above: owners, members, team members
    /// and direct collaborators, once each, in that order. Each source is read once for the whole repository.
    package func people(of repository: Repository) -> [(login: String, grants: [Grant])] {
        let organization = organization(repository.owner)
        let members = organization?.members.filter(\.active) ?? []
        let teams = organization?.teams ?? []
        var people: [(login: String, grants: [Grant])] = []
        var place: [String: Int] = [:]
        let logins = members.map(\.login) + teams.flatMap { $0.members.map(\.login) } + [repository.owner]
        for login in logins + repository.collaborators.keys.sorted() where place[login.lowercased()] == nil {
            place[login.lowercased()] = people.count
            people.append((login, []))
        }
        func add(_ login: String, _ source: String, _ level: Int?) {
            guard let level, let index = place[login.lowercased()] else { return }
            people[index].grants.append(Grant(source: source, level: level))
        }
        // An owner's admin comes from the organization and from the repository, with no base permission beside it,
        // as GitHub lists it (an owner's `org-member(ADMIN)` alone, and "redundant Repository sources inherited from
        // org admin access": joshjohanning/github-misc-scripts, get-repository-users-permission-and-source.sh, 2026).
        for member in members {
            guard member.role == "admin" else {
                add(member.login, "base permission", organization.flatMap { Self.level($0.basePermission) })
                continue
            }
            add(member.login, "organization owner", 4)
            add(member.login, "owner", 4)
        }
        // A team's grants reach its members and its child teams' members: each team at or above theirs that grants.
        let active = Set(members.map { $0.login.lowercased() })
        for team in teams {
            let granting = organization.map { lineage(of: team, in: $0) } ?? []
            for ancestor in granting {
                let grant = ancestor.repositories.first { $0.key.isSame(as: repository.fullName) }
                for member in team.members where active.contains(member.login.lowercased()) {
                    add(member.login, "team " + ancestor.slug, grant.flatMap { Self.level($0.value) })
                }
            }
        }
        if organization == nil { add(repository.owner, "owner", 4) }
        for (login, permission) in repository.collaborators { add(login, "direct", Self.level(permission)) }
        return people.filter { !$0.grants.isEmpty }
    }

    /// A team's members, its child teams' included (GitHub's `GET /orgs/{org}/teams/{team_slug}/members`), each
    /// with the role they have in the team that lists them first.
    package func members(of team: Team, in organization: Organization) -> [TeamMember] {
        var listed = team.members
        for child in organization.teams where child.slug != team.slug {
            guard lineage(of: child, in: organization).contains(where: { $0.slug == team.slug }) else { continue }
            listed += child.members.filter { member in !listed.contains { $0.login == member.login } }
        }
        return listed
    }

    /// The organization's outside collaborators: direct collaborators of its repositories who are not members.
    package func outsideCollaborators(of organization: Organization) -> [String] {
        let owned = repositories.filter { $0.owner.isSame(as: organization.login) }
        var seen = Set<String>()
        return owned.flatMap { $0.collaborators.keys.sorted() }.filter {
            organization.member($0) == nil && seen.insert($0).inserted
        }
    }
}

extension StandInWorld.Organization {
    /// The active member who is `login`; nil for anyone else, and for no one.
    package func member(_ login: String?) -> StandInWorld.Member? {
        login.flatMap { login in members.first { $0.active && $0.login.isSame(as: login) } }
    }

    /// The team `slug` names, to a member; nil for none, and to anyone else: members alone see teams.
    func team(_ slug: String?, shownTo viewer: String?) -> StandInWorld.Team? {
        member(viewer) == nil ? nil : teams.first { $0.slug.isSame(as: slug ?? "") }
    }

    /// The active members `viewer` sees: every one to a member, the public ones to anyone else.
    func members(shownTo viewer: String?) -> [StandInWorld.Member] {
        let isMember = member(viewer) != nil
        return members.filter { $0.active && (isMember || $0.isPublic) }
    }
}

/// The world as writes left it; one per server. Reads take a copy under the lock, so a list is answered from one
/// consistent world.
package final class StandInWorldState: @unchecked Sendable {
    private let lock = NSLock()
    private var world: StandInWorld

    package init(_ world: StandInWorld) { self.world = world }

    package var current: StandInWorld { lock.withLock { world } }

    package func edit<Result>(_ body: (inout StandInWorld) -> Result) -> Result { lock.withLock { body(&world) } }
}

extension String {
    /// Whether two names (logins, slugs, `owner/name`) are the same, ASCII case aside, as GitHub's names are ASCII:
    /// the stand-in's one rule for names. It tells what `lowercased() ==` tells, without making two strings for
    /// every person on every repository.
    func isSame(as other: String) -> Bool {
        guard utf8.count == other.utf8.count else { return false }
        let same = utf8.withContiguousStorageIfAvailable { a in
            other.utf8.withContiguousStorageIfAvailable { b in
                a.indices.allSatisfy {
                    a[$0] == b[$0] || (a[$0] ^ b[$0] == 0x20 && (0x61...0x7A).contains(a[$0] | 0x20))
                }
            }
        }
        return same.flatMap { $0 } ?? (lowercased() == other.lowercased())
    }
}

extension [StandInWorld.Grant] {
    /// The permission the grants give together, the highest; nil for none.
    package var level: Int? { map(\.level).max() }
}
