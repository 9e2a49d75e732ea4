// octocat's star is the item of GitHub's documented example `activity-list-repos-starred-by-user.star.json`
// (`starred-repository-items-alternative-response-with-star-creation-timestamps`), from GitHub's OpenAPI
// description, github/rest-api-description (MIT License, Copyright (c) 2020 GitHub): Hello-World, starred at
// 2011-01-16T19:06:43Z. Every other star is synthetic.

/// The `sort` parameter of `GET /users/{username}/starred`.
package enum StandInStarSort: String, Sendable, CaseIterable {
    /// When the repository was starred; GitHub's default.
    case created
    /// When the repository was last pushed to, as GitHub documents this value.
    case updated
}

/// The `direction` parameter of the starred list; descending unless told otherwise.
package enum StandInSortDirection: String, Sendable, CaseIterable {
    case asc
    case desc
}

/// One starred repository and when the star was given.
package struct StandInStar: Sendable, Equatable {
    /// Unix seconds.
    package let starredAt: Int
    package let repository: StandInRepository

    /// The repository object of the default media type.
    package func repositoryJSON() -> String {
        repository.json()
    }

    /// `{"starred_at": ..., "repo": {...}}`, the item of `application/vnd.github.star+json`.
    package func starJSON() -> String {
        var writer = JSONByteWriter(reservingCapacity: 6_500)
        writeStar(into: &writer)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    func writeStar(into writer: inout JSONByteWriter) {
        writer.raw("{\"starred_at\":")
        writer.string(UTCTimestamp.iso8601(starredAt))
        writer.raw(",\"repo\":")
        repository.write(into: &writer)
        writer.raw("}")
    }
}

/// Stars point at repositories of the population: the k-th candidate is a repository of the account `k + 1`
/// strides further on (wrapping), picked by a hash, skipping owners without repositories and repeats. Stars are
/// given after the repository was created, up to two years later.
extension StandInPopulation {
    private static let starSalt: UInt64 = 0x7374_6172

    /// How many stars an account gives: Users only, as Organizations and apps cannot star.
    static func starCount(of user: StandInUser) -> Int {
        if user.ordinal == 1 {
            return 1
        }
        if user.ordinal == StandInSurfaceAccounts.manyStarsOrdinal {
            return StandInSurfaceAccounts.manyStarsCount
        }
        return user.type == "User" ? (user.ordinal * 17) % 25 : 0
    }

    /// `GET /users/{username}/starred` in the order asked for; `sort` and `direction` default to GitHub's
    /// (created, descending). Ties, which only `updated` can have, go to the lower repository id first.
    ///
    /// Small populations may hold fewer repositories than an account wants to star; the list is then shorter.
    package func starred(
        by user: StandInUser, sort: StandInStarSort = .created, direction: StandInSortDirection = .desc
    ) -> [StandInStar] {
        let stars = unsortedStars(of: user)
        let ascending = direction == .asc
        return stars.sorted { first, second in
            let a = sort == .created ? first.starredAt : first.repository.pushedAt
            let b = sort == .created ? second.starredAt : second.repository.pushedAt
            if a != b {
                return ascending ? a < b : a > b
            }
            return first.repository.id < second.repository.id
        }
    }

    private func unsortedStars(of user: StandInUser) -> [StandInStar] {
        if user.ordinal == 1 {
            // Hello-World, octocat's own first repository, as in the example.
            return [StandInStar(starredAt: 1_295_204_803, repository: StandInRepository(owner: user, index: 0))]
        }
        let wanted = Self.starCount(of: user)
        guard wanted > 0, !users.isEmpty else {
            return []
        }
        let stride = Self.coprimeStride(near: users.count * 236_068 / 1_000_000, modulo: users.count)
        var stars: [StandInStar] = []
        stars.reserveCapacity(wanted)
        var starredIDs = Set<Int>()
        var random = StandInSeededBytes(seed: user.ordinal, salt: Self.starSalt)
        // Bounded so a population with too few repositories ends the search instead of looping.
        var candidate = 0
        while stars.count < wanted, candidate < 4 * wanted + users.count {
            let ownerOrdinal = (user.ordinal - 1 + (candidate + 1) * stride) % users.count + 1
            candidate += 1
            let owner = users[ownerOrdinal - 1]
            let owned = ownedRepositoryCount(of: owner)
            let pick = random.next(below: 1 << 30)
            let delay = random.next(below: 2 * 31_536_000)
            guard owned > 0 else {
                continue
            }
            let repository = StandInRepository(owner: owner, index: pick % owned)
            guard starredIDs.insert(repository.id).inserted else {
                continue
            }
            stars.append(StandInStar(starredAt: repository.createdAt + 3_600 + delay, repository: repository))
        }
        return stars
    }
}
