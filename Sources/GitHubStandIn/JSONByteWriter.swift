import Foundation

/// Appends compact JSON text to a byte buffer.
///
/// Written by hand instead of using JSONSerialization because GitHub's key order must be kept and a
/// 100-account page has to be assembled in far less than a millisecond. Its members stay internal.
struct JSONByteWriter {
    var bytes: [UInt8]

    init(reservingCapacity capacity: Int = 1024) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Appends text that the caller guarantees needs no JSON escaping (URLs built from logins, digits).
    mutating func unescaped(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    mutating func integer(_ value: Int) {
        bytes.append(contentsOf: String(value).utf8)
    }

    mutating func boolean(_ value: Bool) {
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
    }

    mutating func null() {
        raw("null")
    }

    mutating func string(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        JSONByteWriter.appendEscaped(text, to: &bytes)
        bytes.append(UInt8(ascii: "\""))
    }

    mutating func optionalString(_ text: String?) {
        if let text { string(text) } else { null() }
    }

    mutating func optionalBoolean(_ value: Bool?) {
        if let value { boolean(value) } else { null() }
    }

    /// Escapes per RFC 8259, plus U+2028/U+2029 so the text is also safe inside JavaScript sources.
    static func appendEscaped(_ text: String, to bytes: inout [UInt8]) {
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"", "\\": bytes += [UInt8(ascii: "\\"), UInt8(scalar.value)]
            case "\n": bytes += Array("\\n".utf8)
            case "\r": bytes += Array("\\r".utf8)
            case "\t": bytes += Array("\\t".utf8)
            case "\u{08}": bytes += Array("\\b".utf8)
            case "\u{0C}": bytes += Array("\\f".utf8)
            case "\u{00}"..."\u{1F}", "\u{2028}", "\u{2029}":
                bytes += Array(String(format: "\\u%04x", scalar.value).utf8)
            default: bytes += scalar.utf8
            }
        }
    }
}
