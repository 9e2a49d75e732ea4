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

    /// An SSH key blob starts with its type as a length-prefixed string (RFC 4253), which must match the type
    /// the text names, so random base64 is not mistaken for a key.
    private static func isKeyBlob(_ bytes: [UInt8], type: String?) -> Bool {
        guard bytes.count >= 4 else { return false }
        let length = bytes[0..<4].reduce(0) { $0 << 8 | Int($1) }
        guard length > 0, length <= 64, bytes.count >= 4 + length,
            let name = String(bytes: bytes[4..<(4 + length)], encoding: .ascii)
        else { return false }
        return type.map { $0 == name } ?? name.hasPrefix("ssh-") || name.hasPrefix("ecdsa-") || name.hasPrefix("sk-")
    }
}
