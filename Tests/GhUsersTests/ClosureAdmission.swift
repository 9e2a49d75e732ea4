import Domain

@testable import gh_users

/// A rule given as closures, for tests that need one rule for one model: the commands use `Admitting` values,
/// never closures.
struct ListAdmission<Item>: Admission {
    let admitting: (Item) -> Bool
    var isNewItem: ((Item) -> Bool)?
    var isLastItem: ((Item) -> Bool)?

    init(admit: @escaping (Item) -> Bool, isNew: ((Item) -> Bool)? = nil, isLast: ((Item) -> Bool)? = nil) {
        admitting = admit
        isNewItem = isNew
        isLastItem = isLast
    }

    func admit(_ item: Item) -> Bool { admitting(item) }
    func isNew(_ item: Item) -> Bool? { isNewItem?(item) }
    var endsAtAnItem: Bool { isLastItem != nil }
    func isLast(_ item: Item) -> Bool { isLastItem?(item) ?? false }
}

/// The view model over a loader, with its rule given as closures, as the tests build it.
extension PagedListViewModel {
    /// A loader, and a rule given as closures.
    convenience init(
        limit: ItemLimit, noting load: @escaping Loader, admit: @escaping (Item) -> Bool = { _ in true },
        isNew: ((Item) -> Bool)? = nil, isLast: ((Item) -> Bool)? = nil, aheadBudget: Int = defaultAheadBudget
    ) {
        self.init(
            limit: limit, noting: load, admitting: .rule(ListAdmission(admit: admit, isNew: isNew, isLast: isLast)),
            aheadBudget: aheadBudget)
    }

    /// A loader with nothing to say at the end.
    convenience init(
        limit: ItemLimit, load: @escaping Loader, admit: @escaping (Item) -> Bool = { _ in true },
        isNew: ((Item) -> Bool)? = nil, isLast: ((Item) -> Bool)? = nil
    ) {
        self.init(
            limit: limit, noting: load,
            admit: admit, isNew: isNew, isLast: isLast)
    }

    /// A page-based list: `first` loads page one, `next` follows a `Link`, and an item whose id was already
    /// written (the list shifted while it was read) is dropped, as is anything `keep` refuses.
    convenience init(
        limit: ItemLimit,
        first: @escaping @Sendable () async throws(DomainError) -> Page<Item>,
        next: @escaping @Sendable (PageCursor) async throws(DomainError) -> Page<Item>,
        id: @escaping (Item) -> Int64,
        keep: @escaping (Item) -> Bool = { _ in true }
    ) {
        let seen = SeenIDs()
        self.init(
            limit: limit,
            load: { cursor throws(DomainError) in
                if let cursor { return try await next(cursor) }
                return try await first()
            },
            // Every id is recorded, kept or not, so `isNew` can tell a page of repeats from a page of forks.
            admit: { seen.admit(id($0)) && keep($0) },
            isNew: { !seen.contains(id($0)) }
        )
    }
}
