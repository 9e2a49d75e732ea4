import AtomicCore
import Domain
import JSONBytes

/// How a list run's loop ended.
enum ListLoopEnd {
    /// The list ended, or the limit was reached; `vanished` items were left out (deleted since listed).
    case completed(vanished: Int)
    /// A page or an item failed: the output is to be closed and the failure reported.
    case failed(DomainError, vanished: Int)
    /// The output ended the run (closed, or a checkpoint failed), already reported.
    case stopped(CommandOutcome)
}

/// What a list run writes next: items, whether they end a page, and the requests so far (nil once nothing more
/// is to come: only a listing that needs more than one request shows progress); or how the loop ended.
enum ListStep<Item> {
    case write([Item], endsPage: Bool, requestsSoFar: Int?)
    case end(ListLoopEnd)
}

/// The `--full` mode: admitted items go through an `ExpansionWindow`, which expands them a batch at a time, and
/// `next` hands the batches out in the listing's order for `ListStream` to write. The next page is read only
/// while the window has room.
struct ExpandingListLoop<Item: ListedItem> {
    let viewModel: PagedListViewModel<Item>
    let window: ExpansionWindow<Item>
    /// Whether a page's items are held until the page is whole, for a checkpoint after each page.
    let holdsPages: Bool
    private var vanished = 0
    private var failure: DomainError?
    /// A page failure stops the reading, not the writing: the items already asked for are written first.
    private var pageFailure: DomainError?
    private var held: [Item] = []
    /// A batch was handed out, and the loop goes on after it.
    private var handedOut = false

    init(viewModel: PagedListViewModel<Item>, window: ExpansionWindow<Item>, holdsPages: Bool) {
        self.viewModel = viewModel
        self.window = window
        self.holdsPages = holdsPages
    }

    mutating func next() async -> ListStep<Item> {
        if handedOut {
            handedOut = false
            if failure == nil, let pageFailure, window.isEmpty { failure = pageFailure }
        }
        while failure == nil {
            while pageFailure == nil, !viewModel.isExhausted, window.wantsItems {
                do {
                    window.enqueue(try await viewModel.loadNextPage())
                } catch {
                    pageFailure = error
                }
            }
            guard let batch = await window.next() else {
                failure = pageFailure
                break
            }
            let (items, gone, failed) = Self.unpack(batch.results)
            vanished += gone
            failure = failed
            let requests = viewModel.isExhausted && window.isEmpty ? nil : viewModel.requests
            if holdsPages {
                // A page cut short by a failure is not written: the checkpoint before it is where to go on from.
                guard failure == nil else { break }
                held += items
                if batch.endsPage {
                    defer { held = [] }
                    handedOut = true
                    return .write(held, endsPage: true, requestsSoFar: requests)
                }
            } else {
                handedOut = true
                return .write(items, endsPage: batch.endsPage, requestsSoFar: requests)
            }
            if failure == nil, let pageFailure, window.isEmpty { failure = pageFailure }
        }
        if let failure { return .end(.failed(failure, vanished: vanished)) }
        return .end(.completed(vanished: vanished))
    }

    /// A batch's items up to its first failure, and how many of them were gone (deleted since listed).
    private static func unpack(_ results: [Result<Item?, DomainError>]) -> (
        items: [Item], vanished: Int, failure: DomainError?
    ) {
        var items: [Item] = []
        var vanished = 0
        for result in results {
            switch result {
            case .success(let item?): items.append(item)
            case .success(nil): vanished += 1
            case .failure(let error): return (items, vanished, error)
            }
        }
        return (items, vanished, nil)
    }
}

/// What a list run has written: the record writer's state, the progress line on stderr, and the last item that
/// reached stdout, the only safe place to resume from.
struct ListOutput<Item: ListedItem> {
    var writer: RecordStreamWriter<Item>
    let progress: ProgressLine
    var lastWritten: Item?
    /// How many items this run has written whole, up to `lastWritten`.
    var written = 0
    /// Whether a page of the list came, whatever was written of it (every account on it may have gone): a JSON
    /// array is then begun, and a failure after it still closes one.
    var pageCame = false

    /// Why a batch is not written: the columns read none of the keys its first item has, so every row would be
    /// blank. When every column is a path that goes wrong after its first part (`misspelt`), the rest of a path
    /// is what is wrong, not the answer.
    static func keysMissing(_ keys: [String], misspelt: Bool, in item: Item, noun: String) -> DomainError {
        let has = JSONText.keys(at: [], in: item.raw.bytes)
        if misspelt {
            // A right path can be missing from a whole page (a page of push events has no `payload.issue`): a key
            // the records have beside it lets the run go on, with the path's column blank where they lack it.
            let others = has.filter { key in
                TerminalSanitizer.isPlainWord(key) && !keys.contains { $0.hasPrefix(key + ".") }
            }
            let beside = (others.contains("id") ? "id" : others.first).map {
                "; if it is right and these records only lack it, name a key they have beside it (--fields "
                    + ([$0] + keys).joined(separator: ",") + ")"
            }
            return .refused(
                "the \(noun) GitHub sent have nothing at " + keys.joined(separator: ", ")
                    + ", so every row would be blank: check the part after the dot (--format json shows what "
                    + "they hold)" + (beside ?? ""))
        }
        return .refused(
            "the \(noun) GitHub sent have none of the keys this output reads (" + keys.joined(separator: ", ")
                + "), so every row would be blank; the first has "
                + (has.isEmpty ? "no keys" : has.prefix(8).joined(separator: ", ") + (has.count > 8 ? ", …" : ""))
                + ". Was the media type the request asked for dropped on the way? --format json writes them as sent")
    }
}
