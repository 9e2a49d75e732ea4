import AtomicCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A small file gh-users owns and rewrites whole (`list --state`, `followers --changes`). It is read once and
/// replaced atomically: a new file beside it is written, flushed to disk and renamed over it, and the directory
/// is flushed, so a crash or a power cut leaves either the old file or the new one, never half of either. The
/// file is 0600. One run at a time may use it (`lock()`).
///
/// A symbolic link is followed to the file it names, once, before anything is opened: the lock, the temporary
/// file and the rename all belong to that file, so two runs through two names of one file share one lock, and
/// the link stays a link. A link Linux's `protected_symlinks` would not follow is refused (`untrustedLink`).
struct OwnedFile: Sendable {
    /// The path as given, for messages.
    let path: String
    /// The path as a message shows it: quoted, with control and format characters made visible.
    var shown: String { TerminalSanitizer.quotedPath(path) }
    /// The file the path names once its links are followed (absolute): what is read, locked and replaced.
    let target: String
    /// What the file is called in messages ("state file").
    let kind: String
    /// The option that names it ("--state"), for a message that asks for another file.
    let option: String
    /// How much a read takes at most: far more than any file of this kind, so `/dev/zero` cannot fill memory.
    let limitBytes: Int
    /// A link on the way that another user made in a folder anyone may write to (`/tmp`): Linux's
    /// `protected_symlinks` follows none in a sticky one, since it could turn a write into one of the runner's own
    /// files; gh-users applies the same rule, to their folders and files there too (`SharedFolder`).
    let untrustedLink: String?

    init(path: String, kind: String, option: String, limitBytes: Int) {
        self.path = path
        (target, untrustedLink) = Self.resolve(path)
        self.kind = kind
        self.option = option
        self.limitBytes = limitBytes
    }

    /// The refusal of a file reached through `untrustedLink`; nothing was read or changed.
    private func checkLinks() throws(LocalFileError) {
        if let link = untrustedLink { throw Self.refusal(of: link, reaching: "the \(kind) \(shown)", option: option) }
        try checkSingleName()
    }

    /// Why a file reached through `link` (one `trusts` refuses) is neither read nor written.
    static func refusal(of link: String, reaching file: String, option: String) -> LocalFileError {
        LocalFileError(
            message: "\(file) is reached through the \(SharedFolder.refused(link)). Nothing was read or changed: "
                + "give \(option) another file")
    }

    /// The temporary file a replacement is written to first, in the same directory so that rename is atomic.
    var temporaryPath: String { target + ".tmp" }

    /// The lock file beside it (`FILE.lock`). The lock is the kernel's (`flock`), so a run killed with SIGKILL
    /// leaves no stale lock behind, only the empty file; a run that ends removes the file.
    var lockPath: String { target + ".lock" }

    /// The file's bytes, or nil when there is no file yet. A file that is not a regular one (a FIFO is never
    /// waited on), cannot be read or is larger than `limitBytes` is an error, and is left as it is.
    func read() throws(LocalFileError) -> [UInt8]? {
        try checkLinks()
        try checkRegular()
        // Refused before the run writes anything, not only when the file is replaced at its end: a `--changes`
        // run would have printed its changes, and printed them again on the next run.
        try checkTemporary()
        // O_NONBLOCK: a FIFO with no writer must not hold the run before the check below refuses it.
        // O_NOFOLLOW: the target has no link left; one planted there since is not followed to a file of the runner's.
        let descriptor = open(target, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK | O_NOFOLLOW)
        guard descriptor >= 0 else {
            let code = errno
            if code == ENOENT { return nil }
            throw LocalFileError(message: "cannot read the \(kind) \(shown): \(FileDescriptorIO.reason(code))")
        }
        defer { close(descriptor) }
        guard SharedFolder.trusts(descriptor: descriptor, at: target, stillNamed: true) else {
            throw SharedFolder.refusal(of: "the \(kind) \(shown)", option)
        }
        if let kind = FileDescriptorIO.nonRegularKind(of: descriptor) {
            throw LocalFileError(
                message: "cannot read the \(self.kind) \(shown): it is \(kind), not a regular file. It was left as "
                    + "it is: give \(option) a file")
        }
        let bytes: [UInt8]
        do {
            bytes = try FileDescriptorIO.readAll(descriptor, limit: limitBytes)
        } catch {
            throw LocalFileError(message: "cannot read the \(kind) \(shown): \(FileDescriptorIO.reason(error.code))")
        }
        guard bytes.count <= limitBytes else {
            throw LocalFileError(
                message: "the \(kind) \(shown) is larger than \(limitBytes) bytes, more than gh-users ever writes "
                    + "there. It was left as it is: give \(option) another file")
        }
        return bytes
    }

    /// The file's contents as `decode` reads them, or nil when there is no file yet. Contents `decode` refuses
    /// are an error that names the file, says it is not `what` ("a gh-users crawl state") and what to do
    /// (`remedy`); the file is left as it is.
    func load<Value>(
        as what: String, remedy: String, _ decode: ([UInt8]) -> Result<Value, FileContentProblem>
    ) throws(LocalFileError) -> Value? {
        guard let bytes = try read() else { return nil }
        switch FileContentProblem.reading(bytes, as: what, option: option, decode) {
        case .success(let value):
            return value
        case .failure(let problem):
            if let own = problem.remedy {
                throw LocalFileError(
                    message:
                        "the \(kind) \(TerminalSanitizer.quotedPath(path)) \(problem.detail). It was left as it is: "
                        + own)
            }
            throw LocalFileError(
                message: "the \(kind) \(shown) \(problem.detail), so it is not \(what). It was left as it is: "
                    + remedy)
        }
    }

    /// A file of this kind whose owner may not write to it (`chmod a-w`, kept as a baseline) is not replaced: a
    /// rename would replace it all the same, and the baseline would be lost without a word. Checked as a
    /// replacement is prepared, so a finished crawl's state, never replaced, still reads; a `--changes` run asks
    /// before its first request. So is an immutable one (`chattr +i`), whose rename failed after the changes went out.
    func checkWritable() throws(LocalFileError) {
        var info = stat()
        guard stat(target, &info) == 0 else { return }
        let immutable = access(target, W_OK) != 0 && errno == EPERM
        guard info.st_mode & S_IWUSR == 0 || immutable else { return }
        let mode = "0" + String(info.st_mode & 0o7777, radix: 8)
        throw LocalFileError(
            message: "the \(kind) \(shown) is " + (immutable ? "immutable (chattr +i)" : "read-only (mode \(mode))")
                + ", and a run replaces it with what it finds. It was left as it is: make it writable ("
                + (immutable ? "chattr -i" : "chmod u+w") + " -- \(ShellWord.quote(path))) to go on from it, or "
                + "give \(option) another file")
    }

    /// Replaces the file atomically with `bytes`, 0600 whatever the umask or an older file's mode.
    func replace(with bytes: [UInt8]) throws(LocalFileError) {
        try commit(prepare(bytes))
    }

    /// A replacement written and flushed beside the file (`FILE.tmp`), which `commit` renames over it; dropped
    /// uncommitted, or at a signal, it is removed. A caller knows the file can be written (a full disk) before
    /// it does what the file records.
    final class Replacement {
        let temporary: String
        private let cleanup: Int
        fileprivate var committed = false

        fileprivate init(temporary: String, cleanup: Int) {
            self.temporary = temporary
            self.cleanup = cleanup
        }

        deinit {
            if !committed { unlink(temporary) }
            ExitCleanup.process.remove(cleanup)
        }
    }

    /// `bytes` written to the temporary file and flushed to disk (`sync`, fsync but for a test), for `commit`.
    func prepare(_ bytes: [UInt8], sync: (Int32) -> Int32 = fsync) throws(LocalFileError) -> Replacement {
        try checkLinks()
        try checkWritable()
        let temporary = temporaryPath
        // A temporary file left by a killed run is removed (only its name: a hard link planted there loses
        // nothing), and the new one is made afresh, never opened through whatever stands at its name.
        if try checkTemporary() {
            guard unlink(temporary) == 0 || errno == ENOENT else { throw failure("remove", temporary, errno) }
        }
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY, 0o600)
        guard descriptor >= 0 else { throw failure("create", temporary, errno) }
        // A signal that ends the run before the rename removes it; a replacement that fails or is dropped takes
        // it with it too: the next run would only remove it.
        let replacement = Replacement(temporary: temporary, cleanup: ExitCleanup.process.add(temporary))
        var closed = false
        defer { if !closed { close(descriptor) } }
        guard fchmod(descriptor, 0o600) == 0 else { throw failure("protect", temporary, errno) }
        do {
            try FileDescriptorIO.writeAll(descriptor, bytes)
        } catch {
            throw failure("write", temporary, error.code)
        }
        guard sync(descriptor) == 0 else { throw failure("flush", temporary, errno) }
        closed = true
        guard close(descriptor) == 0 else { throw failure("write", temporary, errno) }
        return replacement
    }

    /// Puts `replacement` in place of the file, and the rename on disk. Once renamed, the file is replaced for every
    /// later run, so nothing after the rename is an error: flushing the directory, which puts the rename itself on
    /// disk against a crash, is done as well as it can be (`flush`, fsync but for a test). A run that said "not
    /// replaced" there would lie: `--changes` would promise to report again what the next run no longer sees, and
    /// a crawl would ask to cut off a page its state already counts (helper-310). A crash that undoes the rename
    /// brings back the old file whole, which loses nothing: its changes are reported again, its pages asked again.
    /// SQLite does the same, ignoring a failed directory sync.
    func commit(_ replacement: Replacement, flush: (Int32) -> Int32 = fsync) throws(LocalFileError) {
        try checkLinks()
        guard rename(replacement.temporary, target) == 0 else { throw failure("replace", path, errno) }
        replacement.committed = true
        let directory = open(Self.directory(of: target), O_RDONLY | O_CLOEXEC)
        guard directory >= 0 else { return }
        _ = flush(directory)
        close(directory)
    }

    /// Whether a temporary file is left at `temporaryPath` (a killed run's), which a replacement removes; what is
    /// not a regular file there (a FIFO, a directory) is no file gh-users left, and is refused.
    @discardableResult
    private func checkTemporary() throws(LocalFileError) -> Bool {
        var info = stat()
        guard lstat(temporaryPath, &info) == 0 else { return false }
        // Another user's, in /tmp: not one a killed run left, and not this user's to remove.
        guard SharedFolder.trusts(info, at: temporaryPath) else {
            throw SharedFolder.refusal(
                of: "the temporary file \(TerminalSanitizer.quotedPath(temporaryPath)) of the \(kind) \(shown)", option)
        }
        // Every file gh-users writes begins `{"version"`; a killed run's holds that or less of it. A file of the
        // user's own at that name was removed without a word (helper-343's find 6); removing one name of a file
        // that has others loses nothing.
        var kind = FileDescriptorIO.nonRegularKind(info.st_mode)
        if kind == nil, info.st_nlink <= 1, !Self.leftByARun(temporaryPath) { kind = "another file" }
        if let kind {
            throw LocalFileError(
                message: "cannot use the \(self.kind) \(shown): its temporary file "
                    + "\(TerminalSanitizer.quotedPath(temporaryPath)) is \(kind), not a file gh-users left there. "
                    + "The \(self.kind) was left as it was: move that away and run again")
        }
        return true
    }

    /// Whether the regular file at `path` begins as a killed run's replacement would (`{"version"`, or the HTTP/1.1
    /// origins' `https://`, whose leftover stopped every later update: helper-347's Q6), or with less of that.
    private static func leftByARun(_ path: String) -> Bool {
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard descriptor >= 0 else { return true }
        let start = FileDescriptorIO.read(descriptor, from: 0, upTo: 10) ?? []
        close(descriptor)
        return [#"{"version""#, "https://"].contains { Array($0.utf8).starts(with: start.prefix($0.utf8.count)) }
    }

    /// Takes the file's lock for as long as the returned value lives, or fails at once when another run holds it.
    /// A run that ends removes the lock file while it holds the lock, so a lock counts only once the path still
    /// names the file locked (else another run locked a file that is gone), and otherwise the run tries again.
    func lock() throws(LocalFileError) -> OwnedFileLock {
        try checkLinks()
        try checkRegular()
        for _ in 0..<16 {
            let descriptor = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY | O_NONBLOCK, 0o600)
            guard descriptor >= 0 else { throw lockFailure(errno) }
            if let lock = try lock(descriptor) { return lock }
        }
        throw LocalFileError(
            message: "cannot lock the \(kind) \(shown): its lock file \(TerminalSanitizer.quotedPath(lockPath)) keeps "
                + "being replaced")
    }

    /// Locks the lock file open on `descriptor`: the held lock, or nil (the descriptor closed) when the file was
    /// removed or replaced before the lock was taken, so that the caller opens the path again.
    func lock(_ descriptor: Int32) throws(LocalFileError) -> OwnedFileLock? {
        guard SharedFolder.trusts(descriptor: descriptor, at: lockPath) else {
            close(descriptor)
            throw SharedFolder.refusal(of: "the lock file \(TerminalSanitizer.quotedPath(lockPath))", option)
        }
        if let kind = FileDescriptorIO.nonRegularKind(of: descriptor) {
            close(descriptor)
            throw LocalFileError(
                message:
                    "cannot lock the \(self.kind) \(shown): its lock file \(TerminalSanitizer.quotedPath(lockPath)) is \(kind), not "
                    + "a regular file. Nothing was changed: remove it and run again")
        }
        // gh-users never writes in a lock file, and removes it when the run ends: one with data is someone else's.
        var info = stat()
        if fstat(descriptor, &info) == 0, info.st_size > 0 {
            close(descriptor)
            throw LocalFileError(
                message: "cannot lock the \(kind) \(shown): its lock file \(TerminalSanitizer.quotedPath(lockPath)) "
                    + "holds \(info.st_size) bytes, and a lock file gh-users makes is empty, so it is not one. It was "
                    + "left as it is: move it away, or give \(option) another file")
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let code = errno
            close(descriptor)
            if code == EWOULDBLOCK {
                throw LocalFileError(
                    message:
                        "another gh-users run is using the \(kind) \(shown) (it holds \(TerminalSanitizer.quotedPath(lockPath))); "
                        + "wait for it to end, or give each command its own \(kind)")
            }
            throw failure("lock", lockPath, code)
        }
        guard FileDescriptorIO.isSameFile(descriptor, lockPath) else {
            close(descriptor)
            return nil
        }
        return OwnedFileLock(descriptor: descriptor, path: lockPath)
    }

    /// The lock file could not be made: named as the open tried it (beside the file the links lead to), and
    /// what to do where something else holds its name.
    private func lockFailure(_ code: Int32) -> LocalFileError {
        guard code != ENOENT else { return failure("create the lock beside", path, code) }
        let taken = [EISDIR, ELOOP, ENXIO, EEXIST, ENOTDIR].contains(code)
        return LocalFileError(
            message: "cannot create the lock beside the \(kind) \(shown): \(TerminalSanitizer.quotedPath(lockPath)): "
                + FileDescriptorIO.reason(code)
                + (taken ? ". Nothing was changed: move that away, or give \(option) another file" : ""))
    }

    private func failure(_ verb: String, _ file: String, _ code: Int32) -> LocalFileError {
        let reason =
            verb.hasPrefix("create") ? FileDescriptorIO.reason(code, creating: file) : FileDescriptorIO.reason(code)
        return LocalFileError(message: "cannot \(verb) the \(kind) \(TerminalSanitizer.quotedPath(file)): \(reason)")
    }

    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let directory = String(path[..<slash])
        return directory.isEmpty ? "/" : directory
    }

    /// The file `path` names, absolute, with its symbolic links followed one name at a time, as the kernel does,
    /// also to a file that does not exist yet (a link to a file the first run will make); and the first link or
    /// folder on the way that `SharedFolder` refuses, which is not gone through. What cannot be resolved is left
    /// as given, for the open that follows to fail with its own reason.
    static func resolve(_ path: String) -> (target: String, untrustedLink: String?) {
        var pending = ArraySlice(path.split(separator: "/").map(String.init))
        // A working directory that is gone (or unnamable) leaves a relative path as given, for the open to fail.
        guard let base = path.hasPrefix("/") ? "" : FileDescriptorIO.currentDirectory() else { return (path, nil) }
        var resolved = base == "/" ? "" : base
        var followed = 0
        while let name = pending.popFirst() {
            if name == "." { continue }
            if name == ".." {
                resolved = directory(of: resolved.isEmpty ? "/" : resolved)
                resolved = resolved == "/" ? "" : resolved
                continue
            }
            let candidate = resolved + "/" + name
            var before = stat()
            let found = lstat(candidate, &before) == 0
            let (kind, last) = (before.st_mode & S_IFMT, pending.isEmpty)
            // Another user's link or folder on the way, in a folder anyone may write to, is theirs to point or fill.
            if found, kind == S_IFLNK || (kind == S_IFDIR && !last), !SharedFolder.trusts(before, at: candidate) {
                return (candidate, candidate)
            }
            guard found, kind == S_IFLNK, let link = FileDescriptorIO.readLink(candidate) else {
                resolved = candidate
                continue
            }
            // A descriptor gh-users holds itself (a standard one closed at the start, held on /dev/null) is left a
            // link, for `unopenedDescriptor` to refuse by number however the path reached it (`//dev/stdout`, a
            // link to it: helper-338), not followed to that /dev/null. So is a pipe's (or a deleted file's)
            // `/proc/PID/fd/N`: the kernel alone can follow it.
            if FileDescriptorIO.descriptor(namedBy: candidate).map({ $0.own && !StartDescriptors.wasOpen($0.number) })
                == true || FileDescriptorIO.isPathlessDescriptorLink(candidate, text: link)
            {
                return (([candidate] + pending).joined(separator: "/"), nil)
            }
            // The link read is the one that passed, not another put in its place since (a review's race).
            var after = stat()
            guard lstat(candidate, &after) == 0, after.st_dev == before.st_dev, after.st_ino == before.st_ino else {
                return (candidate, candidate)
            }
            // Linux's own limit on links followed in one lookup.
            followed += 1
            guard followed <= 40 else { return (path, nil) }
            if link.hasPrefix("/") { resolved = "" }
            pending = ArraySlice(link.split(separator: "/").map(String.init)) + pending
        }
        return (resolved.isEmpty ? "/" : resolved, nil)
    }
}

/// A held lock on an `OwnedFile`. Releasing it removes the lock file first, while it is still held (see
/// `OwnedFile.lock()` for why that is safe), then closes the descriptor, which releases the lock.
final class OwnedFileLock: Sendable {
    private let descriptor: Int32
    private let path: String
    /// A run a signal ends before the lock is released removes the file as well.
    private let cleanup: Int

    init(descriptor: Int32, path: String) {
        self.descriptor = descriptor
        self.path = path
        self.cleanup = ExitCleanup.process.add(path)
    }

    deinit {
        ExitCleanup.process.remove(cleanup)
        // Only the file this run locked: never one that took its place.
        if FileDescriptorIO.isSameFile(descriptor, path) { unlink(path) }
        close(descriptor)
    }
}
