/// URLs (or GraphQL cursors) remembered by their SHA-256 rather than whole, for a paging loop that must know every
/// next-page URL or cursor it followed to catch a link back to one: GitHub's are under 200 bytes, but a hostile
/// server's may each be 64 KB, and an endless list of them kept whole grew 7 MB a second (issue 38); `access` kept
/// its cursors whole until a review's 500 KB ones grew it 26 MB a second. Each costs 32 bytes here, whatever its
/// length; two taken for one would need a SHA-256 collision.
package struct URLDigests: Sendable {
    private struct Digest: Hashable, Sendable {
        let words: (UInt64, UInt64, UInt64, UInt64)

        init(_ url: String) {
            let bytes = SHA256.hash(url.utf8)
            func word(_ index: Int) -> UInt64 {
                bytes[index * 8..<index * 8 + 8].reduce(0) { $0 << 8 | UInt64($1) }
            }
            words = (word(0), word(1), word(2), word(3))
        }

        static func == (left: Digest, right: Digest) -> Bool { left.words == right.words }

        func hash(into hasher: inout Hasher) {
            hasher.combine(words.0)
            hasher.combine(words.1)
            hasher.combine(words.2)
            hasher.combine(words.3)
        }
    }

    private var digests: Set<Digest> = []

    package init() {}

    /// Remembers `url`; false when it was remembered already.
    @discardableResult
    package mutating func insert(_ url: String) -> Bool {
        digests.insert(Digest(url)).inserted
    }

    package func contains(_ url: String) -> Bool {
        digests.contains(Digest(url))
    }

    /// The bytes the remembered URLs take, however long they were: 32 each.
    package var keptBytes: Int { digests.count * 32 }
}
