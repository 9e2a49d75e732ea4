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
    /// The last second the plan reaches.
    private var last: Int64
    private var current: Pending?
    private let cap: Int
    /// First halves counted above their whole, in the order met.
    private(set) var disagreements: [Disagreement] = []

    /// From GitHub's first day through the end of the UTC day after the one `now` falls in, so that a clock
    /// behind GitHub's (by up to a day) misses no account created since its midnight; the empty day costs a count.
    init(now: Date, cap: Int = UserSearchQuery.maximumResults) {
        self.init(range: CreatedRange(Self.gitHubFirstDay, Self.endOfTomorrow(now)), cap: cap)
    }

    init(range: CreatedRange, cap: Int = UserSearchQuery.maximumResults) {
        pending = [Pending(range: range)]
        last = range.last
        self.cap = cap
    }

    /// 9999-12-31T23:59:59Z: a `created:` date has four digits of year.
    static let lastSecond: Int64 = 253_402_300_799

    private static func endOfTomorrow(_ now: Date) -> Int64 {
        let seconds = Int64(now.timeIntervalSince1970.rounded(.down))
        return min(max((seconds / CreatedRange.day + 2) * CreatedRange.day - 1, gitHubFirstDay), lastSecond)
    }

    /// GitHub's clock (an answer's `Date`) past the end of the UTC day after the one this plan ends on: the
    /// machine's clock is behind, and the accounts created since are planned as a range of their own, after the
    /// others (a clock two years behind had planned none of them, and the search ended with exit 0).
    mutating func reach(gitHubNow: Date) {
        let end = Self.endOfTomorrow(gitHubNow)
        guard end > last else { return }
        pending.insert(Pending(range: CreatedRange(last + 1, end)), at: 0)
        last = end
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
