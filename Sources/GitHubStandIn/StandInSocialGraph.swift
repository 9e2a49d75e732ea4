package enum StandInFollowRelation: Sendable, Hashable {
    case followers, following
    /// The accounts an account blocks; nobody's before a write.
    case blocks
}

/// The follow graph before any write. The i-th member of an account's list sits `i * stride` positions after it,
/// wrapping around; the stride is coprime with the population size, so members are distinct and computed directly
/// (a page costs O(per_page)). Lists are as long as the profile's counts, capped at `userCount - 1`.
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

    /// The many-follows account's `following` walks its followers' sequence, from where only `manyFollowsOverlap`
    /// of them are still ahead.
    func baseSequence(_ relation: StandInFollowRelation, of user: StandInUser) -> StandInFollowSequence {
        let numbers = StandInProfileNumbers(ordinal: user.ordinal)
        let listed = relation == .followers ? numbers.followers : relation == .following ? numbers.following : 0
        let count = max(0, min(listed, users.count - 1))
        var sequence = StandInFollowSequence(
            start: user.ordinal - 1, stride: relation == .followers ? followerStride : followingStride, skipped: 0,
            count: count, modulo: users.count)
        if relation == .following, user.ordinal == Self.manyFollowsOrdinal {
            sequence.stride = followerStride
            sequence.skipped = max(
                0, min(Self.manyFollowsFollowerCount - Self.manyFollowsOverlap, users.count - 1 - count))
        }
        return sequence
    }

    static func coprimeStride(near: Int, modulo: Int) -> Int {
        guard modulo > 2 else {
            return 1
        }
        func greatestCommonDivisor(_ a: Int, _ b: Int) -> Int { b == 0 ? a : greatestCommonDivisor(b, a % b) }
        var candidate = max(1, near)
        while greatestCommonDivisor(candidate, modulo) != 1 {
            candidate += 1
        }
        return candidate
    }
}

/// One account's list on one side before any write: `count` members, the i-th (0-based) `skipped + i + 1` strides
/// after the account, wrapping around the population.
struct StandInFollowSequence: Sendable {
    /// The account's own 0-based position in `users`.
    let start: Int
    var stride: Int
    var skipped: Int
    let count: Int
    /// The population size.
    let modulo: Int

    /// The ordinal of the member at `index` (0..<count).
    func memberOrdinal(at index: Int) -> Int {
        (start + (skipped + index + 1) * stride) % modulo + 1
    }

    func contains(ordinal: Int) -> Bool {
        (0..<count).contains { memberOrdinal(at: $0) == ordinal }
    }

    var ordinals: [Int] { (0..<count).map(memberOrdinal(at:)) }
}
