/// One request as the server received it, kept so tests can assert on what a client actually sent.
package struct RecordedRequest: Sendable {
    package let method: String
    /// The raw request-target, e.g. `/users?since=0&per_page=100`.
    package let target: String
    /// Percent-decoded path without the query, e.g. `/users/dependabot[bot]`.
    package let path: String
    /// Percent-decoded query items; when a name repeats, the last value wins.
    package let query: [String: String]
    /// Header fields in the order and spelling they arrived.
    package let headers: [(name: String, value: String)]
    package let body: [UInt8]
    /// When the server had the whole request, on the monotonic clock: tests subtract two of these to check how a
    /// client paced its requests (writes at least a second apart), which wall-clock time could not show reliably.
    package let receivedAt: ContinuousClock.Instant

    /// The first value of a header; names compare case-insensitively as HTTP requires.
    package func header(_ name: String) -> String? { headerValue(name, in: headers) }
}
