package struct RecordedRequest: Sendable {
    package let method: String
    package let target: String
    package let path: String
    /// When a name repeats, the last value wins.
    package let query: [String: String]
    package let headers: [(name: String, value: String)]
    package let body: [UInt8]
    /// Monotonic, so tests can check how a client paced its requests.
    package let receivedAt: ContinuousClock.Instant

    package func header(_ name: String) -> String? { headerValue(name, in: headers) }
}
