import JSONBytes

extension ResponseDecoder {
    /// A record's `id` as a number, or for a string id (a gist's, hexadecimal) its 64-bit FNV-1a digest, so
    /// that a record a page repeats is written once whatever its id is: a gist's repeats were all written.
    static func recordID(_ raw: [UInt8]) -> Int64? {
        let text = JSONText.text(of: "id", in: raw)
        if let number = Int64(text) { return number }
        guard let id = JSONText.value(at: ["id"], in: raw), id.first == UInt8(ascii: "\""), id.count > 2 else {
            return nil
        }
        let digest = id.reduce(0xcbf2_9ce4_8422_2325 as UInt64) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
        return Int64(bitPattern: digest)
    }
}
