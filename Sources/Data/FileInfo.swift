import AtomicCore
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The POSIX file work of the cache, relative to directory descriptors.
package enum FileInfo {
    static func isRegular(_ info: stat) -> Bool {
        Int(info.st_mode) & Int(S_IFMT) == Int(S_IFREG)
    }

    /// Why a file or folder that someone else could have written must not be trusted, or nil.
    package static func unsafety(_ info: stat) -> String? {
        if info.st_uid != geteuid() {
            return "it belongs to another user (uid \(info.st_uid))"
        }
        let mode = Int(info.st_mode) & 0o7777
        if mode & 0o022 != 0 {
            return "other users can write to it (mode \(String(mode, radix: 8)))"
        }
        return nil
    }

    static func modified(_ info: stat) -> Date {
        #if canImport(Darwin)
            let time = info.st_mtimespec
        #else
            let time = info.st_mtim
        #endif
        return Date(timeIntervalSince1970: Double(time.tv_sec) + Double(time.tv_nsec) / 1e9)
    }

    /// Sets the modification time of `name` in `directory` (its access time too) to `date`, never through a
    /// symbolic link; false when it cannot.
    @discardableResult
    static func setModified(_ date: Date, at directory: Int32, name: String) -> Bool {
        let seconds = date.timeIntervalSince1970.rounded(.down)
        let time = timespec(tv_sec: Int(seconds), tv_nsec: Int((date.timeIntervalSince1970 - seconds) * 1e9))
        let times = [time, time]
        return utimensat(directory, name, times, AT_SYMLINK_NOFOLLOW) == 0
    }

    /// strerror's text, lowercased as the rest of a message is: "no such file or directory".
    static func reason(_ code: Int32) -> String {
        let text = String(cString: strerror(code))
        return text.prefix(1).lowercased() + text.dropFirst()
    }

    /// The names in a folder. A fresh descriptor, so concurrent listings do not share a read position.
    static func names(in directory: Int32) -> [String] {
        let listing = openat(directory, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard listing >= 0 else { return [] }
        guard let stream = fdopendir(listing) else {
            close(listing)
            return []
        }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = entryName(entry)
            if name != ".", name != ".." { names.append(name) }
        }
        return names
    }

    /// The name of an entry `readdir` returned, read in place up to its NUL. glibc packs entries by `d_reclen`, so
    /// the last one in its buffer can end before a whole `dirent` would: copying `pointee` or `d_name` (256 bytes)
    /// read past the buffer, and a cache folder of a few hundred entries died of SIGSEGV (a review's find, shown
    /// by AddressSanitizer).
    package static func entryName(_ entry: UnsafePointer<dirent>) -> String {
        let offset = MemoryLayout<dirent>.offset(of: \dirent.d_name) ?? 0
        return String(cString: (UnsafeRawPointer(entry) + offset).assumingMemoryBound(to: CChar.self))
    }

    /// Up to `limit` bytes from the descriptor's current position to its end, and never more; nil on a read error.
    static func readAll(_ descriptor: Int32, limit: Int) -> [UInt8]? {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while bytes.count < limit {
            let wanted = min(buffer.count, limit - bytes.count)
            let count = buffer.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress!, wanted) }
            if count < 0 {
                if errno == EINTR { continue }
                return nil
            }
            if count == 0 { break }
            bytes.append(contentsOf: buffer[0..<count])
        }
        return bytes
    }

    /// A small regular file's bytes, or nil when it is missing, not a regular file, or larger than `limit`.
    static func contents(at directory: Int32, name: String, limit: Int) -> [UInt8]? {
        let descriptor = openat(directory, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, isRegular(info), Int(info.st_size) <= limit else { return nil }
        return readAll(descriptor, limit: limit)
    }

    /// Writes a new file readable by its owner only; fails rather than reuse an existing name. Returns the
    /// errno of a failure, having removed what it made, or nil.
    static func writeNew(_ bytes: [UInt8], at directory: Int32, name: String) -> Int32? {
        let descriptor = openat(directory, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return errno }
        var failure: Int32?
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = systemWrite(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                offset += written
            }
        }
        if close(descriptor) != 0, failure == nil { failure = errno }
        if failure != nil { unlinkat(directory, name, 0) }
        return failure
    }

    /// "PID-RANDOM": what makes a temporary or probe name this process's own, and unlike any other's.
    static var uniqueSuffix: String { "\(getpid())-\(UInt32.random(in: 0...UInt32.max))" }

    /// Why `makeDirectories(path)` and a folder in it would fail, leaving nothing made: the first missing folder
    /// on the way and why, found by making and removing a folder in its nearest existing one (a read-only or
    /// immutable folder, /proc, a link that leads nowhere), or nil. Asking `access(2)` instead said yes for root
    /// where a run then could not (helper-346's R1).
    static func creationProblem(_ path: String) -> (String, Int32)? {
        var missing = path
        var info = stat()
        while stat(missing, &info) != 0 {
            guard errno == ENOENT else { return (missing, errno) }
            // A link whose target is not there: a run's mkdir of it fails.
            if lstat(missing, &info) == 0 { return (missing, ENOENT) }
            let parent = (missing as NSString).deletingLastPathComponent
            guard parent != missing, !parent.isEmpty else { return nil }
            if stat(parent, &info) == 0 {
                guard Int(info.st_mode) & Int(S_IFMT) == Int(S_IFDIR) else { return (missing, ENOTDIR) }
                let probe = parent + "/.gh-users-probe-" + uniqueSuffix
                guard mkdir(probe, 0o700) == 0 else { return (missing, errno) }
                rmdir(probe)
                return nil
            }
            missing = parent
        }
        return nil
    }

    /// Why no file can be written in the open folder `directory`, found by writing and removing one, or nil.
    static func writeProblem(in directory: Int32) -> Int32? {
        let probe = ".gh-users-probe-" + uniqueSuffix
        guard let code = writeNew([], at: directory, name: probe) else {
            unlinkat(directory, probe, 0)
            return nil
        }
        return code
    }

    /// `mkdir -p` with 0700 for the folders it makes, whatever the umask (under 0277 a parent made 0500 kept every
    /// later run out of `~/.cache`, helper-334); existing ones are left exactly as they are. Returns the path that
    /// could not be made and why, or nil.
    static func makeDirectories(_ path: String) -> (String, Int32)? {
        var info = stat()
        if stat(path, &info) == 0 { return nil }
        let parent = (path as NSString).deletingLastPathComponent
        if parent != path, !parent.isEmpty, let failure = makeDirectories(parent) { return failure }
        guard mkdir(path, 0o700) == 0 else { return errno == EEXIST ? nil : (path, errno) }
        // Opened without following a link, lest one put there meanwhile have its target's mode changed.
        let made = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        if made >= 0 {
            _ = fchmod(made, 0o700)
            close(made)
        }
        return nil
    }
}

private func systemRead(_ descriptor: Int32, _ pointer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
        return Glibc.read(descriptor, pointer, count)
    #else
        return Darwin.read(descriptor, pointer, count)
    #endif
}

private func systemWrite(_ descriptor: Int32, _ pointer: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
        return Glibc.write(descriptor, pointer, count)
    #else
        return Darwin.write(descriptor, pointer, count)
    #endif
}
