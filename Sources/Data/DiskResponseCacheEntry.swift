import AtomicLogger
import Foundation
import Networking

/// A response kept on disk for revalidation: enough to answer a 304 (or an offline run) exactly as the 200 did.
package struct CachedResponse: Sendable, Equatable {
    package let url: String
    package let status: Int
    package let headers: HTTPHeaders
    package let body: Foundation.Data
    package let storedAt: Date
    /// When the copy was last confirmed by a 304, as its file's modification time says (a 304 sets it rather than
    /// write the entry again); nil when not read from a file.
    package var revalidatedAt: Date?

    /// When GitHub last said this copy is current: its 200, or a later 304. A file dated after now (a clock set
    /// back, a copy made with `touch`) says nothing of GitHub's, and the 200's date stands.
    package var confirmedAt: Date {
        guard let revalidatedAt, revalidatedAt <= Date() else { return storedAt }
        return max(storedAt, revalidatedAt)
    }

    package var etag: String? { headers["ETag"] }
    package var lastModified: String? { headers["Last-Modified"] }

    /// Whether anything the entry would keep on disk holds one of `redactor`'s secrets.
    func holdsSecret(of redactor: Redactor) -> Bool {
        guard !redactor.isEmpty else { return false }
        let texts = [url] + headers.fields.map(\.value)
        return texts.contains { redactor.holdsSecret(Array($0.utf8)) } || redactor.holdsSecret(body)
    }
}

/// How an entry is kept on disk: the headers worth keeping, the file layout and its version. A file of another
/// version, or one that does not parse, is a miss.
extension DiskResponseCache {
    /// Bumped whenever the file layout changes; entries of another version are misses.
    static let formatVersion = 1
    static let magic = "gh-users-cache \(formatVersion)\n"
    static let entrySuffix = ".entry"
    /// The most bytes of metadata (URL, status, date, kept headers, as JSON) an entry holds; an answer with more
    /// is not stored, so that a read can refuse a larger file unread.
    static let metadataLimit = 64 * 1024
    /// Response headers worth keeping: what revalidation and paging need, and the token's scopes, which GitHub's
    /// own 304s leave out (recorded in 2013: a 304 to a token carries no `X-OAuth-Scopes`), so `me` can still
    /// name them after one. Rate-limit headers go stale, and nothing from the request (such as Authorization)
    /// is ever stored; an entry is the token's own (its key holds the token's hash).
    static let keptHeaders = ["etag", "last-modified", "link", "content-type", "x-oauth-scopes"]
    /// The kept headers a 304 updates when it carries them (RFC 9111 §4.3.4): all but the body's `Content-Type`.
    static let revalidatedHeaders: Set<String> = ["etag", "last-modified", "link", "x-oauth-scopes"]

    /// A key is a file name inside the store and nothing else.
    static func entryName(_ key: String) -> String? {
        guard !key.isEmpty, !key.contains("/"), !key.hasPrefix(".") else { return nil }
        return key + entrySuffix
    }

    /// The most bytes an entry holds with a body of at most `maximumBodyBytes`: its first line, metadata up to
    /// `metadataLimit` and its newline, and the body.
    static func entryLimit(maximumBodyBytes: Int) -> Int {
        magic.utf8.count + metadataLimit + 1 + maximumBodyBytes
    }

    /// `gh-users-cache 1\n`, one line of JSON metadata, then the body, whose length and checksum the metadata
    /// states so a cut-off or damaged file is caught (an entry written before the checksum has none, and is
    /// checked by its length alone). nil when the metadata is over `metadataLimit`.
    static func encode(_ entry: CachedResponse) -> [UInt8]? {
        let metadata = EntryMetadata(
            url: entry.url,
            status: entry.status,
            storedAt: entry.storedAt.timeIntervalSince1970,
            headers: entry.headers.fields.map { [$0.name, $0.value] },
            bodyLength: entry.body.count,
            bodyChecksum: checksum(entry.body)
        )
        guard let json = try? JSONEncoder().encode(metadata), json.count <= metadataLimit else { return nil }
        return Array(magic.utf8) + Array(json) + [UInt8(ascii: "\n")] + Array(entry.body)
    }

    static func decode(_ bytes: [UInt8]) -> CachedResponse? {
        let magicBytes = Array(magic.utf8)
        guard bytes.count > magicBytes.count, Array(bytes[0..<magicBytes.count]) == magicBytes,
            let newline = bytes[magicBytes.count...].firstIndex(of: UInt8(ascii: "\n")),
            let metadata = try? JSONDecoder().decode(
                EntryMetadata.self,
                from: Foundation.Data(bytes[magicBytes.count..<newline])
            ),
            bytes.count - newline - 1 == metadata.bodyLength,
            metadata.headers.allSatisfy({ $0.count == 2 }),
            metadata.bodyChecksum.map({ $0 == checksum(bytes[(newline + 1)...]) }) ?? true
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
        var bodyChecksum: String?
    }

    /// FNV-1a (64 bits) of the body, in hex: it catches a damaged byte, a byte at a time (about 1 ms a MB).
    static func checksum(_ body: some Collection<UInt8>) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in body { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        return String(hash, radix: 16)
    }
}
