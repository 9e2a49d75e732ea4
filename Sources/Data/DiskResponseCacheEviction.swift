import Domain
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The size bound: the running total, the entries least recently stored or confirmed deleted first (their
/// files' modification time), and temporary files orphaned by a killed process swept once they are old.
extension DiskResponseCache {
    /// A temporary file older than this belongs to no running write: a write takes milliseconds.
    static let orphanAge: TimeInterval = 5 * 60

    /// Deletes the entries least recently stored or confirmed until the cache is at 90% of its limit, so
    /// eviction is not paid on every write.
    func evict(_ store: Int32, fileSystemNow: Date? = nil) {
        let scan = scan(store, sweepingOrphans: true, fileSystemNow: fileSystemNow)
        var total = scan.bytes
        let target = limitBytes * 9 / 10
        for file in scan.files.sorted(by: { $0.modified < $1.modified }) where total > target {
            if unlinkat(store, file.name, 0) == 0 { total -= file.size }
        }
        sizeEstimate.set(total)
    }

    struct Scan {
        var files: [(name: String, size: Int64, modified: Date)] = []
        var bytes: Int64 = 0
        var orphans = 0
    }

    /// Sizes the entries, and counts (or removes) temporary files too old to belong to a running write: older
    /// than `orphanAge` by this clock, or by the file system's where a write just read it (`fileSystemNow`, the
    /// date its temporary file was given), whichever is earlier. A cache on a file server whose clock is behind
    /// this one's dated the write just made as older than the age, and swept it before its rename (helper-319:
    /// with the server's clock ten minutes behind, no answer was ever stored).
    func scan(_ store: Int32, sweepingOrphans: Bool, fileSystemNow: Date? = nil) -> Scan {
        var result = Scan()
        let cutoff = min(now(), fileSystemNow ?? now()).addingTimeInterval(-DiskResponseCache.orphanAge)
        for name in FileInfo.names(in: store) {
            let isEntry = name.hasSuffix(DiskResponseCache.entrySuffix)
            guard isEntry || name.hasPrefix(DiskResponseCache.temporaryPrefix) else { continue }
            var info = stat()
            guard fstatat(store, name, &info, AT_SYMLINK_NOFOLLOW) == 0, FileInfo.isRegular(info) else { continue }
            let modified = FileInfo.modified(info)
            if isEntry {
                result.files.append((name, Int64(info.st_size), modified))
                result.bytes += Int64(info.st_size)
            } else if modified < cutoff {
                if !(sweepingOrphans && unlinkat(store, name, 0) == 0) { result.orphans += 1 }
            }
        }
        return result
    }

    /// The file system's clock, read from the date it gives a file made for the purpose and removed at once; nil
    /// where none can be made (a store that is not writable), and this clock is the only one. `cache clear` and
    /// `cache info` judge other runs' writes by it as a write does (helper-322).
    func fileSystemNow(_ store: Int32) -> Date? {
        let probe = DiskResponseCache.temporaryPrefix + "clock-" + FileInfo.uniqueSuffix
        guard FileInfo.writeNew([], at: store, name: probe) == nil else { return nil }
        defer { unlinkat(store, probe, 0) }
        var info = stat()
        return fstatat(store, probe, &info, AT_SYMLINK_NOFOLLOW) == 0 ? FileInfo.modified(info) : nil
    }

    /// Whether the temporary file `name` is a regular file modified since `cutoff`: a write under way.
    func isWriteUnderWay(_ name: String, in store: Int32, _ cutoff: Date) -> Bool {
        var info = stat()
        return fstatat(store, name, &info, AT_SYMLINK_NOFOLLOW) == 0 && FileInfo.isRegular(info)
            && FileInfo.modified(info) >= cutoff
    }

    func summary(of scan: Scan) -> CacheSummary {
        CacheSummary(
            path: storeDirectory.path,
            entries: scan.files.count,
            bytes: scan.bytes,
            limitBytes: limitBytes,
            orphanedTemporaryFiles: scan.orphans
        )
    }
}

/// The cache's running size, learned by a scan on first use and kept up to date after. Other processes write
/// the same cache: after `rescanAfter` bytes of its own writes the size is learned again, so eight runs at once
/// each counting only its own writes no longer grow the cache to several times its bound.
final class LockedCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Int64?
    private var sinceScan: Int64 = 0

    func add(_ amount: Int64, rescanAfter: Int64 = .max, scan: () -> Int64) -> Int64 {
        lock.withLock {
            sinceScan += amount
            if value == nil || sinceScan > rescanAfter {
                value = scan()
                sinceScan = 0
            }
            let total = (value ?? 0) + amount
            value = total
            return total
        }
    }

    func set(_ total: Int64) {
        lock.withLock {
            value = total
            sinceScan = 0
        }
    }

    func reset() {
        lock.withLock { value = nil }
    }
}
