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

/// An entry on disk is the cache's own 200, whole, or it is damaged and fetched again: a changed byte anywhere in
/// it (its metadata too), an entry of the older format, or one larger than the cache would ever write.
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

    /// Every byte of an entry, changed, makes it damaged: the metadata's as well as the body's. Before, only the
    /// body was checked, so a status edited from 200 to 404 answered every later run "no user (HTTP 404)".
    @Test func aChangeToAnyByteOfAnEntryIsDamage() throws {
        let cache = cache()
        defer { try? FileManager.default.removeItem(at: cache.directory) }
        cache.write(key: "k", response: response(), now: Date(timeIntervalSince1970: 1_700_000_000))
        let whole = [UInt8](try Data(contentsOf: file(cache)))
        #expect(cache.lookUp(key: "k") != .damaged)
        var undamaged: [String] = []
        for index in whole.indices {
            var bytes = whole
            bytes[index] ^= 0x01
            try Data(bytes).write(to: file(cache))
            if cache.lookUp(key: "k") != .damaged {
                undamaged.append("byte \(index) (\(Character(UnicodeScalar(whole[index]))))")
            }
        }
        #expect(undamaged.isEmpty, "\(undamaged)")
    }

    @Test(arguments: [(#""status":200"#, #""status":404"#), (#""status":200"#, #""status":401"#)])
    func anEditedStatusIsDamage(stored: String, edited: String) throws {
        let cache = cache()
        defer { try? FileManager.default.removeItem(at: cache.directory) }
        cache.write(key: "k", response: response(), now: Date())
        let text = String(decoding: try Data(contentsOf: file(cache)), as: UTF8.self)
        #expect(text.contains(stored))
        try Data(text.replacingOccurrences(of: stored, with: edited).utf8).write(to: file(cache))
        #expect(cache.lookUp(key: "k") == .damaged)
    }

    /// Only 200s are stored: an entry that says otherwise, however well formed, is not one the cache wrote.
    @Test(arguments: [404, 401, 500, 304])
    func anEntryOfAnotherStatusIsDamage(status: Int) throws {
        let cache = cache()
        defer { try? FileManager.default.removeItem(at: cache.directory) }
        cache.write(key: "k", response: response(), now: Date())
        let entry = CachedResponse(
            url: Self.url, status: status, headers: HTTPHeaders([("ETag", #"W/"1""#)]), body: Data(Self.body.utf8),
            storedAt: Date())
        try Data(try #require(DiskResponseCache.encode(entry))).write(to: file(cache))
        #expect(cache.lookUp(key: "k") == .damaged)
    }

    /// An entry whose checksum holds, but whose metadata does not describe a stored 200 whole, is damaged too.
    @Test(arguments: [
        #"{"url":"u","status":200,"storedAt":0,"headers":[],"bodyLength":99}"#,
        #"{"url":"u","status":200,"storedAt":0,"headers":[["a"]],"bodyLength":2}"#,
        #"{"url":"u","status":"200","storedAt":0,"headers":[],"bodyLength":2}"#,
        #"{"url":"u","storedAt":0,"headers":[],"bodyLength":2}"#,
        #"{"url":"u","status":200,"storedAt":0,"headers":[],"bodyLength":2"#,
    ])
    func anEntryWhoseMetadataDoesNotHoldIsDamaged(metadata: String) throws {
        let cache = cache()
        defer { try? FileManager.default.removeItem(at: cache.directory) }
        cache.write(key: "k", response: response(), now: Date())
        let covered = metadata + "\n[]"
        let contents = "gh-users-cache 2 " + DiskResponseCache.checksum(Array(covered.utf8)) + "\n" + covered
        try Data(contents.utf8).write(to: file(cache))
        #expect(cache.lookUp(key: "k") == .damaged)
        // The same entry, well formed, reads: only the metadata above is wrong.
        let good = #"{"url":"u","status":200,"storedAt":0,"headers":[],"bodyLength":2}"# + "\n[]"
        try Data(("gh-users-cache 2 " + DiskResponseCache.checksum(Array(good.utf8)) + "\n" + good).utf8)
            .write(to: file(cache))
        #expect(cache.read(key: "k")?.body == Data("[]".utf8))
    }

    /// Entries of the first format (whose checksum, when they had one, covered the body alone) are damaged, and
    /// the next 200 replaces them.
    @Test(arguments: [
        #"gh-users-cache 1"# + "\n"
            + #"{"url":"u","status":200,"storedAt":0,"headers":[],"bodyLength":2}"# + "\n[]",
        #"gh-users-cache 1"# + "\n"
            + #"{"url":"u","status":200,"storedAt":0,"headers":[],"bodyLength":2,"bodyChecksum":"9612b07b5ecb5a5"}"#
            + "\n[]",
    ])
    func anEntryOfTheFirstFormatIsDamagedAndReplaced(contents: String) throws {
        let cache = cache()
        defer { try? FileManager.default.removeItem(at: cache.directory) }
        cache.write(key: "other", response: response(), now: Date())
        try Data(contents.utf8).write(to: file(cache))
        #expect(cache.lookUp(key: "k") == .damaged)
        cache.write(key: "k", response: response(), now: Date())
        #expect(cache.read(key: "k")?.body == Data(Self.body.utf8))
    }

    /// A run whose entry's status was edited to 404 fetches the answer again, without validators (a 304 must not
    /// vouch for what the server never sent), and stores the new 200.
    @Test func aRunFetchesAnEditedEntryAgain() async throws {
        let cache = cache()
        defer { try? FileManager.default.removeItem(at: cache.directory) }
        let stub = StubTransport()
        stub.stub(Self.url, headers: [("ETag", #"W/"1""#)], body: Self.body)
        stub.stub(Self.url, headers: [("ETag", #"W/"1""#)], body: Self.body)
        let login = try Login(validating: "octocat")
        _ = try await ConditionalFetcherTests().repository(stub, cache: cache).user(login: login)
        let entry = try #require(
            try FileManager.default.contentsOfDirectory(at: cache.storeDirectory, includingPropertiesForKeys: nil)
                .first { $0.pathExtension == "entry" })
        let text = String(decoding: try Data(contentsOf: entry), as: UTF8.self)
        try Data(text.replacingOccurrences(of: #""status":200"#, with: #""status":404"#).utf8).write(to: entry)
        #expect(
            try await ConditionalFetcherTests().repository(stub, cache: cache).user(login: login).login == "octocat")
        #expect(stub.received.count == 2)
        #expect(stub.received[1].headers["If-None-Match"] == nil)
        #expect(String(decoding: try Data(contentsOf: entry), as: UTF8.self).contains(#""status":200"#))
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
        // A well-formed entry with a body beyond it (as a run with a higher cap, or a stub, could hand it over),
        // by a little (the whole entry within the bound a read trusts, its metadata's room to spare) or by far.
        let beyond = "[" + String(repeating: " ", count: 200_000) + "]"
        for body in [String(beyond.prefix(1_000)) + "]", beyond] {
            let large = CachedResponse(
                url: Self.url, status: 200, headers: HTTPHeaders(), body: Data(body.utf8), storedAt: Date())
            try Data(try #require(DiskResponseCache.encode(large))).write(to: file(cache))
            #expect(cache.lookUp(key: "k") == .damaged, "a body of \(body.utf8.count) bytes")
        }
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
