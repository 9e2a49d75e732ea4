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
    /// through a descriptor of its own (stdout may be open for writing alone), never closed, since closing any
    /// descriptor of the file would drop it. Runs that append whole records may share a file (`xargs -P … >>
    /// all`); a crawl, which counts what the file holds (`--state`, `--output`), takes it alone (`take`), so
    /// neither starts while the other writes. False when a crawl holds it now; true where there is no file, or
    /// none that can be locked.
    static func shareStdout() -> Bool {
        // A regular file only: a terminal, a pipe or a device is no crawl's output, and is not opened again.
        var written = stat()
        guard fstat(STDOUT_FILENO, &written) == 0, written.st_mode & S_IFMT == S_IFREG else { return true }
        let descriptor = open("/proc/self/fd/\(STDOUT_FILENO)", O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)
        guard descriptor >= 0 else { return true }
        var opened = stat()
        var lock = flock()
        lock.l_type = Int16(F_RDLCK)
        lock.l_whence = Int16(SEEK_SET)
        guard fstat(descriptor, &opened) == 0, opened.st_dev == written.st_dev, opened.st_ino == written.st_ino
        else {
            close(descriptor)
            return true
        }
        guard fcntl(descriptor, F_SETLK, &lock) != 0 else { return true }
        let code = errno
        close(descriptor)
        return code != EACCES && code != EAGAIN
    }

    static func refusal(_ shown: String) -> LocalFileError {
        LocalFileError(
            message: "another gh-users run is writing \(shown). Nothing was changed: wait for it to end, or give "
                + "each crawl its own output file")
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
