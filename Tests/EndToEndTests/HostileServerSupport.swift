import Foundation
import TestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// A zlib stream (`Content-Encoding: deflate`) that inflates to `prefix`, then `spaces` spaces, then `suffix`,
/// built by hand with fixed Huffman codes: each 258 spaces cost 13 bits, so 72 MiB of JSON whitespace fits in
/// about half a megabyte, the shape of a compression bomb.
enum DeflateBomb {
    static func zlib(prefix: String, spaces: Int, suffix: String) -> (body: [UInt8], inflatedSize: Int) {
        var bits = BitWriter()
        bits.write(1, count: 1)  // BFINAL
        bits.write(1, count: 2)  // BTYPE 01: fixed Huffman codes
        var adler = Adler32()
        for byte in Array(prefix.utf8) {
            bits.literal(byte)
            adler.add(byte, times: 1)
        }
        // One literal space, then copies of length 258 at distance 1: symbol 285 (code 11000101) and distance
        // code 0 (00000), 13 bits written at once, least significant first, so the test process (which shares
        // its few threads with every other test) spends milliseconds here, not seconds.
        let runs = max(0, spaces - 1) / 258
        let loose = max(0, spaces - 1) % 258
        if spaces > 0 { bits.literal(0x20) }
        let copy: UInt32 = 0b00000_10100011
        for _ in 0..<runs { bits.write(copy, count: 13) }
        for _ in 0..<loose { bits.literal(0x20) }
        adler.add(0x20, times: spaces)
        for byte in Array(suffix.utf8) {
            bits.literal(byte)
            adler.add(byte, times: 1)
        }
        bits.huffman(0, length: 7)  // end of block
        let checksum = adler.value
        let body =
            [0x78, 0x01] + bits.finish()
            + [
                UInt8(checksum >> 24), UInt8((checksum >> 16) & 0xFF), UInt8((checksum >> 8) & 0xFF),
                UInt8(checksum & 0xFF),
            ]
        return (body, prefix.utf8.count + spaces + suffix.utf8.count)
    }

    private struct BitWriter {
        private var bytes: [UInt8] = []
        private var buffer: UInt64 = 0
        private var filled = 0

        /// Plain values go least significant bit first.
        mutating func write(_ value: UInt32, count: Int) {
            buffer |= UInt64(value & ((1 << UInt32(count)) - 1)) << UInt64(filled)
            filled += count
            while filled >= 8 {
                bytes.append(UInt8(buffer & 0xFF))
                buffer >>= 8
                filled -= 8
            }
        }

        /// Huffman codes go most significant bit first.
        mutating func huffman(_ code: UInt32, length: Int) {
            var reversed: UInt32 = 0
            for index in 0..<length { reversed |= ((code >> UInt32(index)) & 1) << UInt32(length - 1 - index) }
            write(reversed, count: length)
        }

        /// Literals 0–143 have the 8-bit codes 0x30…; ASCII is all the tests need.
        mutating func literal(_ byte: UInt8) {
            precondition(byte < 144)
            huffman(0x30 + UInt32(byte), length: 8)
        }

        mutating func finish() -> [UInt8] {
            if filled > 0 { bytes.append(UInt8(buffer & 0xFF)) }
            return bytes
        }
    }

    /// Adler-32 in closed form per run, so tens of MiB of spaces cost nothing to sum.
    private struct Adler32 {
        private var a: UInt64 = 1
        private var b: UInt64 = 0
        private let modulus: UInt64 = 65_521

        mutating func add(_ byte: UInt8, times: Int) {
            let count = UInt64(times)
            let triangle = (count % (2 * modulus)) * ((count + 1) % (2 * modulus)) / 2 % modulus
            b = (b + (count % modulus) * a + UInt64(byte) * triangle) % modulus
            a = (a + (count % modulus) * UInt64(byte)) % modulus
        }

        var value: UInt32 { UInt32(b << 16 | a) }
    }
}
