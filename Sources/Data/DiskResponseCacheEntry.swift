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

/// How an entry is kept on disk: the headers worth keeping, the file layout and its version. An entry that is not
/// whole and of this version, as this cache writes it, is damaged: a miss, fetched again.
extension DiskResponseCache {
    /// The store's version (its folder, its file names, its marker), which `CACHEDIR.TAG` names: a store of another
    /// version is emptied and marked again. Entries have a version of their own (`entryVersion`).
    static let formatVersion = 1
    /// The entry file's version, bumped whenever its layout changes: an entry of another version is damaged, and
    /// fetched again, so neither an upgrade nor an older gh-users sharing the folder empties the store. Version 1's
    /// checksum covered the body alone (and an early entry had none); version 2's covers the metadata too.
    static let entryVersion = 2
    static let magic = "gh-users-cache \(entryVersion) "
    static let entrySuffix = ".entry"
    /// The most bytes of metadata (URL, status, date, kept headers, as JSON) an entry holds; an answer with more
    /// is not stored, so that a read can refuse a larger file unread.
    static let metadataLimit = 64 * 1024
    /// Response headers worth keeping: what revalidation and paging need, and the token's scopes, which GitHub's
    /// own 304s leave out (recorded in 2013: a 304 to a token carries no `X-OAuth-Scopes`), so `me` can still
    /// name them after one. Rate-limit headers go stale, and nothing from the request (such as Authorization)
    /// is ever stored; an entry is the token's own (its key holds the token's hash). `X-GitHub-SSO` says the body
    /// lacks organizations' results (`ConditionalFetcher.sayWithheld`), which its copy lacks as well.
    static let keptHeaders = ["etag", "last-modified", "link", "content-type", "x-oauth-scopes", "x-github-sso"]
    /// The kept headers a 304 updates when it carries them (RFC 9111 §4.3.4): all but the body's `Content-Type`.
    static let revalidatedHeaders: Set<String> = ["etag", "last-modified", "link", "x-oauth-scopes", "x-github-sso"]

    /// A key is a file name inside the store and nothing else.
    static func entryName(_ key: String) -> String? {
        guard !key.isEmpty, !key.contains("/"), !key.hasPrefix(".") else { return nil }
        return key + entrySuffix
    }

    /// The most bytes an entry holds with a body of at most `maximumBodyBytes`: its first line, metadata up to
    /// `metadataLimit` and its newline, and the body.
    static func entryLimit(maximumBodyBytes: Int) -> Int {
        magic.utf8.count + checksumDigits + 1 + metadataLimit + 1 + maximumBodyBytes
    }

    /// `gh-users-cache 2 ` and a checksum of the rest of the file, one line of JSON metadata (which states the
    /// body's length), then the body. The checksum covers metadata and body, so an entry cut short or with any
    /// byte changed (its status, a header, the body) is caught. nil when the metadata is over `metadataLimit`.
    static func encode(_ entry: CachedResponse) -> [UInt8]? {
        let metadata = EntryMetadata(
            url: entry.url,
            status: entry.status,
            storedAt: entry.storedAt.timeIntervalSince1970,
            headers: entry.headers.fields.map { [$0.name, $0.value] },
            bodyLength: entry.body.count
        )
        guard let json = try? JSONEncoder().encode(metadata), json.count <= metadataLimit else { return nil }
        var bytes = Array(magic.utf8) + Array(repeating: UInt8(ascii: "0"), count: checksumDigits) + [newline]
        let covered = bytes.count
        bytes.reserveCapacity(covered + json.count + 1 + entry.body.count)
        bytes.append(contentsOf: json)
        bytes.append(newline)
        bytes.append(contentsOf: entry.body)
        let sum = Array(checksum(bytes[covered...]).utf8)
        bytes.replaceSubrange((covered - 1 - sum.count)..<(covered - 1), with: sum)
        return bytes
    }

    /// The entry, or nil when the file is not a whole 200 of this version as `encode` writes it.
    static func decode(_ bytes: [UInt8]) -> CachedResponse? {
        let magicBytes = Array(magic.utf8)
        let covered = magicBytes.count + checksumDigits + 1
        guard bytes.count > covered, bytes[0..<magicBytes.count].elementsEqual(magicBytes),
            bytes[covered - 1] == newline,
            bytes[magicBytes.count..<(covered - 1)].elementsEqual(checksum(bytes[covered...]).utf8),
            let end = bytes[covered...].firstIndex(of: newline),
            let metadata = try? JSONDecoder().decode(
                EntryMetadata.self,
                from: Foundation.Data(bytes[covered..<end])
            ),
            metadata.status == 200,
            bytes.count - end - 1 == metadata.bodyLength,
            metadata.headers.allSatisfy({ $0.count == 2 })
        else { return nil }
        return CachedResponse(
            url: metadata.url,
            status: metadata.status,
            headers: HTTPHeaders(metadata.headers.map { (name: $0[0], value: $0[1]) }),
            body: Foundation.Data(bytes[(end + 1)...]),
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

    private static let newline = UInt8(ascii: "\n")
    private static let checksumDigits = 16

    /// FNV-1a (64 bits), in 16 hex digits: a byte at a time (about 1 ms a MB), each step a one-to-one function of
    /// the hash so far, so a changed byte always changes the result.
    static func checksum(_ bytes: some Collection<UInt8>) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: checksumDigits - digits.count) + digits
    }
}
