import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes straight to a file descriptor with `write(2)`, retrying short writes and EINTR, and waiting out EAGAIN
/// (`DescriptorReadiness`).
/// Needs SIGPIPE ignored so that a closed pipe surfaces as EPIPE instead of killing the process, and SIGXFSZ
/// ignored so that a file-size limit (`ulimit -f`) surfaces as EFBIG.
/// Only EPIPE (the reader left) is `OutputClosedError`; any other failure (a full disk, a file too large, an I/O
/// error) is `OutputWriteError`, because what was written is then cut short and the command must fail.
package struct FileDescriptorSink: OutputSink {
    package let descriptor: Int32

    package init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    package func write(_ bytes: [UInt8]) throws {
        let failure: (code: Int32, written: Int)? = bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = systemWrite(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR || DescriptorReadiness.waited(descriptor, for: POLLOUT) { continue }
                    return (errno, offset)
                }
                offset += written
            }
            return nil
        }
        guard let failure else { return }
        if failure.code == EPIPE { throw OutputClosedError() }
        throw OutputWriteError.cut(
            "cannot write to \(streamName): \(SystemError.reason(failure.code))", written: failure.written)
    }

    /// A pipe whose reader closed polls as POLLERR on Linux, and a socket whose peer left as POLLHUP; a file or
    /// a terminal as neither.
    package var readerHasLeft: Bool {
        var poller = pollfd(fd: descriptor, events: 0, revents: 0)
        guard poll(&poller, 1, 0) > 0 else { return false }
        return poller.revents & Int16(POLLERR | POLLHUP) != 0
    }

    /// What FIONREAD counts in a pipe, which Linux answers on either end; in a socket (systemd's journal or a
    /// `StandardOutput=socket`), what SIOCOUTQ counts in its send queue, which is no less than what its peer has
    /// not taken (a Unix socket's count is the memory its unread buffers hold) and 0 once it took everything
    /// (helper-365: a socket's reader that left unread had `--changes` recorded); nil for a file or a terminal.
    package var unreadBytes: Int? {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return nil }
        let request: UInt
        switch status.st_mode & S_IFMT {
        case S_IFIFO: request = UInt(FIONREAD)
        case S_IFSOCK: request = UInt(TIOCOUTQ)
        default: return nil
        }
        var count: Int32 = 0
        return ioctl(descriptor, request, &count) == 0 ? Int(count) : nil
    }

    /// `fcntl(F_GETFL)` fails (EBADF) on a descriptor that is not open, and says read-only for one that
    /// `StandardDescriptors.holdClosed` holds.
    package var isOpen: Bool {
        let flags = fcntl(descriptor, F_GETFL)
        return flags != -1 && flags & O_ACCMODE != O_RDONLY
    }

    /// Closes the descriptor once everything is written, where it is a regular file (a pipe, a terminal or a
    /// device is left open), and says why that failed: on NFS or a FUSE filesystem a full disk or a quota may
    /// first show at close(2), as GNU's `close_stdout` knows. Unchecked, such a run ended 0 with its output lost
    /// (helper-310). EINTR has closed it on Linux, so it is no failure.
    package func closeFile() -> OutputWriteError? {
        guard isRegularFile, close(descriptor) != 0, errno != EINTR else { return nil }
        return OutputWriteError(message: "cannot write to \(streamName): \(SystemError.reason(errno))")
    }

    /// fsync(2) of a regular file (a pipe, a terminal or a device has nothing to put on disk): NFS or a FUSE
    /// filesystem may report a full disk or a quota only here or at close(2), after the snapshot or the state
    /// had counted the output as written (helper-312).
    package func flushToDisk() throws(OutputWriteError) {
        guard isRegularFile else { return }
        while fsync(descriptor) != 0 {
            guard errno == EINTR else {
                throw OutputWriteError(message: "cannot flush \(streamName) to disk: \(SystemError.reason(errno))")
            }
        }
    }

    private var isRegularFile: Bool {
        var status = stat()
        return fstat(descriptor, &status) == 0 && status.st_mode & S_IFMT == S_IFREG
    }

    private var streamName: String {
        switch descriptor {
        case STDOUT_FILENO: return "stdout"
        case STDERR_FILENO: return "stderr"
        default: return "file descriptor \(descriptor)"
        }
    }
}

/// The standard descriptors a process may start without (`>&-`, `2>&-`, `<&-`).
package enum StandardDescriptors {
    /// Puts /dev/null, opened the wrong way round, on each of stdin, stdout and stderr that is closed, before
    /// anything else opens a file: a closed one keeps failing as closed (EBADF, and `isOpen` is false), and no
    /// pipe or file opened later takes its number, so no output or diagnostic goes into one. Call it first. Gives
    /// the numbers it held, which `StartDescriptors.record(except:)` counts as not given.
    package static func holdClosed() -> Set<Int32> {
        var held: Set<Int32> = []
        for (descriptor, mode) in [(STDIN_FILENO, O_WRONLY), (STDOUT_FILENO, O_RDONLY), (STDERR_FILENO, O_RDONLY)]
        where fcntl(descriptor, F_GETFL) == -1 {
            // The lowest free number is the closed one, or a lower one also closed, which the loop fills first.
            if open("/dev/null", mode) >= 0 { held.insert(descriptor) }
        }
        return held
    }
}

/// The descriptors the process was started with (a shell's `3>>out.tsv`): the only ones a file option may name
/// as `/dev/fd/N`. Any other number is one gh-users opened itself (its signal pipe is 3 and 4 where the shell gave
/// none), and `--output /dev/fd/3` wrote the output into that pipe, read as signals (a review's find).
package enum StartDescriptors {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var recorded: Set<Int32>?

    /// Records the descriptors open now but `held` (the closed standard ones `StandardDescriptors` holds, which a
    /// `/dev/stdout` would reopen as /dev/null, so `--output /dev/stdout >&-` wrote a list into it, exit 0): call
    /// it first thing, before anything opens a file.
    package static func record(except held: Set<Int32> = []) {
        var open: Set<Int32> = []
        if let folder = opendir("/proc/self/fd") {
            while let entry = readdir(folder) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                    String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
                }
                if let number = Int32(name), number != dirfd(folder) { open.insert(number) }
            }
            closedir(folder)
        }
        lock.withLock { recorded = open.subtracting(held) }
    }

    /// Whether descriptor `number` was open at the start; true where nothing was recorded (a test's process).
    package static func wasOpen(_ number: Int32) -> Bool {
        lock.withLock { recorded.map { $0.contains(number) } ?? true }
    }
}

/// Words for an errno in a message.
package enum SystemError {
    /// strerror's text, lowercased as the rest of a message is: "no space left on device".
    package static func reason(_ code: Int32) -> String {
        let text = String(cString: strerror(code))
        return text.prefix(1).lowercased() + text.dropFirst()
    }
}

private func systemWrite(_ descriptor: Int32, _ pointer: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
        return Glibc.write(descriptor, pointer, count)
    #else
        return Darwin.write(descriptor, pointer, count)
    #endif
}

/// A descriptor left non-blocking by whoever opened it: a parent that shares its pipe with O_NONBLOCK set (Node's
/// child processes, some CI runners) makes a read or write answer EAGAIN where a blocking one waits, and a run
/// stopped there with "resource temporarily unavailable" after 1,066 of 20,000 lines (helper-334).
package enum DescriptorReadiness {
    /// After a failed read or write, whether its errno was EAGAIN and `descriptor` is now ready for `events`
    /// (`POLLIN`, `POLLOUT`), waited for with poll(2): then it is tried again. Ready includes an error or a hangup,
    /// which the next try says. False for any other errno, which is left as it was.
    package static func waited(_ descriptor: Int32, for events: Int32) -> Bool {
        let failure = errno
        guard failure == EAGAIN || failure == EWOULDBLOCK else { return false }
        var poller = pollfd(fd: descriptor, events: Int16(events), revents: 0)
        while poll(&poller, 1, -1) < 0 {
            guard errno == EINTR else {
                errno = failure
                return false
            }
        }
        return true
    }
}
