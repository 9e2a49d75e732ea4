/// Entity tags for response bodies.
enum StandInETag {
    /// Weak because the same representation may be sent with different framing. `Hasher` is seeded per process,
    /// which is the lifetime of the server's tags.
    ///
    /// `link`, a list page's `Link` header, is covered too: a write can change how many pages a list has while an
    /// earlier page's items stay the same, and a 304 must not leave a client with the old page count.
    static func weakTag(for body: [UInt8], link: String? = nil) -> String {
        var hasher = Hasher()
        body.withUnsafeBytes { hasher.combine(bytes: $0) }
        hasher.combine(link)
        let hex = String(UInt64(bitPattern: Int64(hasher.finalize())), radix: 16)
        return "W/\"" + String(repeating: "0", count: 16 - hex.count) + hex + "\""
    }

    /// Weak comparison per RFC 9110: `W/` prefixes are ignored, and `*` matches anything.
    static func matches(_ ifNoneMatch: String?, _ tag: String) -> Bool {
        guard let ifNoneMatch else {
            return false
        }
        let wanted = opaque(tag)
        for candidate in ifNoneMatch.split(separator: ",") {
            let trimmed = candidate.trimmingCharacters(in: .whitespaces)
            if trimmed == "*" || opaque(trimmed) == wanted {
                return true
            }
        }
        return false
    }

    private static func opaque(_ tag: String) -> String {
        tag.hasPrefix("W/") ? String(tag.dropFirst(2)) : tag
    }
}
