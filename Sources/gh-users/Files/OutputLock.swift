import AtomicCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One crawl at a time writes an output file: two would write each page twice, and cut each other's pages on a
/// rerun. A POSIX record lock on the whole file, held while the descriptor is open and dropped by the kernel when
/// the process ends, however it ends. A record lock rather than flock(2), so that a caller holding flock on the
/// file itself (`flock out.tsv gh-users list …`) is not taken for another crawl.
enum OutputLock {
    /// Takes the lock on the open file `descriptor`; false when another process holds it. Where the file system
    /// keeps no locks (ENOLCK), none is taken, and the crawl goes on as it did before there was one.
    static func take(_ descriptor: Int32) -> Bool {
        var lock = flock()
        lock.l_type = Int16(F_WRLCK)
        lock.l_whence = Int16(SEEK_SET)
        guard fcntl(descriptor, F_SETLK, &lock) != 0 else { return true }
        return errno != EACCES && errno != EAGAIN
    }

    /// Shares stdout's regular file with other runs that write it, for as long as this process runs: a read lock
    /// through `stdoutReader`. Runs that append whole records may share a file (`xargs -P … >> all`); a crawl,
    /// which counts what the file holds (`--state`, `--output`), takes it alone (`take`), so neither starts while
    /// the other writes. False when another gh-users run holds it now; true where there is no file, or none that
    /// can be locked, or the lock is a caller's own (`heldByGhUsers`). A file the runner may not read cannot be
    /// shared: a crawl holding it is still seen.
    static func shareStdout() -> Bool {
        var lock = flock()
        lock.l_type = Int16(F_RDLCK)
        lock.l_whence = Int16(SEEK_SET)
        guard stdoutReader.isRegularFile else { return true }
        guard let reader = stdoutReader.descriptor else { return !heldByGhUsers(STDOUT_FILENO, &lock) }
        guard fcntl(reader, F_SETLK, &lock) != 0 else { return true }
        return (errno != EACCES && errno != EAGAIN) || !heldByGhUsers(reader, &lock)
    }

    /// Whether the lock `wanted` asks on `descriptor` is held by a gh-users process: named so, or running this
    /// executable (installed under another name). A caller's own (`lockf` in a Python or Perl wrapper that runs
    /// gh-users with the file as stdout) is no crawl. One whose holder cannot be told (another user's process,
    /// another PID namespace) is taken for gh-users's.
    private static func heldByGhUsers(_ descriptor: Int32, _ wanted: inout flock) -> Bool {
        guard fcntl(descriptor, F_GETLK, &wanted) == 0, wanted.l_type != Int16(F_UNLCK) else { return false }
        let process = "/proc/\(wanted.l_pid)/"
        let name = try? String(contentsOfFile: process + "comm", encoding: .utf8)
        guard wanted.l_pid > 0, name?.trimmingCharacters(in: .newlines) != "gh-users",
            let executable = FileDescriptorIO.readLink(process + "exe")
        else { return true }
        return executable == FileDescriptorIO.readLink("/proc/self/exe")
    }

    /// One read descriptor of stdout's regular file, opened once and never closed: closing any descriptor of a
    /// file drops every record lock this process holds on it (the crawl's, the share), so whatever reads stdout's
    /// file (`AppendedOutputCheck.ends`) reads through this one. Nil for a stdout that is no regular file, or a
    /// file the runner may not read.
    static let stdoutReader = StdoutReader()

    final class StdoutReader: Sendable {
        /// Whether stdout is a regular file at all: no other is shared or read.
        let isRegularFile: Bool
        let descriptor: Int32?
        let device: UInt64
        let inode: UInt64

        fileprivate init() {
            var written = stat()
            isRegularFile = fstat(STDOUT_FILENO, &written) == 0 && written.st_mode & S_IFMT == S_IFREG
            guard isRegularFile else {
                (descriptor, device, inode) = (nil, 0, 0)
                return
            }
            (device, inode) = (UInt64(written.st_dev), UInt64(written.st_ino))
            let opened = open("/proc/self/fd/\(STDOUT_FILENO)", O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)
            var reopened = stat()
            guard opened >= 0, fstat(opened, &reopened) == 0, UInt64(reopened.st_dev) == device,
                UInt64(reopened.st_ino) == inode
            else {
                if opened >= 0 { close(opened) }
                descriptor = nil
                return
            }
            descriptor = opened
        }

        /// The descriptor, when `path` names stdout's file.
        func descriptor(for path: String) -> Int32? {
            var info = stat()
            guard let descriptor, stat(path, &info) == 0, UInt64(info.st_dev) == device, UInt64(info.st_ino) == inode
            else { return nil }
            return descriptor
        }
    }

    static func refusal(_ shown: String) -> LocalFileError {
        LocalFileError(
            message: "another gh-users run is writing \(shown). Nothing was changed: wait for it to end, or give "
                + "each crawl its own output file")
    }

    /// Why stderr may not go to stdout's regular file `shown` too (`>> FILE 2>&1`), where a rerun compares the
    /// bytes past what its state counts with its records (`access --state`); nil when it goes elsewhere.
    static func stderrRefusal(forStdout shown: String) -> LocalFileError? {
        stderrSharesStdout() ? sharedStderr(shown, redirection: "2>&1") : nil
    }

    private static func sharedStderr(_ shown: String, redirection: String) -> LocalFileError {
        LocalFileError(
            message: "with --state, stderr must not go to \(shown) too (\(redirection)): gh-users's messages would "
                + "be written among the records, which a rerun goes on from. Nothing was asked: send stderr elsewhere "
                + "(2> FILE, or the terminal)")
    }

    /// With `--state`, whether stderr goes to the file the records go to, `output` (`--output FILE 2>> FILE`) or
    /// else stdout's `stdoutFile` (`>> FILE 2>&1`): refused before anything is said or asked (`list`), on the
    /// terminal, the one place left to say it. With none (cron, `setsid`), the exit status alone says it: a message
    /// in the file would stay among the records, which no rerun of `list` checks (helper-329: both runs wrote their
    /// rate-limit text into the data).
    static func refusedSharedStderr(stdoutFile: String?, output: String?) -> Bool {
        let refusal =
            if let output {
                stderrIsFile(output) ? sharedStderr(TerminalSanitizer.quotedPath(output), redirection: "2>> FILE") : nil
            } else {
                stdoutFile.flatMap { stderrRefusal(forStdout: TerminalSanitizer.quotedPath($0)) }
            }
        guard let refusal else { return false }
        tellTerminal("gh-users: " + refusal.message)
        return true
    }

    /// Whether stderr and stdout are one file (`2>&1`).
    static func stderrSharesStdout() -> Bool {
        var output = stat()
        return fstat(STDOUT_FILENO, &output) == 0 && stderrIs(output)
    }

    /// Whether stderr goes to the file at `path` (`--output FILE 2>> FILE`).
    private static func stderrIsFile(_ path: String) -> Bool {
        var named = stat()
        return stat(path, &named) == 0 && stderrIs(named)
    }

    private static func stderrIs(_ file: stat) -> Bool {
        var errors = stat()
        return fstat(STDERR_FILENO, &errors) == 0 && errors.st_dev == file.st_dev && errors.st_ino == file.st_ino
    }

    /// Writes the `line` to the controlling terminal, if there is one: for what cannot go to stderr. False where
    /// there is none (cron, `setsid`), or it could not be written.
    @discardableResult
    static func tellTerminal(_ line: String) -> Bool {
        let terminal = open("/dev/tty", O_WRONLY | O_NOCTTY | O_CLOEXEC)
        guard terminal >= 0 else { return false }
        defer { close(terminal) }
        return (try? FileDescriptorIO.writeAll(terminal, Array((TerminalSanitizer.sanitize(line) + "\n").utf8))) != nil
    }

    /// With `--state`, why a crawl may not write to stdout's regular file `shown`, or nil (the lock then held):
    /// opened without O_APPEND (`>`), which a rerun empties though the state counts what it held, or held by
    /// another crawl. Said without "nothing was changed": the shell may have emptied it already. Opened for
    /// reading too (`1<>`), it was not emptied, but a run would write over it from its start. `takesOutput`: the
    /// command has `--output FILE` to offer instead (`list`; `access` writes to stdout alone). `stateHeld`: the
    /// state file holds this command's state, which may count what `>` emptied.
    static func refusal(forStdout shown: String, takesOutput: Bool = true, stateHeld: Bool) -> LocalFileError? {
        let remedy = "run with >> FILE" + (takesOutput ? " or --output FILE" : "")
        let flags = fcntl(STDOUT_FILENO, F_GETFL)
        var status = stat()
        // Opened read-write and not empty: `1<>`, which empties nothing. Empty, it may have been truncated (`w+`).
        let held = fstat(STDOUT_FILENO, &status) == 0 && status.st_size > 0
        if flags & O_APPEND == 0, flags & O_ACCMODE == O_RDWR, held {
            return LocalFileError(
                message: "with --state, stdout must append to \(shown) (>>, not <>): <> writes over the file from "
                    + "its start, where the state counts what it holds. Nothing was changed: " + remedy)
        }
        if flags & O_APPEND == 0 {
            return LocalFileError(
                message: "with --state, stdout must append to \(shown) (>>, not >): > empties the file before "
                    + "gh-users starts, so a rerun with it loses what the state counts. "
                    + (stateHeld
                        ? "If the file held this crawl's output, restore it or remove the state file to start again; "
                            + "then " + remedy : "Nothing was asked: " + remedy))
        }
        guard take(STDOUT_FILENO) else {
            return LocalFileError(
                message: "another gh-users run is writing \(shown), the file stdout goes to: wait for it to end, or "
                    + "give each crawl its own output file")
        }
        return nil
    }
}
