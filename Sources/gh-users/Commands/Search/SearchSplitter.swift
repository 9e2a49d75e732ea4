import Data
import Domain
import Foundation

/// One run of `search --split`: the planner's ranges, each asked for as the user's query plus its `created:`
/// qualifier. A range's first request is both its count and its first page, so a piece within the cap costs no
/// extra query; the rest of it is paged by GitHub's links. Pages are handed on as they come, in created order.
///
/// A split spends its per-minute search limit by design, so it reads through a repository that waits the limit
/// out (within `--max-wait`) rather than stopping, as the search row's rate limit allows.
///
/// A split spends at most `queryCap` search queries, counts and pages alike: a query whose counts never settle
/// (or a server whose do not) ends with exit 1 and the cap named, not an endless bisection.
///
/// A page GitHub answers incomplete (a single second's count, or a later page of any piece) is written, and its
/// piece is named once the list ends; `partFailure()` then makes the run's status 1, so what may lack accounts
/// never looks whole.
///
/// A piece counted in full that ends with fewer accounts than its count (GitHub's results moved between its
/// pages: an account made or deleted meanwhile shifts the rest, and one is skipped) is read again from its first
/// page, once, handing on only the accounts its first read missed; still short, it is named and the status is 1.
///
/// The view model asks for its pages serially; the lock only makes that visible to the compiler's checker.
final class SplitUserSearch: PageSource, @unchecked Sendable {
    /// About five and a half hours of GitHub's search limit (30 a minute), and up to about a million results.
    /// A task-local so that a test can reach the cap in a hundred queries; nothing in the program sets it.
    @TaskLocal static var queryCap = 10_000

    private let github: any ResourceRepository
    private let query: UserSearchQuery
    private let perPage: Int
    private let lock = NSLock()
    private var planner: SearchSplitPlanner
    /// The piece being paged, while GitHub has more pages of it.
    private var piece: (range: CreatedRange, list: ListResource<User>)?
    private var queries = 0
    /// The cap as it stood when this split began.
    private let queryCap = SplitUserSearch.queryCap
    /// A note for each piece still over the cap, written when it is counted: the notes go with every page
    /// (`closingNotes`), and writing them all again each time made a long split quadratic.
    private var overCapNotes: [String] = []
    /// A note for each piece a page of which GitHub answered incomplete, in the order met.
    private var incompleteNotes: [String] = []
    /// The piece last named incomplete, so a piece is named once however many of its pages are.
    private var lastIncomplete: CreatedRange?
    /// Each piece read only in part, once, whatever the reasons: a second over the cap can also time out.
    private var partPieces: [CreatedRange] = []
    /// The piece counted in full being read: the ids its pages brought, held against its count when it ends, and
    /// whether this is its second read.
    private var tally: (range: CreatedRange, total: Int, ids: Set<Int64>, again: Bool)?
    /// The piece being read again: GitHub's link to its next page (nil before its first), the links it followed
    /// and the pages it read, which end it when they go round in circles or past what one query serves.
    private var rereading:
        (
            range: CreatedRange, list: ListResource<User>, next: PageCursor?, followed: URLDigests, pages: Int
        )?
    /// Markers handed out while a piece is read again, so that no two are alike.
    private var rereadPages = 0
    /// The last page's mark (`Page.cachedCopy`), for the empty page made when the pieces end.
    private var lastCopy: UnconfirmedCopy?
    /// A note for each piece still short of its count when read again.
    private var shortNotes: [String] = []

    init(github: any ResourceRepository, query: UserSearchQuery, perPage: Int, now: Date) {
        self.github = github.waitingOutPerMinuteLimits()
        self.query = query
        self.perPage = perPage
        planner = SearchSplitPlanner(now: now)
    }

    /// The page at `cursor`, with the notes as they stand after it (`closingNotes()`): the last page's are the
    /// run's. No page is told of early: a piece's pages are asked one by one.
    func page(at cursor: PageCursor?, nextPage: NextPageListener?) async throws(DomainError) -> Page<User> {
        try await load(cursor).noting(closingNotes())
    }

    /// `cursor` is GitHub's next link within a piece, or this type's own marker between pieces.
    private func load(_ cursor: PageCursor?) async throws(DomainError) -> Page<User> {
        if let cursor, let piece = withLock({ self.piece }) {
            try checkCap()
            let page = try await github.page(piece.list, at: cursor)
            return withLock { handOn(page, of: piece, first: false) }
        }
        while true {
            if let page = try await readAgain() { return page }
            guard let range = withLock({ planner.next() }) else {
                var end = Page<User>(items: [], next: nil)
                end.cachedCopy = withLock { lastCopy }
                return end
            }
            try checkCap()
            let pieceQuery = try pieceQuery(range)
            let list = GitHubEndpoints.searchUsers(pieceQuery)
            let page = try await github.firstPage(list, perPage: perPage)
            let total = page.totalCount ?? page.items.count
            let handed: Page<User>? = try withLock { () throws(DomainError) -> Page<User>? in
                tally = nil
                if let gitHubNow = page.answeredAt { planner.reach(gitHubNow: gitHubNow) }
                switch planner.counted(total, exact: !page.incompleteResults) {
                case .notACount:
                    throw .malformedResponse(
                        endpoint: "GET /search/users (q=\(pieceQuery.text))",
                        detail: "total_count \(total) is not a count, so the search cannot be split")
                case .split:
                    queries += 1
                    return nil
                case .overCap:
                    notePart(range)
                    overCapNotes.append(
                        "gh-users: \(range) holds \(total) results in one second, more than GitHub's "
                            + "\(UserSearchQuery.maximumResults); only the first \(UserSearchQuery.maximumResults) "
                            + "of them could be read.")
                    return handOn(page, of: (range, list), first: true)
                case .page:
                    if !page.incompleteResults { tally = (range, total, [], false) }
                    return handOn(page, of: (range, list), first: true)
                }
            }
            // An empty piece would end the list for the view model: go on to the next one instead.
            if let handed, !handed.items.isEmpty { return handed }
        }
    }

    /// The next page of the piece being read again, with only the accounts its first read missed (a page of none
    /// would stop the view model, as a server going round in circles does, so such pages are read through); nil
    /// when no piece is being read again, or once it ends. Its pages are handed on under markers of this type's
    /// own, since GitHub's links are those the first read followed, so the view model's checks do not see its
    /// links: a link back to one it followed, or more pages than GitHub serves of one query (1,000 results), ends
    /// it, and the piece is judged by what it found (a review's server linked a page to itself: 2,704 requests).
    private func readAgain() async throws(DomainError) -> Page<User>? {
        while let again = withLock({ rereading }) {
            try checkCap()
            let page: Page<User>
            if let next = again.next {
                page = try await github.page(again.list, at: next)
            } else {
                page = try await github.firstPage(again.list, perPage: perPage)
            }
            let handed: Page<User>? = withLock {
                queries += 1
                noteIncomplete(page, of: again.range, first: again.next == nil)
                if again.next == nil, !page.incompleteResults, let total = page.totalCount, total >= 0 {
                    tally?.total = total
                }
                let fresh = page.items.filter { tally?.ids.insert($0.id).inserted ?? true }
                let pagesAtMost = (UserSearchQuery.maximumResults + perPage - 1) / max(1, perPage)
                if let link = page.next, !page.items.isEmpty, again.pages + 1 < pagesAtMost,
                    rereading?.followed.insert(link.url) == true
                {
                    rereading?.next = link
                    rereading?.pages += 1
                } else {
                    rereading = nil
                    endPiece(again.list)
                }
                guard !fresh.isEmpty else { return nil }
                rereadPages += 1
                var reread = Page(
                    items: fresh, next: PageCursor(url: "(\(again.range) read again, page \(rereadPages))"),
                    incompleteResults: page.incompleteResults)
                reread.cachedCopy = page.cachedCopy
                return reread
            }
            if let handed { return handed }
        }
        return nil
    }

    /// For stderr once the list ends: the queries used, and any piece GitHub could not serve in full.
    func closingNotes() -> [String] {
        withLock {
            var notes: [String] = []
            notes += incompleteNotes + overCapNotes + shortNotes
            for change in planner.disagreements {
                notes.append(
                    "gh-users: GitHub's counts changed while splitting: \(change.whole) held \(change.wholeCount) "
                        + "results, its first half \(change.half) \(change.halfCount); the second half was "
                        + "counted on its own.")
            }
            let count = overCapNotes.count
            let pieces = count == 0 ? "no piece holds" : "\(count) still hold\(count == 1 ? "s" : "")"
            notes.append(
                "gh-users: --split used \(Counted.text(queries, "search query", plural: "search queries")); \(pieces) "
                    + "more than 1000 results.")
            return notes
        }
    }

    /// The run's failure when a piece was read only in part (GitHub's search timed out on it, or one second held
    /// more than the cap; named in the notes), saying each reason met: the list is written as far as it was found,
    /// and the run ends with status 1. Nil when none was.
    func partFailure() -> DomainError? {
        let (pieces, timedOut, overCap, moved) = withLock {
            (partPieces.count, !incompleteNotes.isEmpty, !overCapNotes.isEmpty, !shortNotes.isEmpty)
        }
        guard pieces > 0 else { return nil }
        var reasons: [String] = []
        if overCap {
            reasons.append(
                "no created: range can cut one second, so accounts past its first 1,000 are missing")
        }
        if timedOut { reasons.append("GitHub's search timed out, so some accounts may be missing") }
        if moved { reasons.append("GitHub's results moved between pages, so some accounts may be missing") }
        if timedOut || moved { reasons.append("run the search again later, to a new file") }
        return .refused(
            "--split could not read \(Counted.text(pieces, "piece", plural: "pieces")) in full (named above): "
                + reasons.joined(separator: "; ") + ".")
    }

    /// Counts the request, names the piece when GitHub said the page is incomplete, tallies its accounts, and
    /// points the view model at the piece's next page, or past the piece once it ends (`endPiece`).
    private func handOn(
        _ page: Page<User>, of piece: (range: CreatedRange, list: ListResource<User>), first: Bool
    ) -> Page<User> {
        queries += 1
        noteIncomplete(page, of: piece.range, first: first)
        if tally?.range == piece.range {
            for user in page.items { tally?.ids.insert(user.id) }
        }
        // A page with nothing on it ends the piece, whatever its links say.
        let next: PageCursor?
        if let link = page.next, !page.items.isEmpty {
            self.piece = piece
            next = link
        } else {
            self.piece = nil
            endPiece(piece.list)
            next = PageCursor(url: "(the piece after \(piece.range))")
        }
        var handed = Page(items: page.items, next: next, incompleteResults: page.incompleteResults)
        handed.cachedCopy = page.cachedCopy
        lastCopy = page.cachedCopy
        return handed
    }

    /// Names the piece when GitHub said `page` is incomplete (`first`: its count, where the planner halves it no
    /// further), once however many of its pages are.
    private func noteIncomplete(_ page: Page<User>, of range: CreatedRange, first: Bool) {
        guard page.incompleteResults, lastIncomplete != range else { return }
        lastIncomplete = range
        notePart(range)
        incompleteNotes.append(
            "gh-users: GitHub's search of \(range) timed out before it finished (incomplete_results)"
                + (first ? (range.halves() == nil ? ", and one second cannot be cut smaller" : "") : " on a later page")
                + ": some of its accounts may be missing.")
    }

    /// Holds the piece counted in full that has just ended against its count: short of it the first time, it is
    /// read again (`readAgain`); short again, it is named. A piece already named for a page GitHub answered
    /// incomplete is not named twice.
    private func endPiece(_ list: ListResource<User>) {
        guard let ended = tally, ended.ids.count < ended.total, partPieces.last != ended.range else {
            tally = nil
            return
        }
        if !ended.again {
            tally?.again = true
            rereading = (ended.range, list, nil, URLDigests(), 0)
            return
        }
        tally = nil
        notePart(ended.range)
        shortNotes.append(
            "gh-users: GitHub's results for \(ended.range) moved between its pages, read twice: \(ended.ids.count) "
                + "of the \(ended.total) accounts it counted were found; some may be missing.")
    }

    /// Counts `range` among the pieces read in part, once: its pages come one after another.
    private func notePart(_ range: CreatedRange) {
        if partPieces.last != range { partPieces.append(range) }
    }

    /// Refuses the query past the cap.
    private func checkCap() throws(DomainError) {
        guard withLock({ queries }) >= queryCap else { return }
        throw .boundReached(
            "--split stopped at its cap of \(queryCap) search queries; narrow the query (type:, location:, "
                + "followers: or another qualifier) so that it needs fewer.")
    }

    private func pieceQuery(_ range: CreatedRange) throws(DomainError) -> UserSearchQuery {
        try UserSearchQuery(text: query.text + " " + range.description)
    }

    private func withLock<T, Failure: Error>(_ body: () throws(Failure) -> T) throws(Failure) -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }
}
