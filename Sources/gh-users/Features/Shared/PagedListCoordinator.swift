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

    func run() async -> CommandOutcome {
        let io = command.io
        let context = command.render
        let presenter = command.presenter
        let viewModel = makeViewModel()
        var writer = makeWriter(context)
        let progress = ProgressLine(io: io, noun: presentation.noun)
        defer { progress.clear() }
        // The last item that reached stdout: the only safe place to resume from.
        var lastWritten: Item?
        while !viewModel.isExhausted {
            let items: [Item]
            do {
                items = try await viewModel.loadNextPage()
            } catch {
                progress.clear()
                try? io.out.write(writer.finish(completed: false))
                let presentation = presenter.present(error)
                var message = presentation.message
                if let lastWritten, let hint = self.presentation.resumeHint {
                    message += hint(lastWritten) + "\n"
                }
                io.writeErr(message)
                return .failed(error)
            }
            progress.clear()
            do {
                try io.out.write(writer.render(items))
                if let last = items.last {
                    lastWritten = last
                    try presentation.pageWritten?(last)
                }
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
            if !viewModel.isExhausted {
                progress.update(pages: viewModel.requests, items: viewModel.taken)
            }
        }
        progress.clear()
        do {
            try io.out.write(writer.finish(completed: true))
        } catch {
            return .outputClosed
        }
        var notes = presentation.closingNotes(viewModel.taken, viewModel.totalCount, viewModel.incompleteResults)
        if context.isTTY, viewModel.hasMore {
            var line = "Showing \(viewModel.taken) \(presentation.noun)"
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
}
