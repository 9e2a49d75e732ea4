/// Which side of the follow graph a list shows.
package enum StandInFollowRelation: Sendable, Hashable {
    /// `GET /users/{username}/followers`: accounts that follow the user.
    case followers
    /// `GET /users/{username}/following`: accounts the user follows.
    case following
}

/// The deterministic follow graph, before any write (`StandInFollowGraph` applies writes on top of it).
///
/// The i-th member (1-based) of an account's list sits `i * stride` positions after the account, wrapping around
/// the population. The stride is coprime with the population size, so the first `userCount - 1` members are all
/// distinct and never the account itself; any member can be computed directly, which keeps a page O(per_page)
/// even for accounts whose lists run into the thousands, and the stride's modular inverse answers "is X in this
/// list" in O(1). Lists are as long as the profile's `followers` and `following` counts, capped at
/// `userCount - 1`.
///
/// The two sides are separate lists: X among A's followers does not imply A among X's following. The profile
/// counts (octocat's 20 and 0 come from GitHub's example) add up to far more followers than followings, so no
/// single edge set could give every account its count. `follows(_:_:)` (and the check endpoint) reads the
/// follower's `following` list; a write puts the edge on both sides.
extension StandInPopulation {
    package func followers(ofUserID id: Int) -> [StandInUser] {
        relatedUsers(.followers, ofUserID: id)
    }

    package func following(ofUserID id: Int) -> [StandInUser] {
        relatedUsers(.following, ofUserID: id)
    }

    /// The accounts that follow `user` before any write; the running server's are `StandInFollowGraph`'s.
    package func followers(of user: StandInUser) -> [StandInUser] {
        relatedUsers(.followers, of: user, positions: 0..<relationCount(.followers, of: user))
    }

    /// The accounts `user` follows before any write; the running server's are `StandInFollowGraph`'s.
    package func following(of user: StandInUser) -> [StandInUser] {
        relatedUsers(.following, of: user, positions: 0..<relationCount(.following, of: user))
    }

    /// Whether `follower`'s `following` list holds `followed` before any write: what
    /// `GET /users/{follower}/following/{followed}` answers on a server nobody wrote to.
    package func follows(_ follower: StandInUser, _ followed: StandInUser) -> Bool {
        baseSequence(.following, of: follower).index(ofMemberAt: followed.ordinal - 1) != nil
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
        let sequence = baseSequence(relation, of: user)
        let lower = min(max(0, positions.lowerBound), sequence.count)
        let upper = min(max(lower, positions.upperBound), sequence.count)
        return (lower..<upper).map { users[sequence.memberPosition(at: $0)] }
    }

    /// Where `user`'s list on one side sits in its stride sequence.
    ///
    /// The two-sided account's `following` walks the same sequence as its followers, starting where only
    /// `manyFollowsOverlap` of them are still ahead, so the overlap is exact once the population is big enough
    /// for both lists (`manyFollowsMinimumUserCount`); smaller populations squeeze it and the lists share more.
    func baseSequence(_ relation: StandInFollowRelation, of user: StandInUser) -> StandInFollowSequence {
        let count = relationCount(relation, of: user)
        if relation == .following, user.ordinal == StandInSurfaceAccounts.manyFollowsOrdinal {
            let wanted = StandInSurfaceAccounts.manyFollowsFollowers - StandInSurfaceAccounts.manyFollowsOverlap
            return StandInFollowSequence(
                start: user.ordinal - 1, stride: followerStride, inverse: followerStrideInverse,
                skipped: max(0, min(wanted, users.count - 1 - count)), count: count, modulo: users.count)
        }
        return StandInFollowSequence(
            start: user.ordinal - 1, stride: relation == .followers ? followerStride : followingStride,
            inverse: relation == .followers ? followerStrideInverse : followingStrideInverse, skipped: 0, count: count,
            modulo: users.count)
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

    /// `value`'s inverse modulo `modulo` (extended Euclid); `value` must be coprime with it. 0 when `modulo` < 2,
    /// where there is nobody else to find anyway.
    static func modularInverse(of value: Int, modulo: Int) -> Int {
        guard modulo > 1 else {
            return 0
        }
        var (oldRemainder, remainder) = (value % modulo, modulo)
        var (oldCoefficient, coefficient) = (1, 0)
        while remainder != 0 {
            let quotient = oldRemainder / remainder
            (oldRemainder, remainder) = (remainder, oldRemainder - quotient * remainder)
            (oldCoefficient, coefficient) = (coefficient, oldCoefficient - quotient * coefficient)
        }
        return (oldCoefficient % modulo + modulo) % modulo
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

/// One account's list on one side before any write: `count` members, the i-th (0-based) `skipped + i + 1` strides
/// after the account, wrapping around the population.
struct StandInFollowSequence: Sendable {
    /// The account's own 0-based position in `users`.
    let start: Int
    let stride: Int
    /// `stride`'s inverse modulo `modulo`, which turns a member back into its step count.
    let inverse: Int
    let skipped: Int
    let count: Int
    /// The population size.
    let modulo: Int

    /// The 0-based population position of the member at `index` (0..<count).
    func memberPosition(at index: Int) -> Int {
        (start + (skipped + index + 1) * stride) % modulo
    }

    /// The index in this list of the account at population position `position`, nil if it is not a member.
    func index(ofMemberAt position: Int) -> Int? {
        guard modulo > 1, (0..<modulo).contains(position) else {
            return nil
        }
        let steps = (position - start + modulo) % modulo * inverse % modulo
        let index = steps - skipped - 1
        return (0..<count).contains(index) ? index : nil
    }
}
