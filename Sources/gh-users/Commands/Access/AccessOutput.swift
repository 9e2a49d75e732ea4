import AtomicCore
import Data
import Domain
import Foundation

/// Where the map's records go: filtered, written as each repository's arrive, with a progress line on a
/// terminal, and with `--state` recorded after each repository; then the document closed, and the repositories
/// GitHub refused said.
struct AccessOutput: AccessRecordSink {
    let command: AccessCommand
    let context: CommandContext
    var writer: RecordStreamWriter<AccessRecord>
    let progress: ProgressLine
    /// With `--state`: the file the run goes on from and records itself in.
    private(set) var state: AccessStateFile?
    /// With `--state` and stdout a pipe: the repositories written that the reader has not taken yet, which the
    /// state records only once it has.
    let pipe: PipeTally<AccessPlace>?
    var repositories = 0
    /// Records the filters but `--affiliation` keep whose affiliation this token cannot tell.
    var unknownAffiliations = 0
    var writeFailure: (any Error)?
    /// With `--state`, the bytes written past what the state records when a write or the state's save failed:
    /// part of one repository's records, or all of them, which a rerun writes again.
    private var unrecordedBytes = 0
    /// A table's first records, held until there are enough of them (`tableSample`) to size its columns: the
    /// records come one repository at a time, and the first repository's names alone cut every longer one.
    private var held: [AccessRecord] = []
    private var heldRepositories = 0
    /// How many repositories, or records, a table samples before its widths are fixed.
    static let tableSample = (repositories: 10, records: 200)

    init(
        command: AccessCommand, context: CommandContext, state: AccessStateFile? = nil,
        pipe: PipeTally<AccessPlace>? = nil
    ) {
        self.command = command
        self.context = context
        self.state = state
        self.pipe = pipe
        writer = RecordStreamWriter(
            context: context.render, columns: AccessCommand.columns(for: context.render.format),
            continuesOutput: state?.continuesOutput ?? false)
        progress = ProgressLine(io: context.io, noun: "records")
    }

    mutating func take(_ records: [AccessRecord], of repository: String, read: AccessRepositoryRead) async -> Bool {
        repositories += 1
        unrecordedBytes = 0
        let kept = records.filter(command.keeps)
        unknownAffiliations += command.unknownAffiliations(records)
        do {
            // Only a table is held, which never goes with --state: nothing below records a held repository.
            if writer.context.format == .table, writer.recordsWritten == 0 {
                held += kept
                heldRepositories += 1
                if held.count >= Self.tableSample.records || heldRepositories >= Self.tableSample.repositories {
                    try flush(moreToCome: true)
                }
            } else {
                // What a stop left past the state must be the start of these records (`AccessLeftover`).
                let rendered = kept.isEmpty ? nil : writer.render(kept, moreToCome: true)
                let (io, path) = (context.io, context.stdoutFile)
                let bytes = try state?.goOn(with: rendered, of: repository, io: io, path: path) ?? rendered?[...] ?? []
                // The repository's bytes in the file past the state: those kept where they were, then these.
                let left = (rendered?.count ?? 0) - bytes.count
                progress.clear()
                unrecordedBytes = left + bytes.count
                do {
                    if !bytes.isEmpty { try context.io.out.write(Array(bytes)) }
                } catch let failure as OutputWriteError {
                    unrecordedBytes = left + (failure.written ?? 0)
                    throw failure
                }
            }
            do throws(LocalFileError) {
                let place = AccessPlace(repository: repository, records: kept.count, read: read)
                for place in pipe.map({ $0.written(place) }) ?? [place] {
                    try state?.written(place.repository, records: place.records, read: place.read)
                }
            } catch {
                var failure = OutputWriteError(message: error.message)
                failure.resumable = error.resumable
                throw failure
            }
        } catch {
            writeFailure = error
            return false
        }
        progress.show(
            "Read \(Counted.text(repositories, plural: "repositories")) · "
                + Counted.text(writer.recordsWritten + held.count, plural: "records"))
        return true
    }

    /// Writes the table's held records, if any.
    private mutating func flush(moreToCome: Bool) throws {
        guard !held.isEmpty else { return }
        let bytes = writer.render(held, moreToCome: moreToCome)
        held = []
        progress.clear()
        try context.io.out.write(bytes)
    }

    /// The map written whole: the document closed, then the repositories GitHub refused, if any (exit 1, or 4
    /// when it refused every one); with `--state`, those of the runs before this one too.
    mutating func close(_ summary: AccessReadSummary) async -> CommandOutcome {
        progress.clear()
        let io = context.io
        var recorded: AccessState?
        do {
            try flush(moreToCome: false)
            do throws(LocalFileError) {
                try state?.saveUnsaved()
            } catch {
                throw OutputWriteError(message: error.message)
            }
            // No repository read is no map: not even a csv header or an empty array is written. Counted in this
            // run and in the state's earlier ones (a pipe's state holds only what its reader took so far).
            let none =
                AccessCommand.readsNone(summary.unreadable, missing: named(summary.missing), of: summary.present)
                && (state.map { $0.state.unreadable.count >= $0.state.repositories } ?? true)
            let end = none ? [] : writer.finish(completed: true)
            // What a stop left past the state can only be what ends the map (a csv header with no record), when
            // a kill came before the state recorded it whole.
            let path = context.stdoutFile
            let bytes = try state?.goOn(with: end.isEmpty ? nil : end, of: nil, io: io, path: path) ?? end[...]
            if !bytes.isEmpty { try io.out.write(Array(bytes)) }
            // A map is complete only once its reader took all of it.
            if pipe != nil, !(await settle(waiting: true)) {
                // A signal while the reader still had records (SIGTERM: exit 143) ends the map as interrupted.
                return Task.isCancelled ? context.interrupted() : .setupFailed
            }
            do throws(LocalFileError) {
                // What the pipe's reader took last, repositories that wrote nothing among them, is the map's too.
                try state?.saveUnsaved()
                recorded = state?.state
                // No repository read is no map, and none is recorded: a token that can read goes from the start.
                if let map = recorded,
                    AccessCommand.readsNone(map.unreadable, missing: named(map.missing), of: map.repositories)
                {
                    try state?.restart()
                } else {
                    try state?.finish()
                }
            } catch {
                throw OutputWriteError(message: error.message)
            }
        } catch let refusal as AccessLeftoverRefusal {
            io.writeErr("gh-users: \(refusal.message)\n")
            return .setupFailed
        } catch {
            let outcome = CommandOutcome.writeFailed(error, io: io)
            // What this run wrote past the state is what ends the map, which the rerun keeps where it is.
            if let state, pipe == nil, outcome != .outputClosed {
                io.writeErr(
                    Self.cutAdvice(
                        state.state, shown: state.file.shown, file: context.stdoutFile, bytes: 0, pipe: false))
            }
            return outcome
        }
        if let note = command.affiliationNote(unknownAffiliations) { io.writeErr(note) }
        if let note = command.goneNote(recorded?.missing ?? summary.missing) { io.writeErr(note) }
        let missing = command.missing(recorded?.missing ?? summary.missing)
        let unreadable = recorded?.unreadable ?? summary.unreadable
        if writer.recordsWritten == 0, unreadable.isEmpty, missing.isEmpty,
            let line = context.render.nothingFound("access records")
        {
            io.writeErr(line + "\n")
        }
        for failure in missing { io.writeErr(context.presenter.present(failure).message) }
        guard !unreadable.isEmpty else { return missing.first.map { .failed($0) } ?? .success }
        return refused(unreadable, of: recorded?.repositories ?? summary.present)
    }

    /// The repositories `--repo` named that are not there: none without `--repo`, where a repository gone since
    /// it was listed is no failure and the map without it is the map (an empty one when all went).
    private func named(_ missing: [String]) -> [String] { command.repositories.isEmpty ? [] : missing }

    /// With `--state`, the map is read with the token of account `viewer` (`AccessStateFile.read(by:)`): nil, or
    /// the refusal, said, when its state is another account's view or cannot record this one.
    mutating func read(by viewer: Int64?) -> CommandOutcome? {
        guard var file = state else { return nil }
        do throws(LocalFileError) {
            try file.read(by: viewer)
        } catch {
            progress.clear()
            context.io.writeErr("gh-users: \(error.message)\n")
            return .setupFailed
        }
        state = file
        return nil
    }

    /// A `--state` whose map was read to its end: nothing is written, and the run ends as that map did.
    func closeComplete(_ recorded: AccessState, file: String) -> CommandOutcome {
        context.io.writeErr(
            "gh-users: nothing to do: the map in the state file \(file) was read to its end "
                + "(\(Counted.text(recorded.repositories, plural: "repositories"))). Remove it to read the map again.\n"
        )
        let missing = command.missing(recorded.missing)
        for failure in missing { context.io.writeErr(context.presenter.present(failure).message) }
        guard !recorded.unreadable.isEmpty else { return missing.first.map { .failed($0) } ?? .success }
        return refused(recorded.unreadable, of: recorded.repositories)
    }

    /// Says which repositories GitHub refused: the map is partial (exit 1), or there is none (exit 4).
    private func refused(_ unreadable: [String], of total: Int) -> CommandOutcome {
        let count = unreadable.count
        let refusal = command.refusal(
            unreadable, of: total,
            partial: "; the map above leaves " + (count == 1 ? "it" : "them") + " out.")
        context.io.writeErr(refusal.message)
        if let state, AccessCommand.readsNone(unreadable, of: total) {
            context.io.writeErr(
                TerminalSanitizer.sanitize(
                    "gh-users: the state file \(state.file.shown) records no map: the same command reads it from "
                        + "the start.") + "\n")
        }
        return .failed(refusal.error)
    }

    /// The map stopped: what was written is closed as a valid document, and the failure said; with `--state`,
    /// how to go on.
    mutating func fail(_ error: DomainError) async -> CommandOutcome {
        progress.clear()
        if let refusal = writeFailure as? AccessLeftoverRefusal {
            context.io.writeErr("gh-users: \(refusal.message)\n")
            return .setupFailed
        }
        if let writeFailure {
            // The reader left: the state records what it took.
            if pipe != nil, !(writeFailure is OutputWriteError) {
                _ = await settle(waiting: false, always: true)
                // A signal that also ended the reader (Ctrl-C to the pipeline) is an interrupted map.
                return Task.isCancelled ? context.interrupted() : .setupFailed
            }
            let outcome = CommandOutcome.writeFailed(writeFailure, io: context.io)
            // A file that left its path, or was written over, has its own way on, said already: no cut advice.
            let departed = (writeFailure as? OutputWriteError)?.resumable == false
            if let state, outcome != .outputClosed, !departed {
                context.io.writeErr(
                    Self.cutAdvice(
                        state.state, shown: state.file.shown,
                        file: context.stdoutFile,
                        bytes: unrecordedBytes, pipe: pipe != nil))
            }
            return outcome
        }
        try? flush(moreToCome: false)
        try? context.io.out.write(writer.finish(completed: false))
        context.io.writeErr(context.presenter.present(error).message)
        if pipe != nil, !(await settle(waiting: !Task.isCancelled)), !Task.isCancelled { return .failed(error) }
        // An organization or a person GitHub does not know is no stop to go on from.
        if case .notFound = error {
            state?.discardIfEmpty()
            return .failed(error)
        }
        // The repositories since the last save that wrote nothing: the file goes on after them, where it can.
        try? state?.saveUnsaved()
        if let state {
            let place = state.state.after.map { "up to \($0)" } ?? "before its first repository"
            context.io.writeErr(
                TerminalSanitizer.sanitize(
                    "gh-users: the state file \(state.file.shown) records the map \(place); run the same command "
                        + "again, appending to the same output, to go on.") + "\n")
        } else if repositories > 0 {
            // Exit 5 alone did not tell a person that what came is part of the map, nor how a rerun need not
            // read it all again (a review's find: 180 of 1,000 repositories, and only the rate limit said).
            context.io.writeErr(
                "The output holds the map of the first \(Counted.text(repositories, plural: "repositories")) only: "
                    + "it is incomplete. With --state FILE (tsv, csv or ndjson), a run that stops goes on where it "
                    + "stopped when run again.\n")
        }
        return .failed(error)
    }

    /// How a map whose output or state could not be written (a full disk) goes on, from the `state` its file
    /// holds: the `bytes` written past its last repository are removed from the output (`file`, the path stdout
    /// names, if any), since the rerun writes that repository again whole: by the rerun where the state records
    /// the file's length, else first, by hand. On a pipe they cannot be: what its reader took past the state comes
    /// again.
    static func cutAdvice(_ state: AccessState, shown: String, file: String?, bytes: Int, pipe: Bool) -> String {
        let place = state.after.map { "up to \($0)" } ?? "before its first repository"
        // Named safely in the words; quoted for a shell in the command, which a person pastes.
        let (shownFile, word) = (file.map(TerminalSanitizer.quotedPath), file.map(ShellWord.quote))
        let rerun = "run the same command again, appending to the same output, to go on"
        let next =
            pipe
            ? "; what the reader took past that comes again when you " + rerun + "."
            : bytes == 0
                ? "; " + rerun + "."
                : ". The last \(bytes) bytes of \(shownFile ?? "the output") are of the repository after it, which "
                    + (state.outputBytes != nil && file != nil
                        ? "the rerun keeps where they are its own first records to the byte: "
                        : "the rerun writes again whole: remove them first (truncate -s -\(bytes) \(word ?? "FILE")), then ")
                    + rerun + "."
        return TerminalSanitizer.sanitize("gh-users: the state file \(shown) records the map \(place)" + next) + "\n"
    }

    /// With stdout a pipe, once the last byte is written: waits for the reader to take the rest (unless
    /// `waiting` is false), and records the repositories it took. False, said on stderr, when it did not take
    /// them all (or `always`).
    private mutating func settle(waiting: Bool, always: Bool = false) async -> Bool {
        guard let pipe, var file = state else { return true }
        let (taken, all) = await pipe.drain(
            waiting: waiting, limit: CrawlCheckpoint.readerLimit, sleep: context.sleep)
        do throws(LocalFileError) {
            for place in taken { try file.written(place.repository, records: place.records, read: place.read) }
            state = file
        } catch {
            context.io.writeErr("gh-users: \(error.message)\n")
            return false
        }
        // After a signal the reader is not to blame: the caller says where the map stands.
        guard !all || always, !Task.isCancelled else { return !Task.isCancelled }
        let place = file.state.after.map { "the map up to \($0), the last repository it took" } ?? "no repository"
        context.io.writeErr(
            TerminalSanitizer.sanitize(
                "gh-users: the reader of stdout did not take every record written (it went away, or took none for "
                    + "\(CrawlCheckpoint.readerLimit.components.seconds) seconds), so the state file \(file.file.shown) "
                    + "records only what it took: \(place). Run the same command again, appending to the same "
                    + "output, to go on from there; the records after it come again.") + "\n")
        return false
    }
}

/// A repository whose records were written, as the state records it once the reader took them.
struct AccessPlace: Sendable {
    let repository: String
    let records: Int
    let read: AccessRepositoryRead
}

extension AccessCommand {
    /// Whether the map read no repository, which is no map: GitHub refused the collaborators of every one
    /// (`unreadable`, of `total` that are there), or none of the `--repo`s named is there (`missing`), where an
    /// empty map would pass for a whole map of nobody.
    static func readsNone(_ unreadable: [String], missing: [String] = [], of total: Int) -> Bool {
        (!unreadable.isEmpty || !missing.isEmpty) && unreadable.count >= total
    }

    /// What stderr says of the repositories GitHub refused (`unreadable`, of `total` that are there) and the
    /// failure. Some of them: the map is partial (exit 1), and `partial` ends the line with what became of it.
    /// Every one: the token could read the collaborators of none, so there is no map, and a token that can is
    /// what it needs, as for any GraphQL `FORBIDDEN` that refuses the token (exit 4).
    func refusal(_ unreadable: [String], of total: Int, partial: String) -> (message: String, error: DomainError) {
        let count = unreadable.count
        let names = unreadable.joined(separator: ", ")
        guard Self.readsNone(unreadable, of: total) else {
            let message =
                "gh-users: GitHub did not show the collaborators of \(Counted.text(count, plural: "repositories")) "
                + "of \(total) (it shows them only to those with push access): \(names)\(partial)"
            return (
                TerminalSanitizer.sanitize(message) + "\n",
                .refused("the collaborators of \(count) of \(total) repositories were refused")
            )
        }
        let what =
            count == 1
            ? "could not read the collaborators of the one repository"
            : "could read the collaborators of none of the \(count) repositories"
        let message =
            "gh-users: the token \(what) of \(organization)\(repositories.isEmpty ? "" : " asked about") (\(names)): "
            + "GitHub shows them only to those "
            + "with push access, so there is no map. The map needs a token with push access to a repository, or "
            + "an owner's token with read:org and repo."
        return (
            TerminalSanitizer.sanitize(message) + "\n",
            .unauthorized(status: 200, message: "the collaborators of none of \(count) repositories could be read")
        )
    }
}
