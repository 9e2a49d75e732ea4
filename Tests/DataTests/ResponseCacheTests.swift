import AtomicLogger
import Foundation
import Networking
import TestSupport
import Testing

@testable import Data
@testable import Domain

private func temporaryDirectory() -> URL {
    FileManager.default.temporaryDirectory.appendingPathComponent("gh-users-cache-test-\(UUID().uuidString)")
}

private func permissions(_ path: String) throws -> Int {
    try #require(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
}

private let listURL = "https://api.github.com/users?since=0&per_page=2"
private let page = #"[{"login":"a","id":1},{"login":"b","id":2}]"#

struct SHA256Tests {
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        (
            "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        ),
    ])
    func matchesTheStandardVectors(message: String, digest: String) {
        #expect(SHA256.hex(Array(message.utf8)) == digest)
    }

    @Test func hashesAMillionAs() {
        #expect(
            SHA256.hex([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000))
                == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"
        )
    }
}

struct DiskResponseCacheTests {
    private func response(_ body: String = page, etag: String = "W/\"1\"") -> HTTPResponse {
        HTTPResponse(
            status: 200,
            headers: HTTPHeaders([
                ("ETag", etag), ("Link", "<https://api.github.com/users?since=2>; rel=\"next\""),
                ("X-RateLimit-Remaining", "4999"), ("Content-Type", "application/json"),
            ]),
            body: Data(body.utf8),
            url: URL(string: listURL)!
        )
    }

    @Test func roundTripsAnEntryWithOnlyTheHeadersWorthKeeping() throws {
        let cache = DiskResponseCache(directory: temporaryDirectory(), limitBytes: 1_000_000)
        defer { try? FileManager.default.removeItem(at: cache.directory) }
        let key = DiskResponseCache.key(url: listURL, token: nil)
        cache.write(key: key, response: response(), now: Date(timeIntervalSince1970: 1_700_000_000))
        let entry = try #require(cache.read(key: key))
        #expect(entry.body == Data(page.utf8))
        #expect(entry.etag == "W/\"1\"")
        #expect(entry.headers["Link"] == "<https://api.github.com/users?since=2>; rel=\"next\"")
        #expect(entry.headers["X-RateLimit-Remaining"] == nil)
        #expect(entry.storedAt == Date(timeIntervalSince1970: 1_700_000_000))
    }

    @Test func theDirectoryIsPrivateAndSoAreTheFiles() throws {
        let cache = DiskResponseCache(
            directory: temporaryDirectory().appendingPathComponent("nested"), limitBytes: 1_000_000)
        defer { try? FileManager.default.removeItem(at: cache.directory.deletingLastPathComponent()) }
        cache.write(key: "k", response: response(), now: Date())
        #expect(try permissions(cache.directory.path) == 0o700)
        let files = try FileManager.default.contentsOfDirectory(atPath: cache.directory.path)
        #expect(files == ["k.entry"])
        #expect(try permissions(cache.directory.appendingPathComponent("k.entry").path) == 0o600)
    }

    @Test func anExistingDirectoryIsMadePrivate() throws {
        let directory = temporaryDirectory()
        try FileManager.default.createDirectory(
            at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        defer { try? FileManager.default.removeItem(at: directory) }
        DiskResponseCache(directory: directory, limitBytes: 1_000_000).write(
            key: "k", response: response(), now: Date())
        #expect(try permissions(directory.path) == 0o700)
    }

    @Test func keysSeparateTokensAndNeverContainThem() {
        let anonymous = DiskResponseCache.key(url: listURL, token: nil)
        let first = DiskResponseCache.key(url: listURL, token: "token-one")
        let second = DiskResponseCache.key(url: listURL, token: "token-two")
        #expect(Set([anonymous, first, second]).count == 3)
        #expect(first == DiskResponseCache.key(url: listURL, token: "token-one"))
        #expect(first.count == 64 && first.allSatisfy(\.isHexDigit))
        #expect(DiskResponseCache.key(url: listURL + "&x", token: nil) != anonymous)
    }

    @Test(arguments: [
        "", "garbage", "gh-users-cache 1\n{not json}\n[]", "gh-users-cache 2\n{}\n",
        "gh-users-cache 1\n{\"url\":\"u\",\"status\":200,\"storedAt\":0,\"headers\":[],\"bodyLength\":99}\n[]",
        "gh-users-cache 1\n{\"url\":\"u\",\"status\":200,\"storedAt\":0,\"headers\":[[\"a\"]],\"bodyLength\":2}\n[]",
    ])
    func aCorruptOrForeignEntryIsAMiss(contents: String) throws {
        let cache = DiskResponseCache(directory: temporaryDirectory(), limitBytes: 1_000_000)
        defer { try? FileManager.default.removeItem(at: cache.directory) }
        try FileManager.default.createDirectory(at: cache.directory, withIntermediateDirectories: true)
        try Data(contents.utf8).write(to: cache.directory.appendingPathComponent("k.entry"))
        #expect(cache.read(key: "k") == nil)
        cache.write(key: "k", response: response(), now: Date())
        #expect(cache.read(key: "k")?.body == Data(page.utf8))
    }

    @Test func evictsTheLeastRecentlyUsedDownToNinetyPercent() throws {
        let body = String(repeating: "x", count: 1000)
        // Each entry is about 1,260 bytes with its header: four fit in 6,000, the fifth forces an eviction.
        let cache = DiskResponseCache(directory: temporaryDirectory(), limitBytes: 6_000)
        defer { try? FileManager.default.removeItem(at: cache.directory) }
        for index in 0..<4 {
            cache.write(key: "k\(index)", response: response(body), now: Date())
            // Distinct modification times, oldest first.
            let path = cache.directory.appendingPathComponent("k\(index).entry").path
            try FileManager.default.setAttributes(
                [.modificationDate: Date(timeIntervalSince1970: Double(1_000 + index))], ofItemAtPath: path)
        }
        cache.touch(key: "k0")
        cache.write(key: "k4", response: response(body), now: Date())
        cache.write(key: "k5", response: response(body), now: Date())
        let summary = cache.summary()
        #expect(summary.bytes <= 6_000)
        #expect(cache.read(key: "k0") != nil, "a recently used entry survives")
        #expect(cache.read(key: "k1") == nil, "the oldest entry goes first")
        #expect(cache.read(key: "k5") != nil)
    }

    @Test func clearRemovesEverythingAndSaysWhatWasThere() throws {
        let cache = DiskResponseCache(directory: temporaryDirectory(), limitBytes: 1_000_000)
        defer { try? FileManager.default.removeItem(at: cache.directory) }
        cache.write(key: "a", response: response(), now: Date())
        cache.write(key: "b", response: response(), now: Date())
        try Data().write(to: cache.directory.appendingPathComponent(".tmp-stray"))
        let removed = try cache.clear()
        #expect(removed.entries == 2)
        #expect(removed.bytes > 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: cache.directory.path).isEmpty)
        #expect(cache.summary().entries == 0)
    }

    @Test func concurrentWritersNeverLeaveABrokenEntry() async throws {
        let cache = DiskResponseCache(directory: temporaryDirectory(), limitBytes: 100_000_000)
        defer { try? FileManager.default.removeItem(at: cache.directory) }
        let bodies = (0..<8).map { "[" + String(repeating: "\($0)", count: 20_000) + "]" }
        await withTaskGroup(of: Void.self) { group in
            for round in 0..<40 {
                group.addTask {
                    let body = bodies[round % bodies.count]
                    cache.write(key: "shared", response: response(body), now: Date())
                    if let entry = cache.read(key: "shared") {
                        #expect(bodies.contains(String(decoding: entry.body, as: UTF8.self)))
                    }
                }
            }
        }
        let final = try #require(cache.read(key: "shared"))
        #expect(bodies.contains(String(decoding: final.body, as: UTF8.self)))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: cache.directory.path).filter {
            $0.hasPrefix(".tmp-")
        }
        #expect(leftovers.isEmpty)
    }
}

struct ConditionalFetcherTests {
    private func repository(
        _ stub: StubTransport,
        cache: DiskResponseCache?,
        mode: CacheMode = .readWrite,
        token: String? = nil,
        logger: Logger = .disabled
    ) -> GitHubRepository {
        GitHubRepository(
            client: HTTPClient(
                configuration: HTTPClientConfiguration(
                    baseURL: URL(string: "https://api.github.com")!, userAgent: "t", token: token),
                transport: stub.transport,
                logger: .disabled,
                retryPolicy: RetryPolicy(maxRetries: 0)
            ),
            cache: CacheSettings(store: cache, mode: mode),
            logger: logger,
            now: { Date(timeIntervalSince1970: 1_700_000_000) }
        )
    }

    private let link = #"<https://api.github.com/users?since=2>; rel="next""#

    @Test func revalidatesAndServesA304FromTheCacheWithItsLink() async throws {
        let cache = DiskResponseCache(directory: temporaryDirectory(), limitBytes: 1_000_000)
        defer { try? FileManager.default.removeItem(at: cache.directory) }
        let stub = StubTransport()
        stub.stub(listURL, headers: [("ETag", "W/\"v1\""), ("Link", link)], body: page)
        stub.stub(listURL, status: 304, headers: [("ETag", "W/\"v1\"")], body: "")
        let first = try await repository(stub, cache: cache).firstPage(GitHubEndpoints.users(since: 0), perPage: 2)
        let second = try await repository(stub, cache: cache).firstPage(GitHubEndpoints.users(since: 0), perPage: 2)
        #expect(first == second)
        #expect(second.next == PageCursor(url: "https://api.github.com/users?since=2"))
        #expect(stub.received[0].headers["If-None-Match"] == nil)
        #expect(stub.received[1].headers["If-None-Match"] == "W/\"v1\"")
        #expect(stub.unusedStubs.isEmpty)
    }

    @Test func sendsIfModifiedSinceWhenThereIsALastModified() async throws {
        let cache = DiskResponseCache(directory: temporaryDirectory(), limitBytes: 1_000_000)
        defer { try? FileManager.default.removeItem(at: cache.directory) }
        let stub = StubTransport()
        let url = "https://api.github.com/users/octocat"
        stub.stub(
            url, headers: [("Last-Modified", "Mon, 14 Jan 2008 04:33:35 GMT")], body: #"{"login":"octocat","id":1}"#)
        stub.stub(url, status: 304, body: "")
        let login = try Login(validating: "octocat")
        _ = try await repository(stub, cache: cache).user(login: login)
        #expect(try await repository(stub, cache: cache).user(login: login).login == "octocat")
        #expect(stub.received[1].headers["If-Modified-Since"] == "Mon, 14 Jan 2008 04:33:35 GMT")
        #expect(stub.received[1].headers["If-None-Match"] == nil)
    }

    @Test func aChangedAnswerReplacesTheEntry() async throws {
        let cache = DiskResponseCache(directory: temporaryDirectory(), limitBytes: 1_000_000)
        defer { try? FileManager.default.removeItem(at: cache.directory) }
        let stub = StubTransport()
        stub.stub(listURL, headers: [("ETag", "W/\"v1\"")], body: page)
        stub.stub(listURL, headers: [("ETag", "W/\"v2\"")], body: #"[{"login":"c","id":3}]"#)
        _ = try await repository(stub, cache: cache).firstPage(GitHubEndpoints.users(since: 0), perPage: 2)
        let changed = try await repository(stub, cache: cache).firstPage(GitHubEndpoints.users(since: 0), perPage: 2)
        #expect(changed.users.map(\.login) == ["c"])
        #expect(cache.read(key: DiskResponseCache.key(url: listURL, token: nil))?.etag == "W/\"v2\"")
    }

    @Test func offlineAnswersFromTheCacheOnlyAndAMissSaysSo() async throws {
        let cache = DiskResponseCache(directory: temporaryDirectory(), limitBytes: 1_000_000)
        defer { try? FileManager.default.removeItem(at: cache.directory) }
        let stub = StubTransport()
        stub.stub(listURL, headers: [("ETag", "W/\"v1\"")], body: page)
        let online = try await repository(stub, cache: cache).firstPage(GitHubEndpoints.users(since: 0), perPage: 2)
        let offline = try await repository(stub, cache: cache, mode: .offline).firstPage(
            GitHubEndpoints.users(since: 0), perPage: 2)
        #expect(offline == online)
        await #expect(throws: DomainError.notCached(resource: "GET /users/ghost")) {
            try await repository(stub, cache: cache, mode: .offline).user(login: try Login(validating: "ghost"))
        }
        #expect(stub.received.count == 1)
    }

    @Test func anotherTokensEntryIsNeverServed() async throws {
        let cache = DiskResponseCache(directory: temporaryDirectory(), limitBytes: 1_000_000)
        defer { try? FileManager.default.removeItem(at: cache.directory) }
        let stub = StubTransport()
        stub.stub(listURL, headers: [("ETag", "W/\"v1\"")], body: page)
        _ = try await repository(stub, cache: cache, token: "first-token").firstPage(
            GitHubEndpoints.users(since: 0), perPage: 2)
        await #expect(throws: DomainError.self) {
            try await repository(stub, cache: cache, mode: .offline, token: "second-token").firstPage(
                GitHubEndpoints.users(since: 0), perPage: 2)
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: cache.directory.path)
        for file in files {
            let contents = try String(contentsOf: cache.directory.appendingPathComponent(file), encoding: .utf8)
            #expect(!contents.contains("first-token"))
        }
    }

    @Test func aTransportFailureFallsBackToTheCachedCopyWithADatedWarning() async throws {
        let cache = DiskResponseCache(directory: temporaryDirectory(), limitBytes: 1_000_000)
        defer { try? FileManager.default.removeItem(at: cache.directory) }
        let stub = StubTransport()
        stub.stub(listURL, headers: [("ETag", "W/\"v1\"")], body: page)
        stub.fail(listURL, with: .cannotConnect("refused"))
        let handler = InMemoryLogHandler()
        let logger = Logger(label: "t", level: .warning, handler: handler)
        let online = try await repository(stub, cache: cache).firstPage(GitHubEndpoints.users(since: 0), perPage: 2)
        let fallback = try await repository(stub, cache: cache, logger: logger).firstPage(
            GitHubEndpoints.users(since: 0), perPage: 2)
        #expect(fallback == online)
        let warning = try #require(handler.entries.first)
        #expect(warning.level == .warning)
        #expect(warning.message.contains("cannot reach the API (cannot connect: refused)"))
        #expect(warning.message.contains("GET /users?since=0&per_page=2 cached"))
        #expect(warning.message.contains("2023"))
    }

    @Test func httpErrorsAreNeverServedFromTheCache() async throws {
        let cache = DiskResponseCache(directory: temporaryDirectory(), limitBytes: 1_000_000)
        defer { try? FileManager.default.removeItem(at: cache.directory) }
        let stub = StubTransport()
        stub.stub(listURL, headers: [("ETag", "W/\"v1\"")], body: page)
        stub.stub(listURL, status: 500, body: "{}")
        _ = try await repository(stub, cache: cache).firstPage(GitHubEndpoints.users(since: 0), perPage: 2)
        await #expect(throws: DomainError.server(status: 500, message: "Internal Server Error")) {
            try await repository(stub, cache: cache).firstPage(GitHubEndpoints.users(since: 0), perPage: 2)
        }
    }

    @Test func noCacheNeitherReadsNorWrites() async throws {
        let directory = temporaryDirectory()
        let cache = DiskResponseCache(directory: directory, limitBytes: 1_000_000)
        defer { try? FileManager.default.removeItem(at: directory) }
        let stub = StubTransport()
        stub.stub(listURL, headers: [("ETag", "W/\"v1\"")], body: page)
        stub.stub(listURL, headers: [("ETag", "W/\"v1\"")], body: page)
        _ = try await repository(stub, cache: cache).firstPage(GitHubEndpoints.users(since: 0), perPage: 2)
        _ = try await repository(stub, cache: cache, mode: .disabled).firstPage(
            GitHubEndpoints.users(since: 0), perPage: 2)
        #expect(stub.received[1].headers["If-None-Match"] == nil)
        #expect(cache.summary().entries == 1)
        let untouched = DiskResponseCache(directory: temporaryDirectory(), limitBytes: 1_000_000)
        stub.stub(listURL, headers: [("ETag", "W/\"v1\"")], body: page)
        _ = try await repository(stub, cache: untouched, mode: .disabled).firstPage(
            GitHubEndpoints.users(since: 0), perPage: 2)
        #expect(!FileManager.default.fileExists(atPath: untouched.directory.path))
    }
}
