package enum StandInFollowRelation: Sendable, Hashable {
    case followers, following
    /// The accounts an account blocks; nobody's before a write.
    case blocks
}

/// The follow graph before any write. The i-th member (0-based) of an account's list sits `i + 1` strides after it,
/// wrapping around; the stride is coprime with the population size, so members are distinct. Lists are as long as
/// the profile's counts, capped at `userCount - 1`.
///
/// The two sides are separate lists: the profile counts add up to far more followers than followings, so no one
/// edge set could give every account its count. The check reads the follower's `following`; a write does both.
extension StandInPopulation {
    /// `eagerbadger38`: 3,000 followers, and follows 2,500, 1,000 of them among its followers, in populations of at
    /// least `manyFollowsMinimumUserCount`, for set operations (`--mutual`) at scale.
    static let manyFollowsOrdinal = 38
    package static let manyFollowsLogin = StandInUser(ordinal: manyFollowsOrdinal).login
    package static let manyFollowsFollowerCount = 3_000
    package static let manyFollowsFollowingCount = 2_500
    package static let manyFollowsOverlap = 1_000
    package static let manyFollowsMinimumUserCount =
        1 + manyFollowsFollowerCount + manyFollowsFollowingCount - manyFollowsOverlap

    /// The ordinals of `user`'s list on one side. The many-follows account's `following` walks its followers'
    /// sequence, skipping to where only `manyFollowsOverlap` of them are still ahead.
    func baseOrdinals(_ relation: StandInFollowRelation, of user: StandInUser) -> [Int] {
        let numbers = StandInProfileNumbers(ordinal: user.ordinal)
        let listed = relation == .followers ? numbers.followers : relation == .following ? numbers.following : 0
        let count = max(0, min(listed, users.count - 1))
        let many = relation == .following && user.ordinal == Self.manyFollowsOrdinal
        let stride = relation == .followers || many ? followerStride : followingStride
        let overlapStart = Self.manyFollowsFollowerCount - Self.manyFollowsOverlap
        let skipped = many ? max(0, min(overlapStart, users.count - 1 - count)) : 0
        return (0..<count).map { (user.ordinal - 1 + (skipped + $0 + 1) * stride) % users.count + 1 }
    }

    static func coprimeStride(near: Int, modulo: Int) -> Int {
        guard modulo > 2 else { return 1 }
        func greatestCommonDivisor(_ a: Int, _ b: Int) -> Int { b == 0 ? a : greatestCommonDivisor(b, a % b) }
        return (max(1, near)...).first { greatestCommonDivisor($0, modulo) == 1 } ?? 1
    }
}
