import Domain
import Foundation

/// GitHub's simple-user and public-user objects as they arrive. Only `id` and `login` are required, so a field
/// GitHub drops or nulls never fails a whole page. Explicit keys: `convertFromSnakeCase` halves decoding speed.
struct UserDTO: Decodable {
    let id: Int64
    let login: String
    let type: String?
    let siteAdmin: Bool?
    let htmlURL: String?
    let name: String?
    let company: String?
    let blog: String?
    let location: String?
    let email: String?
    let bio: String?
    let twitterUsername: String?
    let hireable: Bool?
    let publicRepos: Int?
    let publicGists: Int?
    let followers: Int?
    let following: Int?
    let createdAt: String?
    let updatedAt: String?

    enum CodingKeys: String, CodingKey {
        case id
        case login
        case type
        case siteAdmin = "site_admin"
        case htmlURL = "html_url"
        case name
        case company
        case blog
        case location
        case email
        case bio
        case twitterUsername = "twitter_username"
        case hireable
        case publicRepos = "public_repos"
        case publicGists = "public_gists"
        case followers
        case following
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    func toDomain(raw: RawJSON) -> User {
        User(
            id: id,
            login: login,
            type: AccountType(name: type ?? "User"),
            siteAdmin: siteAdmin ?? false,
            htmlURL: htmlURL,
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
            createdAt: createdAt.flatMap(UserDTO.parseDate),
            updatedAt: updatedAt.flatMap(UserDTO.parseDate),
            raw: raw
        )
    }

    /// A date GitHub formats oddly is dropped rather than failing the profile.
    static func parseDate(_ text: String) -> Date? {
        try? Date(text, strategy: .iso8601)
    }
}

/// GitHub's error body: `{"message": ..., "documentation_url": ...}`.
struct GitHubErrorDTO: Decodable {
    let message: String?
}
