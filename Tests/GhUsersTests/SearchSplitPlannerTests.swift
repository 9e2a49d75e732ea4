import Foundation
import Testing

@testable import gh_users

/// Accounts by creation second, counted the way GitHub counts a `created:` range.
private struct FakeCreations {
    let seconds: [Int64]

    func count(_ range: CreatedRange) -> Int {
        seconds.filter { $0 >= range.first && $0 <= range.last }.count
    }
}

/// Runs a planner against the fake to the end: every range it asked about, with each verdict.
/// `exact` says which counts GitHub gives in full.
private func drive(
    _ planner: inout SearchSplitPlanner, _ fake: FakeCreations, exact: (CreatedRange) -> Bool = { _ in true }
) -> [(range: CreatedRange, verdict: SearchSplitPlanner.Verdict)] {
    var asked: [(CreatedRange, SearchSplitPlanner.Verdict)] = []
    while let range = planner.next() {
        asked.append((range, planner.counted(fake.count(range), exact: exact(range))))
        if asked.count > 10_000 { break }
    }
    return asked
}

/// 2015-01-01T00:00:00Z.
private let newYear2015: Int64 = 1_420_070_400
private let day = CreatedRange.day

struct CreatedRangeTests {
    @Test func wholeDaysAreWrittenAsDatesAndAnythingElseAsUTCDateTimes() {
        #expect(CreatedRange(newYear2015, newYear2015 + 181 * day - 1).description == "created:2015-01-01..2015-06-30")
        #expect(CreatedRange(newYear2015, newYear2015 + day - 1).description == "created:2015-01-01..2015-01-01")
        #expect(
            CreatedRange(newYear2015 + 10 * 3_600, newYear2015 + 11 * 3_600 - 1).description
                == "created:2015-01-01T10:00:00Z..2015-01-01T10:59:59Z")
        #expect(
            CreatedRange(newYear2015, newYear2015 + 12 * 3_600 - 1).description
                == "created:2015-01-01T00:00:00Z..2015-01-01T11:59:59Z")
        #expect(
            CreatedRange(newYear2015 + 59, newYear2015 + 59).description
                == "created:2015-01-01T00:00:59Z..2015-01-01T00:00:59Z")
        #expect(
            CreatedRange(SearchSplitPlanner.gitHubFirstDay, SearchSplitPlanner.gitHubFirstDay + day - 1).description
                == "created:2007-10-20..2007-10-20")
    }

    @Test func rangesHalveByDaysThenHoursThenSeconds() throws {
        let tenDays = try #require(CreatedRange(newYear2015, newYear2015 + 10 * day - 1).halves())
        #expect(tenDays.0 == CreatedRange(newYear2015, newYear2015 + 5 * day - 1))
        #expect(tenDays.1 == CreatedRange(newYear2015 + 5 * day, newYear2015 + 10 * day - 1))
        let threeDays = try #require(CreatedRange(newYear2015, newYear2015 + 3 * day - 1).halves())
        #expect(threeDays.0.seconds == day && threeDays.1.seconds == 2 * day)
        let oneDay = try #require(CreatedRange(newYear2015, newYear2015 + day - 1).halves())
        #expect(oneDay.0 == CreatedRange(newYear2015, newYear2015 + 12 * 3_600 - 1))
        #expect(oneDay.1 == CreatedRange(newYear2015 + 12 * 3_600, newYear2015 + day - 1))
        let oneHour = try #require(CreatedRange(newYear2015, newYear2015 + 3_599).halves())
        #expect(oneHour.0 == CreatedRange(newYear2015, newYear2015 + 1_799))
        let twoSeconds = try #require(CreatedRange(newYear2015, newYear2015 + 1).halves())
        #expect(twoSeconds.0 == CreatedRange(newYear2015, newYear2015))
        #expect(twoSeconds.1 == CreatedRange(newYear2015 + 1, newYear2015 + 1))
        #expect(CreatedRange(newYear2015, newYear2015).halves() == nil)
    }
}

struct SearchSplitPlannerTests {
    /// Through tomorrow: an account GitHub made after this machine's midnight, by a clock behind GitHub's, is
    /// still in a piece (before: through today, and such accounts were left out without a word).
    @Test func theWholeRangeRunsFromGitHubsFirstDayThroughTomorrowInUTC() {
        var planner = SearchSplitPlanner(now: Date(timeIntervalSince1970: TimeInterval(newYear2015 + 3_600)))
        #expect(planner.next() == CreatedRange(SearchSplitPlanner.gitHubFirstDay, newYear2015 + 2 * day - 1))
        #expect(planner.counted(0) == .page)
        #expect(planner.next() == nil)
    }

    /// helper-268: a clock years behind GitHub's planned through its own tomorrow, and the accounts created since
    /// were never asked for (535 of 6,033 written, exit 0). GitHub's clock in an answer extends the plan: the
    /// pieces still come in created order, and together hold every account.
    @Test func gitHubsClockAheadOfThisOneExtendsThePlanThroughItsTomorrow() {
        let later = newYear2015 + 400 * day
        let fake = FakeCreations(seconds: (0..<3_000).map { newYear2015 - 300 * day + Int64($0) * 20_000 })
        #expect(fake.seconds.contains { $0 > newYear2015 + 2 * day })
        var planner = SearchSplitPlanner(now: Date(timeIntervalSince1970: TimeInterval(newYear2015)))
        var asked: [(range: CreatedRange, verdict: SearchSplitPlanner.Verdict)] = []
        while let range = planner.next() {
            // Each answer carries GitHub's clock, 400 days on; saying it again extends nothing more.
            planner.reach(gitHubNow: Date(timeIntervalSince1970: TimeInterval(later)))
            asked.append((range, planner.counted(fake.count(range))))
        }
        let pieces = asked.filter { $0.verdict == .page }.map(\.range)
        #expect(pieces.map(fake.count).reduce(0, +) == 3_000)
        #expect(zip(pieces, pieces.dropFirst()).allSatisfy { $0.last < $1.first })
        #expect(pieces.last?.last == later + 2 * day - 1)
        // A Date of 9999 plans no year of five digits, which no created: can name.
        var far = SearchSplitPlanner(now: Date(timeIntervalSince1970: TimeInterval(newYear2015)))
        _ = far.next()
        far.reach(gitHubNow: Date(timeIntervalSince1970: 253_402_300_799))
        #expect(far.counted(0) == .page)
        #expect(far.next()?.last == SearchSplitPlanner.lastSecond)
        // A clock of GitHub's behind this one's changes nothing.
        var behind = SearchSplitPlanner(now: Date(timeIntervalSince1970: TimeInterval(newYear2015)))
        #expect(behind.next() == CreatedRange(SearchSplitPlanner.gitHubFirstDay, newYear2015 + 2 * day - 1))
        behind.reach(gitHubNow: Date(timeIntervalSince1970: TimeInterval(newYear2015 - 30 * day)))
        #expect(behind.counted(0) == .page)
        #expect(behind.next() == nil)
    }

    @Test func piecesHoldAtMostTheCapInCreatedOrderAndCoverEveryAccountOnce() {
        // 5,500 accounts over about 190 days of 2008.
        let start: Int64 = 1_199_145_600
        let fake = FakeCreations(seconds: (0..<5_500).map { start + Int64($0) * 2_999 })
        var planner = SearchSplitPlanner(now: Date(timeIntervalSince1970: TimeInterval(newYear2015)))
        let asked = drive(&planner, fake)
        let pieces = asked.filter { $0.verdict == .page }.map(\.range)
        #expect(pieces.allSatisfy { fake.count($0) <= 1_000 })
        #expect(pieces.map(fake.count).reduce(0, +) == 5_500)
        #expect(zip(pieces, pieces.dropFirst()).allSatisfy { $0.last < $1.first })
        #expect(!asked.contains { $0.verdict == .overCap })
        // Whole days all the way: no account shares a day with 1,000 others.
        #expect(pieces.allSatisfy { !$0.description.contains("T") })
        // The empty second half of the first cut (2011 to 2015) is known empty, so never asked about.
        let top = CreatedRange(SearchSplitPlanner.gitHubFirstDay, newYear2015 + 2 * day - 1)
        let emptyHalf = top.halves()!.1
        #expect(!asked.contains { $0.range == emptyHalf })
        #expect(asked.count < 30, "\(asked.count) counts")
    }

    @Test func aCrowdedDayIsCutIntoHours() {
        let fake = FakeCreations(seconds: (0..<2_500).map { newYear2015 + Int64($0) * 34 })
        var planner = SearchSplitPlanner(range: CreatedRange(newYear2015 - 10 * day, newYear2015 + 10 * day - 1))
        let pieces = drive(&planner, fake).filter { $0.verdict == .page }.map(\.range)
        #expect(pieces.map(fake.count).reduce(0, +) == 2_500)
        #expect(pieces.allSatisfy { fake.count($0) <= 1_000 })
        let withinTheDay = pieces.filter { fake.count($0) > 0 }
        #expect(withinTheDay.count >= 3)
        #expect(withinTheDay.allSatisfy { $0.description.contains("T") && $0.seconds % 3_600 == 0 })
    }

    @Test func overAThousandInOneSecondIsPagedAsFarAsGitHubAllowsAndSaidSo() {
        let crowded = newYear2015 + 12_345
        let fake = FakeCreations(
            seconds: [newYear2015] + Array(repeating: crowded, count: 1_500) + [newYear2015 + 20_000])
        var planner = SearchSplitPlanner(range: CreatedRange(newYear2015, newYear2015 + day - 1))
        let asked = drive(&planner, fake)
        let overCap = asked.filter { $0.verdict == .overCap }.map(\.range)
        #expect(overCap == [CreatedRange(crowded, crowded)])
        #expect(overCap.first?.description == "created:2015-01-01T03:25:45Z..2015-01-01T03:25:45Z")
        let read = asked.filter { $0.verdict != .split }.map(\.range)
        #expect(read.map(fake.count).reduce(0, +) == 1_502)
    }

    @Test func anIncompleteCountIsNotUsedToSkipItsSecondHalf() {
        let fake = FakeCreations(seconds: (0..<1_200).map { newYear2015 + Int64($0) * 60 })
        let whole = CreatedRange(newYear2015 - 4 * day, newYear2015 + 4 * day - 1)
        var exact = SearchSplitPlanner(range: whole)
        var inexact = SearchSplitPlanner(range: whole)
        let exactAsked = drive(&exact, fake).map(\.range)
        let inexactAsked = drive(&inexact, fake, exact: { $0 != whole }).map(\.range)
        // The second half of the first cut holds everything: known to be over the cap when counts are exact.
        let secondHalf = whole.halves()!.1
        #expect(!exactAsked.contains(secondHalf))
        #expect(inexactAsked.contains(secondHalf))
    }

    /// GitHub's search timed out: 900 is what it found in time, under the cap yet not the whole. The range is
    /// halved as one over the cap is (before: paged as if 900 were all of it), down to a single second, which
    /// cannot be halved and is paged.
    @Test func anIncompleteCountUnderTheCapIsHalvedDownToASecond() throws {
        let whole = CreatedRange(newYear2015, newYear2015 + day - 1)
        var planner = SearchSplitPlanner(range: whole)
        #expect(planner.next() == whole)
        #expect(planner.counted(900, exact: false) == .split)
        let (first, second) = try #require(whole.halves())
        #expect(planner.next() == first)
        // Nothing is inferred from an incomplete count: the second half is asked for its own.
        #expect(planner.counted(0) == .page)
        #expect(planner.next() == second)
        var one = SearchSplitPlanner(range: CreatedRange(newYear2015, newYear2015))
        _ = one.next()
        #expect(one.counted(3, exact: false) == .page)
        #expect(one.next() == nil)
    }

    /// A search that times out at every size: ranges that found someone are halved down to their seconds; an
    /// incomplete 0 is halved four times in a row, then paged. Before: empty ranges were halved to seconds too,
    /// depth first, and a review's run spent the whole query cap on the first hours of 2007, writing nothing.
    @Test func countsIncompleteAtEverySizeHalveMostlyWhereAccountsAre() {
        let accounts: [Int64] = [newYear2015 + 100, newYear2015 + 40_000, newYear2015 + 80_000]
        let fake = FakeCreations(seconds: accounts)
        var planner = SearchSplitPlanner(range: CreatedRange(SearchSplitPlanner.gitHubFirstDay, newYear2015 + day - 1))
        let asked = drive(&planner, fake, exact: { _ in false })
        let paged = asked.filter { $0.verdict == .page }.map(\.range)
        #expect(accounts.allSatisfy { paged.contains(CreatedRange($0, $0)) })
        #expect(asked.count < 3_000, "\(asked.count)")
    }

    /// A span of years that times out before GitHub counts anyone (an incomplete 0) may hold every account: it is
    /// halved until counts come back. A review's run before this: nothing written, exit 1, after one query.
    @Test func anIncompleteZeroIsHalvedUntilCountsComeBack() {
        let fake = FakeCreations(seconds: (0..<30).map { newYear2015 + Int64($0) * 3_600 })
        let whole = CreatedRange(SearchSplitPlanner.gitHubFirstDay, newYear2015 + 30 * day)
        var planner = SearchSplitPlanner(range: whole)
        // Longer than four years: GitHub times out and has counted no one.
        let long: Int64 = 4 * 365 * day
        var asked: [(range: CreatedRange, verdict: SearchSplitPlanner.Verdict)] = []
        while let range = planner.next(), asked.count < 10_000 {
            let timesOut = range.last - range.first > long
            asked.append((range, planner.counted(timesOut ? 0 : fake.count(range), exact: !timesOut)))
        }
        let read = asked.filter { $0.verdict == .page }.map(\.range)
        #expect(read.map(fake.count).reduce(0, +) == 30)
        #expect(asked.count < 40, "\(asked.count)")
    }

    /// An incomplete 0 is halved exactly `incompleteZeroCuts` times in a row, and an incomplete count above 0
    /// starts the row again (mutation round 8's M8-7 and M8-6: one more cut went unseen, and so did a row that went
    /// on counting past a count, which paged a range that timed out as empty too soon).
    @Test(arguments: [
        ([0, 0, 0, 0, 0], 4),
        ([0, 0, 5, 0, 0, 0, 0, 0], 7),
    ])
    func incompleteZerosAreHalvedAFixedNumberOfTimesInARow(counts: [Int], splits: Int) {
        #expect(SearchSplitPlanner.incompleteZeroCuts == 4)
        var planner = SearchSplitPlanner(range: CreatedRange(newYear2015, newYear2015 + 400 * day - 1))
        var verdicts: [SearchSplitPlanner.Verdict] = []
        // The first half of each split is asked next: the counts given are those of one row of halves.
        for count in counts {
            guard planner.next() != nil else { break }
            verdicts.append(planner.counted(count, exact: false))
        }
        #expect(verdicts == Array(repeating: .split, count: splits) + [.page])
    }

    // MARK: Counts GitHub should never send

    @Test func aNegativeCountIsNotACountEvenAfterTheLargestOne() {
        var planner = SearchSplitPlanner(range: CreatedRange(newYear2015, newYear2015 + 10 * day - 1))
        #expect(planner.next() != nil)
        // Before: the first half's -1 made the second half Int.max + 1, an overflow trap.
        #expect(planner.counted(Int.max) == .split)
        #expect(planner.next() == CreatedRange(newYear2015, newYear2015 + 5 * day - 1))
        #expect(planner.counted(-1) == .notACount)
        var fresh = SearchSplitPlanner(range: CreatedRange(newYear2015, newYear2015 + day - 1))
        _ = fresh.next()
        #expect(fresh.counted(-1) == .notACount)
    }

    @Test func aHalfCountedAboveItsWholeIsRecordedAndItsSecondHalfAskedNotInferred() {
        let whole = CreatedRange(newYear2015, newYear2015 + 10 * day - 1)
        let (first, second) = whole.halves()!
        var planner = SearchSplitPlanner(range: whole)
        #expect(planner.next() == whole)
        #expect(planner.counted(2_000) == .split)
        #expect(planner.next() == first)
        #expect(planner.counted(900) == .page)
        // 2,000 less 900: known over the cap, so halved without asking.
        #expect(planner.next() == second.halves()!.0)
        #expect(planner.disagreements.isEmpty)

        var changing = SearchSplitPlanner(range: whole)
        _ = changing.next()
        #expect(changing.counted(2_000) == .split)
        #expect(changing.next() == first)
        #expect(changing.counted(2_500) == .split)
        #expect(
            changing.disagreements == [
                .init(whole: whole, wholeCount: 2_000, half: first, halfCount: 2_500)
            ])
        // The first half's own halves, then the second half, asked for its own count.
        var asked: [CreatedRange] = []
        while let range = changing.next() {
            asked.append(range)
            _ = changing.counted(10)
        }
        #expect(asked.last == second)
    }

    @Test func theLargestCountsEveryTimeEndWithinASecondsDepth() {
        var planner = SearchSplitPlanner(now: Date(timeIntervalSince1970: 1_800_000_000))
        var asked = 0
        var verdicts: [SearchSplitPlanner.Verdict] = []
        while planner.next() != nil, asked < 10_000 {
            asked += 1
            verdicts.append(planner.counted(Int.max))
        }
        // Each whole's second half is known empty: one range per cut, down to one second.
        #expect(asked < 100, "\(asked)")
        #expect(verdicts.last == .overCap)
    }
}
