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

/// What a 304 changes in the cache: RFC 9111 §4.3.4 updates the stored response's header fields from it.
extension ConditionalFetcherTests {
    private static let firstURL = "https://api.github.com/users?since=0&per_page=2"
    private static let firstPage = #"[{"login":"a","id":1},{"login":"b","id":2}]"#
    private static let nextLink = #"<https://api.github.com/users?since=2>; rel="next""#

    /// A fresh cache, and a stub whose first answer is the first page, 200 with a weak `ETag`.
    private func cacheAndFirstAnswer() -> (DiskResponseCache, StubTransport) {
        let cache = DiskResponseCache(
            directory: FileManager.default.temporaryDirectory.appendingPathComponent("gh-users-304-\(UUID())"),
            limitBytes: 1_000_000)
        let stub = StubTransport()
        stub.stub(Self.firstURL, headers: [("ETag", "W/\"v1\"")], body: Self.firstPage)
        return (cache, stub)
    }

    private func firstPage(_ repository: GitHubRepository) async throws -> Page<User> {
        try await repository.firstPage(GitHubEndpoints.users(since: 0), perPage: 2)
    }

    /// Page 1's body and weak ETag are unchanged while a page 2 has appeared: only the 304's `Link` says so. It
    /// wins over the stored one (which named no next page), and the entry keeps it for the next run, offline too.
    @Test func a304sLinkWinsAndIsStored() async throws {
        let (cache, stub) = cacheAndFirstAnswer()
        defer { try? FileManager.default.removeItem(at: cache.directory) }
        stub.stub(Self.firstURL, status: 304, headers: [("ETag", "W/\"v1\""), ("Link", Self.nextLink)], body: "")
        #expect(try await firstPage(repository(stub, cache: cache)).next == nil)
        let revalidated = try await firstPage(repository(stub, cache: cache))
        #expect(revalidated.next == PageCursor(url: "https://api.github.com/users?since=2"))
        #expect(revalidated.items.map(\.login) == ["a", "b"])
        let key = DiskResponseCache.key(url: Self.firstURL, token: nil)
        #expect(cache.read(key: key)?.headers["Link"] == Self.nextLink)
        let offline = try await firstPage(repository(stub, cache: cache, mode: .offline))
        #expect(offline.next == PageCursor(url: "https://api.github.com/users?since=2"))
        #expect(stub.unusedStubs.isEmpty)
    }

    /// A 304 whose ETag is the stored one in another form (weak comparison: `W/` aside) confirms the stored body,
    /// and its form is stored and sent next.
    @Test func a304sETagInAnotherFormIsStoredAndSentNext() async throws {
        let (cache, stub) = cacheAndFirstAnswer()
        defer { try? FileManager.default.removeItem(at: cache.directory) }
        stub.stub(Self.firstURL, status: 304, headers: [("ETag", #""v1""#)], body: "")
        stub.stub(Self.firstURL, status: 304, body: "")
        for _ in 0..<3 {
            #expect(try await firstPage(repository(stub, cache: cache)).items.map(\.login) == ["a", "b"])
        }
        try #require(stub.received.count == 3)
        #expect(stub.received[1].headers["If-None-Match"] == "W/\"v1\"")
        #expect(stub.received[2].headers["If-None-Match"] == #""v1""#)
        #expect(stub.unusedStubs.isEmpty)
    }

    /// A 304 with another weak ETag than the one sent (a server that answered a date, say, where the answer had
    /// changed) confirms another representation (RFC 9111 §4.3.4): asked again without validators, once, and its
    /// 200 stored. Before: the stale body was answered, and the new ETag stored beside it, so every later 304
    /// kept it for good (helper-223).
    @Test func a304ForAnotherWeakETagIsAskedAgainWithoutValidators() async throws {
        let (cache, stub) = cacheAndFirstAnswer()
        defer { try? FileManager.default.removeItem(at: cache.directory) }
        stub.stub(Self.firstURL, status: 304, headers: [("ETag", "W/\"v2\"")], body: "")
        stub.stub(Self.firstURL, headers: [("ETag", "W/\"v2\"")], body: #"[{"login":"c","id":3}]"#)
        _ = try await firstPage(repository(stub, cache: cache))
        #expect(try await firstPage(repository(stub, cache: cache)).items.map(\.login) == ["c"])
        try #require(stub.received.count == 3)
        #expect(stub.received[1].headers["If-None-Match"] == "W/\"v1\"")
        #expect(stub.received[2].headers["If-None-Match"] == nil)
        #expect(
            cache.read(key: DiskResponseCache.key(url: Self.firstURL, token: nil))?.body
                == Data(#"[{"login":"c","id":3}]"#.utf8))
        #expect(stub.unusedStubs.isEmpty)
    }

    /// With an ETag stored, `If-None-Match` alone: GitHub has answered `If-Modified-Since` with a 304 for an answer
    /// that had changed (hub4j/github-api#669). A date alone is still sent where there is no ETag
    /// (`ResponseCacheTests.sendsIfModifiedSinceWhenThereIsALastModified`).
    @Test func anETagIsSentWithoutTheDate() async throws {
        let cache = DiskResponseCache(
            directory: FileManager.default.temporaryDirectory.appendingPathComponent("gh-users-304-\(UUID())"),
            limitBytes: 1_000_000)
        defer { try? FileManager.default.removeItem(at: cache.directory) }
        let stub = StubTransport()
        stub.stub(
            Self.firstURL, headers: [("ETag", "W/\"v1\""), ("Last-Modified", "Mon, 14 Jan 2008 04:33:35 GMT")],
            body: Self.firstPage)
        stub.stub(Self.firstURL, status: 304, headers: [("ETag", "W/\"v1\"")], body: "")
        _ = try await firstPage(repository(stub, cache: cache))
        #expect(try await firstPage(repository(stub, cache: cache)).items.map(\.login) == ["a", "b"])
        try #require(stub.received.count == 2)
        #expect(stub.received[1].headers["If-None-Match"] == "W/\"v1\"")
        #expect(stub.received[1].headers["If-Modified-Since"] == nil)
    }

    /// The network-down warning dates the copy by its last 304, not by its download; the 304 that changes no
    /// header does not write the entry again (same file, same inode), it only dates it.
    @Test func theFallbackDatesTheCopyByItsLast304WhichWritesNothing() async throws {
        let (cache, stub) = cacheAndFirstAnswer()
        defer { try? FileManager.default.removeItem(at: cache.directory) }
        stub.stub(Self.firstURL, status: 304, headers: [("ETag", "W/\"v1\"")], body: "")
        stub.fail(Self.firstURL, with: .cannotConnect("refused"))
        let downloaded = Date(timeIntervalSince1970: 1_600_000_000)  // 2020
        let confirmed = Date(timeIntervalSince1970: 1_700_000_000)  // 2023
        _ = try await firstPage(repository(stub, cache: cache, now: downloaded))
        let file = cache.storeDirectory.appendingPathComponent(
            DiskResponseCache.key(url: Self.firstURL, token: nil) + ".entry"
        ).path
        var before = stat()
        #expect(stat(file, &before) == 0)
        _ = try await firstPage(repository(stub, cache: cache, now: confirmed))
        var after = stat()
        #expect(stat(file, &after) == 0)
        #expect(after.st_ino == before.st_ino)
        let handler = InMemoryLogHandler()
        let logger = Logger(label: "t", level: .warning, handler: handler)
        _ = try await firstPage(
            repository(stub, cache: cache, logger: logger, now: Date(timeIntervalSince1970: 1_800_000_000)))
        let warning = try #require(handler.entries.first).message
        #expect(warning.contains("that GitHub last confirmed"))
        #expect(warning.contains("2023"), "\(warning)")
        #expect(!warning.contains("2020"), "\(warning)")
    }

    /// A 200 whose body is cut off or broken, with a validator, fails the run and is not stored: the good copy
    /// stays, so `--offline` (and a network failure) still answer, and its validator is still the one sent. So
    /// does one that is JSON but not what the endpoint documents (an object for a list, a string id).
    @Test(arguments: [
        #"[{"login":"c","id":3},{"login""#, #"[{"login":"c","id":3}]]"#, "<html>", #"{"message":"hello"}"#,
        #"[{"id":"x"}]"#,
    ])
    func aMalformed200NeverReplacesTheCopy(body: String) async throws {
        let (cache, stub) = cacheAndFirstAnswer()
        defer { try? FileManager.default.removeItem(at: cache.directory) }
        stub.stub(Self.firstURL, headers: [("ETag", "W/\"v2\"")], body: body)
        stub.stub(Self.firstURL, status: 304, body: "")
        _ = try await firstPage(repository(stub, cache: cache))
        await #expect(throws: DomainError.self) { try await firstPage(repository(stub, cache: cache)) }
        let entry = try #require(cache.read(key: DiskResponseCache.key(url: Self.firstURL, token: nil)))
        #expect(entry.body == Data(Self.firstPage.utf8))
        #expect(entry.etag == "W/\"v1\"")
        let offline = try await firstPage(repository(stub, cache: cache, mode: .offline))
        #expect(offline.items.map(\.login) == ["a", "b"])
        _ = try await firstPage(repository(stub, cache: cache))
        #expect(stub.received[2].headers["If-None-Match"] == "W/\"v1\"")
    }

    /// A file dated after now (`touch -d 2031…`, a clock set back) was taken for GitHub's confirmation, and the
    /// network-down warning said "last confirmed 1 Jun 2031". The 200's own date stands.
    @Test func aConfirmationDatedAfterNowIsNotTaken() {
        var entry = CachedResponse(
            url: Self.firstURL, status: 200, headers: HTTPHeaders(), body: Data(),
            storedAt: Date(timeIntervalSince1970: 1_700_000_000))
        entry.revalidatedAt = Date().addingTimeInterval(86_400 * 365)
        #expect(entry.confirmedAt == Date(timeIntervalSince1970: 1_700_000_000))
        entry.revalidatedAt = Date(timeIntervalSince1970: 1_750_000_000)
        #expect(entry.confirmedAt == Date(timeIntervalSince1970: 1_750_000_000))
    }

    /// An answer the cache gave without the network confirming it (the network down, or `--offline`) is noted
    /// for the run, with its date, so `--changes` can refuse to record it; a 200 or a 304 is not.
    @Test func aCopyTakenWithoutTheNetworkIsNotedForTheRun() async throws {
        let (cache, stub) = cacheAndFirstAnswer()
        defer { try? FileManager.default.removeItem(at: cache.directory) }
        stub.stub(Self.firstURL, status: 304, body: "")
        stub.fail(Self.firstURL, with: .cannotConnect("refused"))
        let online = repository(stub, cache: cache)
        for _ in 0..<2 { _ = try await firstPage(online) }
        #expect(online.unconfirmedCopy == nil)
        let down = repository(stub, cache: cache)
        _ = try await firstPage(down)
        #expect(
            down.unconfirmedCopy
                == UnconfirmedCopy(
                    endpoint: "GET /users?since=0&per_page=2", confirmedAt: Date(timeIntervalSince1970: 1_700_000_000),
                    offline: false))
        let offline = repository(stub, cache: cache, mode: .offline)
        _ = try await firstPage(offline)
        #expect(offline.unconfirmedCopy?.offline == true)
    }

    /// Without `copiesAnswer` (a `--changes` run), answers are kept and revalidated as ever, but a network failure
    /// is the run's failure: the copy is never an answer, so nothing is noted and no `--offline` is advised.
    @Test func aConfirmedRunFailsWhereTheNetworkIsDownThoughACopyIsCached() async throws {
        let (cache, stub) = cacheAndFirstAnswer()
        defer { try? FileManager.default.removeItem(at: cache.directory) }
        stub.stub(Self.firstURL, status: 304, body: "")
        stub.fail(Self.firstURL, with: .cannotConnect("refused"))
        let confirmed = repository(stub, cache: cache, copiesAnswer: false)
        for _ in 0..<2 { #expect(try await firstPage(confirmed).items.map(\.login) == ["a", "b"]) }
        #expect(stub.received[1].headers["If-None-Match"] == "W/\"v1\"")
        #expect(confirmed.unconfirmedCopy == nil)
        let down = repository(stub, cache: cache, copiesAnswer: false)
        let failure = await #expect(throws: DomainError.self) { try await firstPage(down) }
        guard case .network(_, let advice, _) = failure else {
            Issue.record("not a network error: \(String(describing: failure))")
            return
        }
        #expect(!advice.contains(.cachedCopy(endpoint: "GET /users?since=0&per_page=2")))
        #expect(down.unconfirmedCopy == nil)
    }

    /// A 304 whose strong ETag is not the one sent confirms another representation (RFC 9111 §4.3.4): the stored
    /// body is not answered; the request is asked again without validators, once, and its 200 stored.
    @Test func a304ForAnotherStrongETagIsAskedAgainWithoutValidators() async throws {
        let (cache, stub) = cacheAndFirstAnswer()
        defer { try? FileManager.default.removeItem(at: cache.directory) }
        stub.stub(Self.firstURL, status: 304, headers: [("ETag", #""other""#)], body: "")
        stub.stub(Self.firstURL, headers: [("ETag", #""other""#)], body: #"[{"login":"c","id":3}]"#)
        _ = try await firstPage(repository(stub, cache: cache))
        let again = try await firstPage(repository(stub, cache: cache))
        #expect(again.items.map(\.login) == ["c"])
        #expect(stub.received[1].headers["If-None-Match"] == "W/\"v1\"")
        #expect(stub.received[2].headers["If-None-Match"] == nil)
        #expect(cache.read(key: DiskResponseCache.key(url: Self.firstURL, token: nil))?.etag == #""other""#)
        #expect(stub.unusedStubs.isEmpty)
    }
}
