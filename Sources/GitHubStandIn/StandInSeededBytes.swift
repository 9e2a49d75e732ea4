/// A SplitMix64 stream: reproducible "random" bytes for key material, hashes and ids, seeded from an account.
///
/// Key material only has to look random and be well-formed, not be secret, so a tiny generator whose output
/// depends on nothing but the seed keeps every response byte-identical across runs and machines.
struct StandInSeededBytes {
    private var state: UInt64

    /// `salt` separates the streams of different resources of the same account (keys versus gists, say).
    init(seed: Int, salt: UInt64) {
        state = Self.finalize(UInt64(truncatingIfNeeded: seed) ^ salt)
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        return Self.finalize(state)
    }

    /// A value in `0..<bound`; the modulo bias is irrelevant for test data.
    mutating func next(below bound: Int) -> Int {
        precondition(bound > 0, "bound must be positive")
        return Int(truncatingIfNeeded: next() % UInt64(bound))
    }

    mutating func bytes(_ count: Int) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(count + 8)
        while output.count < count {
            var word = next()
            for _ in 0..<8 {
                output.append(UInt8(truncatingIfNeeded: word))
                word >>= 8
            }
        }
        return Array(output.prefix(count))
    }

    /// Lowercase hex of `count` bytes: commit SHAs, gist revisions.
    mutating func hex(bytes count: Int) -> String {
        StandInHex.lowercase(bytes(count))
    }

    /// SplitMix64's finaliser. Every step (xor-shift, odd multiply) is invertible, so distinct inputs give distinct
    /// outputs, which is what makes it usable for ids that must never collide.
    static func finalize(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

enum StandInHex {
    private static let lowerDigits: [UInt8] = Array("0123456789abcdef".utf8)
    private static let upperDigits: [UInt8] = Array("0123456789ABCDEF".utf8)

    static func lowercase(_ bytes: [UInt8]) -> String {
        encode(bytes, digits: lowerDigits)
    }

    static func uppercase(_ bytes: [UInt8]) -> String {
        encode(bytes, digits: upperDigits)
    }

    /// The 16 hex digits of a 64-bit value, most significant first.
    static func lowercase(_ value: UInt64) -> String {
        lowercase((0..<8).map { UInt8(truncatingIfNeeded: value >> (56 - 8 * $0)) })
    }

    private static func encode(_ bytes: [UInt8], digits: [UInt8]) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            output.append(digits[Int(byte >> 4)])
            output.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: output, as: UTF8.self)
    }
}
