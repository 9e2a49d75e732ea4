import Domain
import Foundation
import JSONBytes

/// The one GraphQL document gh-users sends: a batch of `repositoryOwner` lookups aliased `a0`, `a1`, … (never
/// by login, so an alias is always a valid GraphQL name), one shared fragment with an inline fragment per
/// type, and the query's own cost. Each field is one that `GraphQLUserRebuild` turns into a REST key.
enum GraphQLProfileQuery {
    static let fragmentName = "ghUsersOwner"

    /// The `User` fields; an `Organization` gives only its type, since REST answers for it.
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

    static func alias(_ index: Int) -> String { "a\(index)" }

    /// The query text. A login is written as a JSON string literal (GraphQL's string syntax is JSON's), and
    /// `Login` has already refused anything but letters, digits, `-`, `_` and a `[bot]` suffix.
    static func text(for logins: [Login]) -> String {
        var text = "query GhUsersProfiles {\n  rateLimit { cost remaining resetAt }\n"
        for (index, login) in logins.enumerated() {
            let literal = String(decoding: JSONValue.string(login.value).bytes, as: UTF8.self)
            text += "  \(alias(index)): repositoryOwner(login: \(literal)) "
            text += "{ ...\(fragmentName) }\n"
        }
        return text + "}\n" + fragment + "\n"
    }

    /// The POST body: `{"query": "…"}`.
    static func body(for logins: [Login]) -> [UInt8] {
        JSONValue.object([.init("query", .string(text(for: logins)))]).bytes
    }
}
