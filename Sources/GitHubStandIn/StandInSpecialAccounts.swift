import Foundation

/// A hand-written account of `World/accounts.json` (see its `about`): its profile's text fields, wholly, and the
/// counts that replace the generated ones (public_repos, public_gists, followers, following).
struct StandInSpecialAccount: Decodable, Sendable {
    var login: String
    var type: String?
    var name: String?
    var company: String?
    var blog: String?
    var location: String?
    var email: String?
    var hireable: Bool?
    var bio: String?
    var twitterUsername: String?
    var counts: [Int]?

    func apply(to profile: inout StandInUserProfile) {
        (profile.name, profile.company, profile.blog, profile.location) = (name, company, blog ?? "", location)
        (profile.email, profile.hireable, profile.bio, profile.twitterUsername) = (
            email, hireable, bio, twitterUsername
        )
    }
}

/// The words the rest of the population is made of: `World/accounts.json`'s `generated` (see its `about`).
struct StandInGeneratedWords: Decodable, Sendable {
    var adjectives: [String]
    var nouns: [String]
    var cities: [String]
    /// GitHub's simple user's URL keys, each with the path after the account's API URL.
    var simpleUserUrls: [[String]]
}

enum StandInSpecialAccounts {
    private struct File: Decodable {
        var accounts: [Int: StandInSpecialAccount]
        var generated: StandInGeneratedWords
    }

    private static let file = StandInWorld.worldFile("accounts") { bytes in
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try decoder.decode(File.self, from: Data(bytes))
    }

    static let byOrdinal = file.accounts
    static let words = file.generated
}
