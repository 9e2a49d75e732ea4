/// Makes text from GitHub harmless to print on a terminal. Escape sequences (`ESC[31m`, OSC 8 links),
/// C0 and C1 controls, DEL and bidirectional overrides are shown visibly instead of being obeyed.
/// The result is a single line: newlines and tabs are escaped as well, so one record stays one line.
/// With `escapeBackslash` (for tsv), a backslash is doubled and an invisible format character (a right-to-left
/// mark in a Hebrew name) is named by its code point (`\u{200f}`), so that the escapes can be undone
/// unambiguously and no character is lost; a table shows such a character as U+FFFD.
package enum TerminalSanitizer {
    package static func sanitize(_ text: String, escapeBackslash: Bool = false) -> String {
        visible(text, namingFormat: escapeBackslash) { (escapeBackslash && $0 == "\\") || isUnsafe($0) }
    }

    /// Whether the server's text is short and plain enough to quote in a message as it is (a key's name):
    /// printable ASCII, no space, at most `maximumLength` characters. Other text is described, not quoted.
    package static func isPlainWord(_ text: String, maximumLength: Int = 40) -> Bool {
        text.unicodeScalars.count <= maximumLength
            && text.unicodeScalars.allSatisfy { (0x21...0x7E).contains($0.value) }
    }

    /// A file path for a message: single-quoted, with every control character escaped as `sanitize` does
    /// (`\e`), and every format character (bidirectional overrides and isolates, zero-width ones) named by its
    /// code point (`\u{202e}`), so a path given on the command line can neither drive the terminal nor reorder
    /// the line, and the reader sees what is in the name. The one rule for a path in a message, in every target.
    package static func quotedPath(_ path: String) -> String {
        "'" + visible(path, namingFormat: true, escaping: isUnsafeInPath) + "'"
    }

    /// What `quotedPath` shows as an escape: a control character or a format character.
    package static func isUnsafeInPath(_ scalar: Unicode.Scalar) -> Bool {
        isUnsafe(scalar) || scalar.properties.generalCategory == .format
    }

    /// `text` with each scalar `needsEscaping` accepts shown visibly; a format character by its code point when
    /// `namingFormat`, else as U+FFFD.
    private static func visible(
        _ text: String, namingFormat: Bool, escaping needsEscaping: (Unicode.Scalar) -> Bool
    ) -> String {
        // Fast path: most GitHub data is plain printable text.
        if !text.unicodeScalars.contains(where: needsEscaping) { return text }
        // Built as UTF-8 bytes: appending a sequence to a `String.UnicodeScalarView` copies the whole view each
        // time, which made a text of N control characters cost N² (20 s for 800k escape characters).
        var result: [UInt8] = []
        result.reserveCapacity(text.utf8.count + text.utf8.count / 4)
        for scalar in text.unicodeScalars {
            if needsEscaping(scalar) {
                appendVisible(scalar, namingFormat: namingFormat, to: &result)
            } else {
                result.append(contentsOf: scalar.utf8)
            }
        }
        return String(decoding: result, as: UTF8.self)
    }

    private static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value < 0x20 || value == 0x7F { return true }
        if (0x80...0x9F).contains(value) { return true }
        // The line and paragraph separators end a line for some readers (Python's splitlines, JavaScript).
        return isBidiControl(value) || value == 0xFEFF || value == 0x2028 || value == 0x2029
    }

    private static func isBidiControl(_ value: UInt32) -> Bool {
        (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value) || value == 0x200E
            || value == 0x200F || value == 0x061C
    }

    private static let backslash = UInt8(ascii: "\\")

    /// How an unsafe scalar is shown: a backslash escape for controls; for the invisible formatting ones, their
    /// code point (`\u{202e}`) when `namingFormat`, else U+FFFD.
    private static func appendVisible(_ scalar: Unicode.Scalar, namingFormat: Bool, to output: inout [UInt8]) {
        let value = scalar.value
        switch value {
        case 0x5C: output += [backslash, backslash]
        case 0x09: output += [backslash, UInt8(ascii: "t")]
        case 0x0A: output += [backslash, UInt8(ascii: "n")]
        case 0x0D: output += [backslash, UInt8(ascii: "r")]
        case 0x1B: output += [backslash, UInt8(ascii: "e")]
        case 0x07: output += [backslash, UInt8(ascii: "a")]
        case 0x00: output += [backslash, UInt8(ascii: "0")]
        case _ where value < 0x20 || value == 0x7F:
            output += [backslash, UInt8(ascii: "x"), hexDigit(value >> 4), hexDigit(value & 0xF)]
        case _ where value <= 0x9F:
            output += [backslash, UInt8(ascii: "u"), UInt8(ascii: "{"), hexDigit(value >> 4), hexDigit(value & 0xF)]
            output.append(UInt8(ascii: "}"))
        case _ where namingFormat:
            output += [backslash, UInt8(ascii: "u"), UInt8(ascii: "{")] + Array(String(value, radix: 16).utf8)
            output.append(UInt8(ascii: "}"))
        default:
            output += [0xEF, 0xBF, 0xBD]  // U+FFFD
        }
    }

    private static func hexDigit(_ value: UInt32) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + UInt8(value) : UInt8(ascii: "a") + UInt8(value - 10)
    }
}
