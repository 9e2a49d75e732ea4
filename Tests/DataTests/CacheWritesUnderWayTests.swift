import AtomicLogger
import Foundation
import Networking
import TestSupport
import Testing

@testable import Data
@testable import Domain

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Other runs write the cache while `cache clear` empties it, or while one run is stopped: a write under way is
/// left to finish, and a run that could not store one answer says no more than that.
struct CacheWritesUnderWayTests {
    private static let clock = Date(timeIntervalSince1970: 1_700_000_000)

    private func response(_ body: String = #"{"login":"octocat","id":1}"#) -> HTTPResponse {
        HTTPResponse(
            status: 200, headers: HTTPHeaders([("ETag", #"W/"1""#)]), body: Data(body.utf8),
            url: URL(string: "https://api.github.com/users/octocat")!)
    }

    private func cache(
        _ directory: URL, now: @escaping @Sendable () -> Date = { CacheWritesUnderWayTests.clock }
    ) -> (DiskResponseCache, InMemoryLogHandler) {
        let handler = InMemoryLogHandler()
        let logger = Logger(label: "t", level: .warning, handler: handler)
        return (DiskResponseCache(directory: directory, limitBytes: 1_000_000, logger: logger, now: now), handler)
    }

    private func temporaryDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("gh-users-under-way-\(UUID())")
    }

    /// A temporary file younger than the orphan age is another run's write, about to be renamed into place:
    /// `cache clear` leaves it, and removes one old enough to be an orphan. Before, it removed both, and the
    /// other run warned that it was "going on without storing answers".
    @Test func clearLeavesAWriteUnderWayToItsRun() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (cache, log) = cache(directory)
        cache.write(key: "k", response: response(), now: Self.clock)
        let store = cache.storeDirectory
        let entry = CachedResponse(
            url: "https://api.github.com/users/octocat", status: 200, headers: HTTPHeaders(),
            body: Data("[]".utf8), storedAt: Self.clock)
        for (name, age) in [(".tmp-other-1-1", 60.0), (".tmp-orphan-2-2", 3600.0)] {
            let path = store.appendingPathComponent(name).path
            try Data(try #require(DiskResponseCache.encode(entry))).write(to: URL(fileURLWithPath: path))
            try FileManager.default.setAttributes(
                [.modificationDate: Self.clock.addingTimeInterval(-age)], ofItemAtPath: path)
        }
        let removed = try cache.clear()
        #expect(removed.entries == 1)
        #expect(removed.orphanedTemporaryFiles == 1)
        #expect(removed.writesUnderWay == 1)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: store.path).sorted()
                == [".tmp-other-1-1", "CACHEDIR.TAG"])
        // The other run's rename then puts its answer in place.
        #expect(
            rename(store.appendingPathComponent(".tmp-other-1-1").path, store.appendingPathComponent("o.entry").path)
                == 0)
        #expect(cache.read(key: "o")?.body == Data("[]".utf8))
        #expect(log.entries.isEmpty)
    }

    /// A run stopped (Ctrl-Z) for longer than the orphan age between writing its temporary file and renaming it
    /// may find the file swept by another run. That answer is fetched again next time; the cache works, so the
    /// run says nothing, and stores its later answers. The clock here sweeps the run's temporary file when its
    /// own scan reads it, as the other run would.
    @Test func aRunWhoseTemporaryFileWasRemovedSaysNothingAndStoresTheNext() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let sweeping = SweepingSwitch()
        let store = directory.appendingPathComponent(DiskResponseCache.storeName).path
        let (cache, log) = cache(directory) {
            if sweeping.isOn {
                for name in (try? FileManager.default.contentsOfDirectory(atPath: store)) ?? []
                where name.hasPrefix(".tmp-k-") {
                    try? FileManager.default.removeItem(atPath: store + "/" + name)
                }
            }
            return Date()
        }
        sweeping.isOn = true
        cache.write(key: "k", response: response(), now: Date())
        sweeping.isOn = false
        #expect(cache.lookUp(key: "k") == .none)
        cache.write(key: "k2", response: response(), now: Date())
        #expect(cache.read(key: "k2") != nil)
        #expect(log.entries.map(\.message) == [])
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: cache.storeDirectory.path).sorted()
                == ["CACHEDIR.TAG", "k2.entry"])
    }

    /// A cache on a file server whose clock is behind this one's: a write just made is dated ten minutes back, and
    /// was swept as an orphan before its rename, so no answer was ever stored (helper-319). The date the file
    /// system gave that file is its clock, which the orphans are judged by.
    @Test func aFileSystemClockBehindThisOneStillStoresTheAnswer() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (cache, log) = cache(directory, now: { Date().addingTimeInterval(600) })
        cache.write(key: "k", response: response(), now: Date())
        #expect(cache.read(key: "k") != nil)
        #expect(log.entries.isEmpty)
        // An orphan old by the file system's clock is still swept, by the next run's first write.
        let orphan = cache.storeDirectory.appendingPathComponent(".tmp-orphan-2-2")
        try Data("partial".utf8).write(to: orphan)
        try FileManager.default.setAttributes(
            [.modificationDate: Date().addingTimeInterval(-600)], ofItemAtPath: orphan.path)
        let (next, _) = self.cache(directory, now: { Date().addingTimeInterval(600) })
        next.write(key: "k2", response: response(), now: Date())
        #expect(!FileManager.default.fileExists(atPath: orphan.path))
        #expect(next.read(key: "k2") != nil)
    }

    /// `cache info` and `cache clear` judge another run's write by the file system's clock too: with the file
    /// server ten minutes behind, `clear` removed a write under way, which that run then lost, and `info`
    /// counted it as an orphan (helper-322).
    @Test func clearAndInfoJudgeAWriteUnderWayByTheFileSystemsClock() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (cache, _) = cache(directory, now: { Date().addingTimeInterval(600) })
        cache.write(key: "k", response: response(), now: Date())
        let underWay = cache.storeDirectory.appendingPathComponent(".tmp-other-1-1")
        try Data("partial".utf8).write(to: underWay)
        #expect(try cache.summary().orphanedTemporaryFiles == 0)
        let removed = try cache.clear()
        #expect(removed.entries == 1 && removed.orphanedTemporaryFiles == 0)
        #expect(FileManager.default.fileExists(atPath: underWay.path))
        // No probe of the clock is left behind.
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: cache.storeDirectory.path).sorted()
                == [".tmp-other-1-1", "CACHEDIR.TAG"])
    }

    /// An answer that cannot be written (here, a folder in the entry's place) is one warning, which claims no more
    /// than is so: the next answer is still stored.
    @Test func aFailedWriteSaysTheAnswerIsFetchedAgainAndTheNextIsStored() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (cache, log) = cache(directory)
        cache.write(key: "first", response: response(), now: Self.clock)
        try FileManager.default.createDirectory(
            at: cache.storeDirectory.appendingPathComponent("k.entry/inside"), withIntermediateDirectories: true)
        cache.write(key: "k", response: response(), now: Self.clock)
        cache.write(key: "k2", response: response(), now: Self.clock)
        #expect(cache.read(key: "k2") != nil)
        #expect(
            log.entries.map(\.message) == [
                "cannot write to the cache in '\(cache.storeDirectory.path)': is a directory; an answer it cannot "
                    + "store is fetched again next time"
            ])
    }
}

/// Whether the test's clock sweeps the run's temporary file when it is read.
private final class SweepingSwitch: @unchecked Sendable {
    private let lock = NSLock()
    private var on = false

    var isOn: Bool {
        get { lock.withLock { on } }
        set { lock.withLock { on = newValue } }
    }
}
