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

/// The on-disk response cache. One file per entry, named by a SHA-256 of method, URL and the token's hash,
/// so no URL or token appears in a file name and one token's entries are never served under another.
///
/// The configured folder (`--cache-dir`, or the XDG default) may be any folder, even `/tmp`: gh-users never
/// changes its mode and never deletes anything in it. The entries live in a subfolder, `gh-users-responses`,
/// that gh-users creates (0700, atomically, with its `CACHEDIR.TAG` marker already inside) and only then uses.
/// A subfolder that is a symbolic link, belongs to another user, can be written by others or lacks the marker
/// is not used, and neither is an entry that belongs to another user or can be written by others: either
/// could let another local user plant an answer that a genuine 304 would then vouch for. Every such problem,
/// and a cache that cannot be created or written at all, is one warning per process; the command goes on
/// without the cache.
///
/// The subfolder is opened once and used through its descriptor (`openat`, `renameat`, ...), so a path
/// component swapped after the checks cannot redirect a read or a write. Files are 0600. Writes go to a
/// temporary file that is renamed into place, so readers (in this process or another) see a whole entry or
/// none; temporary files orphaned by a killed process are removed once they are old. An entry that is not whole
/// and of this format (`decode`), or larger than the cache ever writes (`entryLimit`), is damaged: a miss, read no
/// further. The total size is bounded; the entries least recently stored or confirmed go first.
package final class DiskResponseCache: Sendable {
    /// Warnings reach stderr even when a caller passes no logger of its own.
    package static let standardErrorLogger = Logger(
        label: "gh-users",
        handler: StreamLogHandler(write: { text in FileHandle.standardError.write(Foundation.Data(text.utf8)) })
    )

    /// The configured folder.
    package let directory: URL
    /// Where the entries are: the subfolder gh-users owns.
    package let storeDirectory: URL
    package let limitBytes: Int64
    /// The most body bytes an answer may bring (`GH_USERS_MAX_RESPONSE_BYTES`): no larger body is stored, so no
    /// larger entry is read.
    package let maximumBodyBytes: Int
    let logger: Logger
    let now: @Sendable () -> Date
    let sizeEstimate = LockedCounter()
    let store = StoreHandle()

    package init(
        directory: URL,
        limitBytes: Int64,
        maximumBodyBytes: Int = URLSessionTransport.defaultMaximumBodyBytes,
        logger: Logger = DiskResponseCache.standardErrorLogger,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.directory = directory
        self.storeDirectory = directory.appendingPathComponent(DiskResponseCache.storeName, isDirectory: true)
        self.limitBytes = limitBytes
        self.maximumBodyBytes = maximumBodyBytes
        self.logger = logger
        self.now = now
    }

    /// The key of a GET of `url` made with `token` (nil when anonymous).
    package static func key(url: String, token: String?) -> String {
        key(url: url, tokenIdentity: tokenIdentity(token))
    }

    /// What stands for the token in keys: its hash, so the token itself is never written anywhere.
    static func tokenIdentity(_ token: String?) -> String {
        token.map { "token:" + SHA256.hex(Array($0.utf8)) } ?? "anonymous"
    }

    static func key(url: String, tokenIdentity: String) -> String {
        SHA256.hex(Array("GET \(canonical(url))\n\(tokenIdentity)".utf8))
    }

    /// `url` with its query's parameters in order of name (those of one name as they came): a resumed crawl asks
    /// `?since=135&per_page=100` where the run before followed a link to `?per_page=100&since=135`, the same page,
    /// which was kept under another key: `--offline` missed it and a run online paid a 200 for a 304 (helper-343).
    static func canonical(_ url: String) -> String {
        guard let mark = url.firstIndex(of: "?") else { return url }
        let parameters = url[url.index(after: mark)...].split(separator: "&", omittingEmptySubsequences: false)
        let sorted = parameters.enumerated().sorted { left, right in
            let (a, b) = (left.element.prefix { $0 != "=" }, right.element.prefix { $0 != "=" })
            return a != b ? a < b : left.offset < right.offset
        }
        return url[...mark] + sorted.map(\.element).joined(separator: "&")
    }

    package func read(key: String) -> CachedResponse? {
        if case .entry(let entry) = lookUp(key: key) { return entry }
        return nil
    }

    /// What the store holds under a key: an entry, one that does not parse (cut short, a byte changed, another
    /// format, larger than the cache writes), or nothing usable (none, or one refused: a link, another user's).
    package enum Lookup: Sendable, Equatable {
        case entry(CachedResponse)
        case damaged
        case none
    }

    package func lookUp(key: String) -> Lookup {
        guard let name = DiskResponseCache.entryName(key), let store = usableStore(create: false) else { return .none }
        // O_NONBLOCK: a FIFO in place of an entry must not hang the command; it is refused below.
        let descriptor = openat(store, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            // None is the usual miss; any other failure is said (another user's 0600 entry was passed over without
            // a word, where the docs promise a warning: helper-283).
            let code = errno
            if code != ENOENT { warnAboutEntry(name, code == ELOOP ? "it is a symbolic link" : FileInfo.reason(code)) }
            return .none
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, FileInfo.isRegular(info) else { return .none }
        if let problem = FileInfo.unsafety(info) {
            warnAboutEntry(name, problem)
            return .none
        }
        // A file larger than any entry this cache writes is not read: it could be of any size.
        let limit = entryLimit
        guard Int64(info.st_size) <= Int64(limit) else { return .damaged }
        guard let bytes = FileInfo.readAll(descriptor, limit: Int(info.st_size) + 1) else { return .none }
        // A body over this run's cap is damaged as its answer would be refused (a copy a higher cap stored).
        guard bytes.count <= limit, var entry = DiskResponseCache.decode(bytes), entry.body.count <= maximumBodyBytes
        else { return .damaged }
        entry.revalidatedAt = FileInfo.modified(info)
        return .entry(entry)
    }

    /// Records a 304 for `entry`, and returns the entry as it now stands. The 304's headers update the stored ones
    /// (RFC 9111 §4.3.4): a `Link` it carries (page 1 unchanged while a page 2 has appeared), a new `ETag`. Only
    /// when one changed is the entry written again; an unchanged 304, the common one, only sets the file's
    /// modification time to `now`, which dates the confirmation (`CachedResponse.confirmedAt`) and keeps the
    /// entry from eviction, without writing its body again.
    package func revalidate(key: String, entry: CachedResponse, by answer: HTTPHeaders, now: Date) -> CachedResponse {
        var headers = entry.headers
        var changed = false
        for field in answer
        where DiskResponseCache.revalidatedHeaders.contains(field.name.lowercased())
            && headers[field.name] != field.value
        {
            headers.set(field.name, field.value)
            changed = true
        }
        guard !changed else {
            let response = HTTPResponse(
                status: entry.status, headers: headers, body: entry.body,
                url: URL(string: entry.url) ?? URL(fileURLWithPath: "/"))
            write(key: key, response: response, now: now)
            return CachedResponse(
                url: entry.url, status: entry.status, headers: headers, body: entry.body, storedAt: now)
        }
        if let name = DiskResponseCache.entryName(key), let store = usableStore(create: false) {
            FileInfo.setModified(now, at: store, name: name)
        }
        var confirmed = entry
        confirmed.revalidatedAt = now
        return confirmed
    }

    /// The most bytes an entry this cache writes can hold.
    var entryLimit: Int { DiskResponseCache.entryLimit(maximumBodyBytes: maximumBodyBytes) }

    /// Stores a 200 answer. Failing to write is not an error for the command: the cache is an optimisation,
    /// so it is one warning, and the command goes on. Only a 200 is stored (a read refuses any other status), and
    /// not one whose body is over `maximumBodyBytes` or whose metadata is over `metadataLimit` (a header of tens of
    /// KB): a read refuses any larger entry unread.
    ///
    /// An answer that holds the token anywhere it would be kept (a server that echoes it in an `ETag`, a `Link`,
    /// the body) is not stored at all, so the token is never written to disk. Masking it instead would keep an
    /// answer the server never gave: a validator that is not its own, sent back as `If-None-Match`, and a body
    /// served as GitHub's to `--offline`. Such an answer is simply fetched again next time. The token is the
    /// secret of the logger's Redactor, which the session sets.
    package func write(key: String, response: HTTPResponse, now: Date) {
        var headers = HTTPHeaders()
        for field in response.headers where DiskResponseCache.keptHeaders.contains(field.name.lowercased()) {
            headers.set(field.name, field.value)
        }
        let entry = CachedResponse(
            url: response.url.absoluteString,
            status: response.status,
            headers: headers,
            body: response.body,
            storedAt: now
        )
        if entry.holdsSecret(of: logger.redactor) {
            logger.debug("\(HTTPClient.traceText(entry.url)): not cached, since the answer holds the token")
            return
        }
        guard entry.status == 200 else { return }
        guard entry.body.count <= maximumBodyBytes, let bytes = DiskResponseCache.encode(entry) else {
            logger.debug(
                "\(HTTPClient.traceText(entry.url)): not cached, since the answer is larger than an entry holds")
            return
        }
        guard let name = DiskResponseCache.entryName(key), let store = usableStore(create: true) else { return }
        let temporary =
            DiskResponseCache.temporaryPrefix + "\(key)-" + FileInfo.uniqueSuffix
        if let code = FileInfo.writeNew(bytes, at: store, name: temporary) {
            warnAboutWriting(code)
            return
        }
        // The file system's clock, as it dated the file just written.
        var info = stat()
        let written = fstatat(store, temporary, &info, AT_SYMLINK_NOFOLLOW) == 0 ? FileInfo.modified(info) : nil
        // Sized before the rename, so the first scan does not count this entry twice.
        let total = sizeEstimate.add(Int64(bytes.count), rescanAfter: limitBytes / 10) {
            self.scan(store, sweepingOrphans: true, fileSystemNow: written).bytes
        }
        guard renameat(store, temporary, store, name) == 0 else {
            let code = errno
            unlinkat(store, temporary, 0)
            // Its temporary file is gone: another process removed it (swept as an orphan while this one was stopped
            // for longer than `orphanAge`, or an older gh-users' `cache clear`). The cache works: this answer is
            // fetched again next time, and the next ones are stored, so nothing is said.
            guard code != ENOENT else {
                logger.debug("\(HTTPClient.traceText(entry.url)): not cached, since its temporary file was removed")
                return
            }
            warnAboutWriting(code)
            return
        }
        // Dated as stored (once in place: an old temporary file is an orphan to sweep), so that only a later 304
        // (`revalidate`) moves the date of its confirmation.
        FileInfo.setModified(now, at: store, name: name)
        if total > limitBytes {
            evict(store, fileSystemNow: written)
        }
    }

    package func summary() throws(DomainError) -> CacheSummary {
        switch store.resolve({ openStore(create: false) }) {
        case .failure(let problem):
            throw DomainError.cacheUnavailable(problem.message, remedy: problem.remedy)
        case .success(nil):
            // Nothing there is an empty cache; one that can never be made is said too (helper-340's E7).
            let blocked = FileInfo.creationProblem(storeDirectory.path).map { path, code in
                "cannot create \(TerminalSanitizer.quotedPath(path)): \(FileInfo.reason(code))"
            }
            return CacheSummary(
                path: storeDirectory.path, entries: 0, bytes: 0, limitBytes: limitBytes, cannotStore: blocked)
        case .success(let descriptor?):
            let held = summary(of: scan(descriptor, sweepingOrphans: false, fileSystemNow: fileSystemNow(descriptor)))
            // A store made, then locked (immutable, a read-only mount): every run warns it cannot write there.
            guard let code = FileInfo.writeProblem(in: descriptor) else { return held }
            return CacheSummary(
                path: held.path, entries: held.entries, bytes: held.bytes, limitBytes: held.limitBytes,
                orphanedTemporaryFiles: held.orphanedTemporaryFiles,
                cannotStore: "cannot write to \(TerminalSanitizer.quotedPath(storeDirectory.path)): "
                    + FileInfo.reason(code))
        }
    }

    /// Removes every entry and orphaned temporary file in the store, and nothing else anywhere; returns what there
    /// was. A temporary file younger than `orphanAge` is another run's write under way, which renames it into place
    /// in a moment: it is left to that run, which would otherwise fail to store its answer, and counted. A store of the user's
    /// own whose marker is missing, damaged or of another version is marked again first, so `cache clear` is
    /// always the way out of a broken store.
    package func clear() throws(DomainError) -> CacheSummary {
        let descriptor: Int32
        switch store.resolve({ openStore(create: false, repair: .ownedAndNotShared) }) {
        case .failure(let problem):
            throw DomainError.cacheUnavailable(problem.message, remedy: problem.remedy)
        case .success(nil):
            return CacheSummary(path: storeDirectory.path, entries: 0, bytes: 0, limitBytes: limitBytes)
        case .success(let opened?):
            descriptor = opened
        }
        let clock = fileSystemNow(descriptor)
        let before = summary(of: scan(descriptor, sweepingOrphans: false, fileSystemNow: clock))
        let cutoff = min(now(), clock ?? now()).addingTimeInterval(-DiskResponseCache.orphanAge)
        var cleared = before
        for name in FileInfo.names(in: descriptor) {
            let temporary = name.hasPrefix(DiskResponseCache.temporaryPrefix)
            guard temporary || name.hasSuffix(DiskResponseCache.entrySuffix) else { continue }
            if temporary, isWriteUnderWay(name, in: descriptor, cutoff) {
                cleared.writesUnderWay += 1
                continue
            }
            if unlinkat(descriptor, name, 0) != 0, errno != ENOENT, errno != EISDIR {
                let path = storeDirectory.appendingPathComponent(name).path
                throw DomainError.cacheUnavailable(
                    "cannot remove \(TerminalSanitizer.quotedPath(path)): \(FileInfo.reason(errno))")
            }
        }
        sizeEstimate.reset()
        return cleared
    }

}
