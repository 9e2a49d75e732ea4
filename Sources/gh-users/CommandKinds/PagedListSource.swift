import Domain

/// One run's rule for which items are written, and for what counts as new (so that a page of items all
/// filtered out is not taken for a server going round in circles).
struct ListAdmission<Item> {
    let admit: (Item) -> Bool
    var isNew: ((Item) -> Bool)?
    /// Whether the list ends at an item (`list --until`): nothing after it is wanted, or requested.
    var isLast: ((Item) -> Bool)?
}

/// Pages worked out here rather than one list as GitHub serves them: the loader, which hands on with its pages
/// any lines it has for stderr once the list ends (a split search's query count), and which items are written.
struct PreparedList<Item: Sendable> {
    let load: PagedListViewModel<Item>.NotingLoader
    let admission: ListAdmission<Item>

    init(noting load: @escaping PagedListViewModel<Item>.NotingLoader, admission: ListAdmission<Item>) {
        self.load = load
        self.admission = admission
    }

    /// A loader with nothing to say at the end.
    init(load: @escaping PagedListViewModel<Item>.Loader, admission: ListAdmission<Item>) {
        self.init(noting: { cursor throws(DomainError) in .init(page: try await load(cursor)) }, admission: admission)
    }
}
