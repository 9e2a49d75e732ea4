/// What the response cache holds.
package struct CacheSummary: Sendable, Equatable {
    package let path: String
    package let entries: Int
    package let bytes: Int64
    package let limitBytes: Int64
    /// Temporary files left by a process killed between writing an entry and renaming it into place, old
    /// enough that no running process can still be writing them. The next write removes them.
    package let orphanedTemporaryFiles: Int
    /// Why no answer could be stored at `path`, when there is no store yet and none can be made there (a
    /// read-only or immutable folder): the cache is empty, and every run goes without it.
    package let cannotStore: String?
    /// Temporary files younger than that, which `cache clear` leaves: a write under way renames its file into
    /// place in a moment. One a run killed just now is removed once it is old enough.
    package var writesUnderWay = 0

    package init(
        path: String, entries: Int, bytes: Int64, limitBytes: Int64, orphanedTemporaryFiles: Int = 0,
        cannotStore: String? = nil
    ) {
        self.path = path
        self.entries = entries
        self.bytes = bytes
        self.limitBytes = limitBytes
        self.orphanedTemporaryFiles = orphanedTemporaryFiles
        self.cannotStore = cannotStore
    }
}

/// Looking after the response cache as a whole (`gh-users cache info`, `gh-users cache clear`).
package protocol CacheRepository: Sendable {
    func summary() throws(DomainError) -> CacheSummary
    /// Empties the cache and returns what it held before.
    func clear() throws(DomainError) -> CacheSummary
}
