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

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// Escapes per RFC 8259, plus U+2028/U+2029 so the text is also safe inside JavaScript sources.
    static func appendEscaped(_ text: String, to bytes: inout [UInt8]) {
        var utf8 = text.utf8.makeIterator()
        // Holds back the first two bytes of an E2 80 xx sequence until we know whether it is U+2028/2029.
        var pendingE2 = false
        var pendingE280 = false
        while let byte = utf8.next() {
            if pendingE280 {
                pendingE280 = false
                if byte == 0xA8 || byte == 0xA9 {
                    bytes.append(contentsOf: Array("\\u202".utf8))
                    bytes.append(byte == 0xA8 ? UInt8(ascii: "8") : UInt8(ascii: "9"))
                } else {
                    bytes.append(contentsOf: [0xE2, 0x80, byte])
                }
                continue
            }
            if pendingE2 {
                if byte == 0x80 {
                    pendingE2 = false
                    pendingE280 = true
                    continue
                }
                pendingE2 = false
                bytes.append(0xE2)
            }
            switch byte {
            case UInt8(ascii: "\""):
                bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"):
                bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x0A:
                bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D:
                bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09:
                bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0x08:
                bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
            case 0x0C:
                bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
            case 0x00..<0x20:
                bytes.append(contentsOf: Array("\\u00".utf8))
                bytes.append(hexDigits[Int(byte >> 4)])
                bytes.append(hexDigits[Int(byte & 0x0F)])
            case 0xE2:
                pendingE2 = true
            default:
                bytes.append(byte)
            }
        }
        if pendingE2 {
            bytes.append(0xE2)
        }
        if pendingE280 {
            bytes.append(contentsOf: [0xE2, 0x80])
        }
    }
}
