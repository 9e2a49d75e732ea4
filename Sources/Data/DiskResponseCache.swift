import Domain
import Foundation
import Networking

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A response kept on disk for revalidation: enough to answer a 304 (or an offline run) exactly as the 200 did.
package struct CachedResponse: Sendable, Equatable {
    package let url: String
    package let status: Int
    package let headers: HTTPHeaders
    package let body: Foundation.Data
    package let storedAt: Date

    package var etag: String? { headers["ETag"] }
    package var lastModified: String? { headers["Last-Modified"] }
}

/// The on-disk response cache. One file per entry, named by a SHA-256 of method, URL and the token's hash,
/// so no URL or token appears in a file name and one token's entries are never served under another.
/// The directory is 0700 and files 0600. Writes go to a temporary file that is renamed into place, so readers
/// (in this process or another) see a whole entry or none. An entry that does not parse is a miss.
/// The total size is bounded; the least recently used entries go first.
package final class DiskResponseCache: Sendable {
    /// Bumped whenever the file layout changes; entries of another version are misses.
    static let formatVersion = 1
    static let magic = "gh-users-cache \(formatVersion)\n"
    static let entrySuffix = ".entry"
    /// Response headers worth keeping: what revalidation and paging need. Rate-limit headers go stale, and
    /// nothing from the request (such as Authorization) is ever stored.
    static let keptHeaders = ["etag", "last-modified", "link", "content-type"]

    package let directory: URL
    package let limitBytes: Int64
    private let sizeEstimate = LockedCounter()

    package init(directory: URL, limitBytes: Int64) {
        self.directory = directory
        self.limitBytes = limitBytes
    }

    /// The key of a GET of `url` made with `token` (nil when anonymous).
    package static func key(url: String, token: String?) -> String {
        key(url: url, tokenIdentity: tokenIdentity(token))
    }

    /// What stands for the token in keys: its hash, so the token itself is never written anywhere.
    static func tokenIdentity(_ token: String?) -> String {
        token.map { "token:" + SHA256.hex(Array($0.utf8)) } ?? "anonymous"
    }

    static func key(url: String, tokenIdentity: String) -> String {
        SHA256.hex(Array("GET \(url)\n\(tokenIdentity)".utf8))
    }

    private func fileURL(_ key: String) -> URL {
        directory.appendingPathComponent(key + DiskResponseCache.entrySuffix)
    }

    package func read(key: String) -> CachedResponse? {
        guard let data = FileManager.default.contents(atPath: fileURL(key).path) else { return nil }
        return DiskResponseCache.decode(data)
    }

    /// Marks an entry as just used, so eviction keeps it.
    package func touch(key: String) {
        _ = utimes(fileURL(key).path, nil)
    }

    /// Stores a 200 answer. Failing to write is not an error for the command: the cache is an optimisation.
    package func write(key: String, response: HTTPResponse, now: Date) {
        guard prepareDirectory() else { return }
        var headers = HTTPHeaders()
        for field in response.headers where DiskResponseCache.keptHeaders.contains(field.name.lowercased()) {
            headers.set(field.name, field.value)
        }
        let entry = CachedResponse(
            url: response.url.absoluteString,
            status: response.status,
            headers: headers,
            body: response.body,
            storedAt: now
        )
        let bytes = DiskResponseCache.encode(entry)
        let temporary = directory.appendingPathComponent(".tmp-\(key)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        guard DiskResponseCache.writeNew(bytes, to: temporary.path) else { return }
        // Sized before the rename, so the first scan does not count this entry twice.
        let total = sizeEstimate.add(Int64(bytes.count), initial: { self.scan().bytes })
        guard rename(temporary.path, fileURL(key).path) == 0 else {
            unlink(temporary.path)
            return
        }
        if total > limitBytes {
            evict()
        }
    }

    package func summary() -> CacheSummary {
        let scan = scan()
        return CacheSummary(path: directory.path, entries: scan.files.count, bytes: scan.bytes, limitBytes: limitBytes)
    }

    /// Removes every entry and stray temporary file; returns what there was.
    package func clear() throws(DomainError) -> CacheSummary {
        let before = summary()
        for name in (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        where name.hasSuffix(DiskResponseCache.entrySuffix) || name.hasPrefix(".tmp-") {
            let path = directory.appendingPathComponent(name).path
            if unlink(path) != 0 && errno != ENOENT {
                throw DomainError.cacheUnavailable("cannot remove \(path): \(String(cString: strerror(errno)))")
            }
        }
        sizeEstimate.reset()
        return before
    }

    /// Deletes least recently used entries until the cache is at 90% of its limit, so eviction is not
    /// paid on every write.
    private func evict() {
        let scan = scan()
        var total = scan.bytes
        let target = limitBytes * 9 / 10
        for file in scan.files.sorted(by: { $0.modified < $1.modified }) where total > target {
            if unlink(file.path) == 0 { total -= file.size }
        }
        sizeEstimate.set(total)
    }

    private struct Scan {
        var files: [(path: String, size: Int64, modified: Date)] = []
        var bytes: Int64 = 0
    }

    private func scan() -> Scan {
        var result = Scan()
        let keys: [URLResourceKey] = [.fileSizeKey, .contentModificationDateKey]
        let urls =
            (try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: keys)) ?? []
        for url in urls where url.lastPathComponent.hasSuffix(DiskResponseCache.entrySuffix) {
            guard let values = try? url.resourceValues(forKeys: Set(keys)), let size = values.fileSize else { continue }
            result.files.append((url.path, Int64(size), values.contentModificationDate ?? .distantPast))
            result.bytes += Int64(size)
        }
        return result
    }

    /// Creates the directory 0700 if needed (parents too) and makes sure an existing one is 0700.
    private func prepareDirectory() -> Bool {
        let path = directory.path
        var info = stat()
        if stat(path, &info) != 0 {
            do {
                try FileManager.default.createDirectory(
                    at: directory,
                    withIntermediateDirectories: true,
                    attributes: [.posixPermissions: 0o700]
                )
            } catch {
                return false
            }
        } else if info.st_mode & 0o777 != 0o700 {
            _ = chmod(path, 0o700)
        }
        return true
    }

    /// Writes a new file readable by its owner only; fails rather than reuse an existing path.
    private static func writeNew(_ bytes: [UInt8], to path: String) -> Bool {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        do {
            try FileHandle(fileDescriptor: descriptor, closeOnDealloc: false).write(contentsOf: bytes)
            return true
        } catch {
            unlink(path)
            return false
        }
    }

    /// `gh-users-cache 1\n`, one line of JSON metadata, then the body, whose length the metadata states so a
    /// cut-off file is caught.
    static func encode(_ entry: CachedResponse) -> [UInt8] {
        let metadata = EntryMetadata(
            url: entry.url,
            status: entry.status,
            storedAt: entry.storedAt.timeIntervalSince1970,
            headers: entry.headers.fields.map { [$0.name, $0.value] },
            bodyLength: entry.body.count
        )
        let json = (try? JSONEncoder().encode(metadata)) ?? Foundation.Data()
        return Array(magic.utf8) + Array(json) + [UInt8(ascii: "\n")] + Array(entry.body)
    }

    static func decode(_ data: Foundation.Data) -> CachedResponse? {
        let bytes = [UInt8](data)
        let magicBytes = Array(magic.utf8)
        guard bytes.count > magicBytes.count, Array(bytes[0..<magicBytes.count]) == magicBytes,
            let newline = bytes[magicBytes.count...].firstIndex(of: UInt8(ascii: "\n")),
            let metadata = try? JSONDecoder().decode(
                EntryMetadata.self,
                from: Foundation.Data(bytes[magicBytes.count..<newline])
            ),
            bytes.count - newline - 1 == metadata.bodyLength,
            metadata.headers.allSatisfy({ $0.count == 2 })
        else { return nil }
        return CachedResponse(
            url: metadata.url,
            status: metadata.status,
            headers: HTTPHeaders(metadata.headers.map { (name: $0[0], value: $0[1]) }),
            body: Foundation.Data(bytes[(newline + 1)...]),
            storedAt: Date(timeIntervalSince1970: metadata.storedAt)
        )
    }

    private struct EntryMetadata: Codable {
        let url: String
        let status: Int
        let storedAt: Double
        let headers: [[String]]
        let bodyLength: Int
    }
}

/// The cache's running size, learned by one scan on first use and kept up to date after.
private final class LockedCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Int64?

    func add(_ amount: Int64, initial: () -> Int64) -> Int64 {
        lock.withLock {
            let total = (value ?? initial()) + amount
            value = total
            return total
        }
    }

    func set(_ total: Int64) {
        lock.withLock { value = total }
    }

    func reset() {
        lock.withLock { value = nil }
    }
}
