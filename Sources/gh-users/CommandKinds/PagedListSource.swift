import Domain

/// A command's own rule for which items of a list are written, and for what counts as new (so that a page of items
/// all filtered out is not taken for a server going round in circles). It sees each item once, in order, and
/// may remember what it saw: a run makes its own.
protocol Admission<Item> {
    associatedtype Item
    /// Whether the item is written.
    func admit(_ item: Item) -> Bool
    /// Whether the item was never seen before, asked before `admit`; nil for a rule that keeps no ids, where an
    /// item `admit` lets through is the sign of progress.
    func isNew(_ item: Item) -> Bool?
}

/// Which items of a page a list run writes, applied in the view model's page step: an item already written is
/// never written again, and the limit counts only what is let through.
enum Admitting<Item: ListedItem> {
    /// Page-based lists can shift while they are read (a new follower pushes everyone one place down): an item
    /// whose id was already seen is dropped, and so is one `keeping` refuses. Every id is recorded, kept or not,
    /// so a page of repeats (a server going round in circles) is told from a page the filter refused.
    case shifting(SeenIDs, keeping: (any ItemFilter<Item>)?)
    /// `GET /users` is in id order: anything at or below the last id written (`after`, `--since` at first) was
    /// already written, and nothing past `--until` is wanted, so the page holding it is the last one requested.
    case idOrder(after: Int64, through: Int64?)
    /// A rule of the command's own.
    case rule(any Admission<Item>)

    /// A page-based list: every item not seen before.
    static var unseenIDs: Admitting { .shifting(SeenIDs(), keeping: nil) }

    /// A page-based list, filtered: every item not seen before that `filter` keeps.
    static func keeping(_ filter: any ItemFilter<Item>) -> Admitting { .shifting(SeenIDs(), keeping: filter) }

    /// Whether the list ends at an item (`list --until`): nothing after it is wanted, or requested.
    var endsAtAnItem: Bool {
        switch self {
        case .shifting: false
        case .idOrder(_, let until): until != nil
        case .rule: false
        }
    }
}

/// Which items not seen before a page-based list writes (`repos --forks`).
protocol ItemFilter<Item> {
    associatedtype Item
    func keeps(_ item: Item) -> Bool
}
