/// How many accounts the next GraphQL batch asks for: the batching policy as a value, so it is tested without a
/// server. A refused batch (the node limit, or a 502 or 504 when the query ran out of time) halves the size and
/// marks a ceiling; successes in a row grow it back halfway to that ceiling (or to the maximum), so one slow
/// moment does not cost the rest of a crawl a hundred times the requests. A size that has gone through once is
/// refused twice before it becomes the ceiling: GitHub's timeouts come and go, and a ceiling lowered by each
/// passing one wore a long crawl down to batches of one (one refusal in twenty batches did).
/// Refusals in a row past `maximumRefusalsInRow` mean the server will not take even small batches: the caller
/// stops.
package struct GraphQLBatchSizing: Sendable, Equatable {
    /// Refusals in a row that are still met by halving; one more stops the run.
    package static let maximumRefusalsInRow = 4
    /// Successes in a row at one size before it grows.
    package static let successesBeforeGrowth = 2

    package let maximum: Int
    package private(set) var size: Int
    /// The smallest size refused since the last growth past it: growth stops just below it.
    package private(set) var ceiling: Int
    package private(set) var refusalsInRow = 0
    private var successesInRow = 0
    /// The largest size that went through and has not been refused since: a refusal at or below it is taken for
    /// a passing moment (once, since the refusal lowers it below the size refused).
    private var largestTaken = 0

    package init(maximum: Int, size: Int? = nil) {
        self.maximum = max(1, maximum)
        self.size = min(self.maximum, max(1, size ?? maximum))
        ceiling = self.maximum + 1
    }

    /// What to do after a batch of `count` was refused.
    package enum AfterRefusal: Sendable, Equatable {
        /// Ask again in batches of `size`.
        case retry(size: Int)
        /// A batch of one was refused: that account comes from REST, and the run goes on.
        case single
        /// Too many refusals in a row: stop.
        case stop(refusals: Int)
    }

    /// A batch larger than the size now was sent before another refusal shrank it (batches overlap): it asks
    /// again at the size now, and is not another refusal in a row.
    package mutating func refused(count: Int) -> AfterRefusal {
        if count > size, count > 1 { return .retry(size: size) }
        successesInRow = 0
        refusalsInRow += 1
        if refusalsInRow > Self.maximumRefusalsInRow { return .stop(refusals: refusalsInRow) }
        let count = max(1, count)
        if count <= largestTaken {
            largestTaken = count - 1
        } else {
            ceiling = min(ceiling, count)
        }
        // Halves rounded up, so 37 is asked as 19 and 18 rather than 18, 18 and 1.
        size = max(1, min(size, (count + 1) / 2))
        return count == 1 ? .single : .retry(size: size)
    }

    /// A batch of `count` went through.
    package mutating func succeeded(count: Int) {
        refusalsInRow = 0
        largestTaken = max(largestTaken, count)
        successesInRow += 1
        guard successesInRow >= Self.successesBeforeGrowth else { return }
        successesInRow = 0
        let limit = min(maximum, ceiling - 1)
        guard size < limit else { return }
        size = min(limit, size + max(1, (limit - size + 1) / 2))
    }
}
