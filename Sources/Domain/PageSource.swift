/// Where a pager's pages come from: a list as GitHub serves it (Data's `ListedPages`), or
/// a list a command prepares itself. The first page is the one at no cursor.
package protocol PageSource<Item>: Sendable {
    associatedtype Item: Sendable
    /// The page at `cursor`; nil asks for the first. A source that reads GitHub's pages tells `nextPage` of the
    /// page after it as soon as its head names one.
    func page(at cursor: PageCursor?, nextPage: NextPageListener?) async throws(DomainError) -> Page<Item>
}
