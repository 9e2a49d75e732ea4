/// Which side of the follow graph a list shows.
package enum StandInFollowRelation: Sendable {
    /// `GET /users/{username}/followers`: accounts that follow the user.
    case followers
    /// `GET /users/{username}/following`: accounts the user follows.
    case following
}

/// The deterministic follow graph.
///
/// The i-th member (1-based) of an account's list sits `i * stride` positions after the account, wrapping around
/// the population. The stride is coprime with the population size, so the first `userCount - 1` members are all
/// distinct and never the account itself; any member can be computed directly, which keeps a page O(per_page)
/// even for accounts whose lists run into the thousands. Lists are as long as the profile's `followers` and
/// `following` counts, capped at `userCount - 1`.
extension StandInPopulation {
    package func followers(ofUserID id: Int) -> [StandInUser] {
        relatedUsers(.followers, ofUserID: id)
    }

    package func following(ofUserID id: Int) -> [StandInUser] {
        relatedUsers(.following, ofUserID: id)
    }

    /// The whole list in the order the API pages through it; empty for unknown ids.
    package func relatedUsers(_ relation: StandInFollowRelation, ofUserID id: Int) -> [StandInUser] {
        guard let user = user(id: id) else {
            return []
        }
        return relatedUsers(relation, of: user, positions: 0..<relationCount(relation, of: user))
    }

    /// How many entries the list has; the profile's count, capped so nobody follows themself or twice.
    package func relationCount(_ relation: StandInFollowRelation, of user: StandInUser) -> Int {
        let numbers = StandInProfileNumbers(ordinal: user.ordinal)
        let claimed = relation == .followers ? numbers.followers : numbers.following
        return max(0, min(claimed, users.count - 1))
    }

    /// The members at `positions` (0-based, clamped to the list), for one page.
    func relatedUsers(_ relation: StandInFollowRelation, of user: StandInUser, positions: Range<Int>)
        -> [StandInUser]
    {
        let count = relationCount(relation, of: user)
        let lower = min(max(0, positions.lowerBound), count)
        let upper = min(max(lower, positions.upperBound), count)
        let stride = relation == .followers ? followerStride : followingStride
        let start = user.ordinal - 1
        return (lower..<upper).map { position in
            users[(start + (position + 1) * stride) % users.count]
        }
    }

    /// The first step at or above `near` that is coprime with `modulo`; 1 for populations too small to matter.
    static func coprimeStride(near: Int, modulo: Int) -> Int {
        guard modulo > 2 else {
            return 1
        }
        var candidate = max(1, near)
        while greatestCommonDivisor(candidate, modulo) != 1 {
            candidate += 1
        }
        return candidate
    }

    private static func greatestCommonDivisor(_ first: Int, _ second: Int) -> Int {
        var a = first
        var b = second
        while b != 0 {
            (a, b) = (b, a % b)
        }
        return a
    }
}
