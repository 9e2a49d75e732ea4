import Domain

@testable import gh_users

/// An expansion given as a function: the tests' stand-in for GitHub. The commands expand through
/// `ItemExpander` values (`RESTProfiles`, `GraphQLProfiles`, …), never a stored function.
struct ExpandingFunction<Item: Sendable>: ItemExpander {
    let body: @Sendable ([Item]) async -> [Result<Item?, DomainError>]

    func expand(_ items: [Item]) async -> [Result<Item?, DomainError>] {
        await body(items)
    }
}

extension ItemExpansion {
    init(
        batchSize: Int, concurrency: Int, expand: @escaping @Sendable ([Item]) async -> [Result<Item?, DomainError>]
    ) {
        self.init(batchSize: batchSize, concurrency: concurrency, expander: ExpandingFunction(body: expand))
    }
}
