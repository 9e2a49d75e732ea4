import Domain

extension StandInAccountListHandler {
    /// The record generator for each kind of item an account-scoped list holds. The route table serves every
    /// `GET /users/{username}/…` row of the endpoint table whose records (`shape: .records(item)`) have a generator
    /// here, through `StandInAccountListHandler`, so paging, the 404, the cap and the media type come with it.
    ///
    /// A new list under an account whose records are shaped like another list's (`GET /users/{username}/subscriptions`
    /// holds repositories) needs its endpoint row and nothing here: no entry, no handler file, no route row. Write a
    /// new generator only for a kind of record no generator makes yet.
    static let registry: [Endpoint.Item: StandInRecordGenerator] = [
        .repository: .repositories, .publicKey: .publicKeys, .signingKey: .signingKeys, .gpgKey: .gpgKeys,
        .socialAccount: .socialAccounts, .organization: .organizations, .starredRepository: .stars, .gist: .gists,
        .event: .publicEvents,
    ]

    /// Account lists GitHub no longer serves: `GET /users/{username}/subscriptions` answers 204 No Content since
    /// July 2026 (`StandInRetiredListHandler`).
    static let retired: Set<Endpoint> = [.subscriptions]

    /// The generator that serves `row`: nil unless it is a `GET` of records under an account that GitHub still
    /// lists.
    static func generator(for row: Endpoint) -> StandInRecordGenerator? {
        guard row.method == .get, row.isAccountScoped, !retired.contains(row), case .records(let item) = row.shape
        else { return nil }
        return registry[item]
    }
}

/// What a generator is asked for: the account the path names, and what the request said about the list.
struct StandInListQuery {
    let account: StandInUser
    let population: StandInPopulation
    let query: [String: String]
    /// Whether the caller asked for the row's own media type (starred's `star+json`).
    let inMediaType: Bool
}

/// One account's records for one request: how many, and how to write the one at a position (0 = first), so a
/// generator that can build records one at a time (events) lets a page cost only its own.
struct StandInRecords {
    let count: Int
    let write: (_ position: Int, _ writer: inout JSONByteWriter) -> Void
}

extension StandInRecords {
    /// Records built up front.
    init(_ records: [some StandInRecord]) {
        self.init(count: records.count) { records[$0].write(into: &$1) }
    }
}

/// One record of a list: it writes itself as the JSON object GitHub sends, keys in GitHub's order.
package protocol StandInRecord {
    func write(into writer: inout JSONByteWriter)
}

extension StandInRecord {
    /// The object as the list sends it.
    package func json() -> String {
        var writer = JSONByteWriter(reservingCapacity: 1_024)
        write(into: &writer)
        return String(decoding: writer.bytes, as: UTF8.self)
    }
}

/// Makes an account's records of a list, in the order GitHub lists them, for one request. Named for what it
/// makes rather than for a row, so a row whose records are shaped like another's reuses it.
///
/// Query values a list does not know are ignored rather than refused, as GitHub ignores them.
struct StandInRecordGenerator: Sendable {
    /// About one record's JSON size, so a page reserves its buffer once.
    let bytesPerRecord: Int
    let records: @Sendable (StandInListQuery) -> StandInRecords

    /// `type` (owner unless member or all), `sort` (full_name unless created, updated or pushed) and `direction`
    /// (the sort's default unless asc or desc).
    static let repositories = Self(bytesPerRecord: 6_500) { list in
        let type = list.query["type"].flatMap(StandInRepositoryType.init) ?? .owner
        let sort = list.query["sort"].flatMap(StandInRepositorySort.init) ?? .fullName
        let direction = list.query["direction"].flatMap(StandInSortDirection.init)
        let repositories = list.population.repositories(
            of: list.account, type: type, sort: sort, ascending: direction.map { $0 == .asc } ?? sort.ascendingByDefault
        )
        return StandInRecords(repositories)
    }

    static let publicKeys = Self(bytesPerRecord: 800) { list in
        StandInRecords(list.population.keys(of: list.account))
    }

    static let signingKeys = Self(bytesPerRecord: 300) { list in
        StandInRecords(list.population.signingKeys(of: list.account))
    }

    static let gpgKeys = Self(bytesPerRecord: 2_500) { list in
        StandInRecords(list.population.gpgKeys(of: list.account))
    }

    static let socialAccounts = Self(bytesPerRecord: 120) { list in
        StandInRecords(list.population.socialAccounts(of: list.account))
    }

    static let organizations = Self(bytesPerRecord: 800) { list in
        StandInRecords(list.population.organizations(of: list.account))
    }

    /// `sort` (created unless updated) and `direction` (desc unless asc). In the star media type each repository
    /// is wrapped as `{"starred_at", "repo"}`.
    static let stars = Self(bytesPerRecord: 6_600) { list in
        let sort = list.query["sort"].flatMap(StandInStarSort.init) ?? .created
        let direction = list.query["direction"].flatMap(StandInSortDirection.init) ?? .desc
        let stars = list.population.starred(by: list.account, sort: sort, direction: direction)
        return StandInRecords(count: stars.count) {
            list.inMediaType ? stars[$0].writeStar(into: &$1) : stars[$0].repository.write(into: &$1)
        }
    }

    /// `since`: gists updated at or after an ISO 8601 time; ignored when it does not parse, since GitHub's exact
    /// refusal for it is not documented.
    static let gists = Self(bytesPerRecord: 2_600) { list in
        let since = list.query["since"].flatMap(UTCTimestamp.epochSeconds(iso8601:))
        return StandInRecords(list.population.gists(of: list.account, since: since))
    }

    /// Newest first, each built only when its page is asked for, so an account with hundreds costs a page's worth.
    static let publicEvents = Self(bytesPerRecord: 700) { list in
        let count = StandInPopulation.publicEventCount(of: list.account)
        return StandInRecords(count: count) {
            list.population.publicEvent(of: list.account, position: $0, count: count).write(into: &$1)
        }
    }
}
