import AtomicCore
import Data
import Domain
import Foundation
import Glibc

/// What a `--changes FILE` holds: a list's people as one run found them, which the next run compares with.
protocol SnapshotContents: Sendable {
    /// What the file is, for the message that refuses another kind: "a gh-users follower snapshot".
    static var kindName: String { get }
    /// The API root the snapshot was made against (`api_url`, `RecordedAPIRoot.of`); nil in a file written
    /// before it was recorded.
    var apiURL: String? { get }
    var encoded: [UInt8] { get }
    static func decode(_ bytes: [UInt8]) -> Result<Self, FileContentProblem>
}

enum SnapshotFiles {
    /// Far more than any list (a million accounts take about 45 MB); stops `/dev/zero` filling memory.
    /// Task-local so a test can lower it rather than write hundreds of megabytes.
    @TaskLocal static var limitBytes = 256 * 1024 * 1024
}

/// The `--changes FILE` on disk: read and locked before the first request, replaced once the changes are
/// written (see `OwnedFile` for how it is replaced, locked and found through links).
struct SnapshotFile<Contents: SnapshotContents>: Sendable {
    let file: OwnedFile

    init(path: String) {
        file = OwnedFile(
            path: path, kind: "snapshot file", option: "--changes", limitBytes: SnapshotFiles.limitBytes)
    }

    /// The snapshot's bytes, or why they would not be read back: a file larger than the reader takes would
    /// make every later run refuse it, so it is never written.
    func encode(_ snapshot: Contents) -> Result<[UInt8], FileContentProblem> {
        let bytes = snapshot.encoded
        guard bytes.count <= file.limitBytes else {
            return .failure(
                FileContentProblem(
                    "would take \(bytes.count) bytes, more than the \(file.limitBytes) a snapshot file is read back with"
                ))
        }
        return .success(bytes)
    }

    var path: String { file.path }

    /// nil when there is no file yet: the first run. Anything else that cannot be read as a snapshot is an
    /// error, and the file is left as it is.
    /// A signal that came while it was read (a snapshot of 150,000 records takes seconds) ends the reading as
    /// `LocalFileError.interrupted`, whatever the reader made of the rest.
    func load() throws(LocalFileError) -> Contents? {
        let snapshot: Contents?
        do {
            snapshot = try file.load(
                as: Contents.kindName, remedy: "give --changes another file, or remove it to start again",
                Contents.decode)
        } catch {
            throw Task.isCancelled ? .interrupted : error
        }
        if Task.isCancelled { throw .interrupted }
        return snapshot
    }

    /// `load`, refusing a snapshot made against another API root than `apiRoot`, this run's: its people are
    /// other people (another server's ids), so every one would be reported removed and added. A snapshot
    /// written before the root was recorded is taken, and records it when it is next replaced.
    func load(against apiRoot: URL) throws(LocalFileError) -> Contents? {
        let snapshot = try load()
        // A root written by hand (`https://GHE.example.com/api/v3/`) is the same as gh-users writes it.
        guard let mismatch = RecordedAPIRoot.mismatch(recorded: snapshot?.apiURL, now: RecordedAPIRoot.of(apiRoot))
        else { return snapshot }
        throw LocalFileError(
            message: "the snapshot file \(TerminalSanitizer.quotedPath(path)) \(mismatch). It was left as it is: "
                + "give each server its own snapshot file (for the same server under a new name, edit its \"api_url\")")
    }

    /// Replaces the file with bytes from `encode`.
    func replace(with bytes: [UInt8]) throws(LocalFileError) {
        try file.replace(with: bytes)
    }

    /// Writes the replacement beside the file, for `commit` once its changes are written and read.
    func prepare(_ bytes: [UInt8]) throws(LocalFileError) -> OwnedFile.Replacement {
        try file.prepare(bytes)
    }

    func commit(_ replacement: OwnedFile.Replacement) throws(LocalFileError) {
        try file.commit(replacement)
    }

    /// A read-only file, which the run could not replace, refused before the first request (`checkWritable`).
    func checkWritable() throws(LocalFileError) {
        try file.checkWritable()
    }

    /// One run at a time: two overlapping nightly runs would both report the same changes.
    func lock() throws(LocalFileError) -> OwnedFileLock {
        try file.lock()
    }
}

typealias FollowSnapshotFile = SnapshotFile<FollowSnapshot>
typealias PeopleSnapshotFile = SnapshotFile<PeopleSnapshot>

extension PeopleSnapshot: SnapshotContents {
    static let kindName = "a gh-users snapshot of a list of people"
}

extension SnapshotFile {
    /// How long a reader that takes nothing is waited on before the run stops without recording.
    static var readerLimit: Duration { .seconds(5) }

    /// Why a run whose reader went away left the file as it was.
    private var readerLeft: String {
        "gh-users: the reader of stdout went away before it took every change, so they were not recorded and "
            + "the next run reports them again.\n"
    }

    /// csv appended (`>>`) to a log that begins with this run's header and ends a line, as `list --output` takes
    /// one (an LF header, a byte order mark): the header is not written again, so a log of runs has one, at its
    /// top, and a loader takes no later header for a record (before, every run added one; a cron review's find).
    /// So is one a run before wrote it through the same stdout (`{ gh-users …; gh-users …; } > log`). Any other
    /// file gets the header, as before; so does `1<> FILE`, where this run writes from the start.
    static func continuesLog<Item: JSONRecord>(_ command: CommandContext, _ columns: [Column<Item>]) -> Bool {
        guard command.render.format == .csv, command.stdoutContinues, let path = command.stdoutFile else {
            return false
        }
        let writer = RecordStreamWriter(context: command.render, columns: columns)
        let check = AppendedOutputCheck(format: .csv, header: writer.csvHeader, columns: writer.columns.count)
        let (start, last) = AppendedOutputCheck.ends(ofFile: path, count: check.readLength)
        return start.map(AppendedOutputCheck.holdsNothing) != true && check.accepts(start: start, last: last)
    }

    /// The refusal of changes that would go on after a file stdout continues (`>> log`) that is one of
    /// gh-users's own (another list's snapshot, a state: `AppendedOutputCheck.ownFileRefusal`), or whose last
    /// line has no end (a run killed as it wrote, a line typed without one): the first change would join that
    /// line, and a loader would lose both (before, a csv header was glued to it). nil for any other stdout. A
    /// file of gh-users's own is refused even when the run `writes` nothing, so a mistyped `>>` is said on the
    /// first run, not on the first one with a change.
    static func appendedLogRefusal(_ command: CommandContext, writes: Bool) -> LocalFileError? {
        guard command.stdoutContinues, let path = command.stdoutFile else { return nil }
        let file = "stdout's file \(TerminalSanitizer.quotedPath(path))"
        guard writes else { return AppendedOutputCheck.ownFileRefusal(file, appendedTo: path) }
        return AppendedOutputCheck.continuedFileRefusal(file, appendedTo: path)
    }

    /// The line that ends a run which leaves the file as it was; a first run's file was never made.
    var untouched: String {
        // Followed, as the run writes: a link to nothing holds no snapshot either.
        var info = stat()
        guard stat(path, &info) == 0 || errno != ENOENT else {
            return "gh-users: nothing was recorded: the snapshot file \(TerminalSanitizer.quotedPath(path)) was "
                + "not made.\n"
        }
        return "gh-users: the snapshot file \(TerminalSanitizer.quotedPath(path)) was left as it was.\n"
    }

    /// The end of every `--changes` run, once the whole list is read: the snapshot checked and encoded, the
    /// changes since `previous` written, and only then the file replaced. A run that stops before its changes
    /// are all written and read (a full disk, a closed pipe, a reader that left as `| head -1` does), or whose
    /// list a snapshot cannot hold, leaves the file as it was, so the next run reports the same changes again.
    /// nil when the file was replaced: the caller says what it has to say and succeeds.
    func record(
        _ snapshot: Contents, problem: FileContentProblem?, listed words: String, count: Int,
        changes: [ListChange], roles: Bool, addresses: Bool = false, command: CommandContext
    ) async -> CommandOutcome? {
        await record(
            snapshot, problem: problem, listed: words, count: count, changes: changes,
            columns: ListChange.columns(command.render, roles: roles, addresses: addresses), command: command)
    }

    /// `record` for changes of any kind, written through `columns`; `noun` is what the snapshot counts. Every
    /// answer it records is GitHub's now: a `--changes` run never answers from the cache (`CacheSettings.copiesAnswer`).
    func record<Change: JSONRecord>(
        _ snapshot: Contents, problem: FileContentProblem?, listed words: String, count: Int,
        noun: String = "account", changes: some Collection<Change>, columns: [Column<Change>],
        command: CommandContext
    ) async -> CommandOutcome? {
        let io = command.io
        if let problem {
            io.writeErr(
                "gh-users: GitHub's list of \(words) \(problem.detail), which a snapshot cannot record, so nothing "
                    + "was written.\n" + untouched)
            return .setupFailed
        }
        let bytes: [UInt8]
        switch encode(snapshot) {
        case .success(let encoded): bytes = encoded
        case .failure(let problem):
            io.writeErr(
                "gh-users: the snapshot of \(words) (\(Counted.text(count, noun))) \(problem.detail), so "
                    + "nothing was compared or written.\n" + untouched)
            return .setupFailed
        }
        // Written and flushed beside FILE before any change goes out: a disk too full to hold it stops the run
        // with nothing written, where the changes used to go out first and come again on the next run.
        let replacement: OwnedFile.Replacement
        do {
            replacement = try prepare(bytes)
        } catch {
            io.writeErr("gh-users: \(error.message). Nothing was written.\n" + untouched)
            return .setupFailed
        }
        var writer = RecordStreamWriter(
            context: command.render, columns: columns, continuesOutput: Self.continuesLog(command, columns))
        if let refusal = Self.appendedLogRefusal(
            command, writes: !changes.isEmpty || !writer.finish(completed: true).isEmpty)
        {
            io.writeErr("gh-users: \(refusal.message).\n" + untouched)
            return .setupFailed
        }
        // Handed to stdout a megabyte at a time (`RecordStreamWriter.chunkSize`): 150,000 changes of an access map
        // are 45 MB of NDJSON, which one buffer of all of them held beside both maps.
        do {
            var ends: [Int] = []
            try writer.write(changes, ends: &ends) { chunk throws(any Error) in try io.out.write(chunk) }
            let end = writer.finish(completed: true)
            if !end.isEmpty { try io.out.write(end) }
            // On disk before the snapshot counts them as seen: stdout to a file on NFS may fail only now.
            try io.out.flushToDisk()
        } catch {
            let outcome = CommandOutcome.writeFailed(error, io: io)
            // With no change, csv's header or json's `[]` is all a gone reader missed: the run records, as tsv's
            // and ndjson's, which write nothing then, do.
            if !(outcome == .outputClosed && changes.isEmpty) {
                if outcome == .outputClosed { io.writeErr(readerLeft) }
                io.writeErr(untouched)
                return .setupFailed
            }
        }
        // Every change was written, but a reader that left before taking them all (`| head -1`, `| grep -q`)
        // never showed the rest, and one that takes nothing may never: the snapshot stays, so the next run
        // reports them again, and the run says so (exit 1), lest a nightly job miss the same alert every night.
        // With no change there is nothing a reader could miss: the run records at once.
        switch changes.isEmpty ? .tookAll : await io.out.waitForReader(limit: Self.readerLimit, sleep: command.sleep) {
        case .tookAll: break
        case .left:
            io.writeErr(readerLeft + untouched)
            return .setupFailed
        case .timedOut:
            io.writeErr(
                "gh-users: the reader of stdout took none of the last changes in \(Self.readerLimit.components.seconds) "
                    + "seconds (a program that waits for gh-users to end before it reads?), so they were not recorded "
                    + "and the next run reports them again.\n" + untouched)
            return .setupFailed
        }
        // A signal while the reader still had the changes (SIGTERM: exit 143) stops the run before it records.
        if Task.isCancelled {
            io.writeErr(command.presenter.present(.cancelled).message + untouched)
            return .failed(.cancelled)
        }
        do {
            try commit(replacement)
        } catch {
            io.writeErr(
                "gh-users: \(error.message). The changes written were not recorded, so the next run reports them "
                    + "again.\n")
            return .setupFailed
        }
        return nil
    }

    /// What a run says once it recorded the list of an account or an owner renamed since the file was made (the
    /// same id under another name): the old name, the id that keeps it the same, and the name it carries on under.
    func renamedNote(_ old: String, id: String, now new: String, name: String) -> String {
        // The old name is the file's, which may not be gh-users's: made safe to print.
        "gh-users: \(TerminalSanitizer.sanitize(old)) (\(id)) is now \(TerminalSanitizer.sanitize(new)); the snapshot in "
            + "\(TerminalSanitizer.quotedPath(path)) carries on under the new \(name).\n"
    }

    /// What a run that replaced the file says last: on the first run, what was recorded and what later runs
    /// write (`reports`); on a terminal, that nothing changed.
    func closingNote(
        firstRun: Bool, changed: Bool, listed words: String, count: Int, noun: String = "account",
        reports: String = "who came and went", io: IOStreams
    ) {
        if firstRun {
            // "the 2 accounts", but "the one account" and "no accounts", never "the 1 account".
            let recorded =
                switch count {
                case 0: "no \(noun)s"
                case 1: "the one " + noun
                default: "the " + Counted.text(count, noun)
                }
            io.writeErr(
                "gh-users: recorded \(recorded) of 'gh-users \(words)' in "
                    + "\(TerminalSanitizer.quotedPath(path)); from the next run on, --changes writes \(reports).\n")
        } else if !changed, io.stderrIsTTY {
            io.writeErr("gh-users: no changes since the last snapshot in \(TerminalSanitizer.quotedPath(path)).\n")
        }
    }
}
