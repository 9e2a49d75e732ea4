import AtomicCore
import Domain

/// Runs any paging command: loads page after page, writes each as it arrives, and stops at the limit, at the
/// end, at a failure, or when stdout is closed. JSON stays one valid document whatever happens.
struct PagedListCoordinator<Item: Sendable> {
    /// What the command adds to the shared loop.
    struct Presentation: Sendable {
        /// What the items are called in "Showing 30 repositories".
        let noun: String
        /// How to go on from the last item written, when the list can be resumed (`list --since`).
        var resumeHint: (@Sendable (Item) -> String)?
        /// Extra lines for stderr once the list ends, such as a search's 1,000-result cap.
        var closingNotes: @Sendable (_ taken: Int, _ totalCount: Int?, _ incomplete: Bool) -> [String] = { _, _, _ in []
        }
        /// Runs once a page's items have all been written, with the last of them: where `list --state` records
        /// how far the crawl got. A failure stops the run with status 1.
        var pageWritten: (@Sendable (Item) throws(OutputWriteError) -> Void)?
    }

    let makeViewModel: @Sendable () -> PagedListViewModel<Item>
    let makeWriter: @Sendable (RenderContext) -> RecordStreamWriter<Item>
    let presentation: Presentation
    let command: CommandContext
    /// `--full`: what turns each admitted item into what is written, between paging and writing.
    var expansion: ItemExpansion<Item>?

    func run() async -> CommandOutcome {
        let io = command.io
        let context = command.render
        let viewModel = makeViewModel()
        var writer = makeWriter(context)
        let progress = ProgressLine(io: io, noun: presentation.noun)
        defer { progress.clear() }
        let window = expansion.map { ExpansionWindow($0) }
        defer { window?.cancel() }
        // The last item that reached stdout: the only safe place to resume from.
        var lastWritten: Item?
        // Items the expansion left out because they no longer exist (deleted since they were listed).
        var vanished = 0
        var failure: DomainError?
        // A page failure stops the reading, not the writing: the profiles already asked for are written first.
        var pageFailure: DomainError?

        // With a checkpoint after each page (`list --state`), the profiles of a page are held until the page is
        // whole, so what reached the output is always exactly what the checkpoint counts.
        let holdsPages = presentation.pageWritten != nil
        var held: [Item] = []

        /// Writes one chunk, and runs the checkpoint when it completes a page; nil once written, else the outcome
        /// that ends the run.
        func emit(_ items: [Item], endsPage: Bool) -> CommandOutcome? {
            progress.clear()
            do {
                try io.out.write(writer.render(items))
                if let last = items.last { lastWritten = last }
                if endsPage, let last = items.last { try presentation.pageWritten?(last) }
            } catch let failure as OutputWriteError {
                progress.clear()
                var message = "gh-users: " + failure.message + "\n"
                if let lastWritten, let hint = presentation.resumeHint { message += hint(lastWritten) + "\n" }
                io.writeErr(message)
                return .setupFailed
            } catch {
                // The reader went away (`| head`): stop fetching, quietly.
                return .outputClosed
            }
            // Only a listing that needs more than one request shows progress.
            if !viewModel.isExhausted || !(window?.isEmpty ?? true) {
                progress.update(pages: viewModel.requests, items: writer.recordsWritten)
            }
            return nil
        }

        while failure == nil {
            guard let window else {
                guard !viewModel.isExhausted else { break }
                do {
                    let items = try await viewModel.loadNextPage()
                    if let outcome = emit(items, endsPage: true) { return outcome }
                } catch {
                    failure = error
                }
                continue
            }
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
            var items: [Item] = []
            for result in batch.results {
                switch result {
                case .success(let item?): items.append(item)
                case .success(nil): vanished += 1
                case .failure(let error): failure = failure ?? error
                }
                if failure != nil { break }
            }
            if holdsPages {
                // A page cut short by a failure is not written: the checkpoint before it is where to go on from.
                guard failure == nil else { break }
                held += items
                if batch.endsPage {
                    if let outcome = emit(held, endsPage: true) { return outcome }
                    held = []
                }
            } else if let outcome = emit(items, endsPage: batch.endsPage) {
                return outcome
            }
            if failure == nil, let pageFailure, window.isEmpty { failure = pageFailure }
        }
        if let failure { return fail(failure, writer: &writer, lastWritten: lastWritten, vanished: vanished) }
        progress.clear()
        do {
            try io.out.write(writer.finish(completed: true))
        } catch {
            return .writeFailed(error, io: io)
        }
        var notes = presentation.closingNotes(viewModel.taken, viewModel.totalCount, viewModel.incompleteResults)
        notes += Self.vanishedNote(vanished)
        if io.stderrIsTTY, let expansion {
            notes += expansion.closingNotes().map { $0.hasSuffix("\n") ? String($0.dropLast()) : $0 }
        }
        if context.isTTY, viewModel.hasMore {
            var line = "Showing \(writer.recordsWritten) \(presentation.noun)"
            if let total = viewModel.totalCount { line += " of \(total)" }
            if let lastWritten, let hint = presentation.resumeHint {
                line += ". " + hint(lastWritten)
            } else {
                line += ". Use --limit N or --all for more."
            }
            notes.append(line)
        }
        for note in notes { io.writeErr(note + "\n") }
        return .success
    }

    /// Closes the output as a valid document, says what went wrong and where to go on from.
    private func fail(
        _ error: DomainError, writer: inout RecordStreamWriter<Item>, lastWritten: Item?, vanished: Int
    ) -> CommandOutcome {
        let io = command.io
        try? io.out.write(writer.finish(completed: false))
        var message = command.presenter.present(error).message
        if let lastWritten, let hint = presentation.resumeHint {
            message += hint(lastWritten) + "\n"
        }
        for note in Self.vanishedNote(vanished) { message += note + "\n" }
        io.writeErr(message)
        return .failed(error)
    }

    private static func vanishedNote(_ count: Int) -> [String] {
        guard count > 0 else { return [] }
        return [
            "gh-users: \(count) listed account\(count == 1 ? " was" : "s were") gone (deleted) by the time its "
                + "profile was read, and \(count == 1 ? "is" : "are") left out."
        ]
    }
}
