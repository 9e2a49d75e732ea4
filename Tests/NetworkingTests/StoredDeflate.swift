import Foundation

/// A zlib stream (`Content-Encoding: deflate`) by hand: stored blocks only, since these tests need bytes that
/// libcurl must inflate, not a good ratio.
enum StoredDeflate {
    static func zlib(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let chunk = Array(data[offset..<min(offset + 65_535, data.count)])
            offset += chunk.count
            let final: UInt8 = offset >= data.count ? 1 : 0
            let length = UInt16(chunk.count)
            out += [final, UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8(~length >> 8)]
            out += chunk
        } while offset < data.count
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        let adler = (b << 16) | a
        out += [UInt8(adler >> 24), UInt8((adler >> 16) & 0xFF), UInt8((adler >> 8) & 0xFF), UInt8(adler & 0xFF)]
        return out
    }
}
