enum StandInETag {
    /// `link` is covered too: a write can change how many pages a list has while a page's items stay the same.
    static func weakTag(for body: [UInt8], link: String? = nil) -> String {
        var hash = digest(body)
        if let link { hash = digest(Array(link.utf8)) ^ (hash &* 0x9E37_79B9_7F4A_7C15) }
        let hex = String(hash, radix: 16)
        return "W/\"" + String(repeating: "0", count: 16 - hex.count) + hex + "\""
    }

    /// Weak comparison (RFC 9110).
    static func matches(_ ifNoneMatch: String?, _ tag: String) -> Bool {
        (ifNoneMatch ?? "").split(separator: ",").contains { candidate in
            let trimmed = candidate.trimmingCharacters(in: .whitespaces)
            return trimmed == "*" || trimmed.trimmingPrefix("W/") == tag.trimmingPrefix("W/")
        }
    }

    /// Eight bytes per step keeps hashing a 90 KB page cheap compared with a byte-wise FNV loop.
    static func digest(_ bytes: [UInt8]) -> UInt64 {
        var state: UInt64 = 0xCBF2_9CE4_8422_2325 ^ UInt64(bytes.count)
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset + 8 <= raw.count {
                let word = raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                state = (state ^ word) &* 0x9E37_79B9_7F4A_7C15
                state ^= state >> 29
                offset += 8
            }
            for byte in raw[offset...] { state = (state ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        }
        state ^= state >> 33
        state = state &* 0xFF51_AFD7_ED55_8CCD
        state ^= state >> 33
        return state
    }
}
