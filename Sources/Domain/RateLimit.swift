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
    /// GitHub's clock when it answered (its `Date`), where it sent one. The buckets keep GitHub's resets.
    package var answeredAt: Date?

    package init(buckets: [RateLimitBucket], raw: RawJSON) {
        self.buckets = buckets
        self.raw = raw
    }
}

extension RateLimitOverview {
    /// `bucket`'s reset as a time of this clock (`now`), as the waits take it (Networking's `RateLimitInfo`):
    /// moved by how far this clock is from GitHub's `answeredAt`, where that is more than the 2 s an answer takes
    /// here and the reset is within GitHub's hour of its own clock (a `Date` of 1970 is no clock to go by).
    package func resetOnThisClock(_ bucket: RateLimitBucket, now: Date) -> Date {
        guard let answeredAt, abs(now.timeIntervalSince(answeredAt)) > 2,
            (-2...3_602).contains(bucket.resetAt.timeIntervalSince(answeredAt))
        else { return bucket.resetAt }
        return bucket.resetAt.addingTimeInterval(now.timeIntervalSince(answeredAt))
    }
}
