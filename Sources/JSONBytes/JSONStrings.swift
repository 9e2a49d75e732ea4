/// JSON string literals: their text with every escape resolved, and a text written as one.
extension JSONText {
    /// The text of a JSON string literal (quotes included in `literal`), with every escape resolved;
    /// a lone surrogate becomes U+FFFD.
    ///
    /// Built as UTF-8 bytes and made a `String` once: appending a sequence to a `String.UnicodeScalarView` copies
    /// the whole view each time, which made a string of N escapes cost N² (399 s for 100,000 escapes).
    package static func unescapeString(_ literal: some Collection<UInt8>) -> String {
        let bytes = Array(literal.dropFirst().dropLast())
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        func hexValue(at index: Int) -> UInt32? {
            guard index + 4 <= bytes.count else { return nil }
            var value: UInt32 = 0
            for byte in bytes[index..<(index + 4)] {
                guard let digit = hexDigit(byte) else { return nil }
                value = value << 4 | digit
            }
            return value
        }
        func append(_ scalar: Unicode.Scalar?) {
            output.append(contentsOf: (scalar ?? "\u{FFFD}").utf8)
        }
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            guard byte == UInt8(ascii: "\\"), index + 1 < bytes.count else {
                output.append(byte)
                index += 1
                continue
            }
            let escape = bytes[index + 1]
            index += 2
            switch escape {
            case UInt8(ascii: "n"): output.append(0x0A)
            case UInt8(ascii: "t"): output.append(0x09)
            case UInt8(ascii: "r"): output.append(0x0D)
            case UInt8(ascii: "b"): output.append(0x08)
            case UInt8(ascii: "f"): output.append(0x0C)
            case UInt8(ascii: "u"):
                guard let high = hexValue(at: index) else {
                    append(nil)
                    continue
                }
                index += 4
                if (0xD800...0xDBFF).contains(high), index + 6 <= bytes.count, bytes[index] == UInt8(ascii: "\\"),
                    bytes[index + 1] == UInt8(ascii: "u"), let low = hexValue(at: index + 2),
                    (0xDC00...0xDFFF).contains(low)
                {
                    index += 6
                    append(Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)))
                } else {
                    append(Unicode.Scalar(high))
                }
            default:
                append(Unicode.Scalar(escape))
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    static func hexDigit(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(byte - UInt8(ascii: "A") + 10)
        default: return nil
        }
    }

    /// `text` as a JSON string: the short escapes RFC 8259 names (`\n`, `\t`…) where there is one, as GitHub
    /// writes them, and `\uXXXX` for the other control characters, DEL, the C1 controls and the format characters
    /// (a right-to-left override, a zero-width space), and the line and paragraph separators (U+2028, U+2029),
    /// which end a line for some readers: the same string to a reader, but one that shown on a
    /// terminal (a path in a message, `--json` on a terminal) can neither drive it nor reorder the line.
    static func appendString(_ text: String, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x22, 0x5C: output += [UInt8(ascii: "\\"), UInt8(scalar.value)]
            case 0x0A: output += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case 0x0D: output += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            case 0x09: output += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case 0x08: output += [UInt8(ascii: "\\"), UInt8(ascii: "b")]
            case 0x0C: output += [UInt8(ascii: "\\"), UInt8(ascii: "f")]
            // The line and paragraph separators end a line for some readers (Python's `splitlines`).
            case 0..<0x20, 0x7F...0x9F, 0x2028, 0x2029: appendUnicodeEscape(UInt16(scalar.value), to: &output)
            case 0x20..<0x7F: output.append(UInt8(scalar.value))
            case _ where scalar.properties.generalCategory == .format:
                for unit in String(scalar).utf16 { appendUnicodeEscape(unit, to: &output) }
            default: output += scalar.utf8
            }
        }
        output.append(UInt8(ascii: "\""))
    }

    static func appendUnicodeEscape(_ unit: UInt16, to output: inout [UInt8]) {
        output += Array(String(format: "\\u%04x", unit).utf8)
    }
}
