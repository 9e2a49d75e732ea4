import Data
import Domain
import Foundation

/// Accounts created within a closed range of whole UTC seconds: one `created:` qualifier of a split search.
struct CreatedRange: Sendable, Equatable, CustomStringConvertible {
    /// Unix seconds, both ends included.
    let first: Int64
    let last: Int64

    init(_ first: Int64, _ last: Int64) {
        self.first = first
        self.last = last
    }

    var seconds: Int64 { last - first + 1 }

    /// `created:2015-01-01..2015-06-30` for whole UTC days, else with date-times:
    /// `created:2015-01-01T00:00:00Z..2015-01-01T11:59:59Z`.
    var description: String {
        let wholeDays = Self.isAligned(first, to: Self.day) && Self.isAligned(last + 1, to: Self.day)
        func text(_ second: Int64) -> String {
            let date = Date(timeIntervalSince1970: TimeInterval(second))
            return wholeDays ? date.formatted(Self.dayStyle) : date.formatted(Self.secondStyle)
        }
        return "created:" + text(first) + ".." + text(last)
    }

    /// The two halves, cut at a day while the range spans whole days, then at an hour while it spans whole
    /// hours, then at a second; nil for a single second, which no `created:` range can divide.
    func halves() -> (CreatedRange, CreatedRange)? {
        for unit in [Self.day, Self.hour, 1] {
            let units = seconds / unit
            guard Self.isAligned(first, to: unit), Self.isAligned(last + 1, to: unit), units > 1 else { continue }
            let middle = first + units / 2 * unit
            return (CreatedRange(first, middle - 1), CreatedRange(middle, last))
        }
        return nil
    }

    static let day: Int64 = 86_400
    static let hour: Int64 = 3_600

    private static func isAligned(_ second: Int64, to unit: Int64) -> Bool {
        second % unit == 0
    }

    private static let dayStyle = Date.ISO8601FormatStyle(timeZone: .gmt).year().month().day()
    private static let secondStyle = Date.ISO8601FormatStyle(timeZone: .gmt)
}

/// Plans a search split by creation time so that no piece holds more than GitHub's 1,000 results.
///
/// Pure: it names the next range to count and is told each count. Ranges come out in created order. A range
/// over the cap is halved (days, then hours, then seconds); a single second over the cap cannot be, and is
/// paged as far as GitHub allows. A count GitHub said may be incomplete (its search timed out: the count is of
/// what it found before) settles nothing: that range is halved too, down to a single second, which is paged (an
/// incomplete 0 `incompleteZeroCuts` times in a row, then paged).
/// When a range's count is known, its second half's is too (the whole less the first half), so that half is
/// skipped when empty and halved again without asking when still over.
///
/// Counts are GitHub's word, not trusted: a negative one is refused, and a first half said to hold more than
/// its whole (the counts changed between the asks) infers nothing, so its second half is asked for its own.
struct SearchSplitPlanner: Sendable {
    enum Verdict: Sendable, Equatable {
        /// 1,000 results or fewer, counted in full; or counted incomplete where it is halved no further (a single
        /// second, or an incomplete 0 halved `incompleteZeroCuts` times in a row): page it.
        case page
        /// Over the cap, or counted incomplete: its halves come next.
        case split
        /// Over the cap in a single second: only GitHub's first 1,000 can be read.
        case overCap
        /// Not a count (negative): nothing can be planned from it.
        case notACount
    }

    /// A first half said to hold more than its whole.
    struct Disagreement: Sendable, Equatable {
        let whole: CreatedRange
        let wholeCount: Int
        let half: CreatedRange
        let halfCount: Int
    }

    /// GitHub's first day, 2007-10-20, at midnight UTC: no account was created before it.
    static let gitHubFirstDay: Int64 = 1_192_838_400

    private struct Pending: Sendable {
        var range: CreatedRange
        /// Known without asking: what its parent held less what its first half held.
        var known: Int?
        /// For a first half: its parent and the parent's count, which makes the second half's known once this one
        /// is counted.
        var parent: (range: CreatedRange, count: Int)?
        /// How many times in a row, down to it, a range was halved for an incomplete count of 0.
        var zeroCuts = 0
    }

    /// An incomplete 0 (GitHub's search timed out before it found anyone) is halved this many times in a row,
    /// then paged: it may hide accounts (a whole span of years that times out), but a search that times out at
    /// every size would otherwise spend its query cap halving empty ranges.
    static let incompleteZeroCuts = 4

    /// The last element is the next range, in created order.
    private var pending: [Pending]
    private var current: Pending?
    private let cap: Int
    /// First halves counted above their whole, in the order met.
    private(set) var disagreements: [Disagreement] = []

    /// From GitHub's first day through the end of the UTC day after the one `now` falls in, so that a clock
    /// behind GitHub's (by up to a day) misses no account created since its midnight; the empty day costs a count.
    init(now: Date, cap: Int = UserSearchQuery.maximumResults) {
        let seconds = Int64(now.timeIntervalSince1970.rounded(.down))
        let endOfDay = (seconds / CreatedRange.day + 2) * CreatedRange.day - 1
        self.init(range: CreatedRange(Self.gitHubFirstDay, max(endOfDay, Self.gitHubFirstDay)), cap: cap)
    }

    init(range: CreatedRange, cap: Int = UserSearchQuery.maximumResults) {
        pending = [Pending(range: range)]
        self.cap = cap
    }

    /// The next range whose count (its first page) is needed; nil when every range is done.
    mutating func next() -> CreatedRange? {
        while let entry = pending.popLast() {
            if let known = entry.known {
                if known == 0 { continue }
                if known > cap, let (first, second) = entry.range.halves() {
                    pending.append(Pending(range: second))
                    pending.append(Pending(range: first, parent: (entry.range, known)))
                    continue
                }
            }
            current = entry
            return entry.range
        }
        current = nil
        return nil
    }

    /// What to do with the range `next()` returned, now that its count is known. `exact` is false when GitHub
    /// said the count may be incomplete: then nothing is inferred from it, and a range within the cap is halved as
    /// one over it is, while it can be (an incomplete 0 at most `incompleteZeroCuts` times in a row).
    mutating func counted(_ count: Int, exact: Bool = true) -> Verdict {
        guard let entry = current else { return .page }
        current = nil
        guard count >= 0 else { return .notACount }
        // Its second half is next on the stack, untouched since this range was handed out.
        if exact, let parent = entry.parent, let index = pending.indices.last {
            if parent.count >= count {
                pending[index].known = parent.count - count
            } else {
                disagreements.append(
                    Disagreement(whole: parent.range, wholeCount: parent.count, half: entry.range, halfCount: count))
            }
        }
        // Incomplete and within the cap, it is halved as one over the cap is; an incomplete 0 only a few times in
        // a row, so that a search that times out at every size halves mostly where accounts are, and writes them
        // as it goes, within the query cap.
        let zero = !exact && count == 0
        guard count > cap || (!exact && (!zero || entry.zeroCuts < Self.incompleteZeroCuts)) else { return .page }
        guard let (first, second) = entry.range.halves() else { return count > cap ? .overCap : .page }
        let zeroCuts = zero ? entry.zeroCuts + 1 : 0
        pending.append(Pending(range: second, zeroCuts: zeroCuts))
        pending.append(Pending(range: first, parent: exact ? (entry.range, count) : nil, zeroCuts: zeroCuts))
        return .split
    }
}

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
        while let range = withLock({ planner.next() }) {
            try checkCap()
            let pieceQuery = try pieceQuery(range)
            let list = GitHubEndpoints.searchUsers(pieceQuery)
            let page = try await github.firstPage(list, perPage: perPage)
            let total = page.totalCount ?? page.items.count
            let handed: Page<User>? = try withLock { () throws(DomainError) -> Page<User>? in
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
                    return handOn(page, of: (range, list), first: true)
                }
            }
            // An empty piece would end the list for the view model: go on to the next one instead.
            if let handed, !handed.items.isEmpty { return handed }
        }
        return Page(items: [], next: nil)
    }

    /// For stderr once the list ends: the queries used, and any piece GitHub could not serve in full.
    func closingNotes() -> [String] {
        withLock {
            var notes: [String] = []
            notes += incompleteNotes + overCapNotes
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
        let (pieces, timedOut, overCap) = withLock {
            (partPieces.count, !incompleteNotes.isEmpty, !overCapNotes.isEmpty)
        }
        guard pieces > 0 else { return nil }
        var reasons: [String] = []
        if overCap {
            reasons.append(
                "no created: range can cut one second, so accounts past its first 1,000 are missing")
        }
        if timedOut {
            reasons.append(
                "GitHub's search timed out, so some accounts may be missing; run the search again later, to a "
                    + "new file")
        }
        return .refused(
            "--split could not read \(Counted.text(pieces, "piece", plural: "pieces")) in full (named above): "
                + reasons.joined(separator: "; ") + ".")
    }

    /// Counts the request, names the piece when GitHub said the page is incomplete (`first`: its count, where the
    /// planner halves it no further), and points the view model at the piece's next page, or past the piece.
    private func handOn(
        _ page: Page<User>, of piece: (range: CreatedRange, list: ListResource<User>), first: Bool
    ) -> Page<User> {
        queries += 1
        if page.incompleteResults, lastIncomplete != piece.range {
            lastIncomplete = piece.range
            notePart(piece.range)
            incompleteNotes.append(
                "gh-users: GitHub's search of \(piece.range) timed out before it finished (incomplete_results)"
                    + (first
                        ? (piece.range.halves() == nil ? ", and one second cannot be cut smaller" : "")
                        : " on a later page")
                    + ": some of its accounts may be missing.")
        }
        // A page with nothing on it ends the piece, whatever its links say.
        let next: PageCursor?
        if let link = page.next, !page.items.isEmpty {
            self.piece = piece
            next = link
        } else {
            self.piece = nil
            next = PageCursor(url: "(the piece after \(piece.range))")
        }
        return Page(items: page.items, next: next, incompleteResults: page.incompleteResults)
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
