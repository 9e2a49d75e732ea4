import AtomicCore
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `--output FILE`: the crawl's output, owned by gh-users and only ever appended to. Before the first write, a
/// file longer than the state's recorded length is cut back to it: those bytes are a page written before a
/// kill or a power cut took its state with it, and that page is fetched and written again.
final class CrawlOutputFile: OutputSink, @unchecked Sendable {
    let path: String
    /// The path as opened, its links followed, which must name the open file at each page (`sync`).
    private let target: String
    private let descriptor: Int32
    /// The file's length before this run wrote anything, after any cut.
    let initialLength: Int64
    /// Whether the file held nothing then (`AppendedOutputCheck.holdsNothing`): csv's header goes first.
    let startsEmpty: Bool
    private let lock = NSLock()
    private var length: Int64

    /// Opens (or creates) the file for appending. With `cut`, the file is first cut back to the state's recorded
    /// length, when what lies past it is this crawl's unsaved page (`OutputCut`); anything else there, or a file
    /// shorter than the length (it has lost data), is left untouched and stops the run. A `resumable` output (with
    /// `--state`) must be a regular file from the first run on, since a rerun cuts it back: a device or a FIFO
    /// is refused before it is opened (a FIFO is never waited on), so nothing is written. With `check`, a file
    /// that holds bytes after any cut must begin as the check wants (`AppendedOutputCheck`): one that does not
    /// is left as it was, uncut, and stops the run.
    init(path: String, cut: OutputCut?, resumable: Bool, check: AppendedOutputCheck? = nil) throws(LocalFileError) {
        self.path = path
        // Its links followed as the state's are (`OwnedFile.resolve`): never another user's link in /tmp, which a
        // rerun's cut would turn on one of the runner's own files.
        let (target, untrusted) = OwnedFile.resolve(path)
        if let number = FileDescriptorIO.unopenedDescriptor(path, target) {
            throw LocalFileError(
                message: "cannot open the output file \(TerminalSanitizer.quotedPath(path)): "
                    + FileDescriptorIO.notGiven(number))
        }
        if let untrusted {
            throw OwnedFile.refusal(
                of: untrusted, reaching: "the output file \(TerminalSanitizer.quotedPath(path))", option: "--output")
        }
        if SharedFolder.refusesFIFO(at: target) {
            throw SharedFolder.refusal(of: "the output file \(TerminalSanitizer.quotedPath(path))", "--output")
        }
        var named = stat()
        if resumable, stat(target, &named) == 0, let kind = FileDescriptorIO.nonRegularKind(named.st_mode) {
            throw Self.notRegular(path, kind)
        }
        // A FIFO with no reader blocks open(2) until one comes, which a signal must still interrupt.
        // Read as well when a rerun may have to look at what it would cut, or a check at how a regular file that
        // holds bytes begins (never a FIFO, which a reader of its own would let take writes that no one reads).
        // O_NOFOLLOW, but for the kernel's link to a pipe (`/dev/stdout`, `>(…)`), which only the kernel can follow.
        let pathless = FileDescriptorIO.pathlessLinkText(target) != nil
        let flags = O_CREAT | O_APPEND | O_CLOEXEC | O_NOCTTY | (pathless ? 0 : O_NOFOLLOW)
        // A file this open makes is removed again when the run is refused, so "nothing was changed" holds.
        var before = stat()
        let existed = lstat(target, &before) == 0
        let reads =
            cut != nil
            || (check != nil && existed && before.st_size > 0 && FileDescriptorIO.nonRegularKind(before.st_mode) == nil)
        var descriptor = InterruptState.process.blocking {
            open(target, (reads ? O_RDWR : O_WRONLY) | flags, 0o666)
        }
        if descriptor < 0, errno == EACCES, reads {
            descriptor = InterruptState.process.blocking { open(target, O_WRONLY | flags, 0o666) }
        }
        guard descriptor >= 0 else {
            // A folder's refusal says the way on, as --state's does (helper-341).
            let folder = errno == EISDIR ? ": give --output a file" : ""
            throw LocalFileError(
                message:
                    "cannot open the output file \(TerminalSanitizer.quotedPath(path)): "
                    + FileDescriptorIO.reason(errno, creating: path) + folder
            )
        }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            let code = errno
            close(descriptor)
            throw LocalFileError(
                message:
                    "cannot open the output file \(TerminalSanitizer.quotedPath(path)): \(FileDescriptorIO.reason(code))"
            )
        }
        // Another user's file in /tmp, through whatever name (`/dev/stdout` too is resolved to a name and opened).
        if !SharedFolder.trusts(descriptor: descriptor, at: target, stillNamed: true) {
            close(descriptor)
            throw SharedFolder.refusal(of: "the output file \(TerminalSanitizer.quotedPath(path))", "--output")
        }
        var length = Int64(info.st_size)
        // Checked again on the open file: the path may have been replaced since.
        if resumable || cut != nil, let kind = FileDescriptorIO.nonRegularKind(info.st_mode) {
            close(descriptor)
            throw Self.notRegular(path, kind)
        }
        if FileDescriptorIO.nonRegularKind(info.st_mode) == nil, !OutputLock.take(descriptor) {
            close(descriptor)
            throw OutputLock.refusal("the output file \(TerminalSanitizer.quotedPath(path))")
        }
        if let cut {
            let recorded = cut.recorded
            guard length >= recorded else {
                close(descriptor)
                if !existed, length == 0 { unlink(target) }
                throw LocalFileError(
                    message:
                        "the output file \(TerminalSanitizer.quotedPath(path)) "
                        + (existed
                            ? "holds \(length) bytes, fewer than the \(recorded) the state file recorded"
                            : "is not there, and the state file recorded \(recorded) bytes of it")
                        + ": data written earlier was lost. Nothing was changed; restore the file, or "
                        + "remove the state file to start the crawl again.")
            }
            if length > recorded,
                let reason = cut.problem(length: length, read: { FileDescriptorIO.read(descriptor, from: $0) })
            {
                close(descriptor)
                throw cut.refusal(path, length: length, because: reason)
            }
        }
        // What this run appends to is the file as the cut leaves it, checked before the cut is made.
        let kept = cut.map { min(length, $0.recorded) } ?? length
        if let check, kept > 0, FileDescriptorIO.nonRegularKind(info.st_mode) == nil {
            let start = FileDescriptorIO.read(descriptor, from: 0, upTo: check.readLength)
            let name = "the output file \(TerminalSanitizer.quotedPath(path))"
            let begins = start.map { Array($0.prefix(Int(kept))) }
            if let refusal = check.refusal(
                name, start: begins, last: FileDescriptorIO.read(descriptor, from: kept - 1, upTo: 1)?.first)
            {
                close(descriptor)
                throw refusal
            }
        }
        if let cut, length > cut.recorded {
            guard ftruncate(descriptor, off_t(cut.recorded)) == 0 else {
                let code = errno
                close(descriptor)
                throw LocalFileError(
                    message:
                        "cannot cut the output file \(TerminalSanitizer.quotedPath(path)) back to \(cut.recorded) bytes: "
                        + FileDescriptorIO.reason(code))
            }
            length = cut.recorded
        }
        self.descriptor = descriptor
        self.target = target
        self.initialLength = length
        startsEmpty =
            length == 0
            || (length == 3 && FileDescriptorIO.read(descriptor, from: 0, upTo: 3) == AppendedOutputCheck.byteOrderMark)
        self.length = length
    }

    /// Set once `finish` closed the descriptor.
    private var finished = false

    deinit {
        if !finished { close(descriptor) }
    }

    /// Closes the file at the end of a run that wrote all it would, and says why that failed: a full disk or a
    /// quota on NFS or a FUSE filesystem may first show there, and the run ended 0 with its output lost
    /// (helper-310). EINTR has closed it on Linux, so it is no failure.
    func finish() -> OutputWriteError? {
        lock.withLock { finished = true }
        guard close(descriptor) != 0, errno != EINTR else { return nil }
        return OutputWriteError(
            message: "cannot write to the output file \(TerminalSanitizer.quotedPath(path)): "
                + FileDescriptorIO.reason(errno))
    }

    /// The refusal of a `--output` that `--state` could not cut back on a rerun.
    private static func notRegular(_ path: String, _ kind: String) -> LocalFileError {
        LocalFileError(
            message: "the output file \(TerminalSanitizer.quotedPath(path)) is \(kind), not a regular file: with "
                + "--state a rerun cuts the output back to the length the state recorded, which only a regular file "
                + "can be. Nothing was written: give --output a regular file, or leave --state out")
    }

    /// How long the file is after everything written so far.
    var currentLength: Int64 { lock.withLock { length } }

    func write(_ bytes: [UInt8]) throws {
        do {
            try FileDescriptorIO.writeAll(descriptor, bytes)
        } catch {
            throw OutputWriteError(
                message:
                    "cannot write to the output file \(TerminalSanitizer.quotedPath(path)): \(FileDescriptorIO.reason(error.code))",
                written: error.written)
        }
        lock.withLock { length += Int64(bytes.count) }
    }

    /// Puts everything written so far on disk, so that a state recording this length never outlives the data.
    func sync() throws(LocalFileError) {
        guard fsync(descriptor) == 0 || errno == EINVAL else {
            throw LocalFileError(
                message:
                    "cannot flush the output file \(TerminalSanitizer.quotedPath(path)) to disk: \(FileDescriptorIO.reason(errno))"
            )
        }
    }

    /// Checks that the path, by which a state names the file, still names this file at this length: a crawl whose
    /// output was removed, moved or replaced while it ran ended 0, the records after that in a file no state names
    /// (helper-343's find 2).
    func checkStillNamed() throws(OutputWriteError) {
        if let departure = FileDescriptorIO.departure(of: target, from: descriptor, length: currentLength, exact: true)
        {
            throw Self.departed(TerminalSanitizer.quotedPath(path), departure, stopped: "crawl")
        }
    }

    /// The stop of a run whose output file left its path while the run wrote it; its message is its way on.
    static func departed(_ shown: String, _ departure: String, stopped: String) -> OutputWriteError {
        var error = OutputWriteError(
            message: "the output file \(shown) \(departure) while this run wrote it, so the \(stopped) stopped and the "
                + "state file still counts only what the file held before. Put the file back as it was to go on, or "
                + "remove the state file to start again")
        error.resumable = false
        return error
    }
}
