import Foundation

/// One of GitHub's rate-limit buckets (`core`, `search`, `graphql`, …).
package struct RateLimitBucket: Sendable, Equatable {
    package let resource: String
    package let limit: Int
    package let remaining: Int
    /// Nil when GitHub did not say (an older server's bucket has no `used`): never worked out here.
    package let used: Int?
    package let resetAt: Date

    package init(resource: String, limit: Int, remaining: Int, used: Int?, resetAt: Date) {
        self.resource = resource
        self.limit = limit
        self.remaining = remaining
        self.used = used
        self.resetAt = resetAt
    }
}

/// `GET /rate_limit`: every bucket, core and search first, and the exact body for JSON output.
package struct RateLimitOverview: Sendable, Equatable {
    package let buckets: [RateLimitBucket]
    package let raw: RawJSON
    /// GitHub's clock when it answered (its `Date`), where it sent one: the table shows a reset on this clock by it
    /// (`RateLimitInfo.onThisClock`). The buckets keep GitHub's resets.
    package var answeredAt: Date?

    package init(buckets: [RateLimitBucket], raw: RawJSON) {
        self.buckets = buckets
        self.raw = raw
    }
}
