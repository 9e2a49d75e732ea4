import Data
import Domain
import Foundation

/// The follow graph's set operations on one account: its followers, or whom it follows (the output list),
/// kept or dropped by whether they are in the other list. Memory grows with the smaller of the two lists:
/// when the other list is no larger, its ids are held and the output list streams past them; when the output
/// list is the smaller, its records are held while the other list streams, and what is left is written at the
/// end. Either way the cost is the pages of both lists; the sizes come from the account's profile, and bound
/// what may be held: a list that runs far past its profile's count is refused rather than held without end.
struct FollowGraph: Sendable {
    enum Filter: Sendable, Equatable {
        /// In both lists (`--mutual`).
        case mutual
        /// In the output list only (`--not-followed-back`, `--not-following-back`).
        case difference
    }

    let github: GitHubReader
    /// nil: the token's own account.
    let login: Login?
    let output: UserRelation
    let filter: Filter
    /// The sizes of both lists when the caller already read the account's profile (`--changes`); nil: read it.
    var knownCounts: Counts? = nil

    private var other: UserRelation { output == .followers ? .following : .followers }

    /// The set's pages, up to `limit`: what the filter keeps of the output list, each account once.
    /// `state` says, once the pages are read, how many each list held (`FollowGraphState.emptyList`).
    func pages(limit: ItemLimit, perPage: Int, state: FollowGraphState = FollowGraphState()) -> PagedListViewModel<User>
    {
        PagedListViewModel(
            limit: limit, pages: FollowGraphPages(graph: self, perPage: perPage, state: state),
            admitting: .keeping(HeldIDsFilter(state: state, filter: filter)))
    }

    /// The set's first page: the other list's ids held and the output list's first page, bounded; or, when the
    /// output list is the smaller, the whole set worked out at once, as one page.
    fileprivate func firstPage(perPage: Int, state: FollowGraphState) async throws(DomainError) -> Page<User> {
        let counts = try await profileCounts()
        if Self.holdsTheOtherList(output: counts.of(output), other: counts.of(other)) {
            var held = Set<Int64>()
            try await stream(other, count: counts.of(other), state: state) { page in
                held.formUnion(page.map(\.id))
                state.listed(other, page.count)
            }
            try refuseEmptyOther(held.count, counts)
            let outputBound = Self.bound(forCount: counts.of(output))
            state.hold(
                held, outputLimit: outputBound,
                failure: overBound(output, count: counts.of(output), bound: outputBound))
            let first = try state.counted(try await github.firstPage(outputList, perPage: perPage), of: output)
            state.noteAge(of: first)
            try state.refuseTwoAges()
            return first
        }
        // The output list is the smaller: hold it, stream the other, and keep what the filter asks for.
        var candidates: [User] = []
        try await stream(output, count: counts.of(output), state: state) { candidates += $0 }
        state.listed(output, candidates.count)
        var inOther = Set<Int64>()
        let candidateIDs = Set(candidates.map(\.id))
        var otherCount = 0
        try await stream(other, count: counts.of(other), state: state) { page in
            for user in page where candidateIDs.contains(user.id) { inOther.insert(user.id) }
            state.listed(other, page.count)
            otherCount += page.count
        }
        try refuseEmptyOther(otherCount, counts)
        try state.refuseTwoAges()
        return Page(items: candidates.filter { inOther.contains($0.id) == (filter == .mutual) }, next: nil)
    }

    /// A set worked out from an other list that came back empty while the profile counts people in it would be
    /// no set at all (`--not-following-back` would be everyone followed, and a clean-up would unfollow them all):
    /// GitHub answers an empty list for one the token may not see.
    private func refuseEmptyOther(_ read: Int, _ counts: Counts) throws(DomainError) {
        guard read == 0, let count = counts.of(other), count > 0 else { return }
        throw .refused(
            "\(login.map { "\($0)'s" } ?? "your") \(other.rawValue) came back empty while the profile counts \(count), "
                + "so the set was not worked out: GitHub answers an empty list for one the token may not see")
    }

    /// The list written: the account's followers, or whom it follows.
    fileprivate var outputList: ListResource<User> { GitHubEndpoints.relations(output, of: login) }

    /// The sizes of both lists, as the account's profile gives them.
    struct Counts: Sendable {
        let followers: Int?
        let following: Int?

        func of(_ relation: UserRelation) -> Int? { relation == .followers ? followers : following }

        /// The counts a profile gives; a negative count is no size at all.
        init(_ profile: User) {
            func size(_ count: Int?) -> Int? { count.flatMap { $0 >= 0 ? $0 : nil } }
            followers = size(profile.followers)
            following = size(profile.following)
        }
    }

    /// True when the other list is no larger than the output list, or when the sizes are not known.
    static func holdsTheOtherList(output: Int?, other: Int?) -> Bool {
        guard let output, let other else { return true }
        return other <= output
    }

    /// The most accounts one list may bring, whatever its profile counts: a profile is GitHub's word, and one
    /// that claims `Int.max` followers must not let a list grow memory without end. It is also what a snapshot
    /// can hold: an account takes at most 78 bytes of one (a 19-digit id, a 39-character login), so 2,000,000
    /// take at most 156 MB, under what `FollowSnapshotFile` reads back (256 MB). GitHub's most followed account
    /// has about 280,000 followers. Task-local so a test can lower it rather than page millions of accounts.
    @TaskLocal static var maximumAccounts = 2_000_000

    /// How many accounts a list may bring before it is taken for one that never ends: the profile's count and
    /// a margin for accounts that come while it is read (a tenth, at least 1,000); without a count, a million;
    /// never more than `maximumAccounts`.
    static func bound(forCount count: Int?) -> Int {
        guard let count, count >= 0 else { return min(1_000_000, maximumAccounts) }
        guard count < maximumAccounts else { return maximumAccounts }
        return min(count + max(1_000, count / 10), maximumAccounts)
    }

    private func profileCounts() async throws(DomainError) -> Counts {
        if let knownCounts { return knownCounts }
        let profile = try await github.fetch(
            login.map(GitHubEndpoints.user) ?? GitHubEndpoints.authenticatedUser.map(\.user))
        return Counts(profile)
    }

    /// Every page of one list, in order. An empty page that links on is followed, as the paged lists do. A
    /// `Link` back to a page already read, a list that runs past `bound(forCount:)`, or page after empty page is
    /// refused with exit 1, as the paged lists refuse them: a set worked out from part of a list would be wrong.
    /// Each page's age is noted in `state` (`FollowGraphState.refuseTwoAges`).
    private func stream(_ relation: UserRelation, count: Int?, state: FollowGraphState, _ body: ([User]) -> Void)
        async throws(DomainError)
    {
        let list = GitHubEndpoints.relations(relation, of: login)
        let bound = Self.bound(forCount: count)
        var page = try await github.firstPage(list, perPage: PagingPlan.maximumPerPage)
        // By digest: a hostile server's next links may each be 64 KB.
        var visited = URLDigests()
        var read = 0
        var emptyInARow = 0
        while true {
            state.noteAge(of: page)
            read += page.items.count
            if read > bound { throw overBound(relation, count: count, bound: bound) }
            body(page.items)
            emptyInARow = page.items.isEmpty ? emptyInARow + 1 : 0
            guard let next = page.next else { return }
            guard visited.insert(next.url) else { throw PagedListViewModel<User>.linkCycle(next: next) }
            if emptyInARow >= PagedListViewModel<User>.maximumEmptyPagesInARow {
                throw PagedListViewModel<User>.emptyPages(emptyInARow, next: next)
            }
            page = try await github.page(list, at: next)
        }
    }

    private func overBound(_ relation: UserRelation, count: Int?, bound: Int) -> DomainError {
        Self.overBound(whose: login.map { "\($0)'s" } ?? "your", relation, count: count, bound: bound, flag: flag)
    }

    /// Why a list that ran past `bound` was stopped; `flag` is the option that read it.
    static func overBound(whose: String, _ relation: UserRelation, count: Int?, bound: Int, flag: String)
        -> DomainError
    {
        let expected: String
        if bound == maximumAccounts {
            expected =
                (count.map { "its profile counts \($0); " } ?? "") + "\(bound) is the most gh-users reads of one list"
        } else {
            expected =
                count.map { "the \($0) its profile counts, plus a margin of \(bound - $0)" } ?? "a list of unknown size"
        }
        return .boundReached(
            "\(whose) \(relation.rawValue) ran past \(bound) accounts (\(expected)), so \(flag) stopped rather "
                + "than read a list that does not end")
    }

    /// The option that asked for this set operation.
    private var flag: String {
        switch (filter, output) {
        case (.mutual, _): return "--" + FollowListCommand.mutual.name
        case (.difference, .followers): return "--" + FollowListCommand.notFollowedBack.name
        case (.difference, .following): return "--" + FollowListCommand.notFollowingBack.name
        }
    }
}

/// A set operation's pages: its first (`FollowGraph.firstPage`), then the output list's as its links name them,
/// streamed past the held ids and bounded like the held list: a filter that keeps nothing would otherwise page a
/// list without end and write nothing.
private struct FollowGraphPages: PageSource {
    let graph: FollowGraph
    let perPage: Int
    let state: FollowGraphState

    func page(at cursor: PageCursor?, nextPage: NextPageListener?) async throws(DomainError) -> Page<User> {
        guard let cursor else { return try await graph.firstPage(perPage: perPage, state: state) }
        let page = try state.counted(try await graph.github.page(graph.outputList, at: cursor), of: graph.output)
        state.noteAge(of: page)
        try state.refuseTwoAges()
        return page
    }
}

/// The set operation's rule while the output list streams past the other list's ids: an account already written
/// is dropped, and so is one the filter refuses. While no ids are held (the output list was the smaller, and the
/// set is worked out before the one page it makes), every account is kept.
private struct HeldIDsFilter: ItemFilter {
    let state: FollowGraphState
    let filter: FollowGraph.Filter

    func keeps(_ user: User) -> Bool {
        guard let isHeld = state.holds(user.id) else { return true }
        return isHeld == (filter == .mutual)
    }
}

/// What one run of a set operation learned before its output list streams: the other list's ids. The set's view
/// model asks no page early, so its pages are counted one after another; the lock makes the type's `Sendable`
/// true whoever calls it, so that a view model asking pages ahead could not lose a count.
final class FollowGraphState: @unchecked Sendable {
    private let lock = NSLock()
    private var held: Set<Int64>?
    /// How many accounts the streamed output list may bring, and the failure past that.
    private var outputBound: (limit: Int, failure: DomainError)?
    private var outputRead = 0
    /// How many accounts each list brought.
    private var listedCounts: [UserRelation: Int] = [:]
    /// The ages of the pages of either list.
    private var ages = AnswerAges()

    /// Notes whether the cache answered `page`, of either list.
    func noteAge(of page: Page<User>) {
        lock.withLock { ages.note(page.cachedCopy) }
    }

    /// A set worked out from pages of two ages, some the cache answered for want of the network and some GitHub
    /// gave now, may hold people it should not: `--not-following-back` would name someone who follows back, and a
    /// clean-up would unfollow them. It is refused before the page that joins them is written (a review's set
    /// whose first page and other list came from the cache, and its next pages live, was written whole). Pages
    /// all from the cache are the lists as GitHub last gave them, which the copies' warnings date.
    func refuseTwoAges() throws(DomainError) {
        guard let copy = lock.withLock({ ages.twoAges }) else { return }
        throw .refused(
            copy.said + ", and other pages by GitHub now: a set worked out from lists of two ages may hold people it "
                + "should not, so it stopped before them. Run it again once GitHub can be reached.")
    }

    /// Counts `count` accounts of `relation`'s list.
    func listed(_ relation: UserRelation, _ count: Int) {
        lock.withLock { listedCounts[relation, default: 0] += count }
    }

    /// How many accounts `relation`'s list brought, for `ListCollapse` to weigh against its profile's count.
    func count(of relation: UserRelation) -> Int {
        lock.withLock { listedCounts[relation, default: 0] }
    }

    /// Whether the other list holds `id`; nil while no ids are held (the output list is the one held).
    func holds(_ id: Int64) -> Bool? {
        lock.withLock { held?.contains(id) }
    }

    /// Holds the other list's ids, and bounds the output list that streams past them.
    func hold(_ ids: Set<Int64>, outputLimit: Int, failure: DomainError) {
        lock.withLock {
            held = ids
            outputBound = (outputLimit, failure)
        }
    }

    /// Counts a page of the streamed output list (`relation`'s) against its bound.
    func counted(_ page: Page<User>, of relation: UserRelation) throws(DomainError) -> Page<User> {
        let failure: DomainError? = lock.withLock {
            listedCounts[relation, default: 0] += page.items.count
            guard let outputBound else { return nil }
            outputRead += page.items.count
            return outputRead > outputBound.limit ? outputBound.failure : nil
        }
        if let failure { throw failure }
        return page
    }
}
