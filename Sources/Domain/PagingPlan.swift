/// How many items a paging command wants.
package enum ItemLimit: Sendable, Equatable {
    case count(Int)
    case all

    /// The default of every paging command: one page of 30.
    package static let `default` = ItemLimit.count(30)

    /// No more than `cap` (an endpoint row's `itemCap`): GitHub refuses the page past a list's cap, so it is
    /// never asked for. Unchanged when there is no cap.
    package func capped(at cap: Int?) -> ItemLimit {
        guard let cap else { return self }
        switch self {
        case .all: return .count(cap)
        case .count(let count): return .count(min(count, cap))
        }
    }

    /// Whether more than `cap` was asked for, so that stopping at it is worth a word.
    package func exceeds(_ cap: Int) -> Bool {
        switch self {
        case .all: return true
        case .count(let count): return count > cap
        }
    }
}

/// Chooses `per_page` so a command needs the fewest requests: exactly the limit when it fits in one page,
/// otherwise GitHub's maximum of 100. An explicit `--per-page` wins.
package struct PagingPlan: Sendable, Equatable {
    package static let maximumPerPage = 100

    package let limit: ItemLimit
    package let perPage: Int

    package init(limit: ItemLimit, requestedPerPage: Int? = nil) {
        self.limit = limit
        if let requestedPerPage {
            perPage = requestedPerPage
        } else if case .count(let count) = limit, count <= PagingPlan.maximumPerPage {
            perPage = count
        } else {
            perPage = PagingPlan.maximumPerPage
        }
    }
}
