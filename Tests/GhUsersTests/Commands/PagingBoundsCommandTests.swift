import Foundation
import Networking
import TestSupport
import Testing

@testable import gh_users

/// Answers GitHub should never send, scripted on the harness's stub registry (`StubTransport.answerEvery`): counts
/// out of every range, lists that never end, empty pages that link on. Each answer is chosen from the request's
/// target (path and query) and how many requests came before it. The accounts are the least GitHub's list items
/// carry, not a recording: the point is what the counts and links do.
private struct ScriptedAnswers {
    static let base = "https://api.github.com"
    let harness = CommandHarness.signedIn()

    init(_ answer: @escaping @Sendable (_ target: String, _ index: Int) -> Answer) {
        harness.http.answerEvery { request, index in
            let reply = answer(Self.target(request), index)
            return HTTPResponse(
                status: reply.status, headers: HTTPHeaders(reply.headers.map { (name: $0.key, value: $0.value) }),
                body: Data(reply.body.utf8), url: request.url)
        }
    }

    struct Answer: Sendable {
        var status = 200
        var headers: [String: String] = [:]
        var body: String
    }

    /// The path and query of each request, in order.
    var requests: [String] { harness.http.received.map(Self.target) }

    /// The decoded `q` of each search request, in order.
    var searches: [String] {
        requests.filter { $0.hasPrefix("/search/users") }.compactMap {
            URLComponents(string: $0)?.queryItems?.first { $0.name == "q" }?.value?
                .replacingOccurrences(of: "+", with: " ")
        }
    }

    func run(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) async
        -> CommandHarness.Outcome
    {
        await harness.run(arguments + ["--no-cache"], sourceLocation: sourceLocation)
    }

    private static func target(_ request: HTTPRequest) -> String {
        let components = URLComponents(url: request.url, resolvingAgainstBaseURL: false)
        let path = components?.percentEncodedPath ?? ""
        return components?.percentEncodedQuery.map { path + "?" + $0 } ?? path
    }

    static func accounts(_ ids: some Sequence<Int>) -> String {
        "["
            + ids.map { #"{"login":"user\#($0)","id":\#($0),"type":"User","site_admin":false}"# }
            .joined(separator: ",") + "]"
    }

    static func search(total: String, incomplete: Bool = false, ids: [Int]) -> Answer {
        Answer(body: #"{"total_count":\#(total),"incomplete_results":\#(incomplete),"items":\#(accounts(ids))}"#)
    }

    /// A list page with, when given, a `Link` to the next one.
    static func page(_ ids: some Sequence<Int>, next: String?) -> Answer {
        Answer(headers: next.map { ["Link": "<\(base)\($0)>; rel=\"next\""] } ?? [:], body: accounts(ids))
    }
}

private func ids(_ ndjson: String) -> [Int] {
    ndjson.split(separator: "\n").compactMap { line in
        (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["id"] as? Int
    }
}

/// `search --split` against counts GitHub should never send: it ends, with a word, and never traps.
struct SplitCountsCommandTests {
    private func split(_ github: ScriptedAnswers) async -> CommandHarness.Outcome {
        await github.run(["search", "type:user", "--split", "--all", "--format", "ndjson"])
    }

    @Test func theLargestCountThenANegativeOneIsStatusOneNotATrap() async throws {
        let github = ScriptedAnswers { _, index in
            ScriptedAnswers.search(total: index == 0 ? "9223372036854775807" : "-1", ids: [index + 1])
        }
        let result = await split(github)
        // Before: the second half's count, Int64.max less -1, trapped: signal 4, "arithmetic overflow".
        #expect(result.status == 1, "\(result.err)")
        #expect(result.out.isEmpty)
        #expect(github.searches.count == 2)
        #expect(result.err.contains("total_count -1 is not a count"), "\(result.err)")
    }

    @Test func aNegativeCountAtOnceIsStatusOne() async throws {
        let github = ScriptedAnswers { _, _ in ScriptedAnswers.search(total: "-1", ids: [7]) }
        let result = await split(github)
        // Before: -1 was taken for a small piece, its account written, exit 0.
        #expect(result.status == 1, "\(result.err)")
        #expect(result.out.isEmpty)
        #expect(result.err.contains(": total_count -1 is not a count"), "\(result.err)")
        #expect(github.searches.count == 1)
    }

    /// Without --split too: before, "Showing 1 account of -5." and exit 0.
    @Test func aNegativeCountOfAPlainSearchIsStatusOne() async throws {
        let github = ScriptedAnswers { _, _ in ScriptedAnswers.search(total: "-5", ids: [7]) }
        let result = await github.run(["search", "type:user", "--format", "ndjson"])
        #expect(result.status == 1, "\(result.err)")
        #expect(result.out.isEmpty)
        #expect(result.err.contains(": total_count -5 is not a count"), "\(result.err)")
    }

    @Test func aHalfCountedAboveItsWholeIsSaidAndItsOtherHalfCountedOnItsOwn() async throws {
        let github = ScriptedAnswers { _, index in
            switch index {
            case 0: return ScriptedAnswers.search(total: "2000", ids: [1])
            case 1: return ScriptedAnswers.search(total: "3000", ids: [2])
            default: return ScriptedAnswers.search(total: "1", ids: [index + 1])
            }
        }
        let result = await split(github)
        #expect(result.status == 0, "\(result.err)")
        let searches = github.searches.map { $0.replacingOccurrences(of: "type:user ", with: "") }
        let whole = try #require(searches.first)
        let firstHalf = try #require(searches.dropFirst().first)
        // The whole's second half was asked for, not inferred from 2,000 less 3,000.
        let lastDay = try #require(whole.split(separator: ".").last)
        #expect(searches.last?.hasSuffix(".." + lastDay) == true, "\(searches.suffix(3))")
        #expect(
            result.err.contains(
                "gh-users: GitHub's counts changed while splitting: \(whole) held 2000 results, its first half "
                    + "\(firstHalf) 3000; the second half was counted on its own.\n"), "\(result.err)")
        let written = ids(result.out)
        #expect(written.count == Set(written).count && written.count == searches.count - 2)
    }

    /// helper-268: a machine's clock behind GitHub's planned the split through its own tomorrow, and the accounts
    /// created since were never asked for, exit 0. GitHub's `Date` (the harness's clock is 2027-01-15; GitHub's
    /// 60 days on) carries the plan through GitHub's tomorrow.
    @Test func aClockBehindGitHubsStillReachesEveryAccount() async throws {
        let github = ScriptedAnswers { _, index in
            var answer = ScriptedAnswers.search(total: "1", ids: [index + 1])
            answer.headers["Date"] = "Tue, 16 Mar 2027 08:00:00 GMT"
            return answer
        }
        let result = await split(github)
        #expect(result.status == 0, "\(result.err)")
        #expect(
            github.searches == [
                "type:user created:2007-10-20..2027-01-16", "type:user created:2027-01-17..2027-03-17",
            ])
        #expect(ids(result.out) == [1, 2])
    }

    @Test func theLargestCountEverywhereEndsAtOneSecond() async throws {
        let github = ScriptedAnswers { _, index in
            ScriptedAnswers.search(total: "9223372036854775807", ids: [index + 1])
        }
        let result = await split(github)
        // What no range can cut was read in part: status 1 (before: 0, a partial result that looked whole).
        #expect(result.status == 1, "\(result.err)")
        #expect(github.searches.count < 100)
        #expect(result.err.contains(" holds 9223372036854775807 results in one second"), "\(result.err)")
        #expect(result.err.contains("--split could not read 1 piece in full (named above)"), "\(result.err)")
    }

    @Test func countsThatNeverSettleStopAtTheQueryCapAndSaySo() async throws {
        // Over the cap and incomplete every time: nothing can be inferred, so every range is halved and both
        // halves asked, down to seconds: a bisection of hundreds of millions of ranges without the cap.
        #expect(SplitUserSearch.queryCap == 10_000)
        let github = ScriptedAnswers { _, index in
            ScriptedAnswers.search(total: "2000", incomplete: true, ids: [index + 1])
        }
        // The program's cap is 10,000 queries; a hundred shows the same stop without ten thousand requests.
        let result = await SplitUserSearch.$queryCap.withValue(100) { await split(github) }
        #expect(result.status == 1, "\(result.err)")
        // Single seconds cannot be halved: those reached before the cap were paged, each account once.
        let written = ids(result.out)
        #expect(written.count == Set(written).count)
        #expect(written.count == result.out.split(separator: "\n").count)
        // Then what the split found on the way (each second over the cap), and that a rerun starts over.
        #expect(
            result.err.hasPrefix(
                "gh-users: --split stopped at its cap of 100 search queries; narrow the query (type:, "
                    + "location:, followers: or another qualifier) so that it needs fewer.\n"), "\(result.err)")
        #expect(result.err.contains("holds 2000 results in one second, more than GitHub's 1000"))
        #expect(
            result.err.hasSuffix(
                "a rerun of a --split search starts again from its first piece: write it to a "
                    + "new file\n"))
        #expect(github.searches.count == 100)
    }
}

/// `search --split` when GitHub's search times out (`incomplete_results`: the count is of what it found in time).
/// The accounts are made here, each created at its own second (`created`); the script answers each piece from its
/// `created:` range, a hundred a page.
struct SplitIncompleteCommandTests {
    /// 2015-01-01T00:00:00Z.
    static let newYear2015: Int64 = 1_420_070_400

    /// Answers a split search over `created` (id: creation second): `found` says, for the accounts in a piece
    /// (in created order), which GitHub found in time, and nil when it found them all; a page is incomplete when
    /// its piece's count is, or when `laterPageIncomplete` and it is not the first.
    fileprivate static func script(
        _ created: [Int: Int64], laterPageIncomplete: Bool = false,
        found: @escaping @Sendable ([Int]) -> [Int]? = { _ in nil }
    ) -> ScriptedAnswers {
        ScriptedAnswers { target, _ in
            let items = URLComponents(string: target)?.queryItems ?? []
            let q = items.first { $0.name == "q" }?.value?.replacingOccurrences(of: "+", with: " ") ?? ""
            let number = items.first { $0.name == "page" }.flatMap { Int($0.value ?? "") } ?? 1
            let range = createdRange(q)
            let inRange = created.filter { range.contains($0.value) }.sorted { ($0.value, $0.key) < ($1.value, $1.key) }
            let all = inRange.map(\.key)
            let hits = found(all) ?? all
            let incomplete = hits.count < all.count || (laterPageIncomplete && number > 1)
            let page = Array(hits.dropFirst((number - 1) * 100).prefix(100))
            let next =
                hits.count > number * 100
                ? "/search/users?\(target.split(separator: "?")[1].split(separator: "&page=")[0])&page=\(number + 1)"
                : nil
            return ScriptedAnswers.Answer(
                headers: next.map { ["Link": "<\(ScriptedAnswers.base)\($0)>; rel=\"next\""] } ?? [:],
                body:
                    #"{"total_count":\#(hits.count),"incomplete_results":\#(incomplete),"items":\#(ScriptedAnswers.accounts(page))}"#
            )
        }
    }

    /// `script` over `created` and five more accounts (101 to 105) made in one second, 2015-01-01T00:10:30Z, of
    /// which GitHub finds 101 to 103 before its search times out, in any range that holds them.
    fileprivate static func withATimedOutSecond(_ created: [Int: Int64]) -> ScriptedAnswers {
        var created = created
        for id in 101...105 { created[id] = newYear2015 + 630 }
        return script(created) { all in all.contains(104) ? all.filter { $0 != 104 && $0 != 105 } : nil }
    }

    /// The `created:FIRST..LAST` of a split search's q, in Unix seconds, both ends included: a date is its whole
    /// UTC day.
    static func createdRange(_ q: String) -> ClosedRange<Int64> {
        let word = q.split(separator: " ").first { $0.hasPrefix("created:") } ?? ""
        let ends = word.dropFirst("created:".count).components(separatedBy: "..")
        func second(_ text: String, last: Bool) -> Int64 {
            let day = text.count == 10
            let date = (try? Date(day ? text + "T00:00:00Z" : text, strategy: .iso8601)) ?? .distantPast
            return Int64(date.timeIntervalSince1970) + (day && last ? CreatedRange.day - 1 : 0)
        }
        guard ends.count == 2 else { return Int64.min...Int64.max }
        return second(ends[0], last: false)...second(ends[1], last: true)
    }

    /// 3,000 accounts ten minutes apart, of which GitHub finds 900 in any piece of more than 900 before its
    /// search times out. The whole is counted 900, incomplete: it is cut like a piece over the cap, down to
    /// pieces GitHub counts in full, and every account is written once. Before: the whole's 900 were paged as
    /// if that were all, exit 0.
    @Test func anIncompleteCountUnderTheCapIsCutUntilItIsWhole() async throws {
        let created = Dictionary(uniqueKeysWithValues: (1...3_000).map { ($0, Self.newYear2015 + Int64($0) * 600) })
        let github = Self.script(created) { all in all.count > 900 ? Array(all.prefix(900)) : nil }
        let result = await github.run(["search", "type:user", "--split", "--all", "--format", "ndjson"])
        #expect(result.status == 0, "\(result.err)")
        let written = ids(result.out)
        #expect(written.elementsEqual(1...3_000), "\(written.count) written")
        #expect(!result.err.contains("timed out"), "\(result.err)")
        #expect(result.err.hasSuffix("no piece holds more than 1000 results.\n"), "\(result.err)")
    }

    /// Five accounts created in the same second, of which GitHub finds three before its search times out,
    /// whatever range holds them: every range that holds that second is cut, down to the second itself, which
    /// cannot be. Its three are written with everyone else, the second is named, and the status is 1. Before:
    /// the whole was paged, 53 accounts, exit 0.
    @Test func anIncompleteSecondIsWrittenNamedAndStatusOne() async throws {
        let created = Dictionary(uniqueKeysWithValues: (1...50).map { ($0, Self.newYear2015 + Int64($0) * 60) })
        let github = Self.withATimedOutSecond(created)
        let result = await github.run(["search", "type:user", "--split", "--all", "--format", "ndjson"])
        #expect(result.status == 1, "\(result.err)")
        let written = ids(result.out)
        #expect(written.count == Set(written).count)
        #expect(Set(written) == Set(Array(1...50) + [101, 102, 103]))
        #expect(
            result.err.contains(
                "gh-users: GitHub's search of created:2015-01-01T00:10:30Z..2015-01-01T00:10:30Z timed out before "
                    + "it finished (incomplete_results), and one second cannot be cut smaller: some of its accounts "
                    + "may be missing.\n"), "\(result.err)")
        #expect(
            result.err.hasSuffix(
                "gh-users: --split could not read 1 piece in full (named above): GitHub's search timed out, so some "
                    + "accounts may be missing; run the search again later, to a new file.\n"), "\(result.err)")
        #expect(github.searches.count < 100)
    }

    /// A piece counted in full whose second page GitHub answers incomplete: the page is written, the piece named,
    /// the status 1. Before: exit 0, with only "these results may be incomplete".
    @Test func anIncompleteLaterPageIsWrittenNamedAndStatusOne() async throws {
        let created = Dictionary(uniqueKeysWithValues: (1...150).map { ($0, Self.newYear2015 + Int64($0) * 60) })
        let github = Self.script(created, laterPageIncomplete: true)
        let result = await github.run(["search", "type:user", "--split", "--all", "--format", "ndjson"])
        #expect(result.status == 1, "\(result.err)")
        #expect(ids(result.out) == Array(1...150))
        #expect(
            result.err.contains("timed out before it finished (incomplete_results) on a later page: some of its "),
            "\(result.err)")
        #expect(result.err.hasSuffix("run the search again later, to a new file.\n"), "\(result.err)")
    }

    /// One second holds 1,005 accounts (counted in full, over the cap) and another five, of which GitHub finds
    /// three: two pieces read in part, for two reasons, and the closing error says both. Before: "1 piece", and
    /// only the time-out.
    @Test func aSecondOverTheCapAndOneTimedOutAreBothSaid() async throws {
        let full = Self.newYear2015 + 60
        let created = Dictionary(uniqueKeysWithValues: (1_001...2_005).map { ($0, full) })
        let result = await Self.withATimedOutSecond(created).run(
            ["search", "type:user", "--split", "--all", "--format", "ndjson"])
        #expect(result.status == 1, "\(result.err)")
        let written = ids(result.out)
        #expect(written.count == Set(written).count)
        #expect(Set([101, 102, 103]).isSubset(of: written) && !written.contains(104))
        #expect(result.err.contains(" holds 1005 results in one second"), "\(result.err)")
        #expect(
            result.err.hasSuffix(
                "gh-users: --split could not read 2 pieces in full (named above): no created: range can cut one "
                    + "second, so accounts past its first 1,000 are missing; GitHub's search timed out, so some "
                    + "accounts may be missing; run the search again later, to a new file.\n"), "\(result.err)")
    }
}

/// `search --split` when GitHub's results move while a piece is paged: 250 accounts, in one piece of three pages
/// counted 250. A page that `shifts` is served as if account 1 were gone, so a second page starts at 102 and 101 is
/// on no page (helper-232's hostile server lost 5 of 3,000 accounts this way, with exit 0).
struct SplitShiftCommandTests {
    /// `loops`: the page links to itself rather than to the next. `endless`: the list never ends, each page past
    /// its last serving that last page again and linking on.
    private static func script(
        shifts: @escaping @Sendable (_ page: Int, _ index: Int) -> Bool,
        loops: @escaping @Sendable (_ page: Int, _ index: Int) -> Bool = { _, _ in false },
        endless: @escaping @Sendable (_ index: Int) -> Bool = { _ in false }
    ) -> ScriptedAnswers {
        ScriptedAnswers { target, index in
            let number =
                URLComponents(string: target)?.queryItems?.first { $0.name == "page" }.flatMap { Int($0.value ?? "") }
                ?? 1
            let listed = shifts(number, index) ? Array(2...250) : Array(1...250)
            let query = target.split(separator: "?")[1].split(separator: "&page=")[0]
            let following = loops(number, index) ? number : number + 1
            let more = listed.count > number * 100 || endless(index)
            let next = more ? "/search/users?\(query)&page=\(following)" : nil
            var answer = ScriptedAnswers.page(listed.dropFirst(min(number - 1, 2) * 100).prefix(100), next: next)
            answer.body = #"{"total_count":250,"incomplete_results":false,"items":\#(answer.body)}"#
            return answer
        }
    }

    /// The second page of the first read shifts; the piece ends 249 of 250, is read again, and 101 is written
    /// after the rest. Before: 249 accounts and exit 0.
    @Test func aPieceShortOfItsCountIsReadAgainAndWrittenWhole() async throws {
        let github = Self.script { page, index in page == 2 && index == 1 }
        let result = await github.run(["search", "type:user", "--split", "--all", "--format", "ndjson"])
        #expect(result.status == 0, "\(result.err)")
        let written = ids(result.out)
        #expect(written == Array(1...100) + Array(102...250) + [101])
        #expect(github.searches.count == 6)
        #expect(result.err == "gh-users: --split used 6 search queries; no piece holds more than 1000 results.\n")
    }

    /// Every second page shifts: read again, the piece is still one short; it is named, the status is 1.
    @Test func aPieceStillShortWhenReadAgainIsNamedAndStatusOne() async throws {
        let github = Self.script { page, _ in page == 2 }
        let result = await github.run(["search", "type:user", "--split", "--all", "--format", "ndjson"])
        #expect(result.status == 1, "\(result.err)")
        #expect(ids(result.out) == Array(1...100) + Array(102...250))
        #expect(github.searches.count == 6)
        #expect(
            result.err.contains(
                " moved between its pages, read twice: 249 of the 250 accounts it counted were found; some may be "
                    + "missing.\n"), "\(result.err)")
        #expect(
            result.err.hasSuffix(
                "gh-users: --split could not read 1 piece in full (named above): GitHub's results moved between "
                    + "pages, so some accounts may be missing; run the search again later, to a new file.\n"),
            "\(result.err)")
    }

    /// Read again, the second page links to itself (helper-234's server): the re-read ends there rather than
    /// going round until the query cap, and the piece, still short, is named. Before: 2,704 requests in 120 s.
    @Test func aReReadWhoseLinkGoesRoundEndsAndTheShortPieceIsNamed() async throws {
        let github = Self.script(shifts: { page, _ in page == 2 }, loops: { page, index in page == 2 && index >= 3 })
        let result = await github.run(["search", "type:user", "--split", "--all", "--format", "ndjson"])
        #expect(result.status == 1, "\(result.err)")
        #expect(ids(result.out) == Array(1...100) + Array(102...250))
        #expect(github.searches.count == 5)
        #expect(result.err.contains(" read twice: 249 of the 250 accounts it counted were found"), "\(result.err)")
    }

    /// Read again, the piece never ends (each page links to a new one): the re-read stops after the 10 pages
    /// GitHub serves of one query (1,000 results), and the piece is named.
    @Test func aReReadThatNeverEndsStopsAtWhatOneQueryServes() async throws {
        let github = Self.script(shifts: { page, _ in page == 2 }, endless: { index in index >= 3 })
        let result = await github.run(["search", "type:user", "--split", "--all", "--format", "ndjson"])
        #expect(result.status == 1, "\(result.err)")
        #expect(ids(result.out) == Array(1...100) + Array(102...250))
        #expect(github.searches.count == 3 + 10)
        #expect(result.err.contains(" read twice: 249 of the 250 accounts it counted were found"), "\(result.err)")
    }
}

/// The search wait names the search bucket, split or not.
struct SearchWaitCommandTests {
    @Test(arguments: [["--wait-on-rate-limit"], ["--split"]])
    func aSpentSearchLimitIsWaitedOutUnderItsOwnName(_ flags: [String]) async throws {
        let github = ScriptedAnswers { _, index in
            guard index == 0 else { return ScriptedAnswers.search(total: "1", ids: [1]) }
            let reset = Int(CommandHarness.now.timeIntervalSince1970) + 1
            return ScriptedAnswers.Answer(
                status: 403,
                headers: [
                    "x-ratelimit-limit": "30", "x-ratelimit-remaining": "0", "x-ratelimit-reset": "\(reset)",
                    "x-ratelimit-resource": "search", "x-ratelimit-used": "30",
                ],
                body: #"{"message":"API rate limit exceeded for user ID 1."}"#)
        }
        let result = await github.run(["search", "mona", "--format", "ndjson"] + flags)
        #expect(result.status == 0, "\(result.err)")
        #expect(ids(result.out) == [1])
        // Before: "the rate limit is spent", the core bucket's words.
        #expect(result.err.hasPrefix("gh-users: the search rate limit is spent; waiting "), "\(result.err)")
        #expect(github.searches.count == 2)
    }
}

/// Set operations hold a list only as far as the profile's counts (and a margin) allow.
struct SetOperationBoundsCommandTests {
    /// mona's profile with these counts; `endless` is a list without end (pages of 100 new ids, each linking
    /// to the next), the other list is [10, 11, 12].
    private func graph(followers: Int, following: Int, endless: String) -> ScriptedAnswers {
        ScriptedAnswers { target, _ in
            let path = target.split(separator: "?").first.map(String.init) ?? target
            switch path {
            case "/users/mona":
                return .init(
                    body: #"{"login":"mona","id":1,"type":"User","followers":\#(followers),"following":\#(following)}"#)
            case "/users/mona/" + endless:
                let number = Int(target.split(separator: "&page=").dropFirst().first ?? "") ?? 1
                return ScriptedAnswers.page(
                    number * 1_000..<number * 1_000 + 100, next: "\(path)?per_page=100&page=\(number + 1)")
            default:
                return ScriptedAnswers.page([10, 11, 12], next: nil)
            }
        }
    }

    @Test(arguments: [
        ("followers", "--mutual", "followers"), ("followers", "--not-followed-back", "followers"),
        ("following", "--not-following-back", "following"),
    ])
    func aHeldListThatNeverEndsStopsAtItsProfilesCountAndAMargin(command: String, flag: String, endless: String)
        async throws
    {
        // The endless list's profile count is the smaller: it is the one held.
        let counts = endless == "followers" ? (followers: 3, following: 500) : (followers: 500, following: 3)
        let github = graph(followers: counts.followers, following: counts.following, endless: endless)
        let result = await github.run([command, "mona", flag, "--all", "--format", "ndjson"])
        // Before: the list was held without end.
        #expect(result.status == 1, "\(result.err)")
        #expect(result.out.isEmpty)
        #expect(
            result.err
                == "gh-users: mona's \(endless) ran past 1003 accounts (the 3 its profile counts, plus a margin of "
                + "1000), so \(flag) stopped rather than read a list that does not end\n")
        #expect(github.requests.filter { $0.hasPrefix("/users/mona/" + endless) }.count == 11)
    }

    @Test func aStreamedListThatNeverEndsStopsAtItsBoundWithoutWritingForever() async throws {
        // The following (3) is held; the followers stream past it, and none of them is followed back.
        let github = graph(followers: 500, following: 3, endless: "followers")
        let result = await github.run(["followers", "mona", "--mutual", "--all", "--format", "ndjson"])
        #expect(result.status == 1, "\(result.err)")
        #expect(result.out.isEmpty)
        #expect(
            result.err
                == "gh-users: mona's followers ran past 1500 accounts (the 500 its profile counts, plus a margin of "
                + "1000), so --mutual stopped rather than read a list that does not end\n")
        #expect(github.requests.filter { $0.hasPrefix("/users/mona/followers") }.count == 16)
    }

    @Test func aListWithinItsBoundIsComparedWhole() async throws {
        let github = ScriptedAnswers { target, _ in
            let path = target.split(separator: "?").first.map(String.init) ?? target
            switch path {
            case "/users/mona":
                return .init(body: #"{"login":"mona","id":1,"type":"User","followers":4,"following":2}"#)
            case "/users/mona/followers": return ScriptedAnswers.page([10, 11, 12, 13], next: nil)
            default: return ScriptedAnswers.page([11, 13], next: nil)
            }
        }
        let result = await github.run(["followers", "mona", "--mutual", "--all", "--format", "ndjson"])
        #expect(result.status == 0, "\(result.err)")
        #expect(ids(result.out) == [11, 13])
    }

    /// A held list whose `Link` comes back to a page already read is refused, not cut: cut, the accounts after it
    /// would be written as not followed back.
    @Test func aHeldListWhoseLinkComesBackIsStatusOneNotACutSet() async throws {
        let github = ScriptedAnswers { target, _ in
            let path = target.split(separator: "?").first.map(String.init) ?? target
            switch path {
            case "/users/mona":
                return .init(body: #"{"login":"mona","id":1,"type":"User","followers":3,"following":3}"#)
            case "/users/mona/following":
                // Page 2 links to itself.
                return target.contains("page=2")
                    ? ScriptedAnswers.page([11], next: "/users/mona/following?per_page=100&page=2")
                    : ScriptedAnswers.page([10], next: "/users/mona/following?per_page=100&page=2")
            default: return ScriptedAnswers.page([10, 11, 12], next: nil)
            }
        }
        let result = await github.run(["followers", "mona", "--not-followed-back", "--all", "--format", "ndjson"])
        // Before: exit 0 with 12 written as not followed back, from a list read in part.
        #expect(result.status == 1, "\(result.err)")
        #expect(result.out.isEmpty)
        #expect(
            result.err.contains("the next page's link or cursor leads back to a page already read"), "\(result.err)")
    }
}

/// An empty page with a `next` link is followed, never taken for the end of the list.
struct EmptyPageCommandTests {
    @Test(arguments: [(["list"], "/users"), (["followers", "mona"], "/users/mona/followers")])
    func anEmptyPageWithANextLinkIsFollowedToTheRest(command: [String], path: String) async throws {
        let github = ScriptedAnswers { target, _ in
            if target.contains("p=2") { return ScriptedAnswers.page([Int](), next: path + "?p=3") }
            if target.contains("p=3") { return ScriptedAnswers.page([4, 5], next: nil) }
            return ScriptedAnswers.page([1, 2], next: path + "?p=2")
        }
        let result = await github.run(command + ["--all", "--format", "ndjson"])
        // Before: exit 0 with 1 and 2 only, page 3 never asked for, and nothing said.
        #expect(result.status == 0, "\(result.err)")
        #expect(ids(result.out) == [1, 2, 4, 5])
        #expect(result.err.isEmpty, "\(result.err)")
        #expect(github.requests.count == 3)
    }

    @Test(arguments: [(["list"], "/users"), (["followers", "mona"], "/users/mona/followers")])
    func anEndlessChainOfEmptyPagesStopsWithStatusOneAndTheResumeHint(command: [String], path: String)
        async throws
    {
        let github = ScriptedAnswers { target, _ in
            guard let number = target.split(separator: "p=").dropFirst().first.flatMap({ Int($0) }) else {
                return ScriptedAnswers.page([1, 2], next: path + "?p=2")
            }
            return ScriptedAnswers.page([Int](), next: path + "?p=\(number + 1)")
        }
        let result = await github.run(command + ["--all", "--format", "ndjson"])
        #expect(result.status == 1, "\(result.err)")
        #expect(ids(result.out) == [1, 2])
        #expect(
            result.err.hasPrefix(
                "gh-users: malformed response from GET \(ScriptedAnswers.base)\(path)?p=12: 10 pages in a row were "
                    + "empty yet linked to a next one, so paging stopped\n"), "\(result.err)")
        if command == ["list"] { #expect(result.err.contains("To continue from here: gh-users list --since 2")) }
        #expect(github.requests.count == 11)
    }
}
