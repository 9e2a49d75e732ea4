import AtomicCore
import Foundation

/// stdout when it is a pipe and a state records how far a run got (`list --state`, `access --state`): it counts
/// the bytes written, and hands back the places (a page's last account, a repository) whose bytes the reader has
/// taken, so that a state never records what sat unread in the pipe when the reader left (`| head -300`): a rerun
/// would skip it for good. A pipe's unread bytes are FIONREAD's (`OutputSink.unreadBytes`); asking costs two
/// system calls a page, and no wait while the reader keeps up. A reader reads ahead of what it uses (GNU head
/// 8 KiB at a time, grep and awk more), and what it read and dropped when it left cannot be seen: a place counts
/// as taken once the reader has read `readAhead` bytes past it, or once the run has ended, the pipe is empty and
/// the reader is still there a moment later. A reader that leaves early gets that much again on the next run.
/// What the first reader passes on is not seen: a filter before a reader that quits (`| jq -r .id | head`) can
/// have taken far more than was printed, so a crawl to be resumed is written to a file (`--output`).
final class PipeTally<Place: Sendable>: OutputSink, @unchecked Sendable {
    private let pipe: any OutputSink
    private let lock = NSLock()
    private var written = 0
    /// Places written and not yet taken, each with the count of bytes written once it was.
    private var pending: [(end: Int, place: Place)] = []
    /// The last place handed back: what the state records.
    private(set) var lastTaken: Place?

    /// A tally when `out` is a pipe; nil for anything else (a file, a terminal), which takes every byte at once.
    static func of(_ out: any OutputSink) -> PipeTally? {
        out.unreadBytes == nil ? nil : PipeTally(pipe: out)
    }

    private init(pipe: any OutputSink) {
        self.pipe = pipe
    }

    /// How far past a place a reader must have read before the place counts as taken while the run goes on.
    static var readAhead: Int { 128 * 1024 }

    /// A pipe takes a write of up to PIPE_BUF (4096 bytes on Linux) whole or not at all: written in pieces no
    /// larger, what the pipe holds is counted to the byte, also when the reader leaves in the middle of a page.
    static var atomicSize: Int { 4096 }

    func write(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let end = min(offset + Self.atomicSize, bytes.count)
            do {
                try pipe.write(Array(bytes[offset..<end]))
            } catch let failure as OutputWriteError {
                throw failure.shifted(by: offset)
            }
            lock.withLock { written += end - offset }
            offset = end
        }
    }

    var readerHasLeft: Bool { pipe.readerHasLeft }
    var unreadBytes: Int? { pipe.unreadBytes }
    var isOpen: Bool { pipe.isOpen }

    /// `place` is written whole: the places the reader has taken since last asked, oldest first.
    func written(_ place: Place) -> [Place] {
        lock.withLock { pending.append((written, place)) }
        return taken()
    }

    /// The places whose every byte the reader has taken since last asked, oldest first: `readAhead` bytes past
    /// them, unless the reader is `staying` (it took everything and is still there).
    func taken(staying: Bool = false) -> [Place] {
        let unread = pipe.unreadBytes ?? 0
        return lock.withLock {
            let consumed = written - unread - (staying ? 0 : Self.readAhead)
            let count = pending.prefix { $0.end <= consumed }.count
            let places = pending.prefix(count).map(\.place)
            pending.removeFirst(count)
            if let last = places.last { lastTaken = last }
            return places
        }
    }

    /// Once the run has written its last byte: waits for the reader to take the rest, as `--changes` does (up to
    /// `limit` for a reader that takes nothing), unless `waiting` is false (the reader left, the run was
    /// cancelled). The places taken since last asked, and whether the reader took every one.
    func drain(waiting: Bool, limit: Duration, sleep: @Sendable (Duration) async -> Void) async -> (
        taken: [Place], all: Bool
    ) {
        // A reader that emptied the pipe may leave a moment later (a script that breaks after five lines): only
        // one still there after `waitForReader`'s grace counts as staying.
        var stayed = false
        if waiting, lock.withLock({ !pending.isEmpty }), !Task.isCancelled {
            stayed = await waitForReader(limit: limit, sleep: sleep) == .tookAll
        }
        let places = taken(staying: stayed && !Task.isCancelled && !pipe.readerHasLeft && pipe.unreadBytes == 0)
        return (places, lock.withLock { pending.isEmpty })
    }
}
