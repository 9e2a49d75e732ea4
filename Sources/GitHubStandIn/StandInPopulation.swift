import Foundation
import JSONBytes

// The JSON shapes below and octocat's profile values are modelled on GitHub's documented examples `users-list.json`
// and `users-get-by-username.public-user.json`, from github/rest-api-description (MIT License, Copyright (c) 2020
// GitHub). Everything else in the population is synthetic.

/// The accounts a stand-in serves, in id order, built from `userCount` alone, so tests can predict every field.
package struct StandInPopulation: Sendable, Equatable {
    package let users: [StandInUser]
    private let ordinalByLowercasedLogin: [String: Int]
    /// Steps through the population that pick followers and followed accounts (see `baseOrdinals`).
    let followerStride: Int
    let followingStride: Int
    /// Where the User accounts sit in `users`: the population's stargazers, found once rather than on every page.
    let userPositions: [Int]

    package static let sameSecondFirstOrdinal = 101

    package init(userCount: Int, sameSecondAccounts: Int = 0) {
        let count = max(0, userCount)
        let crowd = Self.sameSecondFirstOrdinal..<(Self.sameSecondFirstOrdinal + max(0, sameSecondAccounts))
        // Before every crowded account's own creation time, so `updated_at` never precedes `created_at`.
        let crowdedSecond = StandInProfileNumbers.unjitteredCreatedAt(ordinal: Self.sameSecondFirstOrdinal)
        users = (0..<count).map {
            StandInUser(ordinal: $0 + 1, createdAt: crowd.contains($0 + 1) ? crowdedSecond : nil)
        }
        ordinalByLowercasedLogin = Dictionary(uniqueKeysWithValues: users.map { ($0.login.lowercased(), $0.ordinal) })
        let users = self.users
        userPositions = users.indices.filter { users[$0].type == "User" }
        followerStride = Self.coprimeStride(near: count * 381_966 / 1_000_000, modulo: count)
        followingStride = Self.coprimeStride(near: count * 618_034 / 1_000_000, modulo: count)
    }

    /// Ids grow by one, skipping two after every fifth account, so clients cannot assume `id == position`.
    package static func id(forOrdinal ordinal: Int) -> Int { ordinal + 2 * ((ordinal - 1) / 5) }

    package func user(login: String) -> StandInUser? {
        ordinalByLowercasedLogin[login.lowercased()].map { users[$0 - 1] }
    }

    package func user(id: Int) -> StandInUser? {
        let position = firstPosition(withIDAbove: id - 1)
        return position < users.count && users[position].id == id ? users[position] : nil
    }

    /// Ids come in blocks of seven of which the first five are taken: 7k+1 … 7k+5 are the ordinals 5k+1 … 5k+5.
    func firstPosition(withIDAbove id: Int) -> Int {
        id < 0 ? 0 : min(users.count, 5 * (id / 7) + min(id % 7, 5))
    }
}

/// One account; its profile is derived on demand from `ordinal`, so 100,000 accounts stay small in memory.
package struct StandInUser: Sendable, Equatable {
    package let ordinal: Int
    package let id: Int
    /// Changed only by `StandInFollowGraph.rename(_:to:)`, for the lists it serves.
    package internal(set) var login: String
    package let type: String
    package let siteAdmin: Bool
    package let createdAt: Int

    init(ordinal: Int, createdAt: Int? = nil) {
        self.ordinal = ordinal
        self.createdAt = createdAt ?? StandInProfileNumbers(ordinal: ordinal).createdAt
        id = StandInPopulation.id(forOrdinal: ordinal)
        let special = StandInSpecialAccounts.byOrdinal[ordinal]
        type = ordinal % 10 == 7 ? "Organization" : special?.type ?? "User"
        login =
            special?.login ?? StandInNameParts(ordinal: ordinal).generatedLogin(isOrganization: type == "Organization")
        siteAdmin = ordinal == 2
    }

    /// An organization of the world, which the population does not hold: ordinal 0, whose profile it has.
    init(organization login: String, id: Int) {
        (ordinal, self.id, self.login, type, siteAdmin) = (0, id, login, "Organization", false)
        createdAt = StandInProfileNumbers(ordinal: 0).createdAt
    }

    package var profile: StandInUserProfile { StandInUserProfile(user: self) }

    package var loginPathComponent: String {
        guard login.utf8.contains(where: { $0 == 0x5B || $0 == 0x5D }) else { return login }  // Foundation's is slow
        return login.replacingOccurrences(of: "[", with: "%5B").replacingOccurrences(of: "]", with: "%5D")
    }

    /// `GET /users/{username}`'s `public-user`, showing `profile` (the population's when nil); with `privateKeys`
    /// `GET /user`'s `private-user`: the public profile, then the documented example's private keys.
    package func userJSONBytes(_ profile: StandInUserProfile? = nil, privateKeys: Bool = false) -> [UInt8] {
        let profile = profile ?? self.profile
        var writer = JSONByteWriter(reservingCapacity: 1_900)
        writeSimpleUserFields(into: &writer)
        let text = { (text: String?) in text.map(JSONValue.string) ?? .null }
        let count = { (count: Int) in JSONValue.integer(Int64(count)) }
        let members: [(String, JSONValue)] = [
            ("name", text(profile.name)), ("company", text(profile.company)), ("blog", .string(profile.blog)),
            ("location", text(profile.location)), ("email", text(profile.email)),
            ("hireable", profile.hireable.map(JSONValue.bool) ?? .null), ("bio", text(profile.bio)),
            ("twitter_username", text(profile.twitterUsername)), ("public_repos", count(profile.publicRepos)),
            ("public_gists", count(profile.publicGists)), ("followers", count(profile.followers)),
            ("following", count(profile.following)), ("created_at", .string(UTCTimestamp.iso8601(profile.createdAt))),
            ("updated_at", .string(UTCTimestamp.iso8601(profile.updatedAt))),
        ]
        for (key, value) in members {
            writer.unescaped(",\"\(key)\":")
            writer.bytes += value.bytes
        }
        writer.bytes += privateKeys ? Self.privateKeys : []
        writer.raw("}")
        return writer.bytes
    }

    static let privateKeys: [UInt8] = {
        let body = StandInRecordedHandler.body(named: "users-get-authenticated") ?? []
        var bytes: [UInt8] = []
        let members = ((try? JSONText.objectMembers(body)) ?? [:]).sorted { $0.value.lowerBound < $1.value.lowerBound }
        for (key, range) in members.drop(while: { $0.key != "private_gists" }) {
            bytes += Array(",\"\(key)\":".utf8)
            JSONText.compact(body[range], into: &bytes)
        }
        return bytes
    }()

    func writeSimpleUser(into writer: inout JSONByteWriter) {
        writeSimpleUserFields(into: &writer)
        writer.raw("}")
    }

    var simpleUserBytes: [UInt8] {
        var writer = JSONByteWriter(reservingCapacity: 1_200)
        writeSimpleUser(into: &writer)
        return writer.bytes
    }

    /// In the key order of GitHub's real answers (2024 on), `user_view_type` included, which the documented
    /// examples leave out. Left open for the longer forms' keys.
    func writeSimpleUserFields(into writer: inout JSONByteWriter) {
        let api = "https://api.github.com/users/" + loginPathComponent
        writer.raw("{\"login\":")
        writer.string(login)
        writer.raw(",\"id\":")
        writer.integer(id)
        // In pieces: a string made for each of an account's fifteen URLs was most of a page's cost.
        let fields = [
            ("node_id", nodeID), ("avatar_url", avatarURL), ("gravatar_id", ""), ("url", api), ("html_url", htmlURL),
        ]
        for (key, value) in fields { writer.unescaped(",\"", key, "\":\"", value, "\"") }
        for url in StandInNameParts.words.simpleUserUrls { writer.unescaped(",\"", url[0], "\":\"", api, url[1], "\"") }
        writer.unescaped(",\"type\":\"\(type)\",\"user_view_type\":\"public\",\"site_admin\":")
        writer.boolean(siteAdmin)
    }

    /// GitHub's node ids are base64 of `0<length of type>:<type><id>`, e.g. `04:User1` → `MDQ6VXNlcjE=`.
    package var nodeID: String { Data("0\(type.utf8.count):\(type)\(id)".utf8).base64EncodedString() }

    package var avatarURL: String {
        ordinal == 1
            ? "https://github.com/images/error/octocat_happy.gif"
            : "https://avatars.githubusercontent.com/\(type == "Bot" ? "in" : "u")/\(id)?v=4"
    }

    package var htmlURL: String {
        type == "Bot" && login.hasSuffix("[bot]")
            ? "https://github.com/apps/\(login.dropLast(5))" : "https://github.com/\(login)"
    }
}

package struct StandInUserProfile: Sendable, Equatable {
    package var name: String?
    package var company: String?
    package var blog: String
    package var location: String?
    package var email: String?
    package var hireable: Bool?
    package var bio: String?
    package var twitterUsername: String?
    package var publicRepos: Int
    package var publicGists: Int
    package var followers: Int
    package var following: Int
    package var createdAt: Int
    package var updatedAt: Int

    init(user: StandInUser) {
        let n = user.ordinal
        let parts = StandInNameParts(ordinal: n)
        let numbers = StandInProfileNumbers(ordinal: n)
        let isOrganization = user.type == "Organization"
        name = n % 3 == 0 ? nil : (isOrganization ? "\(parts.capitalizedNoun) Labs" : parts.displayName)
        company = n % 4 == 0 && !isOrganization ? "@\(parts.noun)-works" : nil
        blog = n % 5 == 0 ? "https://\(parts.adjective)-\(parts.noun).example.com" : ""
        location = n % 3 == 1 ? StandInNameParts.words.cities[n % StandInNameParts.words.cities.count] : nil
        email = n % 6 == 0 ? "\(user.login.lowercased())@example.com" : nil
        hireable = n % 8 == 0 && !isOrganization ? true : nil
        bio = n % 5 == 2 ? "\(parts.capitalizedAdjective) maintainer of \(parts.noun) things." : nil
        twitterUsername = n % 9 == 0 ? "\(parts.adjective)_\(parts.noun)" : nil
        (publicRepos, publicGists) = (numbers.publicRepos, numbers.publicGists)
        (followers, following) = (numbers.followers, numbers.following)
        (createdAt, updatedAt) = (user.createdAt, numbers.updatedAt)
        StandInSpecialAccounts.byOrdinal[n]?.apply(to: &self)
    }
}

/// The profile's numbers alone, so a search scan need not build every profile's strings.
struct StandInProfileNumbers {
    var publicRepos: Int
    var publicGists: Int
    var followers: Int
    var following: Int
    var createdAt: Int
    var updatedAt: Int

    /// Octocat's in the fixture for ordinal 1; each later account about 43 minutes on, before an hour's jitter.
    static func unjitteredCreatedAt(ordinal n: Int) -> Int { 1_200_285_215 + (n - 1) * 2_593 }

    init(ordinal n: Int) {
        createdAt = Self.unjitteredCreatedAt(ordinal: n) + (n > 1 ? (n * 7_919) % 3_600 : 0)
        updatedAt = n == 1 ? createdAt : createdAt + (n * 104_729) % 300_000_000
        publicRepos = (n * 37) % 250
        publicGists = (n * 13) % 40
        followers = (n % 100_003) * (n % 100_003) % 10_007
        following = (n * 11) % 300
        if n == StandInPopulation.manyFollowsOrdinal {
            (followers, following) = (
                StandInPopulation.manyFollowsFollowerCount, StandInPopulation.manyFollowsFollowingCount
            )
        }
        if let counts = StandInSpecialAccounts.byOrdinal[n]?.counts, counts.count == 4 {
            (publicRepos, publicGists, followers, following) = (counts[0], counts[1], counts[2], counts[3])
        }
    }
}

struct StandInNameParts {
    static let words = StandInSpecialAccounts.words

    let ordinal: Int
    let adjective: String
    let noun: String

    init(ordinal: Int) {
        self.ordinal = ordinal
        adjective = Self.words.adjectives[ordinal % Self.words.adjectives.count]
        noun = Self.words.nouns[(ordinal / Self.words.adjectives.count) % Self.words.nouns.count]
    }

    var capitalizedAdjective: String { adjective.prefix(1).uppercased() + adjective.dropFirst() }
    var capitalizedNoun: String { noun.prefix(1).uppercased() + noun.dropFirst() }
    var displayName: String { "\(capitalizedAdjective) \(capitalizedNoun)" }

    /// Ending in the ordinal keeps them unique and apart from the special logins, none of which ends in a digit.
    func generatedLogin(isOrganization: Bool) -> String {
        guard !isOrganization else { return "\(capitalizedNoun)-Labs-\(ordinal)" }
        return [
            "\(adjective)-\(noun)-\(ordinal)", "\(capitalizedAdjective)-\(capitalizedNoun)-\(ordinal)",
            "\(adjective)\(noun)\(ordinal)", "\(capitalizedAdjective)\(capitalizedNoun)\(ordinal)",
        ][ordinal % 4]
    }
}
