import Data
import Domain
import Foundation

extension PagedListViewModel {
    /// Pages asked for as soon as the page before names them in its answer's head (`NextPageNotice`), before its
    /// body has arrived and been decoded (issue 29: each chained page waited for the whole of the one before).
    /// Only pages the limit certainly needs (the pages before one cannot fill it), and at most two beyond the last
    /// page handed out (`pagesAhead`: fewer when pages are big), so a slow reader is not run ahead of. A page whose
    /// early answer is not the one paging asks for (the list shifted) is cancelled when the model goes.
    final class EarlyPages: @unchecked Sendable {
        private let limit: ItemLimit
        private let perPage: Int
        private let pages: any PageSource<Item>
        private let lock = NSLock()
        /// The pages started early and not yet taken, by URL, with their place in the list.
        private var started: [String: (page: Int, task: Task<Page<Item>, any Error>)] = [:]
        /// Every URL started early, by digest: a link back to one of them (a cycle, which paging reports) is not
        /// asked again.
        private var asked = URLDigests()
        /// A page named too far ahead of the reader: started once the reader has caught up.
        private var deferred: (url: String, page: Int)?
        private var handed = 0
        private var stopped = false
        /// The largest body known so far: a page's, or one a head announced before its body came.
        private var largest = 0
        private let aheadBudget: Int

        init(limit: ItemLimit, perPage: Int, pages: any PageSource<Item>, aheadBudget: Int) {
            self.limit = limit
            self.perPage = max(1, perPage)
            self.pages = pages
            self.aheadBudget = aheadBudget
        }

        /// How many pages may be asked ahead of the last one handed out, as the largest body known says.
        var pagesAhead: Int {
            lock.withLock { PagedListViewModel.pagesAhead(largestPageBytes: largest, budget: aheadBudget) }
        }

        /// What the load of page `index` (the first is 1) tells when its head names the next page.
        func listener(forPage index: Int) -> NextPageListener {
            { [weak self] next in self?.start(next.url, page: index + 1, after: next.bodyBytes) }
        }

        /// Page `page` at `url`, started now if the limit needs it and the reader is near enough, else once it is.
        /// `bytes` is what the head that named it announced for its own page's body, if it did, or what has
        /// arrived of a body whose head announced none. A body found bigger than any before stops the pages
        /// started early that the reader is no longer near enough for: a chunked body is known to be big only
        /// as it arrives, and before, the two pages started after its head were each decoded beside it (four
        /// chunked 64 MiB pages of short accounts peaked at 547 MiB, one at a time at 364; issue 38). Paging
        /// asks for them again when it gets there.
        private func start(_ url: String, page: Int, after bytes: Int?) {
            let outrun = lock.withLock { () -> [Task<Page<Item>, any Error>] in
                guard let bytes, bytes > largest else { return [] }
                largest = bytes
                let ahead = PagedListViewModel.pagesAhead(largestPageBytes: largest, budget: aheadBudget)
                let outrun = started.filter { $0.value.page > handed + ahead }
                for url in outrun.keys { started[url] = nil }
                return outrun.values.map(\.task)
            }
            for task in outrun { task.cancel() }
            if case .count(let count) = limit, (page - 1) * perPage >= count { return }
            lock.withLock {
                guard !stopped, !asked.contains(url) else { return }
                let ahead = PagedListViewModel.pagesAhead(largestPageBytes: largest, budget: aheadBudget)
                guard page <= handed + ahead else {
                    deferred = (url, page)
                    return
                }
                asked.insert(url)
                started[url] = (page, task(url, page: page))
            }
        }

        /// Called with `lock` held.
        private func task(_ url: String, page: Int) -> Task<Page<Item>, any Error> {
            let listener = listener(forPage: page)
            let pages = self.pages
            return Task { () async throws -> Page<Item> in
                try await pages.page(at: PageCursor(url: url), nextPage: listener)
            }
        }

        /// What the URLs remembered take: a digest for each asked, and the few not yet taken whole.
        var rememberedURLBytes: Int {
            lock.withLock {
                asked.keptBytes + started.keys.reduce(0) { $0 + $1.utf8.count } + (deferred?.url.utf8.count ?? 0)
            }
        }

        /// The page at `url` if it was started early; the caller awaits it.
        func take(_ url: String) -> Task<Page<Item>, any Error>? {
            lock.withLock { started.removeValue(forKey: url)?.task }
        }

        /// How many pages paging has handed out, and the largest body among them: a page deferred until the reader
        /// caught up starts now, one the reader has reached meanwhile is left to paging, and a page started early
        /// for a place paging has passed (its answer was not the one paging asked for: the list shifted) is
        /// stopped and dropped, so such pages never pile up.
        func handedOut(_ count: Int, largestPageBytes: Int) {
            let passed = lock.withLock { () -> [Task<Page<Item>, any Error>] in
                handed = count
                largest = max(largest, largestPageBytes)
                let passed = started.filter { $0.value.page <= count }
                for url in passed.keys { started[url] = nil }
                let ahead = PagedListViewModel.pagesAhead(largestPageBytes: largest, budget: aheadBudget)
                if let waiting = deferred, waiting.page <= count { deferred = nil }
                if !stopped, let waiting = deferred, waiting.page <= count + ahead {
                    deferred = nil
                    if asked.insert(waiting.url) {
                        started[waiting.url] = (waiting.page, task(waiting.url, page: waiting.page))
                    }
                }
                return passed.values.map(\.task)
            }
            for task in passed { task.cancel() }
        }

        /// Stops every page started early and starts no more: the list ended, or its reader went away.
        func cancelAll() {
            let tasks = lock.withLock { () -> [Task<Page<Item>, any Error>] in
                stopped = true
                defer { started = [:] }
                return started.values.map(\.task)
            }
            for task in tasks { task.cancel() }
        }
    }
}
