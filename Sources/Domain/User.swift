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
///
/// A list's page holds one of these for each account at once, and the body cap is per page: a 64 MiB page of
/// short accounts is nearly a million of them. So the profile fields, nil in every list, live in one box that a
/// list's accounts do not have: 288 bytes an account before, 80 now (issue 38, docs/PERFORMANCE.md).
package struct User: Sendable, Equatable {
    package var id: Int64
    package var login: String
    package var type: AccountType
    package var siteAdmin: Bool
    package var htmlURL: String?
    package var raw: RawJSON
    /// The profile fields, nil while every one of them is.
    private var profile: Boxed<Profile>?

    package var name: String? {
        get { profile?.value.name }
        set { changeProfile { $0.name = newValue } }
    }
    package var company: String? {
        get { profile?.value.company }
        set { changeProfile { $0.company = newValue } }
    }
    package var blog: String? {
        get { profile?.value.blog }
        set { changeProfile { $0.blog = newValue } }
    }
    package var location: String? {
        get { profile?.value.location }
        set { changeProfile { $0.location = newValue } }
    }
    package var email: String? {
        get { profile?.value.email }
        set { changeProfile { $0.email = newValue } }
    }
    package var bio: String? {
        get { profile?.value.bio }
        set { changeProfile { $0.bio = newValue } }
    }
    package var twitterUsername: String? {
        get { profile?.value.twitterUsername }
        set { changeProfile { $0.twitterUsername = newValue } }
    }
    package var hireable: Bool? {
        get { profile?.value.hireable }
        set { changeProfile { $0.hireable = newValue } }
    }
    package var publicRepos: Int? {
        get { profile?.value.publicRepos }
        set { changeProfile { $0.publicRepos = newValue } }
    }
    package var publicGists: Int? {
        get { profile?.value.publicGists }
        set { changeProfile { $0.publicGists = newValue } }
    }
    package var followers: Int? {
        get { profile?.value.followers }
        set { changeProfile { $0.followers = newValue } }
    }
    package var following: Int? {
        get { profile?.value.following }
        set { changeProfile { $0.following = newValue } }
    }
    package var createdAt: Date? {
        get { profile?.value.createdAt }
        set { changeProfile { $0.createdAt = newValue } }
    }
    package var updatedAt: Date? {
        get { profile?.value.updatedAt }
        set { changeProfile { $0.updatedAt = newValue } }
    }

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
        self.raw = raw
        let profile = Profile(
            name: name,
            company: company,
            blog: blog,
            location: location,
            email: email,
            bio: bio,
            twitterUsername: twitterUsername,
            hireable: hireable,
            publicRepos: publicRepos,
            publicGists: publicGists,
            followers: followers,
            following: following,
            createdAt: createdAt,
            updatedAt: updatedAt)
        self.profile = profile == Profile() ? nil : Boxed(profile)
    }

    private mutating func changeProfile(_ change: (inout Profile) -> Void) {
        var fields = profile?.value ?? Profile()
        change(&fields)
        profile = fields == Profile() ? nil : Boxed(fields)
    }

    /// What a profile adds to a list's account.
    private struct Profile: Sendable, Equatable {
        var name: String?
        var company: String?
        var blog: String?
        var location: String?
        var email: String?
        var bio: String?
        var twitterUsername: String?
        var hireable: Bool?
        var publicRepos: Int?
        var publicGists: Int?
        var followers: Int?
        var following: Int?
        var createdAt: Date?
        var updatedAt: Date?
    }
}

/// A value kept behind one reference, shared by copies: never changed in place, replaced whole.
private final class Boxed<Value: Sendable & Equatable>: Sendable, Equatable {
    let value: Value

    init(_ value: Value) {
        self.value = value
    }

    static func == (lhs: Boxed, rhs: Boxed) -> Bool {
        lhs === rhs || lhs.value == rhs.value
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
