/// A repository permission as GitHub grants it (GraphQL's `RepositoryPermission`, REST's `role_name`), in lower
/// case, ordered from least to most: `--permission LEVEL` keeps that level or higher.
package enum RepositoryPermissionLevel: String, Sendable, CaseIterable, Comparable {
    case read, triage, write, maintain, admin

    private var rank: Int {
        switch self {
        case .read: return 0
        case .triage: return 1
        case .write: return 2
        case .maintain: return 3
        case .admin: return 4
        }
    }

    package static func < (lhs: Self, rhs: Self) -> Bool { lhs.rank < rhs.rank }
}

/// One person's access to one repository of an organization, and why they have it: a record of the access
/// map. GitHub's `Repository.collaborators(affiliation: ALL)` edge gives the permission and its sources;
/// `Organization.membersWithRole` gives the affiliation and the two-factor state.
package struct AccessRecord: Sendable, Equatable {
    /// How the person stands to the organization: an owner (`membersWithRole` role `ADMIN`), a member, or an
    /// outside collaborator (no member at all). `AccessMembership.affiliation` says which, where the token can tell.
    package enum Affiliation: String, Sendable, CaseIterable {
        case owner, member, outside
    }

    /// One of GitHub's `permissionSources`: the organization (its login), a team (its slug: the team that
    /// grants it, a parent for access through a child team) or the repository itself ("ORG/NAME"), with the
    /// role that source grants: GitHub's role name where it gives one, else its permission in lower case.
    package struct Source: Sendable, Equatable {
        package enum Kind: String, Sendable, CaseIterable {
            case organization, team, repository
        }

        package let kind: Kind
        package let name: String
        package let permission: String
        /// The built-in level GitHub says a custom role grants (its `permission`: read, write or admin), to rank
        /// the role by where a table orders sources; neither recorded nor compared.
        package var base: RepositoryPermissionLevel?

        package init(kind: Kind, name: String, permission: String, base: RepositoryPermissionLevel? = nil) {
            self.kind = kind
            self.name = name
            self.permission = permission
            self.base = base
        }

        /// The level the source grants: its role's, else its custom role's base, else none known.
        package var level: RepositoryPermissionLevel? { RepositoryPermissionLevel(rawValue: permission) ?? base }

        package static func == (left: Source, right: Source) -> Bool {
            (left.kind, left.name, left.permission) == (right.kind, right.name, right.permission)
        }
    }

    /// "ORG/NAME".
    package let repository: String
    package let login: String
    /// The account's id (GraphQL's `databaseId`, REST's `id`).
    package let id: Int64
    package let permission: RepositoryPermissionLevel
    /// nil where the token cannot tell (`AccessMembership.affiliation`): written as null, never guessed.
    package let affiliation: Affiliation?
    /// As GitHub lists them.
    package let sources: [Source]
    /// Whether the person has two-factor authentication on, where GitHub tells the token; nil where it does not
    /// (an outside collaborator, or a member whose state the token may not see): never false for unknown.
    package let twoFactor: Bool?
    /// The record as it is written: `repository`, `login`, `id`, `permission`, `affiliation`, `sources`,
    /// `two_factor`.
    package let raw: RawJSON

    package init(
        repository: String, login: String, id: Int64, permission: RepositoryPermissionLevel,
        affiliation: Affiliation?, sources: [Source], twoFactor: Bool?, raw: RawJSON
    ) {
        self.repository = repository
        self.login = login
        self.id = id
        self.permission = permission
        self.affiliation = affiliation
        self.sources = sources
        self.twoFactor = twoFactor
        self.raw = raw
    }
}

/// The order of the access map: case-insensitive (ASCII, as GitHub's names are), ties broken by the bytes so
/// the order is total.
package enum AccessOrder {
    /// Negative, zero or positive as `lhs` sorts before, with or after `rhs`.
    package static func compare(_ lhs: String, _ rhs: String) -> Int {
        let left = lhs.lowercased()
        let right = rhs.lowercased()
        if left != right { return left < right ? -1 : 1 }
        if lhs == rhs { return 0 }
        return lhs < rhs ? -1 : 1
    }

    package static func precedes(_ lhs: String, _ rhs: String) -> Bool { compare(lhs, rhs) < 0 }
}

/// An organization member as `membersWithRole` gives it: whether an owner, and the two-factor state where the
/// token may see it.
package struct AccessMember: Sendable, Equatable {
    package let isOwner: Bool
    package let twoFactor: Bool?

    package init(isOwner: Bool, twoFactor: Bool?) {
        self.isOwner = isOwner
        self.twoFactor = twoFactor
    }
}

/// The organization's members as `membersWithRole` showed them to the token, and whether that is all of them.
/// GitHub lists every member to a member of the organization, but to anyone else only those who show their
/// membership: an owner or a member who does not is missing from a non-member's list.
package struct AccessMembership: Sendable, Equatable {
    /// The members listed, by account id.
    package var members: [Int64: AccessMember]
    /// Every member is listed: the token's own account (GraphQL's `viewer`) is among them, so the token is a
    /// member's and was shown every member. A member who hides their membership is listed to themselves, so a
    /// list without the token's account is a non-member's (or a GitHub App's, which is no member either) and may
    /// leave members out.
    package var isComplete: Bool
    /// The token's account id (`viewer`), whose view the map is: nil where GitHub did not say.
    package var viewer: Int64?

    package init(members: [Int64: AccessMember], isComplete: Bool, viewer: Int64? = nil) {
        self.members = members
        self.isComplete = isComplete
        self.viewer = viewer
    }

    /// How the account `id`, with access from `sources`, stands to the organization, where the token can tell:
    /// - listed: an owner or a member, by its role;
    /// - not listed, with access through the organization that grants less than admin, and none that grants
    ///   admin: a member, since only members have the base permission and an owner has the organization's admin
    ///   (pulepule's recorded owner: the organization's `ADMIN`, beside members' `READ`);
    /// - not listed, with access through a team or the organization's admin: a member (only members have those)
    ///   whose role this token was not shown (the base permission may be admin): nil;
    /// - not listed otherwise: an outside collaborator when every member is listed, else nil, since it may be a
    ///   member who hides their membership.
    package func affiliation(of id: Int64, sources: [AccessRecord.Source]) -> AccessRecord.Affiliation? {
        if let member = members[id] { return member.isOwner ? .owner : .member }
        let organization = sources.filter { $0.kind == .organization }.map(\.level)
        if !organization.isEmpty, organization.allSatisfy({ $0.map { $0 < .admin } ?? false }) { return .member }
        guard isComplete, !sources.contains(where: { $0.kind != .repository }) else { return nil }
        return .outside
    }
}

/// What a whole read of the access map did besides its records: the repositories GitHub would not show the
/// collaborators of (a token without push access gets `FORBIDDEN` there), and what it cost.
package struct AccessReadSummary: Sendable, Equatable {
    /// "ORG/NAME" of every repository whose collaborators could not be read, in the map's order.
    package var unreadable: [String] = []
    /// "ORG/NAME" of every repository asked for that is not there: gone since it was listed, or never there.
    package var missing: [String] = []
    /// Records handed on, before the command's filters: with `person`, that person's.
    package var records = 0
    /// The organization's repositories listed, or those `--repo` named, whether or not they are there.
    package var repositories = 0
    /// How many repositories the listing counts (its `totalCount`); nil where GitHub did not say, or nothing
    /// was listed (`--repo`).
    package var counted: Int?
    /// GraphQL requests sent, refused ones included.
    package var requests = 0
    /// Points of the `graphql` limit spent, where GitHub said.
    package var points = 0

    package init() {}

    /// The repositories asked about that are there: read, or refused (`unreadable`); not those `missing`.
    package var present: Int { repositories - missing.count }
}
