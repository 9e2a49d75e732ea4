import Domain
import Foundation
import TestSupport
import Testing

@testable import gh_users

/// The pages by cursor URL ("" for the first), counting the requests; a page not given fails loudly.
private final class ScriptedPages<Item: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private let pages: [String: Page<Item>]
    private var asked = 0

    init(_ pages: [String: Page<Item>]) {
        self.pages = pages
    }

    var requests: Int { lock.withLock { asked } }

    func load(_ cursor: PageCursor?) async throws(DomainError) -> Page<Item> {
        let url = cursor?.url ?? ""
        lock.withLock { asked += 1 }
        guard let page = pages[url] else { throw .server(status: 599, message: "no page scripted at '\(url)'") }
        return page
    }
}

private func users(_ ids: [Int64], next: String?) -> Page<User> {
    Page(items: ids.map { makeUser($0) }, next: next.map(PageCursor.init(url:)))
}

/// Reads pages until the model stops; returns what was written and the failure, if any.
private func drain<Item>(_ model: PagedListViewModel<Item>) async -> (items: [Item], failure: DomainError?) {
    var items: [Item] = []
    while !model.isExhausted {
        do throws(DomainError) {
            items += try await model.loadNextPage()
        } catch {
            return (items, error)
        }
    }
    return (items, nil)
}

/// Paging always ends: a cycle of next links, or pages that bring nothing new, stop it with a failure (the
/// coordinator adds the resume hint), however the server dresses the URLs.
struct HostilePagingTests {
    /// A failure names the request that asks the page: before, a GraphQL cursor read "GET graphql:SAME" or
    /// "GET c100", requests that do not exist.
    @Test(arguments: [
        ("https://api.github.com/users?since=46", "GET https://api.github.com/users?since=46"),
        ("graphql:Y3Vyc29yOjI=", "POST /graphql after the cursor 'Y3Vyc29yOjI='"),
        ("c100", "POST /graphql after the cursor 'c100'"),
        ("(the piece after created:2020-01-01)", "(the piece after created:2020-01-01)"),
    ])
    func aCursorIsSaidAsTheRequestThatAsksIt(url: String, request: String) {
        #expect(PageCursor(url: url).request == request)
    }

    @Test func aCycleOfNextLinksStopsAfterThePageThatClosesIt() async {
        let server = ScriptedPages([
            "": users([1, 2], next: "B"), "B": users([3, 4], next: "C"), "C": users([5, 6], next: "B"),
        ])
        let model = PagedListViewModel<User>(
            limit: .all, load: { cursor throws(DomainError) in try await server.load(cursor) })
        let (written, failure) = await drain(model)
        // The page that links back is still written; the page it links to is not asked for again.
        #expect(written.map(\.id) == [1, 2, 3, 4, 5, 6])
        #expect(
            failure
                == .malformedResponse(
                    endpoint: "POST /graphql after the cursor 'B'",
                    detail: "the next page's link or cursor leads back to a page already read, so paging stopped"
                ))
        #expect(server.requests == 3)
    }

    /// A page whose next link names itself is a cycle too, the same rule as a link back to an earlier page: the
    /// list is not known to end there (issue 38: it ended quietly, exit 0).
    @Test func aLinkToItselfIsACycle() async {
        let server = ScriptedPages(["": users([1], next: "A"), "A": users([2], next: "A")])
        let model = PagedListViewModel<User>(
            limit: .all, load: { cursor throws(DomainError) in try await server.load(cursor) })
        let (written, failure) = await drain(model)
        #expect(written.map(\.id) == [1, 2])
        #expect(
            failure
                == .malformedResponse(
                    endpoint: "POST /graphql after the cursor 'A'",
                    detail: "the next page's link or cursor leads back to a page already read, so paging stopped"
                ))
        #expect(server.requests == 2)
    }

    /// The URLs followed are kept by digest, 32 bytes each: 40 pages of 64 KB next links keep 1.3 KB, not 2.6 MB
    /// (issue 38: an endless list of them grew 7 MB a second), and a link back to the first of them is still
    /// caught. (Each link of 64 KB is hashed: 40 pages, not 200, keep that work to a fifth.)
    @Test func longNextLinksAreKeptByDigestAndACycleIsStillCaught() async {
        let pad = String(repeating: "x", count: 64 * 1024)
        let count = 40
        var pages: [String: Page<User>] = ["": users([0], next: "1" + pad)]
        for index in 1...count {
            pages["\(index)" + pad] = users([Int64(index)], next: index == count ? "1" + pad : "\(index + 1)" + pad)
        }
        let server = ScriptedPages(pages)
        let model = PagedListViewModel<User>(
            limit: .all, load: { cursor throws(DomainError) in try await server.load(cursor) })
        let (written, failure) = await drain(model)
        #expect(written.count == count + 1)
        guard case .malformedResponse(_, let detail, _) = failure else {
            Issue.record("paging did not stop: \(String(describing: failure))")
            return
        }
        #expect(detail.hasPrefix("the next page's link or cursor leads back to a page already read"))
        #expect(model.rememberedURLBytes <= (count + 1) * 32, "\(model.rememberedURLBytes) bytes kept")
    }

    @Test func pagesOfIdsAlreadyWrittenUnderNewURLsStopAtOnce() async {
        // The `/users` rule: anything at or below the last id was written already.
        var floor: Int64 = 0
        let server = ScriptedPages([
            "": users([1, 2], next: "p2"), "p2": users([1, 2], next: "p3"), "p3": users([1, 2], next: "p4"),
        ])
        let model = PagedListViewModel<User>(
            limit: .all, load: { cursor throws(DomainError) in try await server.load(cursor) },
            admit: { user in
                guard user.id > floor else { return false }
                floor = user.id
                return true
            })
        let (written, failure) = await drain(model)
        #expect(written.map(\.id) == [1, 2])
        guard case .malformedResponse(let endpoint, let detail, _) = failure else {
            Issue.record("paging did not stop: \(String(describing: failure))")
            return
        }
        #expect(endpoint == "POST /graphql after the cursor 'p2'")
        #expect(detail.hasPrefix("the page brought nothing new"))
        #expect(server.requests == 2)
    }

    /// A run's first page that brings nothing new (a resumed crawl whose server repeats what was written) names
    /// that page in words: the message read "GET the first page", a URL where there was none.
    /// A page that names no next page is not said to name one (a tester's find: `[{"id":-3}]` and no `Link`).
    @Test(arguments: [
        ("p2", "the page brought nothing past where this run starts, yet names a next page, so paging stopped"),
        (nil, "the page brought nothing past where this run starts, and names no next page"),
    ])
    func aFirstPageOfNothingNewIsNamedInWords(next: String?, says: String) async {
        let server = ScriptedPages(["": users([1, 2], next: next)])
        let model = PagedListViewModel<User>(
            limit: .all, load: { cursor throws(DomainError) in try await server.load(cursor) }, admit: { _ in false })
        let (_, failure) = await drain(model)
        guard case .malformedResponse(let endpoint, let detail, _) = failure else {
            Issue.record("paging did not stop: \(String(describing: failure))")
            return
        }
        #expect(endpoint == "the first page of this run")
        // Nothing was written before it: what it holds is before where the run starts, not "already written".
        #expect(detail == says, "\(detail)")
    }

    @Test func aPageBasedListOfRepeatsStops() async {
        let server = ScriptedPages(["": users([1, 2], next: "p2"), "p2": users([2, 1], next: "p3")])
        let model = PagedListViewModel<User>(
            limit: .all, first: { () throws(DomainError) in try await server.load(nil) },
            next: { cursor throws(DomainError) in try await server.load(cursor) })
        let (written, failure) = await drain(model)
        #expect(written.map(\.id) == [1, 2])
        #expect(failure != nil)
        #expect(server.requests == 2)
    }

    /// A list of new accounts that never ends keeps their ids, to write none twice: it is stopped once it holds
    /// the most one list may (helper-320: 36 million, 688 MB), after the page that reached it is written.
    @Test func aListPastTheMostIdsOneListKeepsStops() async {
        let server = ScriptedPages([
            "": users([1, 2], next: "p2"), "p2": users([3, 4], next: "p3"), "p3": users([5, 6], next: "p4"),
        ])
        let model = PagedListViewModel<User>(
            limit: .all, noting: { cursor throws(DomainError) in try await server.load(cursor) },
            admitting: .shifting(SeenIDs(most: 4), keeping: nil))
        let (written, failure) = await drain(model)
        #expect(written.map(\.id) == [1, 2, 3, 4])
        #expect(server.requests == 2)
        guard case .boundReached(let detail)? = failure else {
            Issue.record("\(String(describing: failure))")
            return
        }
        #expect(detail.hasPrefix("the list reached 4 items, more than any list on GitHub holds"), "\(detail)")
    }

    @Test func aPageOfOnlyFilteredItemsIsProgressButItsRepeatIsNot() async {
        let pages: [String: Page<Repo>] = [
            "": Page(items: [makeRepo(1, "a", fork: true)], next: PageCursor(url: "p2")),
            "p2": Page(items: [makeRepo(2, "b", fork: true)], next: PageCursor(url: "p3")),
            "p3": Page(items: [makeRepo(3, "c")], next: PageCursor(url: "p4")),
            "p4": Page(items: [makeRepo(2, "b", fork: true)], next: PageCursor(url: "p5")),
        ]
        let server = ScriptedPages(pages)
        let model = PagedListViewModel<Repo>(
            limit: .all, first: { () throws(DomainError) in try await server.load(nil) },
            next: { cursor throws(DomainError) in try await server.load(cursor) },
            keep: { $0.fork == false })
        let (written, failure) = await drain(model)
        // Two pages of forks in a row are new items, just not wanted: paging goes on to the source.
        #expect(written.map(\.id) == [3])
        // A fork seen before is a repeat even though it was never written.
        #expect(failure != nil)
        #expect(server.requests == 4)
    }

    @Test func anEmptyPageWithANextLinkIsFollowed() async {
        let server = ScriptedPages([
            "": users([1, 2], next: "p2"), "p2": users([], next: "p3"), "p3": users([4, 5], next: nil),
        ])
        let model = PagedListViewModel<User>(
            limit: .all, first: { () throws(DomainError) in try await server.load(nil) },
            next: { cursor throws(DomainError) in try await server.load(cursor) })
        let (written, failure) = await drain(model)
        // Before: the empty page ended the list, 4 and 5 were never asked for, and nothing was said.
        #expect(written.map(\.id) == [1, 2, 4, 5])
        #expect(failure == nil)
        #expect(server.requests == 3)
    }

    @Test func anEmptyPageWithoutANextLinkEndsTheListQuietly() async {
        let server = ScriptedPages(["": users([1, 2], next: "p2"), "p2": users([], next: nil)])
        let model = PagedListViewModel<User>(
            limit: .all, load: { cursor throws(DomainError) in try await server.load(cursor) })
        let (written, failure) = await drain(model)
        #expect(written.map(\.id) == [1, 2])
        #expect(failure == nil)
    }

    @Test func anEndlessChainOfEmptyPagesStopsWithAFailure() async {
        let limit = PagedListViewModel<User>.maximumEmptyPagesInARow
        var pages = ["": users([1, 2], next: "e1")]
        for index in 1...(limit + 5) { pages["e\(index)"] = users([], next: "e\(index + 1)") }
        let server = ScriptedPages(pages)
        let model = PagedListViewModel<User>(
            limit: .all, load: { cursor throws(DomainError) in try await server.load(cursor) })
        let (written, failure) = await drain(model)
        #expect(written.map(\.id) == [1, 2])
        #expect(
            failure
                == .malformedResponse(
                    endpoint: "POST /graphql after the cursor 'e\(limit + 1)'",
                    detail: "\(limit) pages in a row were empty yet linked to a next one, so paging stopped"))
        #expect(server.requests == limit + 1)
    }

    @Test func emptyPagesBetweenFullOnesDoNotAddUp() async {
        let limit = PagedListViewModel<User>.maximumEmptyPagesInARow
        var pages: [String: Page<User>] = [:]
        var next = 0
        // Runs of empties one short of the bound, each ended by a page of one new id.
        for round in 0..<3 {
            pages[next == 0 ? "" : "p\(next)"] = users([Int64(round + 1)], next: "p\(next + 1)")
            next += 1
            for _ in 0..<(limit - 1) {
                pages["p\(next)"] = users([], next: "p\(next + 1)")
                next += 1
            }
        }
        pages["p\(next)"] = users([99], next: nil)
        let server = ScriptedPages(pages)
        let model = PagedListViewModel<User>(
            limit: .all, load: { cursor throws(DomainError) in try await server.load(cursor) })
        let (written, failure) = await drain(model)
        #expect(written.map(\.id) == [1, 2, 3, 99])
        #expect(failure == nil)
    }

    @Test func emptyPagesUnderPrefetchGiveTheSameListEveryTime() async {
        // Each page is prefetched while the last is handled; slow and empty pages must not change what is read.
        let pages: [String: Page<User>] = [
            "": users([1, 2], next: "p2"), "p2": users([], next: "p3"), "p3": users([3], next: "p4"),
            "p4": users([], next: "p5"), "p5": users([], next: "p6"), "p6": users([4, 5], next: nil),
        ]
        for round in 0..<Stress.rounds(60) {
            let server = ScriptedPages(pages)
            let model = PagedListViewModel<User>(
                limit: .all,
                first: { () throws(DomainError) in try await server.load(nil) },
                next: { cursor throws(DomainError) in
                    if round % 3 == 0 { await Task.yield() }
                    return try await server.load(cursor)
                })
            let (written, failure) = await drain(model)
            #expect(written.map(\.id) == [1, 2, 3, 4, 5], "round \(round)")
            #expect(failure == nil)
            #expect(server.requests == 6)
        }
    }
}
