import AtomicCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// read(2) and write(2) to the end, through EINTR, EAGAIN and short counts, and strerror's words for messages: what the
/// token file, the crawl state and the crawl's output file share.
enum FileDescriptorIO {
    /// A failed read or write, with its errno and, for a write, how many of its bytes went out first.
    struct Failure: Error {
        let code: Int32
        var written = 0
    }

    /// Everything up to the end, or a little more than `limit` bytes (a stream that never ends must not fill memory).
    static func readAll(_ descriptor: Int32, limit: Int) throws(Failure) -> [UInt8] {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while bytes.count <= limit {
            let count = buffer.withUnsafeMutableBytes { raw in
                #if canImport(Glibc)
                    Glibc.read(descriptor, raw.baseAddress!, raw.count)
                #else
                    Darwin.read(descriptor, raw.baseAddress!, raw.count)
                #endif
            }
            if count < 0 {
                if errno == EINTR || DescriptorReadiness.waited(descriptor, for: POLLIN) { continue }
                throw Failure(code: errno)
            }
            if count == 0 { break }
            bytes.append(contentsOf: buffer[0..<count])
        }
        return bytes
    }

    /// The bytes of the file open on `descriptor` from `offset`, up to `count` of them or its end, whatever the
    /// descriptor's own offset (pread); nil when they cannot be read (a file opened for writing only).
    static func read(_ descriptor: Int32, from offset: Int64, upTo count: Int = .max) -> [UInt8]? {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: min(count, 64 * 1024))
        while bytes.count < count {
            let wanted = min(buffer.count, count - bytes.count)
            let read = buffer.withUnsafeMutableBytes { raw in
                pread(descriptor, raw.baseAddress!, wanted, off_t(offset) + off_t(bytes.count))
            }
            if read < 0, errno == EINTR { continue }
            guard read >= 0 else { return nil }
            if read == 0 { break }
            bytes.append(contentsOf: buffer[0..<read])
        }
        return bytes
    }

    static func writeAll(_ descriptor: Int32, _ bytes: [UInt8]) throws(Failure) {
        let failure: Failure? = bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                #if canImport(Glibc)
                    let written = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                #else
                    let written = Darwin.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                #endif
                if written < 0 {
                    if errno == EINTR || DescriptorReadiness.waited(descriptor, for: POLLOUT) { continue }
                    return Failure(code: errno, written: offset)
                }
                offset += written
            }
            return nil
        }
        if let failure { throw failure }
    }

    /// What the open file is when it is not a regular file ("a FIFO", "a directory"), for a message; nil
    /// when it is one (or cannot be told).
    static func nonRegularKind(of descriptor: Int32) -> String? {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return nil }
        return nonRegularKind(info.st_mode)
    }

    static func nonRegularKind(_ mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFIFO: return "a FIFO (named pipe)"
        case S_IFDIR: return "a directory"
        case S_IFLNK: return "a symbolic link"
        case S_IFSOCK: return "a socket"
        case S_IFCHR, S_IFBLK: return "a device"
        default: return "a special file"
        }
    }

    /// Whether `path` still names the file open on `descriptor`.
    static func isSameFile(_ descriptor: Int32, _ path: String) -> Bool {
        var held = stat()
        var named = stat()
        guard fstat(descriptor, &held) == 0, stat(path, &named) == 0 else { return false }
        return held.st_dev == named.st_dev && held.st_ino == named.st_ino
    }

    /// How `path` stopped naming the regular file open on `descriptor` while a run appends to it, if it did:
    /// removed or moved away, replaced (`sed -i`, a log rotation) or cut below `length` (`: > FILE`). What the run
    /// writes on then goes where no state can find it (helper-343).
    /// With `exact`, the run is the file's only writer: one that grew past `length` had another writer's bytes put
    /// among the run's, which a state's length no longer ends (helper-347's Q3), and one cut and written over
    /// past it no longer holds the run's (Q2).
    static func departure(of path: String, from descriptor: Int32, length: Int64?, exact: Bool = false) -> String? {
        var held = stat()
        var named = stat()
        guard fstat(descriptor, &held) == 0, held.st_mode & S_IFMT == S_IFREG else { return nil }
        guard stat(path, &named) == 0 else { return "was removed or moved away" }
        guard held.st_dev == named.st_dev, held.st_ino == named.st_ino else { return "was replaced by another file" }
        if let length, Int64(held.st_size) < length { return "was cut to \(held.st_size) bytes from \(length)" }
        if exact, let length, Int64(held.st_size) > length {
            return "had \(Int64(held.st_size) - length) bytes written to it by another program"
        }
        return nil
    }

    /// Whether `path` leads to a regular file.
    static func isRegularFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
    }

    /// Whether two paths lead to one file that is there.
    static func sameFile(_ one: String, _ other: String) -> Bool {
        var first = stat()
        var second = stat()
        guard stat(one, &first) == 0, stat(other, &second) == 0 else { return false }
        return first.st_dev == second.st_dev && first.st_ino == second.st_ino
    }

    /// The path of the regular file open on `descriptor` (Linux's /proc/self/fd), when that path still names it;
    /// nil for a terminal, a pipe, a deleted file or where there is no /proc.
    static func regularFilePath(of descriptor: Int32) -> String? {
        guard nonRegularKind(of: descriptor) == nil, let path = readLink("/proc/self/fd/\(descriptor)") else {
            return nil
        }
        return path.hasPrefix("/") && isSameFile(descriptor, path) ? path : nil
    }

    /// Whether writes to `descriptor` go after what its file holds: it appends (`>> log`), or earlier writes
    /// through it moved its offset past the start (`{ gh-users …; gh-users …; } > log`); false for `1<> log`,
    /// which writes from the start, and for a descriptor that is not open.
    static func writesAfterContents(of descriptor: Int32) -> Bool {
        let flags = fcntl(descriptor, F_GETFL)
        return flags != -1 && (flags & O_APPEND != 0 || lseek(descriptor, 0, SEEK_CUR) > 0)
    }

    /// Whether `argv0` names the running executable, as a path or through PATH, links followed; true when that
    /// cannot be told (no /proc).
    static func namesThisExecutable(_ argv0: String) -> Bool {
        guard let executable = realPath("/proc/self/exe") else { return true }
        let candidates =
            argv0.contains("/")
            ? [argv0]
            : (getenv("PATH").map { String(cString: $0) } ?? "").split(separator: ":").map { $0 + "/" + argv0 }
        return candidates.contains { realPath($0) == executable }
    }

    /// realpath(3): the absolute path with every link followed; nil when some part does not exist.
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// The working directory, as the kernel names it (its links resolved); nil when it cannot say (it was removed).
    static func currentDirectory() -> String? {
        guard let path = getcwd(nil, 0) else { return nil }
        defer { free(path) }
        return String(cString: path)
    }

    /// What the symbolic link at `path` points to; nil when it is no link.
    static func readLink(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Whether `path`, a link that reads `text`, is one of Linux's links to an open descriptor with no path
    /// (`/proc/PID/fd/N` for a pipe, a socket: `pipe:[1234]`; a deleted file: `/tmp/zshXY (deleted)`, as zsh's
    /// `<<<` gives stdin), which `/dev/stdout` or a shell's `>(…)` reaches: open(2) goes to the descriptor's
    /// file, where the text, taken as a path, names nothing.
    static func isPathlessDescriptorLink(_ path: String, text: String) -> Bool {
        guard path.hasPrefix("/proc/"), OwnedFile.directory(of: path).hasSuffix("/fd") else { return false }
        // " (deleted)" ends a live file's name too: only a file with no name left counts (helper-290).
        var info = stat()
        let deleted = text.hasSuffix(" (deleted)") && stat(path, &info) == 0 && info.st_nlink == 0
        return !text.hasPrefix("/") || deleted
    }

    /// What the link at `path` reads, when it is such a link (`isPathlessDescriptorLink`); nil otherwise.
    static func pathlessLinkText(_ path: String) -> String? {
        readLink(path).flatMap { isPathlessDescriptorLink(path, text: $0) ? $0 : nil }
    }

    /// The descriptor a path names by number (`/dev/fd/N`, `/proc/self/fd/N`, `/proc/PID/fd/N`) or by name
    /// (`/dev/stdout`), and whether it is this process's (`/proc/PID/fd/N` of another process is not); nil for any
    /// other path.
    static func descriptor(namedBy path: String) -> (number: Int32, own: Bool)? {
        if let number = ["/dev/stdin", "/dev/stdout", "/dev/stderr"].firstIndex(of: path) {
            return (Int32(number), true)
        }
        let parts = path.split(separator: "/")
        guard parts.count == (parts.first == "dev" ? 3 : 4), let number = Int32(parts[parts.count - 1]) else {
            return nil
        }
        let folder = parts.dropLast().joined(separator: "/")
        guard folder == "dev/fd" || (parts[0] == "proc" && parts[2] == "fd") else { return nil }
        return (number, ["dev/fd", "proc/self/fd", "proc/thread-self/fd", "proc/\(getpid())/fd"].contains(folder))
    }

    /// The descriptor `path`, or `target` (where its links lead), names in this process when gh-users opened it
    /// itself rather than being started with it: no file of the user's.
    static func unopenedDescriptor(_ path: String, _ target: String) -> Int32? {
        [path, target].lazy.compactMap { descriptor(namedBy: $0) }
            .first { $0.own && !StartDescriptors.wasOpen($0.number) }?.number
    }

    /// The refusal's words for `unopenedDescriptor`.
    static func notGiven(_ number: Int32, redirection: String = ">>") -> String {
        let given = number == 0 ? "<" : redirection
        return "descriptor \(number) was not open when gh-users started (a shell gives one with \(number)\(given)FILE)"
    }

    /// strerror's text, lowercased as the rest of a message is: "no such file or directory".
    static func reason(_ code: Int32) -> String {
        SystemError.reason(code)
    }

    /// `reason` for a file that could not be made at `path`: ENOENT there is most often a folder on its way not
    /// there yet (a first `--changes ~/.local/state/gh-users/x.json`), said with the command that makes it: the
    /// folder the path reaches once its links are followed, as the open went, and only where that folder is
    /// missing. A `~` the shell left (`--state=~/…`: it expands one only at a word's start) is said instead.
    static func reason(_ code: Int32, creating path: String) -> String {
        guard code == ENOENT else { return reason(code) }
        if path == "~" || path.hasPrefix("~/") {
            return reason(code) + " (the shell did not expand this ~: it does so only at a word's start; write $HOME)"
        }
        let folder = OwnedFile.directory(of: OwnedFile.resolve(path).target)
        var info = stat()
        // A working directory that is gone, a name ending in a slash, a folder that is there (or a link): no hint.
        guard folder.hasPrefix("/"), !path.hasSuffix("/"), lstat(folder, &info) != 0, errno == ENOENT else {
            return reason(code)
        }
        return reason(code) + " (a folder on its path is not there: mkdir -p -- " + ShellWord.quote(folder) + ")"
    }
}
