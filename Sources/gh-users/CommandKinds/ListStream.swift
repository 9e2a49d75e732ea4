import AtomicCore
import Domain
import Foundation

/// What a command that can be resumed says after its last item written (`list --since`): given the number
/// of items this run wrote when it stopped short of its limit, so that the hint asks only for the rest; nil
/// when the run reached its limit and more is to come.
protocol ResumeHint: Sendable {
    /// `error`: what stopped the run, which may change what the rerun needs (a page `--offline` did not have);
    /// nil where nothing went wrong with GitHub (the run reached its limit, or its output failed).
    func hint(afterID id: Int64, written: Int?, stoppedBy error: DomainError?) -> String
    /// Whether the rerun cuts the output back to its last whole record itself (`--state` with `--output`), so a
    /// record cut short by a failed write needs no hand.
    var rerunCutsOutputBack: Bool { get }
    /// Where a run that failed before it wrote anything goes on from, when a rerun goes on at all (a `--state`
    /// that knows); nil: such a run has nothing to say.
    var resumedAfter: Int64? { get }
    /// The regular file stdout appends to (`>> FILE`) where a state counts pages without its length: a page the
    /// state could not count (a full disk) is there, and the rerun writes it again.
    var appendedFile: String? { get }
}

extension ResumeHint {
    var rerunCutsOutputBack: Bool { false }
    var resumedAfter: Int64? { nil }
    var appendedFile: String? { nil }
}

/// What runs once a page's items have all been written, with the last of them: where `list --state` records
/// how far the crawl got. A failure stops the run with status 1.
protocol PageCheckpoint: Sendable {
    func pageWritten(lastID: Int64) throws(OutputWriteError)
    /// A write that failed part-way through a page left records up to `lastID` whole where no state knows their
    /// length (stdout, a regular file): recording it lets the rerun go on after them, where it would write the
    /// page's first records again. True when it was recorded.
    func partPageWritten(lastID: Int64) -> Bool
}

extension PageCheckpoint {
    func partPageWritten(lastID: Int64) -> Bool { false }
}

/// The pager a paging command calls: it takes page after page from a list's view model, writes each as it
/// arrives, and stops at the limit, at the end, at a failure, or when stdout is closed; then `close` ends the
/// output as one valid document and says on stderr what the run has to say. With `--full` each item is expanded
/// between paging and writing (`ExpandingListLoop`).
///
/// A command reads it top to bottom: `let end = await stream.stream(pages)`, then
/// `stream.close(end, notes: …)` with whatever lines the command adds once it knows how the list ended; or
/// `stream.run(pages)` for a list that adds none.
struct ListStream<Item: ListedItem> {
    /// What the items are called in "Showing 30 repositories".
    let noun: String
    /// The table's columns, which only a table, tsv or csv, or `--fields`, reads (`RenderContext.readsColumns`).
    let columns: [Column<Item>]
    let command: CommandContext
    /// What a terminal is told of an empty list when "no NOUN found" does not say it (a search's "no accounts
    /// matched your search", as `gh` says).
    var emptyNote: String?
    /// The output already holds records that this run appends to (`list --state`), so no CSV header is written.
    var continuesOutput = false
    /// `--full`: what turns each admitted item into what is written, between paging and writing.
    var expansion: ItemExpansion<Item>?
    /// How to go on from the last item written, for a list that can be resumed (`list`).
    var resume: (any ResumeHint)?
    /// Said after the loader's notes when the list stops before its end, where no `resume` can say where to go on
    /// (`search --split` starts again from its first piece).
    var stoppedNote: String?
    /// What runs after each page written (`list --state`).
    var checkpoint: (any PageCheckpoint)?

    init(noun: String, columns: [Column<Item>], command: CommandContext) {
        self.noun = noun
        self.columns = columns
        self.command = command
    }

    /// How a list ended, for the command to say its closing lines, and for `close`.
    struct End {
        fileprivate var output: ListOutput<Item>
        fileprivate let how: ListLoopEnd
        /// The items the limit counted.
        let taken: Int
        /// Whether any record was written whole.
        var wroteRecords: Bool { output.written > 0 }
        /// GitHub's `total_count`, for searches; and whether it said its results were incomplete.
        let totalCount: Int?
        let incompleteResults: Bool
        /// The loader's own closing lines (a split search's query count).
        let loaderNotes: [String]
        /// The list that answered in place of the one asked for (GitHub's redirect), if one did.
        let answeredPath: String?
        fileprivate let hasMore: Bool
        fileprivate let expansionNotes: [String]
        /// A page the cache answered among pages GitHub gave now (`PagedListViewModel.pageOfAnotherAge`).
        fileprivate let pageOfAnotherAge: UnconfirmedCopy?
    }

    /// A list with nothing of its own to say at the end.
    func run(_ pages: PagedListViewModel<Item>) async -> CommandOutcome {
        close(await stream(pages), notes: [])
    }

    /// Writes the list page by page; the output is left open for `close`. Each page is written as it arrives,
    /// while the view model prefetches the next; under `--full`, each batch of profiles (`ExpandingListLoop`). After
    /// a page, the checkpoint runs and the progress line on a terminal says how far the run is.
    func stream(_ viewModel: PagedListViewModel<Item>) async -> End {
        let io = command.io
        var output = ListOutput(
            writer: RecordStreamWriter(context: command.render, columns: columns, continuesOutput: continuesOutput),
            progress: ProgressLine(io: io, noun: noun))
        defer { output.progress.clear() }
        let window = expansion.map(ExpansionWindow.init)
        defer { window?.cancel() }
        // With a checkpoint after each page (`list --state`), the profiles of a page are held until the page is
        // whole, so what reached the output is always exactly what the checkpoint counts.
        var expanding = window.map {
            ExpandingListLoop(viewModel: viewModel, window: $0, holdsPages: checkpoint != nil)
        }
        var end = ListLoopEnd.completed(vanished: 0)
        paging: while true {
            let step: ListStep<Item>
            if let batch = await expanding?.next() {
                step = batch
            } else if viewModel.isExhausted {
                break
            } else {
                do {
                    let page = try await viewModel.loadNextPage()
                    step = .write(page, endsPage: true, requestsSoFar: viewModel.isExhausted ? nil : viewModel.requests)
                } catch {
                    end = .failed(error, vanished: 0)
                    break
                }
            }
            guard case .write(let items, let endsPage, let requestsSoFar) = step else {
                if case .end(let how) = step { end = how }
                break
            }
            output.progress.clear()
            if let item = items.first, let missing = output.writer.keysMissing(from: items) {
                // What each path met (`repo.topics` is a list) is said before the stop, which cannot say it.
                if missing.misspelt {
                    for warning in output.writer.stopWarnings(for: items) { io.writeErr(warning) }
                }
                end = .failed(
                    ListOutput.keysMissing(missing.keys, misspelt: missing.misspelt, in: item, noun: noun), vanished: 0)
                break
            }
            // A page refused for the output's own fields (above) begins no document.
            output.pageCame = true
            if output.written == 0, output.writer.context.fields != nil, let item = items.first {
                for warning in output.writer.pathWarnings(for: item) { io.writeErr(warning) }
            }
            // The page goes out in pieces (`RecordStreamWriter.chunkSize`); `sent` counts the bytes of those that
            // went out whole, so a failed write is placed among the page's records.
            var ends: [Int] = []
            var sent = 0
            do {
                try output.writer.write(items, moreToCome: requestsSoFar != nil, ends: &ends) { chunk in
                    do {
                        try io.out.write(chunk)
                    } catch let failure as OutputWriteError {
                        throw failure.shifted(by: sent)
                    }
                    sent += chunk.count
                }
                if let last = items.last { output.lastWritten = last }
                output.written += items.count
                if endsPage, let checkpoint, let id = items.last?.listedID { try checkpoint.pageWritten(lastID: id) }
            } catch let failure as OutputWriteError {
                end = stopped(by: failure, writing: items, ends: ends, output: &output)
                break paging
            } catch {
                // The reader went away (`| head`): stop fetching, quietly.
                end = .stopped(.outputClosed)
                break
            }
            if let requestsSoFar { output.progress.update(pages: requestsSoFar, items: output.writer.recordsWritten) }
        }
        var expansionNotes: [String] = []
        if let expansion, io.stderrIsTTY {
            expansionNotes = expansion.closingNotes().map { $0.hasSuffix("\n") ? String($0.dropLast()) : $0 }
        }
        return End(
            output: output, how: end, taken: viewModel.taken, totalCount: viewModel.totalCount,
            incompleteResults: viewModel.incompleteResults, loaderNotes: viewModel.closingNotes,
            answeredPath: viewModel.answeredPath,
            hasMore: viewModel.hasMore, expansionNotes: expansionNotes, pageOfAnotherAge: viewModel.pageOfAnotherAge)
    }

    /// A write of `items` that failed, or the checkpoint after it (a full disk, `ulimit -f`): says so with where to
    /// go on from, and ends the run.
    private func stopped(
        by failure: OutputWriteError, writing items: [Item], ends: [Int], output: inout ListOutput<Item>
    ) -> ListLoopEnd {
        output.progress.clear()
        // A write that went out in part holds some of its records whole, and perhaps a cut one after them: the run
        // goes on after the last whole one, once the cut one is gone.
        let whole = failure.written.map { written in ends.prefix { $0 <= written }.count } ?? 0
        let cutBytes = failure.written.map { $0 - (whole > 0 ? ends[whole - 1] : 0) } ?? 0
        let json = output.writer.context.format == .json
        var message =
            "gh-users: " + (failure.written == nil ? failure.message : failure.reason)
            + (cutBytes > 0 ? " (what was written ends in a cut record)" : "") + "\n"
        // Its array was left open, cut or not: the records before are whole, the document is not.
        if json, (failure.written ?? 0) > 0 || output.written > 0, resume?.rerunCutsOutputBack != true {
            message +=
                whole == 0 && output.written == 0
                ? "The output is no whole JSON document, and holds no whole record.\n"
                : cutBytes > 0
                    ? "The output ends in a record cut short: it is no whole JSON document, though the records "
                        + "before the cut one are whole.\n"
                    : "The output is no whole JSON document: its array was left open after its last record.\n"
        }
        // The page went out whole and its state could not be saved: the rerun goes on from the state before it.
        if failure.written == nil, failure.resumable, let file = resume?.appendedFile, let bytes = ends.last,
            let line = Self.uncounted(bytes, of: file)
        {
            message += line
        }
        if whole > 0 { output.lastWritten = items[whole - 1] }
        // A checkpoint's failure comes after the write, counted above; a cut write has `whole` to add.
        if failure.written != nil { output.written += whole }
        if let id = output.lastWritten?.listedID, let resume, failure.resumable {
            // Records of this page went out whole before the failure: the state goes on after them, or, where it
            // cannot say so (`--output`, cut back to the page's start), the rerun writes them again and its
            // `--limit` must count them.
            var written = output.written
            var uncounted: String?
            if whole > 0, let checkpoint, !checkpoint.partPageWritten(lastID: id) {
                written -= whole
                // Where the state could not count the page's whole records (the same full disk), the rerun
                // writes them again after the state's page: the file goes back to where this page began.
                if let file = resume.appendedFile, let bytes = failure.written {
                    uncounted = Self.uncounted(bytes, of: file)
                }
            }
            if let uncounted {
                message += uncounted
            } else if cutBytes > 0 {
                // A csv field may hold line breaks: the cut record is told in bytes, which take it away whole.
                if resume.rerunCutsOutputBack {
                    message += "The output ends in a record cut short, which the rerun below cuts off.\n"
                } else if output.writer.context.format == .csv {
                    message +=
                        "Remove the record cut short, the output's last \(cutBytes) bytes (a quoted field may hold "
                        + "line breaks), before you continue.\n"
                } else if !json {
                    message += "Remove the unfinished last line from the output before you continue.\n"
                }
            }
            message += resume.hint(afterID: id, written: written, stoppedBy: nil) + "\n"
        }
        command.io.writeErr(message)
        return .stopped(.setupFailed)
    }

    /// The line that says to cut `file` back by the `bytes` of a page the state could not count, which the rerun
    /// writes again. The length to cut back to is said whole: stderr may go to the same file (`--output FILE
    /// 2>> FILE`), where this message comes after the page, and a count from the end would cut inside it.
    private static func uncounted(_ bytes: Int, of file: String) -> String? {
        guard bytes > 0, let length = (try? FileManager.default.attributesOfItem(atPath: file))?[.size] as? Int,
            length >= bytes
        else { return nil }
        return TerminalSanitizer.sanitize(
            "The \(Counted.text(bytes, "byte")) of \(TerminalSanitizer.quotedPath(file)) after its first "
                + "\(length - bytes) are the page the state could not count, which the rerun writes again: remove "
                + "them, and anything after them, first (truncate -s \(length - bytes) \(ShellWord.quote(file))).")
            + "\n"
    }

    /// Closes the output as a whole document, then says on stderr what the run has to say about the list:
    /// "no NOUN found", the command's `notes`, the loader's, and on a terminal where to go on from.
    func close(_ end: End, notes commandNotes: [String]) -> CommandOutcome {
        var output = end.output
        switch end.how {
        case .stopped(let outcome): return outcome
        case .failed(let error, let vanished):
            // A list that stopped after pages of two ages holds no first N of anything: it says why instead.
            let ages = end.pageOfAnotherAge.map { ["gh-users: " + $0.twoAges(noun)] } ?? []
            return fail(
                error, output: &output, vanished: vanished,
                notes: end.loaderNotes + (stoppedNote.map { [$0] } ?? []) + ages, firstOnly: ages.isEmpty)
        case .completed(let vanished):
            let io = command.io
            do {
                try io.out.write(output.writer.finish(completed: true))
            } catch {
                return .writeFailed(error, io: io)
            }
            var notes = commandNotes
            if output.writer.recordsWritten == 0, let line = command.render.nothingFound(noun, saying: emptyNote) {
                notes.insert(line, at: 0)
            }
            notes += end.loaderNotes + Self.vanishedNote(vanished) + end.expansionNotes
            if command.render.isTTY, end.hasMore {
                var line = "Showing \(Counted.text(output.writer.recordsWritten, plural: noun))"
                if let total = end.totalCount { line += " of \(total)" }
                if let id = output.lastWritten?.listedID, let resume {
                    line += ". " + resume.hint(afterID: id, written: nil, stoppedBy: nil)
                } else {
                    line += ". Use --limit N or --all for more."
                }
                notes.append(line)
            }
            for note in notes { io.writeErr(note + "\n") }
            guard let copied = end.pageOfAnotherAge else { return .success }
            // Written whole, and said: a list of two ages is no list GitHub ever had (helper-311 saw 3 of 2,997
            // followers left out after a 2.5 s outage, with exit 0).
            let failure = DomainError.refused(copied.twoAges(noun))
            io.writeErr(command.presenter.present(failure).message)
            return .failed(failure)
        }
    }

    /// Closes the output as a valid document, says what went wrong and where to go on from.
    private func fail(
        _ error: DomainError, output: inout ListOutput<Item>, vanished: Int, notes: [String], firstOnly: Bool
    ) -> CommandOutcome {
        let io = command.io
        try? io.out.write(output.writer.finish(completed: false, begun: output.pageCame))
        var message = command.presenter.present(error).message
        if let resume, let id = output.lastWritten?.listedID ?? resume.resumedAfter {
            message += resume.hint(afterID: id, written: output.written, stoppedBy: error) + "\n"
        } else if output.written > 0, firstOnly {
            // Exit 1 alone did not tell a person that what came is part of the list.
            message +=
                "The output holds the first \(Counted.text(output.written, plural: noun)) only: the list is "
                + "incomplete.\n"
        }
        for note in Self.vanishedNote(vanished) + notes { message += note + "\n" }
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

extension UnconfirmedCopy {
    /// "GET … was answered from the cache copy of DATE, because the network could not be reached".
    var said: String {
        let why = offline ? "under --offline" : "because the network could not be reached"
        return TerminalSanitizer.sanitize(endpoint) + " was answered from the cache copy of "
            + "\(LocalTime.text(confirmedAt, date: true)), \(why)"
    }

    /// Why a list of `noun` whose pages came from this copy and from GitHub now is not known whole.
    func twoAges(_ noun: String) -> String {
        said + ", and other pages by GitHub now: \(noun) that came or went in between may be missing, or listed "
            + "though they left. Run it again once GitHub can be reached."
    }
}
