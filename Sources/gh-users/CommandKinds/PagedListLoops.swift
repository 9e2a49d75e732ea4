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

/// The `--full` mode: admitted items go through an `ExpansionWindow`, which expands them a batch at a time, and
/// the batches are written in the listing's order. The next page is read only while the window has room.
struct ExpandingListLoop<Item: ListedItem> {
    let viewModel: PagedListViewModel<Item>
    let window: ExpansionWindow<Item>
    /// Whether a page's items are held until the page is whole, for a checkpoint after each page.
    let holdsPages: Bool

    func run(into output: inout ListOutput<Item>) async -> ListLoopEnd {
        var vanished = 0
        var failure: DomainError?
        // A page failure stops the reading, not the writing: the items already asked for are written first.
        var pageFailure: DomainError?
        var held: [Item] = []
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
                    if let end = output.emit(held, endsPage: true, requestsSoFar: requests) { return end }
                    held = []
                }
            } else if let end = output.emit(items, endsPage: batch.endsPage, requestsSoFar: requests) {
                return end
            }
            if failure == nil, let pageFailure, window.isEmpty { failure = pageFailure }
        }
        if let failure { return .failed(failure, vanished: vanished) }
        return .completed(vanished: vanished)
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

/// Where a list run writes: stdout through the record writer, a progress line on stderr, and the checkpoint
/// after each page. It remembers the last item that reached stdout: the only safe place to resume from.
struct ListOutput<Item: ListedItem> {
    let io: IOStreams
    var writer: RecordStreamWriter<Item>
    let noun: String
    let resume: (any ResumeHint)?
    let checkpoint: (any PageCheckpoint)?
    let progress: ProgressLine
    private(set) var lastWritten: Item?
    /// How many items this run has written whole, up to `lastWritten`.
    private(set) var written = 0

    init(
        io: IOStreams, writer: RecordStreamWriter<Item>, noun: String, resume: (any ResumeHint)?,
        checkpoint: (any PageCheckpoint)?
    ) {
        self.io = io
        self.writer = writer
        self.noun = noun
        self.resume = resume
        self.checkpoint = checkpoint
        progress = ProgressLine(io: io, noun: noun)
    }

    /// Writes one chunk, and runs the checkpoint when it completes a page; nil once written, else how the run
    /// ends: a failure to report, or an outcome already reported. `requestsSoFar` is nil once nothing more is to
    /// come: only a listing that needs more than one request shows progress.
    mutating func emit(_ items: [Item], endsPage: Bool, requestsSoFar: Int?) -> ListLoopEnd? {
        progress.clear()
        if let item = items.first, let keys = writer.keysMissing(from: item) {
            let has = JSONText.keys(at: [], in: item.raw.bytes)
            return .failed(
                .refused(
                    "the \(noun) GitHub sent have none of the keys this output reads ("
                        + keys.joined(separator: ", ") + "), so every row would be blank; the first has "
                        + (has.isEmpty
                            ? "no keys" : has.prefix(8).joined(separator: ", ") + (has.count > 8 ? ", …" : ""))
                        + ". Was the media type the request asked for dropped on the way? --format json writes "
                        + "them as sent"),
                vanished: 0)
        }
        var ends: [Int] = []
        // The page goes out in pieces (`RecordStreamWriter.chunkSize`); `sent` counts the bytes of those that
        // went out whole, so a failed write is placed among the page's records.
        var sent = 0
        let out = io.out
        do {
            try writer.write(items, moreToCome: requestsSoFar != nil, ends: &ends) { chunk in
                do {
                    try out.write(chunk)
                } catch let failure as OutputWriteError {
                    throw OutputWriteError(message: failure.message, written: failure.written.map { sent + $0 })
                }
                sent += chunk.count
            }
            if let last = items.last { lastWritten = last }
            written += items.count
            if endsPage, let checkpoint, let id = items.last?.listedID { try checkpoint.pageWritten(lastID: id) }
        } catch let failure as OutputWriteError {
            progress.clear()
            var message = "gh-users: " + failure.message + "\n"
            // A write that went out in part holds some of its records whole, and perhaps a cut one after them:
            // the run goes on after the last whole one, once the cut one is gone.
            let whole = failure.written.map { written in ends.prefix { $0 <= written }.count } ?? 0
            if whole > 0 { lastWritten = items[whole - 1] }
            // A checkpoint's failure comes after the write, counted above; a cut write has `whole` to add.
            if failure.written != nil { written += whole }
            if let id = lastWritten?.listedID, let resume {
                if let written = failure.written, written > (whole > 0 ? ends[whole - 1] : 0) {
                    message += "Remove the unfinished last line from the output before you continue.\n"
                }
                message += resume.hint(afterID: id, written: written) + "\n"
            }
            io.writeErr(message)
            return .stopped(.setupFailed)
        } catch {
            // The reader went away (`| head`): stop fetching, quietly.
            return .stopped(.outputClosed)
        }
        if let requestsSoFar { progress.update(pages: requestsSoFar, items: writer.recordsWritten) }
        return nil
    }
}
