import Foundation
import Networking
import TestSupport
import Testing

@testable import Data
@testable import Domain

/// The rate-limit policy lives in the endpoint row: a run that spends a per-minute limit by design (a split
/// search) reads through `waitingOutPerMinuteLimits()`, which sits out a spent limit of an endpoint whose row
/// says it refills within a minute (search), within `--max-wait`; every other run, and every other endpoint,
/// gets the spent limit back (exit 5) unless `--wait-on-rate-limit` says to wait.
struct PerMinuteLimitTests {
    private let now = Date(timeIntervalSince1970: 1_700_000_000)
    private let searchURL = "https://api.github.com/search/users?q=mona&per_page=30"
    private let usersURL = "https://api.github.com/users?since=0&per_page=30"

    /// The sleeps asked for, recorded instead of taken.
    private final class Sleeps: @unchecked Sendable {
        private let lock = NSLock()
        private var recorded: [(Duration, RetryReason)] = []
        var all: [(Duration, RetryReason)] { lock.withLock { recorded } }
        func add(_ duration: Duration, _ reason: RetryReason) { lock.withLock { recorded.append((duration, reason)) } }
    }

    private func repository(_ stub: StubTransport, _ sleeps: Sleeps, _ policy: RetryPolicy = RetryPolicy())
        -> GitHubRepository
    {
        let now = self.now
        let client = HTTPClient(
            configuration: HTTPClientConfiguration(baseURL: URL(string: "https://api.github.com")!, userAgent: "t"),
            transport: stub.transport, logger: .disabled, retryPolicy: policy,
            clock: RetryClock(now: { now }, random: { 0 }, sleep: { sleeps.add($0, $1) }))
        return GitHubRepository(client: client, now: { now })
    }

    /// A 403 with the limit spent, resetting `seconds` from now.
    private func spent(_ stub: StubTransport, _ url: String, resetIn seconds: Int, bucket: String) {
        stub.stub(
            url, status: 403,
            headers: [
                ("x-ratelimit-remaining", "0"), ("x-ratelimit-reset", "\(Int(now.timeIntervalSince1970) + seconds)"),
                ("x-ratelimit-resource", bucket),
            ],
            body: #"{"message":"API rate limit exceeded"}"#)
    }

    /// The bucket of the rate limit `fetch` ended with; nil (and a recorded issue) when it ended otherwise.
    private func spentBucket(_ fetch: () async throws -> Void) async -> String? {
        do {
            try await fetch()
        } catch DomainError.rateLimited(_, _, let resource, _) {
            return resource
        } catch {
            Issue.record("\(error)")
            return nil
        }
        Issue.record("the spent limit was not reported")
        return nil
    }

    private func search() throws -> ListResource<User> {
        GitHubEndpoints.searchUsers(try UserSearchQuery(text: "mona"))
    }
    private let oneResult = #"{"total_count":1,"incomplete_results":false,"items":[{"login":"mona","id":1}]}"#

    @Test func aSplitRunSitsOutTheSpentSearchLimitAndAsksAgain() async throws {
        let stub = StubTransport()
        spent(stub, searchURL, resetIn: 20, bucket: "search")
        stub.stub(searchURL, body: oneResult)
        let sleeps = Sleeps()
        let page = try await repository(stub, sleeps).waitingOutPerMinuteLimits().firstPage(try search(), perPage: 30)
        #expect(page.items.map(\.id) == [1])
        #expect(sleeps.all.map(\.0) == [.seconds(21)])
        #expect(
            sleeps.all.map(\.1) == [.primaryRateLimit(resetAt: now.addingTimeInterval(20), bucket: "search")])
        #expect(stub.unusedStubs.isEmpty)
    }

    @Test func aPlainRunGetsTheSpentSearchLimitBack() async throws {
        let stub = StubTransport()
        spent(stub, searchURL, resetIn: 20, bucket: "search")
        let sleeps = Sleeps()
        #expect(
            await spentBucket { _ = try await repository(stub, sleeps).firstPage(try search(), perPage: 30) }
                == "search")
        #expect(sleeps.all.isEmpty)
        #expect(stub.received.count == 1)
    }

    @Test func aSplitRunDoesNotWaitOutTheHourlyCoreLimit() async throws {
        let stub = StubTransport()
        spent(stub, usersURL, resetIn: 20, bucket: "core")
        let sleeps = Sleeps()
        let waiting = repository(stub, sleeps).waitingOutPerMinuteLimits()
        #expect(
            await spentBucket { _ = try await waiting.firstPage(GitHubEndpoints.users(since: 0), perPage: 30) }
                == "core")
        #expect(sleeps.all.isEmpty)
    }

    @Test func aSplitRunWaitsNoLongerThanMaxWaitAllows() async throws {
        let stub = StubTransport()
        spent(stub, searchURL, resetIn: 40, bucket: "search")
        let sleeps = Sleeps()
        let bounded = repository(stub, sleeps, RetryPolicy(maximumWait: .seconds(30))).waitingOutPerMinuteLimits()
        #expect(await spentBucket { _ = try await bounded.firstPage(try search(), perPage: 30) } == "search")
        #expect(sleeps.all.isEmpty)
        #expect(stub.received.count == 1)
    }

    @Test func withWaitOnRateLimitTheClientWaitsOnceAndTheSplitRunAddsNoWait() async throws {
        let stub = StubTransport()
        spent(stub, searchURL, resetIn: 20, bucket: "search")
        stub.stub(searchURL, body: oneResult)
        let sleeps = Sleeps()
        let waiting = repository(stub, sleeps, RetryPolicy(waitOnPrimaryLimit: true)).waitingOutPerMinuteLimits()
        #expect(try await waiting.firstPage(try search(), perPage: 30).items.count == 1)
        #expect(sleeps.all.count == 1)
    }

    @Test func aLimitThatNeverRefillsIsWaitedForAtMostTenTimes() async throws {
        let stub = StubTransport()
        for _ in 0...HTTPClient.maximumPrimaryLimitWaits { spent(stub, searchURL, resetIn: 1, bucket: "search") }
        let sleeps = Sleeps()
        let waiting = repository(stub, sleeps).waitingOutPerMinuteLimits()
        #expect(await spentBucket { _ = try await waiting.firstPage(try search(), perPage: 30) } == "search")
        #expect(sleeps.all.count == HTTPClient.maximumPrimaryLimitWaits)
        #expect(stub.unusedStubs.isEmpty)
    }
}
