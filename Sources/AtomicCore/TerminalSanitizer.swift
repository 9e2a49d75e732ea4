/// Makes text from GitHub harmless to print on a terminal. Escape sequences (`ESC[31m`, OSC 8 links),
/// C0 and C1 controls, DEL and bidirectional overrides are shown visibly instead of being obeyed.
/// The result is a single line: newlines and tabs are escaped as well, so one record stays one line.
/// With `escapeBackslash` (for tsv), a backslash is doubled so that the escapes can be undone unambiguously.
package enum TerminalSanitizer {
    package static func sanitize(_ text: String, escapeBackslash: Bool = false) -> String {
        let needsEscaping = { (scalar: Unicode.Scalar) in
            (escapeBackslash && scalar == "\\") || isUnsafe(scalar)
        }
        // Fast path: most GitHub data is plain printable text.
        if !text.unicodeScalars.contains(where: needsEscaping) { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            guard needsEscaping(scalar) else {
                result.append(scalar)
                continue
            }
            result.append(contentsOf: visible(scalar).unicodeScalars)
        }
        return String(result)
    }

    private static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value < 0x20 || value == 0x7F { return true }
        if (0x80...0x9F).contains(value) { return true }
        return isBidiControl(value) || value == 0xFEFF
    }

    private static func isBidiControl(_ value: UInt32) -> Bool {
        (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value) || value == 0x200E
            || value == 0x200F || value == 0x061C
    }

    private static func visible(_ scalar: Unicode.Scalar) -> String {
        switch scalar.value {
        case 0x5C: return "\\\\"
        case 0x09: return "\\t"
        case 0x0A: return "\\n"
        case 0x0D: return "\\r"
        case 0x1B: return "\\e"
        case 0x07: return "\\a"
        case 0x00: return "\\0"
        case let value where value < 0x20 || value == 0x7F:
            return "\\x" + hex(value, digits: 2)
        case let value where value <= 0x9F:
            return "\\u{" + hex(value, digits: 2) + "}"
        default:
            return "\u{FFFD}"
        }
    }

    private static func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
