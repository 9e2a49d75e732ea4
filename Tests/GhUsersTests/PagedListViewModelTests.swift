import Domain
import Foundation
import TestSupport
import Testing

@testable import gh_users

/// Counts loads and lets each one wait for a signal, so a test can see a prefetch start before it is read.
private final class LoadRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var cursors: [String?] = []
    var loads: [String?] { lock.withLock { cursors } }
    func record(_ cursor: PageCursor?) { lock.withLock { cursors.append(cursor?.url) } }
}

private func page(_ ids: [Int64], next: String?) -> Page<User> {
    Page(items: ids.map { makeUser($0) }, next: next.map(PageCursor.init(url:)))
}

struct PagedListViewModelTests {
    private func viewModel(limit: ItemLimit, recorder: LoadRecorder, delay: Duration = .zero) -> PagedListViewModel<
        User
    > {
        let pages: [String?: Page<User>] = [
            nil: page([1, 2], next: "p2"), "p2": page([3, 4], next: "p3"), "p3": page([5], next: nil),
        ]
        return PagedListViewModel(
            limit: limit,
            load: { cursor throws(DomainError) in
                recorder.record(cursor)
                try? await Task.sleep(for: delay)
                guard let result = pages[cursor?.url] else { throw DomainError.server(status: 599, message: "no page") }
                return result
            }
        )
    }

    /// `list`'s pages, in id order, read under `Admitting.idOrder`.
    private func inIDOrder(
        _ pages: [String?: Page<User>], after since: Int64, through until: Int64?, recorder: LoadRecorder
    ) -> PagedListViewModel<User> {
        PagedListViewModel(
            limit: .all,
            noting: { cursor throws(DomainError) in
                recorder.record(cursor)
                guard let result = pages[cursor?.url] else { throw DomainError.server(status: 599, message: "no page") }
                return result
            },
            admitting: .idOrder(after: since, through: until))
    }

    /// `list`'s rule: an id at or below the last one written (`--since` at first) is dropped, nothing past
    /// `--until` is written, and the page holding it is the last one asked for. (An id below one the same page
    /// gave, never written, is out of order and refuses the page: `aPageOutOfIDOrderIsRefusedNotCut`.)
    @Test func inIDOrderWhatWasWrittenIsDroppedAndTheListEndsAtUntil() async throws {
        let recorder = LoadRecorder()
        let model = inIDOrder(
            [nil: page([2, 3, 4, 5], next: "p2"), "p2": page([5, 6, 8, 9], next: "p3"), "p3": page([10], next: nil)],
            after: 3, through: 8, recorder: recorder)
        #expect(try await model.loadNextPage().map(\.id) == [4, 5])
        #expect(try await model.loadNextPage().map(\.id) == [6, 8])
        #expect(model.isExhausted)
        await settle()
        #expect(recorder.loads == [nil, "p2"])
    }

    /// A page of ids all written before brings nothing new: paging stops rather than go round in circles.
    @Test func inIDOrderAPageOfOldIDsStopsPaging() async throws {
        let recorder = LoadRecorder()
        let model = inIDOrder(
            [nil: page([1, 2], next: "p2"), "p2": page([2, 1], next: "p3")], after: 0, through: nil,
            recorder: recorder)
        #expect(try await model.loadNextPage().map(\.id) == [1, 2])
        await #expect(throws: DomainError.self) { _ = try await model.loadNextPage() }
    }

    /// GitHub's next link goes on after the page's last id: one further on skipped the accounts between without
    /// a word (helper-228: a link 50 past the page's last id lost 50 accounts, exit 0; an empty page's link moved
    /// on 100). A link at the last id is followed.
    @Test func inIDOrderANextLinkPastTheLastIDWrittenOrAnIDBelowOneIsRefused() async throws {
        // One id ahead loses one account as surely as 50 (helper-331's mutation P2 went unseen).
        let ahead = ["/users?per_page=2&since=52", "/users?per_page=2&since=3"].map { page([1, 2], next: $0) }
        for first in ahead + [page([], next: "/users?since=100")] {
            let model = inIDOrder([nil: first], after: 0, through: nil, recorder: LoadRecorder())
            await #expect(throws: DomainError.self) { _ = try await model.loadNextPage() }
        }
        // GitHub's ids are positive: one that is not was dropped as written before (helper-228: exit 0, one lost).
        for ids: [Int64] in [[1, -5, 2], [0, 1]] {
            let model = inIDOrder([nil: page(ids, next: nil)], after: 0, through: nil, recorder: LoadRecorder())
            await #expect(throws: DomainError.self) { _ = try await model.loadNextPage() }
        }
        let next = "/users?per_page=2&since=2"
        let faithful = inIDOrder(
            [nil: page([1, 2], next: next), next: page([3], next: nil)], after: 0, through: nil,
            recorder: LoadRecorder())
        #expect(try await faithful.loadNextPage().map(\.id) == [1, 2])
        #expect(try await faithful.loadNextPage().map(\.id) == [3])
    }

    private func settle() async {
        for _ in 0..<50 { await Task.yield() }
        try? await Task.sleep(for: .milliseconds(20))
    }

    @Test func theNextPageIsRequestedAsSoonAsOneArrives() async throws {
        let recorder = LoadRecorder()
        let model = viewModel(limit: .all, recorder: recorder)
        #expect(try await model.loadNextPage().map(\.id) == [1, 2])
        await settle()
        #expect(recorder.loads == [nil, "p2"])
        #expect(try await model.loadNextPage().map(\.id) == [3, 4])
        #expect(try await model.loadNextPage().map(\.id) == [5])
        #expect(model.isExhausted)
        await settle()
        #expect(recorder.loads == [nil, "p2", "p3"])
    }

    /// A limit the list fills exactly, on its last page, leaves nothing more: a terminal is not told "Use --limit
    /// N or --all for more" (helper-324: `>=` for `>` went unseen); one page short of its end, it is.
    @Test func aLimitTheListFillsExactlyLeavesNothingMore() async throws {
        let exact = viewModel(limit: .count(5), recorder: LoadRecorder())
        var ids: [Int64] = []
        while !exact.isExhausted { ids += try await exact.loadNextPage().map(\.id) }
        #expect(ids == [1, 2, 3, 4, 5])
        #expect(!exact.hasMore)
        let short = viewModel(limit: .count(4), recorder: LoadRecorder())
        ids = []
        while !short.isExhausted { ids += try await short.loadNextPage().map(\.id) }
        #expect(ids == [1, 2, 3, 4])
        #expect(short.hasMore)
        await settle()
    }

    @Test func nothingIsRequestedPastTheLimit() async throws {
        let recorder = LoadRecorder()
        let model = viewModel(limit: .count(2), recorder: recorder)
        #expect(try await model.loadNextPage().count == 2)
        #expect(model.isExhausted)
        #expect(model.hasMore)
        await settle()
        #expect(recorder.loads == [nil])
    }

    @Test func cancellingTheWaitForAPrefetchCancelsItAndSaysInterrupted() async throws {
        let recorder = LoadRecorder()
        let model = PagedListViewModel<User>(
            limit: .all,
            load: { cursor throws(DomainError) in
                guard cursor != nil else { return page([1, 2], next: "p2") }
                // The prefetched page hangs until it is cancelled, and says it was.
                do {
                    try await Task.sleep(for: .seconds(600))
                } catch {
                    recorder.record(PageCursor(url: "p2 cancelled"))
                    throw .cancelled
                }
                return page([3], next: nil)
            }
        )
        #expect(try await model.loadNextPage().map(\.id) == [1, 2])
        let (calling, signal) = AsyncStream<Void>.makeStream()
        let waiting = Task { () async -> DomainError? in
            signal.yield()
            do throws(DomainError) {
                _ = try await model.loadNextPage()
                return nil
            } catch {
                return error
            }
        }
        for await _ in calling { break }
        // The call runs on, with no suspension before it, to its wait for the prefetch.
        await settle()
        waiting.cancel()
        let outcome = await waiting.value
        // Without the cancellation handler the wait outlasts the prefetch's 600 s and ends with page 3, not this.
        #expect(outcome == .cancelled)
        // Only the wait's handler cancels the prefetch: an interrupt seen before the wait (the check on entry)
        // leaves it running. So this tells that the wait was cancelled, not a call that never began to wait
        // (helper-293: a cancel landing before the call, on a busy machine, passed without testing the wait).
        #expect(recorder.loads == ["p2 cancelled"])
    }
}

/// An interrupt stops paging at the next page even when that page's prefetch has come: its value is given
/// without a wait, where cancellation is seen, so a run writing slower than GitHub answered read on past a
/// Ctrl-C and exited 0 (helper-228).
struct PagedListInterruptTests {
    @Test func aCancelledRunTakesNoPageThatHasAlreadyCome() async throws {
        let recorder = LoadRecorder()
        let model = PagedListViewModel<User>(
            limit: .all,
            load: { cursor throws(DomainError) in
                recorder.record(cursor)
                return cursor == nil ? page([1, 2], next: "p2") : page([3], next: nil)
            })
        #expect(try await model.loadNextPage().map(\.id) == [1, 2])
        for _ in 0..<50 where recorder.loads.count < 2 { try await Task.sleep(for: .milliseconds(10)) }
        #expect(recorder.loads == [nil, "p2"])
        let outcome = await Task { () async -> DomainError? in
            withUnsafeCurrentTask { $0?.cancel() }
            do throws(DomainError) {
                _ = try await model.loadNextPage()
                return nil
            } catch {
                return error
            }
        }.value
        #expect(outcome == .cancelled)
    }

    /// The same, 400 times at once, each interrupt landing wherever its prefetch is (come, under way, not yet
    /// started): every run stops with `.cancelled`, none takes page 2, none hangs or crashes.
    @Test func manyInterruptsAtOnceEachStopAtTheNextPage() async {
        let outcomes = await withTaskGroup(of: [Int64]?.self) { group in
            for _ in 0..<400 {
                group.addTask {
                    let model = PagedListViewModel<User>(
                        limit: .all,
                        load: { cursor throws(DomainError) in
                            await Task.yield()
                            return cursor == nil ? page([1, 2], next: "p2") : page([3], next: nil)
                        })
                    guard (try? await model.loadNextPage()) != nil else { return [-1] }
                    for _ in 0..<Int.random(in: 0..<4) { await Task.yield() }
                    withUnsafeCurrentTask { $0?.cancel() }
                    do throws(DomainError) {
                        return try await model.loadNextPage().map(\.id)
                    } catch {
                        return error == .cancelled ? nil : [-2]
                    }
                }
            }
            var all: [[Int64]?] = []
            for await outcome in group { all.append(outcome) }
            return all
        }
        #expect(outcomes.count == 400)
        #expect(outcomes.allSatisfy { $0 == nil }, "\(outcomes.compactMap { $0 }.prefix(5))")
    }
}

/// `list --until`: the page holding the last wanted item is the last requested, and nothing after it is kept.
struct PagedListUntilTests {
    private func model(until: Int64, recorder: LoadRecorder) -> PagedListViewModel<User> {
        let pages: [String?: Page<User>] = [
            nil: page([1, 2, 3], next: "p2"), "p2": page([4, 6, 7], next: "p3"), "p3": page([8], next: nil),
        ]
        return PagedListViewModel(
            limit: .all,
            noting: { cursor throws(DomainError) in
                recorder.record(cursor)
                guard let result = pages[cursor?.url] else { throw DomainError.server(status: 599, message: "no page") }
                return result
            },
            admitting: .idOrder(after: 0, through: until)
        )
    }

    @Test(arguments: [(Int64(5), [Int64(1), 2, 3, 4]), (Int64(6), [Int64(1), 2, 3, 4, 6])] as [(Int64, [Int64])])
    func pagingEndsAtThePageThatPassesTheEnd(until: Int64, expected: [Int64]) async throws {
        let recorder = LoadRecorder()
        let model = model(until: until, recorder: recorder)
        var ids: [Int64] = []
        while !model.isExhausted { ids += try await model.loadNextPage().map(\.id) }
        #expect(ids == expected)
        #expect(!model.hasMore)
        for _ in 0..<50 { await Task.yield() }
        try await Task.sleep(for: .milliseconds(20))
        #expect(recorder.loads == [nil, "p2"])
    }

    @Test func anEndOnTheFirstPageRequestsNothingMore() async throws {
        let recorder = LoadRecorder()
        let model = model(until: 2, recorder: recorder)
        #expect(try await model.loadNextPage().map(\.id) == [1, 2])
        #expect(model.isExhausted)
        try await Task.sleep(for: .milliseconds(20))
        #expect(recorder.loads == [nil])
    }
}

/// A loader's closing notes (a split search's query count) come with its pages: the view model keeps those of
/// the last page read, never a prefetched page's nobody read.
struct PagedListClosingNotesTests {
    private func model(limit: ItemLimit) -> PagedListViewModel<User> {
        let pages: [String?: Page<User>] = [
            nil: page([1, 2], next: "p2"), "p2": page([3, 4], next: "p3"), "p3": page([5], next: nil),
        ]
        return PagedListViewModel(
            limit: limit,
            noting: { cursor throws(DomainError) in
                guard let result = pages[cursor?.url] else { throw DomainError.server(status: 599, message: "no page") }
                return result.noting(["after \(cursor?.url ?? "p1")"])
            }
        )
    }

    @Test func theNotesAreTheLastPagesAtTheEnd() async throws {
        let model = model(limit: .all)
        while !model.isExhausted { _ = try await model.loadNextPage() }
        #expect(model.closingNotes == ["after p3"])
    }

    @Test func aRunStoppedAtTheLimitHasTheNotesOfThePageItStoppedOn() async throws {
        let model = model(limit: .count(3))
        #expect(model.closingNotes.isEmpty)
        while !model.isExhausted { _ = try await model.loadNextPage() }
        #expect(model.closingNotes == ["after p2"])
    }

    @Test func aLoaderWithNothingToSaySaysNothing() async throws {
        let model = PagedListViewModel<User>(
            limit: .all, load: { _ throws(DomainError) in page([1], next: nil) })
        _ = try await model.loadNextPage()
        #expect(model.closingNotes.isEmpty)
    }
}

/// A list from a `PageSource` other than Data's `ListedPages` (the stargazers, a team's own members, a split
/// search), held in memory: the view model reads it page by page to its end or its limit, in order, and tells it
/// of no page early, since such a source has no head to tell of the next page.
struct PageSourceViewModelTests {
    private final class InMemoryPages: PageSource, @unchecked Sendable {
        private let lock = NSLock()
        private let pages: [String?: Page<User>]
        private var asked: [(url: String?, listened: Bool)] = []
        var requests: [(url: String?, listened: Bool)] { lock.withLock { asked } }

        init(_ pages: [String?: Page<User>]) {
            self.pages = pages
        }

        func page(at cursor: PageCursor?, nextPage: NextPageListener?) async throws(DomainError) -> Page<User> {
            lock.withLock { asked.append((cursor?.url, nextPage != nil)) }
            guard let page = pages[cursor?.url] else { throw .server(status: 599, message: "no page") }
            return page
        }
    }

    private let threePages: [String?: Page<User>] = [
        nil: page([1, 2], next: "p2"), "p2": page([3, 4], next: "p3"), "p3": page([5], next: nil),
    ]

    @Test func everyPageIsReadInOrderAndNoneIsAskedEarly() async throws {
        let source = InMemoryPages(threePages)
        let model = PagedListViewModel(limit: .all, pages: source)
        var ids: [Int64] = []
        while !model.isExhausted { ids += try await model.loadNextPage().map(\.id) }
        #expect(ids == [1, 2, 3, 4, 5])
        #expect(source.requests.map(\.url) == [nil, "p2", "p3"])
        #expect(source.requests.allSatisfy { !$0.listened })
    }

    /// A page the cache answered beside one GitHub gave now is a list of two ages, an empty one too: it says
    /// where the list ends now (helper-317: taken for neither age, it hid the copies before it). An empty page a
    /// source makes itself carries the mark of the page before it (Data's stargazers at REST's reach), and so
    /// is no live page (helper-314's false alarm).
    @Test func aCopiedPageBesideALiveOneIsSaidAnEmptyOneToo() async throws {
        var copied = page([1, 2], next: "p2")
        let copy = UnconfirmedCopy(endpoint: "GET /p1", confirmedAt: Date(timeIntervalSince1970: 0), offline: false)
        copied.cachedCopy = copy
        var made = page([], next: nil)
        made.cachedCopy = copy
        for (second, twoAges) in [(page([3], next: nil), true), (page([], next: nil), true), (made, false)] {
            let model = PagedListViewModel(limit: .all, pages: InMemoryPages([nil: copied, "p2": second]))
            while !model.isExhausted { _ = try await model.loadNextPage() }
            #expect(model.pageOfAnotherAge == (twoAges ? copy : nil))
        }
    }

    @Test func theLimitStopsAtItsItemAndSaysThereIsMore() async throws {
        let source = InMemoryPages(threePages)
        let model = PagedListViewModel(limit: .count(3), pages: source)
        var ids: [Int64] = []
        while !model.isExhausted { ids += try await model.loadNextPage().map(\.id) }
        #expect(ids == [1, 2, 3])
        #expect(model.hasMore)
        // A page asked after the limit, early or not, would be in flight by now.
        for _ in 0..<50 { await Task.yield() }
        try await Task.sleep(for: .milliseconds(20))
        #expect(source.requests.map(\.url) == [nil, "p2"])
    }

    @Test func aSourcesFailureIsThePagersAfterThePagesBeforeIt() async throws {
        let model = PagedListViewModel(limit: .all, pages: InMemoryPages([nil: page([1], next: "gone")]))
        #expect(try await model.loadNextPage().map(\.id) == [1])
        await #expect(throws: DomainError.server(status: 599, message: "no page")) {
            try await model.loadNextPage()
        }
    }
}
