import Domain

/// A list as GitHub serves it: the first page with `perPage` items (a 404 under an owner asks for the owner,
/// `ResourceRepository.ownerAnswer(to:of:)`), then each `Link` URL the page before named. A pager calls `page(at:)`
/// for every page it reads, the first, the next, and those asked for early, so how a list is fetched is decided here.
package struct ListedPages<Item: Sendable>: PageSource {
    package let list: ListResource<Item>
    package let perPage: Int
    package let repository: any ResourceRepository

    package func page(at cursor: PageCursor?, nextPage: NextPageListener?) async throws(DomainError) -> Page<Item> {
        guard let cursor else { return try await repository.firstPage(list, perPage: perPage, nextPage: nextPage) }
        return try await repository.page(list, at: cursor, nextPage: nextPage)
    }
}

extension ResourceRepository {
    /// `list`'s pages, `perPage` items to a page, read through this repository.
    package func pages<Item: Sendable>(of list: ListResource<Item>, perPage: Int) -> ListedPages<Item> {
        ListedPages(list: list, perPage: perPage, repository: self)
    }
}

extension DomainError {
    /// A page after the first failed so: a 404 is a list that stopped, not one that never was, since the owner and
    /// the token's right to the list were there for the pages before. It said "no user" (exit 3) with no owner
    /// asked for, `list` "no users", and a list under an organization "authentication failed" (exit 4;
    /// helper-291).
    static func onALaterPage(_ error: DomainError) -> DomainError {
        switch error {
        case .notFound(_, let requestID, _), .unauthorized(404, _, _, let requestID), .server(404, _, let requestID):
            return .server(
                status: 404, message: "a next page GitHub linked to was not found, so the list stopped there",
                requestID: requestID)
        default: return error
        }
    }
}
