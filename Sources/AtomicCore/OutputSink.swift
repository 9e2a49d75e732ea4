/// Where a command's bytes go. Writes are whole chunks: callers build a page of output and write it once.
package protocol OutputSink: Sendable {
    /// Throws `OutputClosedError` when the reader has gone away (a closed pipe).
    func write(_ bytes: [UInt8]) throws
    /// True when the reader is known to have gone away, before anything more is written: a command about to do
    /// something that cannot be taken back (a write to GitHub) asks first, rather than learn it from the record.
    var readerHasLeft: Bool { get }
    /// Bytes written that the reader has not taken yet, when the sink is a pipe; nil for anything else.
    var unreadBytes: Int? { get }
    /// False when there is nothing to write to (a closed stdout, `>&-`), found before anything is written.
    var isOpen: Bool { get }
    /// Puts what was written on disk, where that means anything (a regular file), before something records it
    /// as written (`--changes` its snapshot, `list --state` its state).
    func flushToDisk() throws(OutputWriteError)
}

extension OutputSink {
    package var readerHasLeft: Bool { false }
    package var unreadBytes: Int? { nil }
    package var isOpen: Bool { true }
    package func flushToDisk() throws(OutputWriteError) {}

    /// What became of everything written, asked once it is all written and before something is recorded as
    /// seen (`--changes` replacing its snapshot). A pipe is waited on until its reader has taken every byte, as a
    /// blocking write would wait, and then for `grace` more, since a reader that stops early (`| head -1`,
    /// `| grep -q`) may take everything in one read and leave a moment later. A reader that takes nothing for
    /// `limit` (a parent that waits for the process to end before it reads, as `Popen(…).wait()` does) is
    /// waited on no longer. Anything else is asked once. `sleep` is the clock: tests pass one that returns at
    /// once. A cancelled task stops waiting; the caller asks `Task.isCancelled`.
    package func waitForReader(
        grace: Duration = .milliseconds(100), limit: Duration = .seconds(5),
        sleep: @Sendable (Duration) async -> Void = { try? await Task.sleep(for: $0) }
    ) async -> ReaderWait {
        guard var unread = unreadBytes else { return readerHasLeft ? .left : .tookAll }
        let step = Duration.milliseconds(5)
        var idle = Duration.zero
        while unread > 0, !readerHasLeft, !Task.isCancelled {
            guard idle < limit else { return .timedOut }
            await sleep(step)
            let now = unreadBytes ?? 0
            // The limit is on a reader that takes nothing: one that is slow but reading is waited on.
            idle = now < unread ? .zero : idle + step
            unread = now
        }
        var waited = Duration.zero
        while waited < grace, !readerHasLeft, !Task.isCancelled {
            await sleep(step)
            waited += step
        }
        return readerHasLeft ? .left : .tookAll
    }
}

/// What `OutputSink.waitForReader` found.
package enum ReaderWait: Sendable, Equatable {
    /// The reader took everything and stayed, or the output is no pipe.
    case tookAll
    /// The reader went away before it took everything, or right after (`| head -1`, `| grep -q`).
    case left
    /// The reader took nothing for the whole limit.
    case timedOut
}

/// The reader of stdout went away (EPIPE). Commands stop quietly when they see it.
package struct OutputClosedError: Error, Equatable {
    package init() {}
}

/// A write that failed for a reason other than a closed reader, such as a full disk under `--output FILE`:
/// the command stops, fails, and says why.
package struct OutputWriteError: Error, Equatable {
    package let message: String
    /// How many bytes of the failed write went out before it failed, when that is known: a list resumes after
    /// the last record they hold whole.
    package let written: Int?
    /// `message` without what it says of a write cut part-way, for a caller that knows where its records end.
    package let reason: String
    /// False when the message says the way on itself and a rerun of the same command is not it (the output
    /// file left its path while the run wrote it).
    package var resumable = true

    package init(message: String, written: Int? = nil, reason: String? = nil) {
        self.message = message
        self.written = written
        self.reason = reason ?? message
    }

    /// A write that failed for `reason` after `written` of its bytes went out, as a descriptor's write fails.
    package static func cut(_ reason: String, written: Int) -> OutputWriteError {
        OutputWriteError(
            message: reason + (written > 0 ? " (what was written ends in a cut record)" : ""), written: written,
            reason: reason)
    }

    /// The same failure, of a write that began `offset` bytes into a larger one.
    package func shifted(by offset: Int) -> OutputWriteError {
        OutputWriteError(message: message, written: written.map { offset + $0 }, reason: reason)
    }
}
