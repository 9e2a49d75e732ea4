/// How many items a paging command wants.
package enum ItemLimit: Sendable, Equatable {
    case count(Int)
    case all

    /// The default of every paging command: one page of 30.
    package static let `default` = ItemLimit.count(30)
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
