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
