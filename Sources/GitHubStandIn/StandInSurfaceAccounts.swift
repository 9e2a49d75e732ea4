/// The account whose follow graph runs to thousands on both sides, so that a client's multi-page paging and set
/// operations are exercised at scale. It is a generated account just past the hand-written ones, so it keeps its
/// login whatever the population's size.
enum StandInSurfaceAccounts {
    /// Thousands on both sides of the follow graph with a known overlap, for the set operations (`--mutual`,
    /// `--not-followed-back`) at scale; 37 is an Organization, so the next User.
    static let manyFollowsOrdinal = 38
    static let manyFollowsFollowers = 3_000
    static let manyFollowsFollowing = 2_500
    static let manyFollowsOverlap = 1_000
}

extension StandInPopulation {
    /// `eagerbadger38`: 3,000 followers and follows 2,500 accounts, 1,000 of them among its followers (in
    /// populations of at least `manyFollowsMinimumUserCount`; smaller ones cap both lists at `userCount - 1`).
    /// Sign in as it with `StandInTokens.token(for:)` to page `GET /user/followers` and `/user/following`.
    package static let manyFollowsLogin = StandInUser(ordinal: StandInSurfaceAccounts.manyFollowsOrdinal).login
    package static let manyFollowsFollowerCount = StandInSurfaceAccounts.manyFollowsFollowers
    package static let manyFollowsFollowingCount = StandInSurfaceAccounts.manyFollowsFollowing
    /// Accounts that are both its followers and followed by it: `--mutual` finds these, `--not-followed-back`
    /// the other 2,000 followers, `--not-following-back` the other 1,500 it follows.
    package static let manyFollowsOverlap = StandInSurfaceAccounts.manyFollowsOverlap
    /// The smallest population that has room for both lists with only `manyFollowsOverlap` in common: the account
    /// itself plus 3,000 + 2,500 - 1,000 others.
    package static let manyFollowsMinimumUserCount =
        1 + manyFollowsFollowerCount + manyFollowsFollowingCount - manyFollowsOverlap
}
