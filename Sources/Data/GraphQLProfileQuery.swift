import Domain
import Foundation
import JSONBytes

/// Whether a run's profile queries still ask `email`: not when the run writes no email (`--fields` leaves it out),
/// and once GitHub refuses the field for the token's scopes, the rest of the run asks without it. One value serves
/// every copy of a run's repository.
final class ProfileQueryFields: @unchecked Sendable {
    private let lock = NSLock()
    private var emailRefused: Bool

    init(asksEmail: Bool = true) {
        emailRefused = !asksEmail
    }

    var asksEmail: Bool { lock.withLock { !emailRefused } }

    /// Marks `email` refused; true the first time, so that it is said once.
    func refuseEmail() -> Bool {
        lock.withLock {
            defer { emailRefused = true }
            return !emailRefused
        }
    }
}

/// The one GraphQL document gh-users sends: a batch of `repositoryOwner` lookups aliased `a0`, `a1`, … (never
/// by login, so an alias is always a valid GraphQL name), one shared fragment with an inline fragment per
/// type, and the query's own cost. Each field is one that `GraphQLUserRebuild` turns into a REST key.
enum GraphQLProfileQuery {
    static let fragmentName = "ghUsersOwner"

    /// The `User` fields; an `Organization` gives only its type, since REST answers for it. `email` alone needs a
    /// scope of a classic token (`user:email` or `read:user`): `withoutEmail` is the fragment for one that lacks it.
    static let fragment = """
        fragment \(fragmentName) on RepositoryOwner {
          __typename
          login
          ... on User {
            databaseId
            id
            login
            name
            company
            location
            bio
            twitterUsername
            websiteUrl
            email
            isHireable
            isSiteAdmin
            createdAt
            updatedAt
            url
            avatarUrl
            followers { totalCount }
            following { totalCount }
            repositories(privacy: PUBLIC, ownerAffiliations: OWNER) { totalCount }
            gists(privacy: PUBLIC) { totalCount }
          }
          ... on Organization {
            databaseId
          }
        }
        """

    static let withoutEmail = fragment.replacingOccurrences(of: "\n    email\n", with: "\n")

    static func alias(_ index: Int) -> String { "a\(index)" }

    /// The query text. A login is written as a JSON string literal (GraphQL's string syntax is JSON's), and
    /// `Login` has already refused anything but letters, digits, `-`, `_` and a `[bot]` suffix.
    static func text(for logins: [Login], email: Bool = true) -> String {
        var text = "query GhUsersProfiles {\n  rateLimit { cost remaining resetAt }\n"
        for (index, login) in logins.enumerated() {
            let literal = String(decoding: JSONValue.string(login.value).bytes, as: UTF8.self)
            text += "  \(alias(index)): repositoryOwner(login: \(literal)) "
            text += "{ ...\(fragmentName) }\n"
        }
        return text + "}\n" + (email ? fragment : withoutEmail) + "\n"
    }

    /// The POST body: `{"query": "…"}`.
    static func body(for logins: [Login], email: Bool = true) -> [UInt8] {
        JSONValue.object([.init("query", .string(text(for: logins, email: email)))]).bytes
    }
}
