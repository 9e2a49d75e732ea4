/// The accounts whose public surface (keys, organizations, stars, gists, events) runs to several pages of 100, so
/// that a client's multi-page paging is exercised; everybody else has a few items or none.
///
/// They are generated accounts just past the hand-written ones, so they exist in every population of at least 36
/// accounts and keep their logins whatever its size. Each one is many-of-one-thing only, so a test of one command
/// is not slowed down by another resource's size.
enum StandInSurfaceAccounts {
    static let manyKeysOrdinal = 31
    static let manyKeysCount = 260
    static let manyOrganizationsOrdinal = 32
    static let manyOrganizationsCount = 160
    static let manyStarsOrdinal = 33
    static let manyStarsCount = 370
    /// Gists follow the profile's `public_gists`, which `StandInProfileNumbers` raises for this account.
    static let manyGistsOrdinal = 34
    static let manyGistsCount = 130
    /// More than GitHub's 300-event window, so the last events are out of reach as on GitHub.
    static let manyEventsOrdinal = 35
    static let manyEventsCount = 340
    /// Valid keys mixed with malformed ones (see `StandInSSHKeys.malformedAccountKey`).
    static let malformedKeysOrdinal = 36
    /// Thousands on both sides of the follow graph with a known overlap, for the set operations (`--mutual`,
    /// `--not-followed-back`) at scale; 37 is an Organization, so the next User.
    static let manyFollowsOrdinal = 38
    static let manyFollowsFollowers = 3_000
    static let manyFollowsFollowing = 2_500
    static let manyFollowsOverlap = 1_000
}

extension StandInPopulation {
    /// `RapidFalcon31`: 260 public SSH keys.
    package static let manyKeysLogin = StandInUser(ordinal: StandInSurfaceAccounts.manyKeysOrdinal).login
    /// `silly-falcon-32`: member of 160 organizations (the population's own Organizations first, then synthetic
    /// ones once the population has no more).
    package static let manyOrganizationsLogin = StandInUser(
        ordinal: StandInSurfaceAccounts.manyOrganizationsOrdinal
    ).login
    /// `Tidy-Falcon-33`: 370 starred repositories.
    package static let manyStarsLogin = StandInUser(ordinal: StandInSurfaceAccounts.manyStarsOrdinal).login
    /// `wittyfalcon34`: 130 public gists, which its profile's `public_gists` says too.
    package static let manyGistsLogin = StandInUser(ordinal: StandInSurfaceAccounts.manyGistsOrdinal).login
    /// `ZestyFalcon35`: 340 public events, of which GitHub's API reaches only the newest 300.
    package static let manyEventsLogin = StandInUser(ordinal: StandInSurfaceAccounts.manyEventsOrdinal).login
    /// `brave-badger-36`: public keys that are valid and malformed in turn.
    package static let malformedKeysLogin = StandInUser(ordinal: StandInSurfaceAccounts.malformedKeysOrdinal).login
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
