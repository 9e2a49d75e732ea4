import Foundation

/// A user search as GitHub's `GET /search/users` takes it: free text and qualifiers (`type:org`,
/// `followers:>100`, `location:Berlin`) in one string, which is sent as given.
package struct UserSearchQuery: Sendable, Equatable {
    package enum Sort: String, Sendable, CaseIterable {
        case followers
        case repositories
        case joined
    }

    /// GitHub serves only the first 1,000 results of any search.
    package static let maximumResults = 1000

    package let text: String
    package var sort: Sort?
    package var order: SortDirection?

    package init(text: String, sort: Sort? = nil, order: SortDirection? = nil) throws(DomainError) {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw DomainError.invalidInput("a search needs a query") }
        self.text = trimmed
        self.sort = sort
        self.order = order
    }
}
