import Foundation
import Networking
import TestSupport
import Testing

@testable import Data
@testable import Domain

struct RateLimitRepositoryTests {
    @Test func decodesEveryBucketCoreAndSearchFirstAndKeepsTheBody() async throws {
        let stub = StubTransport()
        stub.stub("https://api.github.com/rate_limit", body: try fixture("rate-limit.json"))
        let overview = try await GitHubRepository(client: client(stub)).fetch(GitHubEndpoints.rateLimit)
        #expect(overview.buckets.prefix(2).map(\.resource) == ["core", "search"])
        #expect(overview.buckets.count == 10)
        let core = try #require(overview.buckets.first)
        #expect(
            core
                == RateLimitBucket(
                    resource: "core", limit: 5000, remaining: 4999, used: 1,
                    resetAt: Date(timeIntervalSince1970: 1_691_591_363)))
        let raw = try #require(try JSONSerialization.jsonObject(with: Data(overview.raw.bytes)) as? [String: Any])
        #expect(raw["rate"] != nil)
    }
}
