import Domain

@testable import gh_users

/// A rule given as closures, for tests that need one rule for one model: the commands use `Admitting` values,
/// never closures.
struct ListAdmission<Item>: Admission {
    let admitting: (Item) -> Bool
    var isNewItem: ((Item) -> Bool)?

    init(admit: @escaping (Item) -> Bool, isNew: ((Item) -> Bool)? = nil) {
        admitting = admit
        isNewItem = isNew
    }

    func admit(_ item: Item) -> Bool { admitting(item) }
    func isNew(_ item: Item) -> Bool? { isNewItem?(item) }
}

/// A list's pages given as a closure, for the tests: the commands' pages come from Data's `PageSource`s or their
/// own types. Nil asks for the first page; no page is told of early.
struct ClosurePages<Item: Sendable>: PageSource {
    let load: @Sendable (PageCursor?) async throws(DomainError) -> Page<Item>

    func page(at cursor: PageCursor?, nextPage: NextPageListener?) async throws(DomainError) -> Page<Item> {
        try await load(cursor)
    }
}

/// The view model over a loader, with its rule given as closures, as the tests build it.
extension PagedListViewModel {
    typealias Loader = @Sendable (PageCursor?) async throws(DomainError) -> Page<Item>

    /// A loader and a rule of the view model's own.
    convenience init(
        limit: ItemLimit, noting load: @escaping Loader, admitting: Admitting<Item> = .unseenIDs,
        aheadBudget: Int = defaultAheadBudget
    ) {
        self.init(limit: limit, pages: ClosurePages(load: load), admitting: admitting, aheadBudget: aheadBudget)
    }

    /// A loader, and a rule given as closures.
    convenience init(
        limit: ItemLimit, noting load: @escaping Loader, admit: @escaping (Item) -> Bool = { _ in true },
        isNew: ((Item) -> Bool)? = nil, aheadBudget: Int = defaultAheadBudget
    ) {
        self.init(
            limit: limit, noting: load, admitting: .rule(ListAdmission(admit: admit, isNew: isNew)),
            aheadBudget: aheadBudget)
    }

    /// A loader with nothing to say at the end.
    convenience init(
        limit: ItemLimit, load: @escaping Loader, admit: @escaping (Item) -> Bool = { _ in true },
        isNew: ((Item) -> Bool)? = nil
    ) {
        self.init(limit: limit, noting: load, admit: admit, isNew: isNew)
    }

    /// A page-based list: `first` loads page one, `next` follows a `Link`, and the view model's own rule
    /// (`Admitting.keeping`) drops an item whose id was already seen (the list shifted while it was read), as it
    /// does anything `keep` refuses.
    convenience init(
        limit: ItemLimit,
        first: @escaping @Sendable () async throws(DomainError) -> Page<Item>,
        next: @escaping @Sendable (PageCursor) async throws(DomainError) -> Page<Item>,
        keep: @escaping (Item) -> Bool = { _ in true }
    ) {
        self.init(
            limit: limit,
            noting: { cursor throws(DomainError) in
                if let cursor { return try await next(cursor) }
                return try await first()
            },
            admitting: .keeping(KeptByClosure(keeping: keep)))
    }
}

/// A filter given as a closure, for the tests.
struct KeptByClosure<Item>: ItemFilter {
    let keeping: (Item) -> Bool

    func keeps(_ item: Item) -> Bool { keeping(item) }
}
