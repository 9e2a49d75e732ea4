import Domain

/// One request of the access map's read: the next listing page, or a batch of collaborator pages.
enum AccessWork: Sendable, Equatable {
    case listing(after: String?)
    case batch([AccessPageAsk])
}

/// What a request came back as.
enum AccessOutcome: Sendable {
    case listed(names: [String], next: String?, cost: Int?, total: Int?)
    case failed(GraphQLBatchFailure)
    case answered([AccessPageAsk], [AccessPageAnswer], cost: Int?)
    case refused([AccessPageAsk], GraphQLBatchFailure)
}

/// The bookkeeping of `AccessReading`, kept by the one task that sends and receives, so it is a plain value
/// tested without a server: which repositories are listed, which pages are to be asked (each once: a page is
/// asked only from the cursor the page before it gave, or again after a batch refused whole), which
/// repositories are whole, and which is handed on next. A cursor that comes back (the listing's, or a
/// repository's collaborators') is a server going round in circles, malformed, never paged again: the cursors
/// are all that is remembered, one a page, and a repository's are let go once it is whole.
struct AccessSchedule {
    struct Slot {
        let repository: String
        /// Its people so far, each once: an edge whose account came before (a page that repeats one, or a
        /// list that shifted between pages) is not kept again, the first kept, as a REST list's `SeenIDs` does.
        var edges: [AccessEdge] = []
        /// The account ids of `edges`.
        var ids: Set<Int64> = []
        /// Why GitHub would not show its collaborators, if it would not.
        var unreadable: String?
        /// No such repository: gone since it was listed, or never there.
        var gone = false
        var done = false
        /// The cursors its collaborators were asked after, by digest, until it is whole: one that comes back is
        /// a cycle.
        var cursors = URLDigests()
        /// Pages in a row that brought no one new and said there is more (`staleLimit`).
        var stale = 0
    }

    /// Every repository listed, in the order GitHub listed them.
    private(set) var slots: [Slot] = []
    /// Slot indices by name, case aside.
    private var position: [String: Int] = [:]
    /// Places in the map's order by name, case aside, once the listing is whole.
    private var rank: [String: Int] = [:]
    /// The slots in the map's order, once the listing is whole: GitHub lists by name, but in its own collation
    /// (which may put `a_b` after `ab`), so nothing is handed on before every name is known.
    private var order: [Int] = []
    /// How many of `order` have been handed on.
    private var handed = 0
    /// First pages asked.
    private var begun = 0
    /// First pages not yet asked, by slot index: as listed, then in the map's order once the listing is whole.
    private var fresh: [Int] = []
    private var freshStart = 0
    /// Pages after a cursor, and pages of a refused batch to ask again.
    private var pending: [AccessPageAsk] = []
    private var listingCursor: String?
    /// The cursors the listing was asked after, by digest: one that comes back is a cycle.
    private var listingCursors = URLDigests()
    /// Listing pages in a row that brought no repository new and said there is more (`staleLimit`).
    private var listingStale = 0
    private var listingDone = false
    private var listingInFlight = false
    /// The people held in repositories not yet handed on (`heldBudget`).
    private(set) var held = 0
    /// How many repositories the listing's first page counts (`totalCount`).
    private(set) var counted: Int?
    private var sizing: GraphQLBatchSizing
    private let lookahead: Int
    /// A resumed map's last repository written: it and every repository before it are left out.
    private let after: String?

    init(batchSize: Int, lookahead: Int, after: String? = nil) {
        sizing = GraphQLBatchSizing(maximum: batchSize)
        self.lookahead = lookahead
        self.after = after
    }

    /// Every repository listed has been handed on, and nothing more is to come.
    var isFinished: Bool { listingDone && handed == slots.count && pending.isEmpty }

    /// Repositories listed; a name listed before (a listing that shifted under the read) is not listed twice,
    /// and one at or before `after` not at all. `next` nil ends the listing: the map's order is known, and the
    /// first pages not yet asked go in it.
    mutating func listed(_ names: [String], next: String?) {
        for name in names where position[name.lowercased()] == nil {
            // Names are unique case aside: one spelt otherwise is the same repository.
            if let after, name.lowercased() <= after.lowercased() { continue }
            position[name.lowercased()] = slots.count
            fresh.append(slots.count)
            slots.append(Slot(repository: name))
        }
        listingCursor = next
        listingDone = next == nil
        guard listingDone else { return }
        let names = slots.map(\.repository)
        let precedes = { (lhs: Int, rhs: Int) in AccessOrder.precedes(names[lhs], names[rhs]) }
        order = slots.indices.sorted(by: precedes)
        fresh = fresh[freshStart...].sorted(by: precedes)
        freshStart = 0
        for (place, index) in order.enumerated() { rank[slots[index].repository.lowercased()] = place }
    }

    /// Repositories listed that are known not to be there before any page is asked (`--repo` names GitHub finds
    /// nowhere in the organization): handed on as gone in their place, and never asked for.
    mutating func gone(_ names: [String]) {
        let indices = Set(names.compactMap { position[$0.lowercased()] })
        for index in indices {
            slots[index].gone = true
            slots[index].done = true
        }
        fresh = Array(fresh[..<freshStart]) + fresh[freshStart...].filter { !indices.contains($0) }
    }

    /// The next request to send, if one may go now: the next listing page, as soon as the one before is in;
    /// then pages of repositories already begun (they hold back the ones after them), then first pages within
    /// the lookahead (`mayBegin`).
    mutating func nextWork() -> AccessWork? {
        if !listingDone, !listingInFlight {
            listingInFlight = true
            return .listing(after: listingCursor)
        }
        if held > Self.heldBudget { return nextWorkWithin() }
        var asks: [AccessPageAsk] = []
        let places = listingDone ? rank : position
        pending.sort { (places[$0.repository.lowercased()] ?? 0) < (places[$1.repository.lowercased()] ?? 0) }
        while asks.count < sizing.size, !pending.isEmpty {
            asks.append(pending.removeFirst())
        }
        while asks.count < sizing.size, freshStart < fresh.count, mayBegin(fresh[freshStart]) {
            asks.append(AccessPageAsk(repository: slots[fresh[freshStart]].repository, cursor: nil))
            freshStart += 1
            begun += 1
        }
        if freshStart > 1024 {
            fresh.removeFirst(freshStart)
            freshStart = 0
        }
        return asks.isEmpty ? nil : .batch(asks)
    }

    /// The people the repositories not yet handed on may hold before only the next to hand on is asked for: a
    /// repository is handed on whole, in the map's order, so those read ahead of it wait in memory, and a server
    /// whose every repository lists people without end (each up to `maximumListed`) grew a run to 2.75 GB with 20
    /// of them. A budget of about 150 MB of records; GitHub's repositories, of up to a few hundred people a page
    /// of them, never come near it. Task-local so a test can lower it.
    @TaskLocal package static var heldBudget = 1_000_000

    /// Past the budget: a page of the next repository to hand on alone (its first, or the one after its last
    /// read), once the map's order is known, and none while one is in flight. Handed on, it takes its people
    /// out of memory, and the batches go on as before once under the budget.
    private mutating func nextWorkWithin() -> AccessWork? {
        guard listingDone, handed < order.count else { return nil }
        let next = order[handed]
        if let index = pending.firstIndex(where: { position[$0.repository.lowercased()] == next }) {
            return .batch([pending.remove(at: index)])
        }
        guard freshStart < fresh.count, fresh[freshStart] == next else { return nil }
        freshStart += 1
        begun += 1
        return .batch([AccessPageAsk(repository: slots[next].repository, cursor: nil)])
    }

    /// Whether the repository at `slot` may be begun: before the listing is whole, while fewer than the lookahead
    /// are begun; after, while it is fewer than the lookahead past the next to hand on in the map's order. The
    /// next to hand on is always within it, however GitHub's listing ordered it, so the read never waits on a
    /// repository it will not ask for.
    private func mayBegin(_ slot: Int) -> Bool {
        guard listingDone else { return begun < lookahead }
        return (rank[slots[slot].repository.lowercased()] ?? 0) < handed + lookahead
    }

    /// Takes a request's outcome; returns the points it cost. A failure that stops the run is thrown.
    mutating func take(_ outcome: AccessOutcome) throws(DomainError) -> Int {
        switch outcome {
        case .listed(let names, let next, let cost, let total):
            listingInFlight = false
            counted = counted ?? total
            if let next, !listingCursors.insert(next) { throw Self.cycle("the repository listing's") }
            listingStale = try Self.stale(
                after: listingStale, more: next != nil, new: names.contains { position[$0.lowercased()] == nil },
                of: "the repository listing's")
            listed(names, next: next)
            try Self.bounded(slots.count, of: "the repository listing's", counting: "repositories")
            return max(0, cost ?? 0)
        case .failed(let failure):
            listingInFlight = false
            throw Self.stopping(failure)
        case .answered(let asks, let answers, let cost):
            sizing.succeeded(count: asks.count)
            for (ask, answer) in zip(asks, answers) {
                guard let index = position[ask.repository.lowercased()] else { continue }
                switch answer {
                case .page(let edges, let next):
                    let known = slots[index].ids.count
                    for edge in edges where slots[index].ids.insert(edge.id).inserted {
                        slots[index].edges.append(edge)
                        held += 1
                    }
                    try Self.bounded(
                        slots[index].ids.count, of: "\(ask.repository)'s collaborators'", counting: "people")
                    slots[index].stale = try Self.stale(
                        after: slots[index].stale, more: next != nil, new: slots[index].ids.count > known,
                        of: "\(ask.repository)'s collaborators'")
                    if let next {
                        guard slots[index].cursors.insert(next) else {
                            throw Self.cycle("\(ask.repository)'s collaborators'")
                        }
                        pending.append(AccessPageAsk(repository: ask.repository, cursor: next))
                    } else {
                        slots[index].done = true
                        slots[index].cursors = URLDigests()
                    }
                case .unreadable(let reason):
                    slots[index].unreadable = reason
                    slots[index].done = true
                case .gone:
                    slots[index].gone = true
                    slots[index].done = true
                }
            }
            return max(0, cost ?? 0)
        case .refused(let asks, let failure):
            guard case .tooLarge(let reason) = failure else { throw Self.stopping(failure) }
            switch sizing.refused(count: asks.count) {
            case .retry, .single:
                // A page of one is asked again too (a passing 502 or 504 ended the map at once before): REST has
                // no permission sources to read it from instead, and refusals in a row still stop the run.
                pending = asks + pending
                return 0
            case .stop(let refusals):
                throw .refused(
                    "GitHub's GraphQL API refused \(refusals) batches of collaborator pages in a row, the last of "
                        + "\(asks.count), however small they were made: \(reason)")
            }
        }
    }

    /// Pages in a row that bring nothing new while saying there is more, taken for a server that will never send
    /// anything more, as a REST list's empty pages are (`PagedListViewModel.maximumEmptyPagesInARow`): each page
    /// costs a point of the GraphQL limit, and with --wait-on-rate-limit the run would never end.
    static let staleLimit = 10

    /// The count of such pages in a row once a page of `connection` is read (`more`: it says there is more;
    /// `new`: it brought someone new), or the failure that stops paging at `staleLimit`.
    static func stale(after count: Int, more: Bool, new: Bool, of connection: String) throws(DomainError) -> Int {
        let count = more && !new ? count + 1 : 0
        guard count >= staleLimit else { return count }
        throw .malformedResponse(
            endpoint: "POST /graphql",
            detail: "\(count) of \(connection) pages in a row brought no one new while saying there is more, so "
                + "paging stopped")
    }

    /// The most one list of the map may bring: the organization's members, its repositories, or one
    /// repository's people. Ten times GitHub's largest organizations (about 100,000 members): a server whose
    /// every page brings someone new under a new cursor is stopped here, where its pages were held, and asked for,
    /// without end. Task-local so a test can lower it rather than page a million people.
    @TaskLocal package static var maximumListed = 1_000_000

    /// The failure once `count` of `connection` pages' `noun` run past `maximumListed`.
    static func bounded(_ count: Int, of connection: String, counting noun: String) throws(DomainError) {
        guard count > maximumListed else { return }
        throw .malformedResponse(
            endpoint: "POST /graphql",
            detail: "\(connection) pages brought more than \(maximumListed) \(noun), more than any organization has, "
                + "so paging stopped")
    }

    /// A connection whose next page was read before, as `PagedListViewModel.linkCycle` says it of a REST list.
    static func cycle(_ connection: String) -> DomainError {
        .malformedResponse(
            endpoint: "POST /graphql",
            detail: "\(connection) next page was read before (its cursor came back), so paging stopped")
    }

    private static func stopping(_ failure: GraphQLBatchFailure) -> DomainError {
        switch failure {
        case .failed(let error): return error
        case .tooLarge(let reason), .unsupported(let reason):
            return .refused("GitHub's GraphQL API refused the access map's query: \(reason)")
        }
    }

    /// The next repository to hand on, once the listing is whole, it is whole, and every one before it in the
    /// map's order has been; its slot is emptied.
    mutating func nextDone() -> Slot? {
        guard listingDone, handed < order.count, slots[order[handed]].done else { return nil }
        let index = order[handed]
        let slot = slots[index]
        held -= slot.edges.count
        slots[index].edges = []
        slots[index].ids = []
        slots[index].cursors = URLDigests()
        handed += 1
        return slot
    }
}
