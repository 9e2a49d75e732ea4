import AtomicCore
import Data
import Domain
import Foundation
import Networking

/// Pages through any GitHub list up to a limit. It never prints: a coordinator asks for the next page and
/// writes it. `Admitting` decides per item whether it belongs in the output (dropping an item a shifting
/// page-based list shows twice, the `/users` id floor, a fork filter), and the limit counts admitted items.
///
/// Paging stays serial, as GitHub asks, but the next page is requested as soon as the current one arrives,
/// so its round trip overlaps the decoding and writing of this one. A page is never requested past the
/// limit, and a prefetch nobody will read is cancelled. Each page held costs memory in proportion to its body
/// (the body, its decoding and the records: about 4.6 times it), and the body cap is per page, so pages are
/// asked ahead of the reader only while the largest seen so far fit `aheadBudget` (`pagesAhead`): two ahead
/// for GitHub's pages (a page of 100 accounts is about 130 KB), one for pages over 16 MiB, none over 32 MiB,
/// where one 62 MB page at a time peaks near 300 MB rather than 900 (issue 38).
final class PagedListViewModel<Item: ListedItem> {
    /// Where the pages come from: Data's `ListedPages` for a list as GitHub serves it, or another `PageSource`
    /// (Data's stargazers or a team's own members; a split search's pieces). A page may carry lines to say once
    /// the list ends (`Page.closingNotes`: a split search's query count), as they stand after it.
    private let pages: any PageSource<Item>
    private let limit: ItemLimit
    /// Which items are written, what is new, and where the list ends.
    private var admitting: Admitting<Item>

    /// No more pages will be loaded: the limit is reached or GitHub has nothing after the last page.
    private(set) var isExhausted = false
    /// GitHub has items beyond what the limit let through.
    private(set) var hasMore = false
    private(set) var taken = 0
    private(set) var requests = 0
    /// The next-page URLs followed so far, by digest: a link back to one of them, or to the page it is on, is a
    /// cycle, which would page forever.
    private var followed = URLDigests()
    /// A cycle found on the last page, reported on the next call, so that page's items are written first.
    private var pendingFailure: DomainError?
    /// Empty pages in a row that still linked to a next one: followed, up to `maximumEmptyPagesInARow`.
    private var emptyPagesInARow = 0
    /// The closing lines of the latest page (`Page.closingNotes`).
    private(set) var closingNotes: [String] = []
    /// The list that answered a page in place of the one asked for (GitHub's redirect, `Page.answeredPath`), once
    /// one did: `members` says it listed the public members.
    private(set) var answeredPath: String?
    /// The ages of the pages read (`Page.cachedCopy`).
    private var ages = AnswerAges()
    /// The first page the cache answered, in a list of which GitHub gave other pages now: the two ages may not
    /// meet, and people who came or went in between may be missing.
    var pageOfAnotherAge: UnconfirmedCopy? { ages.twoAges }
    /// The latest page's `total_count`, for searches.
    private(set) var totalCount: Int?
    private(set) var incompleteResults = false
    private var cursor: PageCursor?
    private var prefetch: Task<Page<Item>, any Error>?
    /// The largest body a page has come from so far (`Page.bodyBytes`).
    private var largestPageBytes = 0
    /// The bytes of pages that may be held ahead of the reader (`pagesAhead`).
    private let aheadBudget: Int
    /// Pages asked for as soon as the page before names them in its head; nil where that is not safe.
    private var early: EarlyPages?

    deinit {
        prefetch?.cancel()
        early?.cancelAll()
    }

    /// The bytes the model keeps of the URLs it has followed or asked early: bounded by their number, not their
    /// length, however long a server makes them.
    var rememberedURLBytes: Int {
        followed.keptBytes + (early?.rememberedURLBytes ?? 0)
    }

    /// A list from any `PageSource` (Data's stargazers, REST or GraphQL, or a team's own members; a split
    /// search), page by page. No page is asked for early.
    init(
        limit: ItemLimit, pages: any PageSource<Item>, admitting: Admitting<Item> = .unseenIDs,
        aheadBudget: Int = defaultAheadBudget
    ) {
        self.limit = limit
        self.aheadBudget = aheadBudget
        self.pages = pages
        self.admitting = admitting
    }

    /// A list as GitHub serves it: the first page with `perPage` items, then each `Link` followed.
    init(
        limit: ItemLimit, list: ListResource<Item>, perPage: Int, github: any ResourceRepository,
        admitting: Admitting<Item> = .unseenIDs, aheadBudget: Int = defaultAheadBudget
    ) {
        self.limit = limit
        self.aheadBudget = aheadBudget
        pages = github.pages(of: list, perPage: perPage)
        self.admitting = admitting
        // A list that ends at an item (`list --until`) may not want the page its last page names.
        if !admitting.endsAtAnItem {
            early = EarlyPages(limit: limit, perPage: perPage, pages: pages, aheadBudget: aheadBudget)
        }
    }

    /// A list as GitHub serves it, paged as `plan` says (`--limit`, `--all`, `--per-page`).
    convenience init(
        _ list: ListResource<Item>, plan: PagingPlan, github: any ResourceRepository,
        admitting: Admitting<Item> = .unseenIDs
    ) {
        self.init(limit: plan.limit, list: list, perPage: plan.perPage, github: github, admitting: admitting)
    }

    /// A page whose body was over this size gives its memory back to the system once it is let go
    /// (`FreedMemory`). GitHub's pages (about 130 KB) never do.
    static var givesBackAfterBytes: Int { 4 << 20 }

    /// The bytes of pages held ahead of the reader: 32 MiB.
    static var defaultAheadBudget: Int { 32 << 20 }

    /// How many pages may be asked ahead of the one the reader has (two at most), when the largest page so far
    /// came from `largestPageBytes` of body (0: none known yet) and `budget` bytes may be held ahead.
    static func pagesAhead(largestPageBytes: Int, budget: Int) -> Int {
        guard largestPageBytes > 0 else { return 2 }
        return min(2, budget / largestPageBytes)
    }

    /// Empty pages that link on are followed; this many in a row are taken for a server that will never send
    /// anything more, and paging stops with an error.
    static var maximumEmptyPagesInARow: Int { 10 }

    /// Why paging stopped after `count` empty pages in a row, the last linking to `next`.
    /// A `next` link back to a page already read: followed, it would page forever; ignored, the list is cut.
    static func linkCycle(next: PageCursor) -> DomainError {
        .malformedResponse(
            endpoint: next.request,
            detail: "the next page's link or cursor leads back to a page already read, so paging stopped")
    }

    static func emptyPages(_ count: Int, next: PageCursor) -> DomainError {
        .malformedResponse(
            endpoint: next.request,
            detail: "\(count) pages in a row were empty yet linked to a next one, so paging stopped")
    }

    /// Loads the next page and returns its admitted items within the limit. A page that fails stops the pages
    /// asked for early: paging ends there.
    func loadNextPage() async throws(DomainError) -> [Item] {
        precondition(!isExhausted, "loadNextPage called after the last page")
        // A page that fails stops the pages asked for early.
        do throws(DomainError) {
            if let pendingFailure { throw pendingFailure }
            // An interrupt stops paging here: a prefetch that has come gives its page without a wait, where
            // cancellation would be seen, so a writer slower than GitHub read on past a Ctrl-C (exit 0).
            if Task.isCancelled { throw DomainError.cancelled }
            // The page before was written and let go: when pages are big, what it took goes back to the system
            // before the next is made, or the allocator's arenas keep a page's worth each (issue 38).
            if largestPageBytes > Self.givesBackAfterBytes { FreedMemory.giveBack() }
            // The prefetched page if there is one, else a fresh request. An interrupt cancels the prefetch too,
            // since an unstructured task does not inherit cancellation.
            var page: Page<Item>
            if let pending = prefetch {
                prefetch = nil
                do {
                    page = try await withTaskCancellationHandler {
                        try await pending.value
                    } onCancel: {
                        pending.cancel()
                    }
                } catch let error as DomainError {
                    throw error
                } catch {
                    throw DomainError.cancelled
                }
            } else {
                page = try await pages.page(
                    at: requests == 0 ? nil : cursor, nextPage: early?.listener(forPage: requests + 1))
            }
            // The items are taken out of the page and filtered where they are: a page's items are the largest thing
            // paging holds (a 64 MiB page of short accounts is nearly a million), and a filtered copy beside them
            // held both at once (issue 38).
            var fresh = page.items
            page.items = []
            let pageIsEmpty = fresh.isEmpty
            closingNotes = page.closingNotes
            requests += 1
            // An empty page GitHub gave now says where the list ends now (helper-317: ignored, it hid the copies
            // before it); one a source makes itself carries the mark of the page before it.
            ages.note(page.cachedCopy)
            largestPageBytes = max(largestPageBytes, page.bodyBytes)
            totalCount = page.totalCount ?? totalCount
            answeredPath = page.answeredPath ?? answeredPath
            incompleteResults = incompleteResults || page.incompleteResults
            // Whether the page brings an item not seen before, asked before the items are let through (which
            // records them); nil for a rule that keeps no ids, where an item let through is the sign of progress.
            // And where the list ends, when it ends at an item.
            var bringsNew: Bool?
            var end: Int?
            switch admitting {
            case .shifting(let seen, let filter):
                if !fresh.isEmpty { bringsNew = fresh.contains { $0.listedID.map { !seen.contains($0) } ?? true } }
                Self.keep(&fresh) { item in
                    guard let id = item.listedID else { return filter?.keeps(item) ?? true }
                    return seen.admit(id) && filter?.keeps(item) ?? true
                }
            case .idOrder(var floor, let until):
                end = until.flatMap { until in fresh.firstIndex { ($0.listedID ?? .min) >= until } }
                if let end { fresh.removeSubrange((end + 1)...) }
                // An id at or below one this page already gave, yet not written before, is out of GitHub's order:
                // dropped, it would be lost without a word (3, 1, 2 wrote 3 alone), so the page is refused.
                let written = floor
                var outOfOrder: (id: Int64, after: Int64)?
                Self.keep(&fresh) { item in
                    guard let id = item.listedID, id <= until ?? .max else { return false }
                    // GitHub's ids are positive: one that is not was dropped as written before, without a word.
                    guard id > 0 || outOfOrder != nil else {
                        outOfOrder = (id, floor)
                        return false
                    }
                    guard id > floor else {
                        if id > written, outOfOrder == nil { outOfOrder = (id, floor) }
                        return false
                    }
                    floor = id
                    return true
                }
                if let outOfOrder {
                    throw DomainError.malformedResponse(
                        endpoint: cursor?.request ?? "the first page of this run",
                        detail: "the page lists id \(outOfOrder.id) after \(outOfOrder.after), out of GitHub's id "
                            + "order, so accounts would be missed")
                }
                // GitHub's next link goes on after the page's last id (`since=`): one past it would skip the
                // accounts between without a word (a server's link 50 ids ahead lost 50 accounts).
                if end == nil, let next = page.next?.url, let since = Self.since(in: next), since > floor {
                    throw DomainError.malformedResponse(
                        endpoint: cursor?.request ?? "the first page of this run",
                        detail: "the next page's link starts after id \(since), past \(floor), the last id written, "
                            + "so the accounts between would be missed")
                }
                admitting = .idOrder(after: floor, through: until)
            case .rule(let admission):
                let keepsIDs = fresh.first.map { admission.isNew($0) != nil } ?? false
                bringsNew = keepsIDs ? fresh.contains { admission.isNew($0) == true } : nil
                Self.keep(&fresh, where: admission.admit)
            }
            // A page of items all written before means the server is going round in circles under new URLs; a
            // page that ends the list needs no more paging, whatever it holds.
            if !pageIsEmpty, end == nil, !(bringsNew ?? !fresh.isEmpty) {
                // A run's first page has nothing written before it: what it holds is before where the run starts.
                // Whether it names a next page is said as it is (a page with neither was said to name one).
                let failure = DomainError.malformedResponse(
                    endpoint: cursor?.request ?? "the first page of this run",
                    detail: cursor == nil
                        ? "the page brought nothing past where this run starts, "
                            + (page.next == nil ? "and names no next page" : "yet names a next page, so paging stopped")
                        : "the page brought nothing new (all of it was already written), so paging stopped"
                )
                throw failure
            }
            if case .count(let limit) = limit, taken + fresh.count >= limit {
                let room = limit - taken
                hasMore = fresh.count > room || (page.next != nil && end == nil)
                fresh.removeSubrange(room...)
                isExhausted = true
            }
            // No next link ends the list. A page whose items were all filtered out does not, nor does an empty page
            // with a next link: the next page may still hold items, and stopping there would end a cut listing as if
            // it were whole. A run of empty pages is bounded. A next link to this very page (a `Link` to itself, a
            // GraphQL `endCursor` equal to the one sent) is a cycle like a link to any page read before: the list
            // is not known to end there.
            if end != nil || page.next == nil {
                isExhausted = true
            }
            emptyPagesInARow = pageIsEmpty ? emptyPagesInARow + 1 : 0
            if !isExhausted, let next = page.next, emptyPagesInARow >= Self.maximumEmptyPagesInARow {
                pendingFailure = Self.emptyPages(emptyPagesInARow, next: next)
            }
            if !isExhausted, pendingFailure == nil, let next = page.next, !followed.insert(next.url) {
                pendingFailure = Self.linkCycle(next: next)
            }
            if !isExhausted, pendingFailure == nil, case .shifting(let seen, _) = admitting, seen.isFull {
                pendingFailure = .boundReached(
                    "the list reached \(Counted.grouped(seen.count)) items, more than any list on GitHub "
                        + "holds, so paging stopped rather than read a list that does not end")
            }
            cursor = page.next
            taken += fresh.count
            early?.handedOut(requests, largestPageBytes: largestPageBytes)
            let ahead =
                early?.pagesAhead
                ?? Self.pagesAhead(largestPageBytes: largestPageBytes, budget: aheadBudget)
            if isExhausted || pendingFailure != nil {
                early?.cancelAll()
            } else if let cursor, let started = early?.take(cursor.url) {
                prefetch = started
            } else if ahead > 0 {
                let pages = self.pages
                let cursor = self.cursor
                let listener = early?.listener(forPage: requests + 1)
                prefetch = Task { () async throws -> Page<Item> in
                    try await pages.page(at: cursor, nextPage: listener)
                }
            }
            return fresh
        } catch {
            early?.cancelAll()
            throw error
        }
    }

    /// Keeps the items `admit` lets through, in order, in place: `admit` sees each once, first to last.
    /// The `since` a link's query names, if it names one as a whole number.
    static func since(in link: String) -> Int64? {
        URLComponents(string: link)?.queryItems?.first { $0.name == "since" }?.value.flatMap { Int64($0) }
    }

    static func keep(_ items: inout [Item], where admit: (Item) -> Bool) {
        var kept = 0
        for index in items.indices where admit(items[index]) {
            if kept != index { items.swapAt(kept, index) }
            kept += 1
        }
        items.removeSubrange(kept...)
    }
}

extension PageCursor {
    /// The request that asks the page, for a message: `GET URL` for a link; a GraphQL cursor (`Y3Vyc29yOjE=`,
    /// or `graphql:…` where REST handed over) is the next `POST /graphql`, and a split search's next piece is said
    /// as it is.
    var request: String {
        if url.hasPrefix("https://") || url.hasPrefix("http://") || url.hasPrefix("/") { return "GET " + url }
        if url.hasPrefix("(") { return url }
        let graphQL = StargazerReading.graphQLCursor
        return "POST /graphql after the cursor '"
            + (url.hasPrefix(graphQL) ? String(url.dropFirst(graphQL.count)) : url)
            + "'"
    }
}

/// Remembers ids already written, so a page-based list that shifts while it is read (a new follower pushes
/// everyone one place down) never prints anything twice.
final class SeenIDs {
    /// The most ids one list keeps, 19 bytes each: twenty times the longest lists on GitHub (half a million
    /// stars). Past it the list is stopped (helper-320: a server's endless followers held 36 million, 688 MB).
    static let maximum = 10_000_000
    private let most: Int
    private var ids = Set<Int64>()

    init(most: Int = SeenIDs.maximum) {
        self.most = most
    }

    var count: Int { ids.count }
    var isFull: Bool { ids.count >= most }

    func admit(_ id: Int64) -> Bool {
        ids.insert(id).inserted
    }

    func contains(_ id: Int64) -> Bool {
        ids.contains(id)
    }
}
