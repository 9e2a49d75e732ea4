/// What the response cache holds.
package struct CacheSummary: Sendable, Equatable {
    package let path: String
    package let entries: Int
    package let bytes: Int64
    package let limitBytes: Int64

    package init(path: String, entries: Int, bytes: Int64, limitBytes: Int64) {
        self.path = path
        self.entries = entries
        self.bytes = bytes
        self.limitBytes = limitBytes
    }
}

/// Looking after the response cache as a whole (`gh-users cache info`, `gh-users cache clear`).
package protocol CacheRepository: Sendable {
    func summary() throws(DomainError) -> CacheSummary
    /// Empties the cache and returns what it held before.
    func clear() throws(DomainError) -> CacheSummary
}
