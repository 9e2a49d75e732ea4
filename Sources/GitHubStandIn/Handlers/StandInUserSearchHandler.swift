import Foundation

extension StandInRouteRequest {
    private static let resultWindow = 1_000

    /// `GET /search/users`: accounts matching `q`, at most the first 1,000 of them, spending the search rate limit.
    /// The cheap refusals first, so they never scan the population; the matches are kept in `cache`.
    func searchUsers(cache: StandInSearchCache) -> StandInHTTPResponse {
        guard let text = request.query["q"], text.contains(where: { !$0.isWhitespace }) else {
            return StandInHTTPResponse(status: 422, body: StandInRecordedHandler.body(named: "error-422-code-only")!)
        }
        guard !StandInPageRequest(query: request.query).startsPast(Self.resultWindow) else {
            return StandInErrorBody.response(
                422, message: "Only the first 1000 search results are available",
                // GitHub's two search refusals really do differ by this trailing slash.
                documentationURL: "https://docs.github.com/v3/search/")
        }
        let sort = request.query["sort"].flatMap { StandInUserSearchSort(rawValue: $0) }
        // `order` only means something with `sort`; best match has one fixed order.
        let ascending = sort != nil && request.query["order"] == "asc"
        let positions = cache.positions(forKey: "\(sort?.rawValue ?? "")\u{0}\(ascending)\u{0}\(text)") {
            population.searchPositions(StandInUserSearchQuery(text), sort: sort, ascending: ascending)
        }
        // Search scores are relevance floats; with no text ranking every hit scores the same.
        var response = paged(count: min(positions.count, Self.resultWindow)) {
            population.users[positions[$0]].writeSimpleUserFields(into: &$1)
            $1.raw(",\"score\":1.0}")
        }
        let head = "{\"total_count\":\(positions.count),\"incomplete_results\":false,\"items\":"
        response.body = Array(head.utf8) + response.body + [UInt8(ascii: "}")]
        return response
    }
}

/// The matches of the last few queries; the oldest goes first, so endless distinct queries cannot grow memory. Each
/// page repeats the query; scanning 100,000 accounts each time would dominate the cost.
final class StandInSearchCache: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [(key: String, positions: [Int])] = []
    static let capacity = 16

    /// Computed outside the lock, so one slow scan does not stall other connections.
    func positions(forKey key: String, compute: () -> [Int]) -> [Int] {
        if let hit = lock.withLock({ entries.first { $0.key == key }?.positions }) { return hit }
        let computed = compute()
        lock.withLock {
            entries = [(key, computed)] + entries.filter { $0.key != key }.prefix(Self.capacity - 1)
        }
        return computed
    }
}
