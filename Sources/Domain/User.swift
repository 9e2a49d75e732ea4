import Foundation

/// The kind of GitHub account. GitHub may add kinds; an unknown one is kept by name rather than rejected.
package enum AccountType: Sendable, Equatable {
    case user
    case organization
    case bot
    case other(String)

    package init(name: String) {
        switch name {
        case "User": self = .user
        case "Organization": self = .organization
        case "Bot": self = .bot
        default: self = .other(name)
        }
    }

    package var name: String {
        switch self {
        case .user: return "User"
        case .organization: return "Organization"
        case .bot: return "Bot"
        case .other(let name): return name
        }
    }
}

/// The exact JSON object GitHub sent for one entity. Output in JSON keeps every field, unknown ones included,
/// and keeps nulls as nulls, by writing these bytes instead of re-encoding the entity.
package struct RawJSON: Sendable, Equatable {
    package let bytes: [UInt8]

    package init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    package init(_ text: String) {
        self.bytes = Array(text.utf8)
    }
}

/// A GitHub account. List endpoints fill only the summary fields; the profile fields are nil there.
package struct User: Sendable, Equatable {
    package var id: Int64
    package var login: String
    package var type: AccountType
    package var siteAdmin: Bool
    package var htmlURL: String?
    package var name: String?
    package var company: String?
    package var blog: String?
    package var location: String?
    package var email: String?
    package var bio: String?
    package var twitterUsername: String?
    package var hireable: Bool?
    package var publicRepos: Int?
    package var publicGists: Int?
    package var followers: Int?
    package var following: Int?
    package var createdAt: Date?
    package var updatedAt: Date?
    package var raw: RawJSON

    package init(
        id: Int64,
        login: String,
        type: AccountType = .user,
        siteAdmin: Bool = false,
        htmlURL: String? = nil,
        name: String? = nil,
        company: String? = nil,
        blog: String? = nil,
        location: String? = nil,
        email: String? = nil,
        bio: String? = nil,
        twitterUsername: String? = nil,
        hireable: Bool? = nil,
        publicRepos: Int? = nil,
        publicGists: Int? = nil,
        followers: Int? = nil,
        following: Int? = nil,
        createdAt: Date? = nil,
        updatedAt: Date? = nil,
        raw: RawJSON
    ) {
        self.id = id
        self.login = login
        self.type = type
        self.siteAdmin = siteAdmin
        self.htmlURL = htmlURL
        self.name = name
        self.company = company
        self.blog = blog
        self.location = location
        self.email = email
        self.bio = bio
        self.twitterUsername = twitterUsername
        self.hireable = hireable
        self.publicRepos = publicRepos
        self.publicGists = publicGists
        self.followers = followers
        self.following = following
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.raw = raw
    }
}

/// The account a token belongs to (`GET /user`), with the scopes GitHub says the token has (`X-OAuth-Scopes`);
/// nil scopes: GitHub did not say (a fine-grained token, or an app's).
package struct AuthenticatedUser: Sendable, Equatable {
    package let user: User
    package let scopes: [String]?

    package init(user: User, scopes: [String]?) {
        self.user = user
        self.scopes = scopes
    }
}
