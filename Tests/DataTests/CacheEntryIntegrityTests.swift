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

/// An entry on disk is one the cache wrote, whole, or it is damaged and fetched again: one larger than the cache
/// would ever write is not even read.
struct CacheEntryIntegrityTests {
    private static let url = "https://api.github.com/users/octocat"
    private static let body = #"{"login":"octocat","id":1}"#

    private func cache(maximumBodyBytes: Int = 64 << 20) -> DiskResponseCache {
        DiskResponseCache(
            directory: FileManager.default.temporaryDirectory.appendingPathComponent("gh-users-entry-\(UUID())"),
            limitBytes: 1_000_000, maximumBodyBytes: maximumBodyBytes)
    }

    private func response(_ body: String = CacheEntryIntegrityTests.body) -> HTTPResponse {
        HTTPResponse(
            status: 200,
            headers: HTTPHeaders([("ETag", #"W/"1""#), ("Content-Type", "application/json")]),
            body: Data(body.utf8),
            url: URL(string: Self.url)!)
    }

    private func file(_ cache: DiskResponseCache, _ key: String = "k") -> URL {
        cache.storeDirectory.appendingPathComponent(key + ".entry")
    }

    /// The cache never writes a body over its cap (`GH_USERS_MAX_RESPONSE_BYTES`) nor more metadata than its
    /// bound, so a larger entry is not one it wrote: damaged, without being read. Before, an entry truncated up
    /// to 3 GB was read whole, and the run died failing to allocate it.
    @Test func anEntryLargerThanTheCacheWritesIsDamagedAndNotRead() throws {
        let cache = cache(maximumBodyBytes: 1000)
        defer { try? FileManager.default.removeItem(at: cache.directory) }
        // A body of the cap is stored and read.
        let atTheCap = "[" + String(repeating: " ", count: 998) + "]"
        cache.write(key: "k", response: response(atTheCap), now: Date())
        #expect(cache.read(key: "k")?.body == Data(atTheCap.utf8))
        // A well-formed entry with a body beyond it (as a run with a higher cap, or a stub, could hand it over).
        let beyond = "[" + String(repeating: " ", count: 200_000) + "]"
        let large = CachedResponse(
            url: Self.url, status: 200, headers: HTTPHeaders(), body: Data(beyond.utf8), storedAt: Date())
        try Data(try #require(DiskResponseCache.encode(large))).write(to: file(cache))
        #expect(cache.lookUp(key: "k") == .damaged)
        // Grown far beyond (a sparse file): nothing like its size is read.
        #expect(truncate(file(cache).path, 64 << 20) == 0)
        var found: DiskResponseCache.Lookup?
        let counted = try AllocationCount.during { found = cache.lookUp(key: "k") }
        #expect(found == .damaged)
        #expect(counted.bytes < 256 << 10, "\(counted)")
        // The cache writes no body beyond the cap either, and the next answer it may keep replaces the entry.
        cache.write(key: "k", response: response(beyond), now: Date())
        #expect(cache.lookUp(key: "k") == .damaged)
        cache.write(key: "k", response: response(), now: Date())
        #expect(cache.read(key: "k")?.body == Data(Self.body.utf8))
    }

    /// Metadata over its bound (a `Link` of 100 KB) is not stored: the bound a read trusts holds for every write.
    @Test func anAnswerWithMetadataOverItsBoundIsNotStored() throws {
        let cache = cache(maximumBodyBytes: 1000)
        defer { try? FileManager.default.removeItem(at: cache.directory) }
        var answer = response()
        answer.headers.set(
            "Link", "<https://api.github.com/users?since=" + String(repeating: "9", count: 100_000) + ">")
        cache.write(key: "k", response: answer, now: Date())
        #expect(cache.lookUp(key: "k") == .none)
        answer.headers.set("Link", "<https://api.github.com/users?since=" + String(repeating: "9", count: 10_000) + ">")
        cache.write(key: "k", response: answer, now: Date())
        #expect(cache.read(key: "k")?.headers["Link"] == answer.headers["Link"])
    }
}
