import Domain

/// One run's rule for which items of a list are written, and for what counts as new (so that a page of items
/// all filtered out is not taken for a server going round in circles). It sees each item once, in order, and
/// may remember what it saw: a run makes its own.
protocol Admission<Item> {
    associatedtype Item
    /// Whether the item is written.
    func admit(_ item: Item) -> Bool
    /// Whether the item was never seen before, asked before `admit`; nil for a rule that keeps no ids, where an
    /// item `admit` lets through is the sign of progress.
    func isNew(_ item: Item) -> Bool?
    /// Whether the list ends at an item (`list --until`): nothing after it is wanted, or requested.
    var endsAtAnItem: Bool { get }
    func isLast(_ item: Item) -> Bool
}

extension Admission {
    var endsAtAnItem: Bool { false }
    func isLast(_ item: Item) -> Bool { false }
}

/// Page-based lists can shift while they are read: an item whose id was already seen is dropped. Every id is
/// recorded, so a page of repeats is told from a page of items a subclass refuses (`keeps`).
class UnseenIDs<Item: ListedItem>: Admission {
    private let seen = SeenIDs()

    init() {}

    func admit(_ item: Item) -> Bool {
        guard let id = identity(item) else { return keeps(item) }
        return seen.admit(id) && keeps(item)
    }

    func isNew(_ item: Item) -> Bool? {
        identity(item).map { !seen.contains($0) } ?? true
    }

    /// The id that tells an item already seen: its own, unless a subclass reads another (a star's repository).
    func identity(_ item: Item) -> Int64? { item.listedID }

    /// Whether an item not seen before is written; all are, unless a subclass filters.
    func keeps(_ item: Item) -> Bool { true }
}

/// `GET /users` is in id order: anything at or below the last id written (or `--since`) was already written,
/// and nothing past `--until` is wanted, so the page holding it is the last one requested.
final class IDRange: Admission {
    private var floor: Int64
    private let until: Int64?

    init(after since: Int64, through until: Int64?) {
        floor = since
        self.until = until
    }

    func admit(_ user: User) -> Bool {
        guard user.id > floor, user.id <= until ?? .max else { return false }
        floor = user.id
        return true
    }

    func isNew(_ user: User) -> Bool? { nil }

    var endsAtAnItem: Bool { until != nil }

    func isLast(_ user: User) -> Bool {
        until.map { user.id >= $0 } ?? false
    }
}
