import AtomicCore
import AtomicLogger
import Domain
import Foundation
import Networking

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The store folder gh-users owns inside the configured one: created atomically with its `CACHEDIR.TAG` marker,
/// used only while it is ours, private and marked, repaired when its marker is wrong, and reached through one
/// descriptor. Every problem is one warning per process.
extension DiskResponseCache {
    static let temporaryPrefix = ".tmp-"
    package static let storeName = "gh-users-responses"
    /// A cache directory tag (https://bford.info/cachedir/), so backup tools skip the folder; its exact text
    /// is also what tells gh-users that the folder is its own, and of this format.
    static let markerName = "CACHEDIR.TAG"
    static let marker = """
        Signature: 8a477f597d28d172789f06886806bc55
        # This folder holds the response cache of gh-users (format \(formatVersion)).
        # For information about cache directory tags, see https://bford.info/cachedir/

        """

    /// The store's descriptor, or nil when there is none yet or none fit to use; a problem is warned about once.
    func usableStore(create: Bool) -> Int32? {
        switch store.resolve({ openStore(create: create) }) {
        case .success(let descriptor):
            return descriptor
        case .failure(let problem):
            warnOnce(problem, about: "store")
            return nil
        }
    }

    /// Opens the store after checking that it is gh-users' own and safe; with `create`, makes it first when
    /// it does not exist. `.success(nil)`: there is no store, and nothing was wrong.
    func openStore(create: Bool, repair: Repair = .madeByGhUsers) -> Result<Int32?, StoreProblem> {
        let path = storeDirectory.path
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        if descriptor >= 0 { return validate(descriptor, repair: repair).map { $0 } }
        let code = errno
        if let problem = rootProblem() { return .failure(problem) }
        switch code {
        case ENOENT:
            return create ? createStore().map { $0 } : .success(nil)
        case ELOOP, ENOTDIR:
            var info = stat()
            let isLink = lstat(path, &info) == 0 && Int(info.st_mode) & Int(S_IFMT) == Int(S_IFLNK)
            return .failure(
                StoreProblem(
                    "\(TerminalSanitizer.quotedPath(path)) is "
                        + (isLink ? "a symbolic link, which gh-users does not follow" : "not a directory"),
                    remedy: .removeOrMove))
        default:
            return .failure(StoreProblem("cannot open \(TerminalSanitizer.quotedPath(path)): \(FileInfo.reason(code))"))
        }
    }

    /// What is wrong with the configured folder itself, if anything; a missing one is not wrong.
    private func rootProblem() -> StoreProblem? {
        var info = stat()
        if stat(directory.path, &info) == 0 {
            guard Int(info.st_mode) & Int(S_IFMT) == Int(S_IFDIR) else {
                return StoreProblem(
                    "the cache directory \(TerminalSanitizer.quotedPath(directory.path)) is not a directory")
            }
            return nil
        }
        let code = errno
        guard code != ENOENT else { return nil }
        return StoreProblem(
            "cannot use the cache directory \(TerminalSanitizer.quotedPath(directory.path)): \(FileInfo.reason(code))")
    }

    /// Creates the store with its marker under a temporary name and renames it into place, so that no process
    /// ever sees it unmarked. Only folders made here are given a mode.
    private func createStore() -> Result<Int32, StoreProblem> {
        let root = directory.path
        if let (path, code) = FileInfo.makeDirectories(root) {
            return .failure(
                StoreProblem("cannot create \(TerminalSanitizer.quotedPath(path)): \(FileInfo.reason(code))"))
        }
        let suffix = FileInfo.uniqueSuffix
        let temporary = directory.appendingPathComponent(
            ".\(DiskResponseCache.storeName)\(DiskResponseCache.temporaryPrefix)\(suffix)"
        ).path
        guard mkdir(temporary, 0o700) == 0 else {
            let code = errno
            return .failure(
                StoreProblem(
                    "cannot create a folder in \(TerminalSanitizer.quotedPath(root)): \(FileInfo.reason(code))"))
        }
        let descriptor = open(temporary, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            rmdir(temporary)
            return .failure(
                StoreProblem("cannot open \(TerminalSanitizer.quotedPath(temporary)): \(FileInfo.reason(code))"))
        }
        // The umask may have taken bits the owner needs; this folder is ours, made a moment ago.
        _ = fchmod(descriptor, 0o700)
        let markerFailure = FileInfo.writeNew(
            Array(DiskResponseCache.marker.utf8), at: descriptor, name: DiskResponseCache.markerName)
        if markerFailure == nil, rename(temporary, storeDirectory.path) == 0 {
            return .success(descriptor)
        }
        let code = markerFailure ?? errno
        unlinkat(descriptor, DiskResponseCache.markerName, 0)
        close(descriptor)
        rmdir(temporary)
        // Another process may have made the store meanwhile; then it is used like any existing one.
        if markerFailure == nil, code == EEXIST || code == ENOTEMPTY || code == EPERM {
            let existing = open(storeDirectory.path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            if existing >= 0 { return validate(existing, repair: .madeByGhUsers) }
        }
        return .failure(
            StoreProblem("cannot create \(TerminalSanitizer.quotedPath(storeDirectory.path)): \(FileInfo.reason(code))")
        )
    }

    /// How far gh-users may go to repair a store whose marker is missing, damaged or of another version.
    enum Repair {
        /// A store as gh-users makes it (the user's own, 0700): any run empties it and marks it again.
        case madeByGhUsers
        /// `cache clear`, asked for by the user: any store of theirs that others cannot write.
        case ownedAndNotShared
    }

    /// Keeps an opened store only if it is ours, writable by us alone, and marked; closes it otherwise. A store
    /// of ours whose marker is wrong (a damaged file, an older or newer gh-users) is emptied and marked again,
    /// with one line on stderr: its entries are of no known format, and nobody else could have written them.
    private func validate(_ descriptor: Int32, repair: Repair) -> Result<Int32, StoreProblem> {
        let path = TerminalSanitizer.quotedPath(storeDirectory.path)
        var info = stat()
        var problem: StoreProblem?
        if fstat(descriptor, &info) != 0 {
            problem = StoreProblem("cannot examine \(path): \(FileInfo.reason(errno))")
        } else if let unsafety = FileInfo.unsafety(info) {
            problem = StoreProblem("\(path) is not safe to use: \(unsafety)", remedy: .removeOrMove)
        } else if FileInfo.contents(at: descriptor, name: DiskResponseCache.markerName, limit: 4096)
            != Array(DiskResponseCache.marker.utf8)
        {
            let isPrivate = Int(info.st_mode) & 0o077 == 0
            if isPrivate || repair == .ownedAndNotShared {
                // `cache clear` empties the store itself, and counts what it removed.
                problem = remark(descriptor, emptying: repair == .madeByGhUsers)
            } else {
                problem = StoreProblem(
                    "\(path) is not a gh-users cache of this version (its \(DiskResponseCache.markerName) is "
                        + "missing or different, and the folder is not private as gh-users makes it)",
                    remedy: .clearOrMove)
            }
        }
        if let problem {
            close(descriptor)
            return .failure(problem)
        }
        // Readable by others (but not writable): ours and marked, so it may be made private, as the spec wants.
        if Int(info.st_mode) & 0o077 != 0 { _ = fchmod(descriptor, 0o700) }
        return .success(descriptor)
    }

    /// Empties a store of ours whose marker is wrong and writes the marker again (whole, through a rename);
    /// nil once done, else what went wrong.
    private func remark(_ descriptor: Int32, emptying: Bool) -> StoreProblem? {
        let path = TerminalSanitizer.quotedPath(storeDirectory.path)
        var removed = 0
        for name in FileInfo.names(in: descriptor)
        where emptying
            && (name.hasSuffix(DiskResponseCache.entrySuffix) || name.hasPrefix(DiskResponseCache.temporaryPrefix))
        {
            if unlinkat(descriptor, name, 0) == 0 { removed += 1 }
        }
        let temporary = DiskResponseCache.temporaryPrefix + "marker-" + FileInfo.uniqueSuffix
        var failure = FileInfo.writeNew(Array(DiskResponseCache.marker.utf8), at: descriptor, name: temporary)
        if failure == nil, renameat(descriptor, temporary, descriptor, DiskResponseCache.markerName) != 0 {
            failure = errno
            unlinkat(descriptor, temporary, 0)
        }
        if let failure {
            return StoreProblem(
                "\(path) has a missing or different \(DiskResponseCache.markerName), and it cannot be marked "
                    + "again: \(FileInfo.reason(failure))",
                remedy: .removeOrMove)
        }
        sizeEstimate.reset()
        let emptied = emptying ? "emptied it (\(removed == 1 ? "1 file" : "\(removed) files")) and " : ""
        logger.warning(
            "the cache \(path) had a missing, damaged or other version's \(DiskResponseCache.markerName): "
                + "\(emptied)marked it again")
        return nil
    }

    // MARK: - Warnings, once per process

    private func warnOnce(_ problem: StoreProblem, about subject: String) {
        guard WarningsGiven.shared.first(subject + "\u{0}" + storeDirectory.path) else { return }
        logger.warning(
            problem.message + (problem.remedy.map(StoreProblem.words) ?? "") + "; going on without the cache")
    }

    func warnAboutEntry(_ name: String, _ problem: String) {
        guard WarningsGiven.shared.first("entry\u{0}" + storeDirectory.path) else { return }
        let path = TerminalSanitizer.quotedPath(storeDirectory.appendingPathComponent(name).path)
        logger.warning("ignoring the cache entry \(path), and any other like it: \(problem)")
    }

    /// Once per process: every later answer is still tried, and may well be stored (a disk no longer full), so
    /// the warning says only what is sure, that an answer not stored is fetched again.
    func warnAboutWriting(_ code: Int32) {
        guard WarningsGiven.shared.first("write\u{0}" + storeDirectory.path) else { return }
        logger.warning(
            "cannot write to the cache in \(TerminalSanitizer.quotedPath(storeDirectory.path)): \(FileInfo.reason(code)); "
                + "an answer it cannot store is fetched again next time")
    }
}

struct StoreProblem: Error {
    let message: String
    /// The way out, which `cache info` and `cache clear` leave to the executable to word; a warning words it
    /// here, naming no option.
    let remedy: CacheRemedy?

    init(_ message: String, remedy: CacheRemedy? = nil) {
        self.message = message
        self.remedy = remedy
    }

    /// The way out, as a warning says it.
    static func words(_ remedy: CacheRemedy) -> String {
        switch remedy {
        case .removeOrMove: "; remove it by hand, or use another cache folder"
        case .clearOrMove: "; 'gh-users cache clear' empties it and marks it again, or use another cache folder"
        }
    }
}

/// The store's descriptor, opened on first use and kept until the cache goes away. A problem is kept too, so
/// it is found (and warned about) once; "no store yet" is not kept, so a later write can still create it.
final class StoreHandle: @unchecked Sendable {
    private enum State {
        case unopened
        case open(Int32)
        case unusable(StoreProblem)
    }

    private let lock = NSLock()
    private var state = State.unopened

    func resolve(_ open: () -> Result<Int32?, StoreProblem>) -> Result<Int32?, StoreProblem> {
        lock.withLock {
            switch state {
            case .open(let descriptor):
                return .success(descriptor)
            case .unusable(let problem):
                return .failure(problem)
            case .unopened:
                let result = open()
                switch result {
                case .success(let descriptor?): state = .open(descriptor)
                case .success(nil): break
                case .failure(let problem): state = .unusable(problem)
                }
                return result
            }
        }
    }

    deinit {
        if case .open(let descriptor) = state { close(descriptor) }
    }
}

/// Which cache warnings this process has given: each problem is worth one line, however many requests and
/// cache instances run into it.
final class WarningsGiven: @unchecked Sendable {
    static let shared = WarningsGiven()
    private let lock = NSLock()
    private var given: Set<String> = []

    func first(_ key: String) -> Bool {
        lock.withLock { given.insert(key).inserted }
    }
}
