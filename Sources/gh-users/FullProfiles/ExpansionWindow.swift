import Domain

/// How the items a listing admits become what is written: `--full` turns each account into its profile.
/// Items are handed over in batches (one account for REST, up to a hundred for GraphQL); at most `concurrency`
/// batches are in flight, and results come back in the listing's order.
struct ItemExpansion<Item: Sendable>: Sendable {
    let batchSize: Int
    let concurrency: Int
    /// What expands each batch (`RESTProfiles`, `GraphQLProfiles`, …).
    let expander: any ItemExpander<Item>

    init(batchSize: Int, concurrency: Int, expander: any ItemExpander<Item>) {
        self.batchSize = batchSize
        self.concurrency = concurrency
        self.expander = expander
    }

    /// One batch's results, one per item and in its order.
    func expand(_ items: [Item]) async -> [Result<Item?, DomainError>] {
        await expander.expand(items)
    }

    /// Lines for a terminal's stderr once the listing is written (what a GraphQL run spent and saved).
    func closingNotes() -> [String] {
        expander.closingNotes()
    }
}

/// What turns a batch of a listing's items into what is written.
protocol ItemExpander<Item>: Sendable {
    associatedtype Item: Sendable
    /// One batch's results, one per item and in its order. A failure that leaves an item out and the run going
    /// (an account deleted since it was listed) is `.success(nil)`.
    func expand(_ items: [Item]) async -> [Result<Item?, DomainError>]
    /// Lines for a terminal's stderr once the listing is written.
    func closingNotes() -> [String]
}

extension ItemExpander {
    func closingNotes() -> [String] { [] }
}

/// The moving window of an expansion: items wait in `pending` until the window has room, batches are started
/// as tasks in listing order up to `lookahead` batches ahead of the output, at most `concurrency` of them
/// running at once (a slow batch at the head does not idle the other slots), and `next()` hands back the
/// oldest batch once it is done. Memory is bounded by the window and the page being drained, whatever the
/// length of the listing.
///
/// Used from one task only (the coordinator's); it is not Sendable.
final class ExpansionWindow<Item: Sendable> {
    /// One batch in flight; `endsPage` marks the batch that holds the last item of a listing page.
    private struct Flight {
        let task: Task<[Result<Item?, DomainError>], Never>
        let endsPage: Bool
    }

    private let expansion: ItemExpansion<Item>
    private let slots: Slots
    /// How many batches may be started ahead of the output: finished ones wait here for the head.
    private let lookahead: Int
    private var pending: [(item: Item, endsPage: Bool)] = []
    private var pendingStart = 0
    private var flights: [Flight] = []
    private var flightStart = 0
    private var tickets = 0

    init(_ expansion: ItemExpansion<Item>) {
        self.expansion = expansion
        self.slots = Slots(max(1, expansion.concurrency))
        self.lookahead = max(1, expansion.concurrency) * 4
    }

    deinit {
        cancel()
    }

    private var pendingCount: Int { pending.count - pendingStart }
    private var flightCount: Int { flights.count - flightStart }

    /// Whether the window would start more work if it had more items: time to read the next page.
    var wantsItems: Bool { pendingCount < expansion.batchSize * max(1, lookahead - flightCount + 1) }

    /// Whether nothing is waiting or in flight.
    var isEmpty: Bool { pendingCount == 0 && flightCount == 0 }

    /// Queues one page's admitted items and starts what the window has room for.
    func enqueue(_ items: [Item]) {
        for (offset, item) in items.enumerated() {
            pending.append((item, offset == items.count - 1))
        }
        launch()
    }

    /// The oldest batch's results once they are in, with whether it closes a listing page; nil when the window
    /// is empty. The freed slot is filled before this returns, so the next round trip starts at once.
    func next() async -> (results: [Result<Item?, DomainError>], endsPage: Bool)? {
        launch()
        guard flightCount > 0 else { return nil }
        let flight = flights[flightStart]
        flightStart += 1
        if flightStart > 64, flightStart * 2 > flights.count {
            flights.removeFirst(flightStart)
            flightStart = 0
        }
        let task = flight.task
        let results = await withTaskCancellationHandler {
            await task.value
        } onCancel: {
            task.cancel()
        }
        launch()
        return (results, flight.endsPage)
    }

    /// Stops every batch in flight: the reader went away, or the run was interrupted.
    func cancel() {
        for flight in flights[flightStart...] { flight.task.cancel() }
    }

    /// Starts batches while a slot is free. A batch never spans two pages, so a page's end is a batch's end and
    /// a checkpoint written there covers exactly what reached the output.
    private func launch() {
        while flightCount < lookahead, pendingCount > 0 {
            var batch: [Item] = []
            var endsPage = false
            while batch.count < expansion.batchSize, pendingStart < pending.count, !endsPage {
                let next = pending[pendingStart]
                batch.append(next.item)
                endsPage = next.endsPage
                pendingStart += 1
            }
            if pendingStart > 256, pendingStart * 2 > pending.count {
                pending.removeFirst(pendingStart)
                pendingStart = 0
            }
            let expansion = self.expansion
            let items = batch
            let slots = self.slots
            let ticket = tickets
            tickets += 1
            let task = Task {
                await slots.acquire(ticket)
                let results = await expansion.expand(items)
                await slots.release()
                return results
            }
            flights.append(Flight(task: task, endsPage: endsPage))
        }
    }
}

/// A counting semaphore for tasks that grants its slots in ticket order, so batches start in the listing's order
/// however the tasks happen to be scheduled: the head of the output is never the one left waiting.
private actor Slots {
    private var free: Int
    private var nextTicket = 0
    private var waiting: [Int: CheckedContinuation<Void, Never>] = [:]

    init(_ count: Int) {
        free = count
    }

    /// Waits until every lower ticket has had its slot and one is free. Every ticket handed out must come here
    /// once, or the later ones wait for ever: a batch's task always does, cancelled or not.
    func acquire(_ ticket: Int) async {
        await withCheckedContinuation { continuation in
            waiting[ticket] = continuation
            grant()
        }
    }

    func release() {
        free += 1
        grant()
    }

    private func grant() {
        while free > 0, let continuation = waiting.removeValue(forKey: nextTicket) {
            free -= 1
            nextTicket += 1
            continuation.resume()
        }
    }
}
