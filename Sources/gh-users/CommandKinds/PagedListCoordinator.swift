import AtomicCore
import Domain

/// Runs any paging command: loads page after page, writes each as it arrives, and stops at the limit, at the
/// end, at a failure, or when stdout is closed. JSON stays one valid document whatever happens. The loop has
/// two modes: plain streaming, here, and with `--full` the expansion of each item between
/// paging and writing (`ExpandingListLoop`).
struct PagedListCoordinator<Item: JSONRecord> {
    /// What the command adds to the shared loop.
    struct Presentation: Sendable {
        /// What the items are called in "Showing 30 repositories".
        let noun: String
        /// What a terminal is told of an empty list when "no NOUN found" does not say it (a search's "no accounts
        /// matched your search", as `gh` says).
        var emptyNote: String?
        /// How to go on from the last item written, when the list can be resumed (`list --since`): given the
        /// number of items this run wrote when it stopped short of its limit, so that the hint asks only for the
        /// rest; nil when the run reached its limit and more is to come.
        var resumeHint: (@Sendable (_ last: Item, _ writtenBeforeStop: Int?) -> String)?
        /// Extra lines for stderr once the list ends, such as a search's 1,000-result cap.
        var closingNotes: @Sendable (_ taken: Int, _ totalCount: Int?, _ incomplete: Bool) -> [String] = { _, _, _ in []
        }
        /// Runs once a page's items have all been written, with the last of them: where `list --state` records
        /// how far the crawl got. A failure stops the run with status 1.
        var pageWritten: (@Sendable (Item) throws(OutputWriteError) -> Void)?
    }

    let viewModel: PagedListViewModel<Item>
    /// The table's columns, which only a table, tsv or csv, or `--fields`, reads (`RenderContext.readsColumns`).
    let columns: [Column<Item>]
    /// The output already holds records that this run appends to (`list --state`), so no CSV header is written.
    var continuesOutput = false
    let presentation: Presentation
    let command: CommandContext
    /// `--full`: what turns each admitted item into what is written, between paging and writing.
    var expansion: ItemExpansion<Item>?

    /// The paging kind's one run, whichever command declared the list (`ListRun`) or pages itself (`list`).
    func run() async -> CommandOutcome {
        var output = ListOutput(
            io: command.io,
            writer: RecordStreamWriter(context: command.render, columns: columns, continuesOutput: continuesOutput),
            presentation: presentation)
        defer { output.progress.clear() }
        let end: ListLoopEnd
        if let expansion {
            let window = ExpansionWindow(expansion)
            defer { window.cancel() }
            // With a checkpoint after each page (`list --state`), the profiles of a page are held until the page
            // is whole, so what reached the output is always exactly what the checkpoint counts.
            let loop = ExpandingListLoop(
                viewModel: viewModel, window: window, holdsPages: presentation.pageWritten != nil)
            end = await loop.run(into: &output)
        } else {
            // The plain mode: each page is written as it arrives, while the view model prefetches the next.
            var ended = ListLoopEnd.completed(vanished: 0)
            while !viewModel.isExhausted {
                let items: [Item]
                do {
                    items = try await viewModel.loadNextPage()
                } catch {
                    ended = .failed(error, vanished: 0)
                    break
                }
                let requests = viewModel.isExhausted ? nil : viewModel.requests
                if let end = output.emit(items, endsPage: true, requestsSoFar: requests) {
                    ended = end
                    break
                }
            }
            end = ended
        }
        switch end {
        case .stopped(let outcome): return outcome
        case .failed(let error, let vanished): return fail(error, output: &output, vanished: vanished)
        case .completed(let vanished): return finish(viewModel, output: &output, vanished: vanished)
        }
    }

    /// Closes the output as a whole document, then says on stderr what the run has to say about the list.
    private func finish(_ viewModel: PagedListViewModel<Item>, output: inout ListOutput<Item>, vanished: Int)
        -> CommandOutcome
    {
        let io = command.io
        output.progress.clear()
        do {
            try io.out.write(output.writer.finish(completed: true))
        } catch {
            return .writeFailed(error, io: io)
        }
        var notes = presentation.closingNotes(viewModel.taken, viewModel.totalCount, viewModel.incompleteResults)
        if output.writer.recordsWritten == 0,
            let line = command.render.nothingFound(presentation.noun, saying: presentation.emptyNote)
        {
            notes.insert(line, at: 0)
        }
        notes += viewModel.closingNotes
        notes += Self.vanishedNote(vanished)
        if io.stderrIsTTY, let expansion {
            notes += expansion.closingNotes().map { $0.hasSuffix("\n") ? String($0.dropLast()) : $0 }
        }
        if command.render.isTTY, viewModel.hasMore {
            var line = "Showing \(Counted.text(output.writer.recordsWritten, plural: presentation.noun))"
            if let total = viewModel.totalCount { line += " of \(total)" }
            if let lastWritten = output.lastWritten, let hint = presentation.resumeHint {
                line += ". " + hint(lastWritten, nil)
            } else {
                line += ". Use --limit N or --all for more."
            }
            notes.append(line)
        }
        for note in notes { io.writeErr(note + "\n") }
        return .success
    }

    /// Closes the output as a valid document, says what went wrong and where to go on from.
    private func fail(_ error: DomainError, output: inout ListOutput<Item>, vanished: Int) -> CommandOutcome {
        let io = command.io
        try? io.out.write(output.writer.finish(completed: false))
        var message = command.presenter.present(error).message
        if let lastWritten = output.lastWritten, let hint = presentation.resumeHint {
            message += hint(lastWritten, output.written) + "\n"
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
