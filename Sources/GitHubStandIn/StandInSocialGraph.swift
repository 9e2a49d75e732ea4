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
/// distinct and never the account itself, and any member can be computed directly, which keeps a page O(per_page)
/// even for accounts whose lists run into the thousands. Lists are as long as the profile's `followers` and
/// `following` counts, capped at `userCount - 1`.
///
/// The two sides are separate lists: X among A's followers does not imply A among X's following. The profile
/// counts (octocat's 20 and 0 come from GitHub's example) add up to far more followers than followings, so no
/// single edge set could give every account its count. The check endpoint reads the follower's `following` list;
/// a write puts the edge on both sides.
extension StandInPopulation {
    /// `eagerbadger38`, a generated account just past the hand-written ones (37 is an Organization): 3,000
    /// followers, and follows 2,500 accounts, 1,000 of them among its followers, in populations of at least
    /// `manyFollowsMinimumUserCount` (smaller ones cap both lists at `userCount - 1`), for a client's paging and
    /// set operations (`--mutual`, `--not-followed-back`) at scale. Sign in as it with `StandInTokens.token(for:)`.
    static let manyFollowsOrdinal = 38
    package static let manyFollowsLogin = StandInUser(ordinal: manyFollowsOrdinal).login
    package static let manyFollowsFollowerCount = 3_000
    package static let manyFollowsFollowingCount = 2_500
    package static let manyFollowsOverlap = 1_000
    /// The account itself plus 3,000 + 2,500 - 1,000 others.
    package static let manyFollowsMinimumUserCount =
        1 + manyFollowsFollowerCount + manyFollowsFollowingCount - manyFollowsOverlap

    /// Where `user`'s list on one side sits in its stride sequence, as long as the profile's count, capped so
    /// nobody follows themself or twice.
    ///
    /// The two-sided account's `following` walks the same sequence as its followers, starting where only
    /// `manyFollowsOverlap` of them are still ahead, so the overlap is exact once the population is big enough
    /// for both lists; smaller populations squeeze it and the lists share more.
    func baseSequence(_ relation: StandInFollowRelation, of user: StandInUser) -> StandInFollowSequence {
        let numbers = StandInProfileNumbers(ordinal: user.ordinal)
        let count = max(0, min(relation == .followers ? numbers.followers : numbers.following, users.count - 1))
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

    /// The first step at or above `near` that is coprime with `modulo`; 1 for populations too small to matter.
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
