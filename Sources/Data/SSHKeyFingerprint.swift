import Foundation

/// An SSH public key's fingerprint as `ssh-keygen -lf` prints it: `SHA256:` and the base64 of the SHA-256 of
/// the decoded key blob, without padding. GitHub sends keys as `TYPE BASE64 [COMMENT]` (and signing keys
/// sometimes as the blob alone); anything that does not decode has no fingerprint.
package enum SSHKeyFingerprint {
    package static func sha256(of key: String) -> String? {
        let words = key.split(whereSeparator: \.isWhitespace)
        // `ssh-ed25519 AAAA… comment`, or the base64 blob alone.
        let blob = words.count >= 2 ? words[1] : words.first
        guard let blob, let bytes = Foundation.Data(base64Encoded: String(blob)), !bytes.isEmpty,
            isKeyBlob(Array(bytes), type: words.count >= 2 ? String(words[0]) : nil)
        else { return nil }
        let digest = Foundation.Data(SHA256.hash(bytes)).base64EncodedString()
        return "SHA256:" + digest.replacingOccurrences(of: "=", with: "")
    }

    /// An SSH key blob is a run of length-prefixed strings (RFC 4253) that uses every byte, the first its type,
    /// which must be the type the text names; a type `ssh-keygen` knows has its own number of fields. So random
    /// base64, a key cut short or with bytes added, and a key labelled with another type have no fingerprint.
    private static func isKeyBlob(_ bytes: [UInt8], type: String?) -> Bool {
        var fields: [ArraySlice<UInt8>] = []
        var offset = 0
        while offset < bytes.count {
            guard bytes.count - offset >= 4 else { return false }
            let length = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            guard length <= bytes.count - offset - 4 else { return false }
            fields.append(bytes[offset + 4..<offset + 4 + length])
            offset += 4 + length
        }
        guard fields.count >= 2, (1...64).contains(fields[0].count),
            let name = String(bytes: fields[0], encoding: .ascii)
        else { return false }
        if let type, type != name { return false }
        if let expected = fieldCounts[name] { return fields.count == expected && holdsAKey(name, fields) }
        return type != nil || namesAKeyType(name)
    }

    /// Whether `word` reads as an SSH key type's name (`ssh-…`, `ecdsa-…`, `sk-…`, as `ssh-keygen`'s do): plain
    /// ASCII letters, digits and `-@._`, with one of those beginnings.
    package static func namesAKeyType(_ word: some StringProtocol) -> Bool {
        ["ssh-", "ecdsa-", "sk-"].contains(where: word.hasPrefix)
            && word.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-@._".contains($0)) }
    }

    /// Some of what `ssh-keygen` checks of the key itself: an Ed25519 key is 32 bytes; an RSA modulus has 1,024
    /// bits at least; an ECDSA key names its own curve and is an uncompressed point of that curve's size (RFC
    /// 5656). Whether the point is on the curve is not checked: that takes the curve's arithmetic.
    private static func holdsAKey(_ name: String, _ fields: [ArraySlice<UInt8>]) -> Bool {
        if name.contains("ed25519") { return fields[1].count == 32 }
        if name == "ssh-rsa" { return bits(of: fields[2]) >= 1024 }
        guard name.contains("ecdsa-sha2-") else { return true }
        let curve = name.hasPrefix("sk-") ? "nistp256" : String(name.dropFirst("ecdsa-sha2-".count))
        guard let size = pointSizes[curve], fields[1].elementsEqual(curve.utf8) else { return false }
        return fields[2].count == size && fields[2].first == 0x04
    }

    /// The bits of an mpint (RFC 4251): its bytes after leading zeros, less the first byte's leading zero bits.
    private static func bits(of number: ArraySlice<UInt8>) -> Int {
        let digits = number.drop { $0 == 0 }
        guard let first = digits.first else { return 0 }
        return digits.count * 8 - first.leadingZeroBitCount
    }

    /// An uncompressed point's bytes on each curve: 0x04, then both coordinates.
    private static let pointSizes = ["nistp256": 65, "nistp384": 97, "nistp521": 133]

    /// The fields of each key type `ssh-keygen` knows (RFC 4253, RFC 5656, RFC 8709, OpenSSH's PROTOCOL.u2f).
    private static let fieldCounts = [
        "ssh-rsa": 3, "ssh-dss": 5, "ssh-ed25519": 2, "ecdsa-sha2-nistp256": 3, "ecdsa-sha2-nistp384": 3,
        "ecdsa-sha2-nistp521": 3, "sk-ssh-ed25519@openssh.com": 3, "sk-ecdsa-sha2-nistp256@openssh.com": 4,
    ]
}
