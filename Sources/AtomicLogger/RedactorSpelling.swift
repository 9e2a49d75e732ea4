import Foundation

/// How text spells what it shows: escapes that stand for a byte (`%67`, `\u0067`) and things that show nothing
/// (a control character, a colour sequence, a zero-width space), which `Redactor` reads through to find a secret
/// however it is written.
extension Redactor {
    /// The most bytes that show nothing (`hiddenWidth`) a secret is looked for across, between two of its bytes.
    static let mostHidden = 64

    /// How many bytes at `offset` show nothing, one such thing after another (`invisibleWidth`); nil for none, or
    /// for more than `mostHidden`, which is then no part of a secret. Unbounded, a match from every `K` of a
    /// message of `K ESC [` repeated read to its end, each `ESC [ K` hiding the next: seconds of CPU for 90 KB,
    /// the square of its length (a review's find).
    static func hiddenWidth(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> Int? {
        var width = 0
        while let next = invisibleWidth(bytes, at: offset + width, within: mostHidden) {
            width += next
            guard width <= mostHidden else { return nil }
        }
        return width > 0 ? width : nil
    }

    /// As `hiddenWidth`, for what ends at `end` (from `start` on): the one or more things that show nothing right
    /// before it, at most `mostHidden` bytes of them; nil for none or more.
    static func hiddenWidth(endingAt end: Int, from start: Int, in bytes: UnsafeRawBufferPointer) -> Int? {
        var width = 0
        found: while width <= mostHidden {
            for unit in 1...mostHidden where end - width - unit >= start {
                if invisibleWidth(bytes, at: end - width - unit, within: mostHidden) == unit {
                    width += unit
                    continue found
                }
            }
            break
        }
        return width > 0 && width <= mostHidden ? width : nil
    }

    /// How many bytes at `offset` show nothing where they stand, or show as an escape inside readable text: a
    /// control character, a CSI sequence (`ESC [ 0 m`, at most `within` bytes), a format character (a zero-width
    /// space, a soft hyphen, a bidirectional control), or a combining mark; nil for anything else. A server's text
    /// with one inside the token printed the token whole to the eye (a review's find).
    static func invisibleWidth(_ bytes: UnsafeRawBufferPointer, at offset: Int, within: Int) -> Int? {
        guard offset < bytes.count, within > 0 else { return nil }
        let byte = bytes[offset]
        if byte == 0x1B, offset + 1 < bytes.count, bytes[offset + 1] == UInt8(ascii: "[") {
            var at = offset + 2
            while at < bytes.count, at - offset < within, (0x20...0x3F).contains(bytes[at]) { at += 1 }
            guard at - offset < within else { return nil }
            return at < bytes.count && (0x40...0x7E).contains(bytes[at]) ? at + 1 - offset : at - offset
        }
        if byte < 0x20 || byte == 0x7F { return 1 }
        guard byte >= 0xC2 else { return nil }
        let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : 2
        guard offset + length <= bytes.count else { return nil }
        var iterator = bytes[offset..<(offset + length)].makeIterator()
        var decoder = UTF8()
        guard case .scalarValue(let scalar) = decoder.decode(&iterator) else { return nil }
        switch scalar.properties.generalCategory {
        // A combining mark (U+034F, a variation selector) draws nothing between two letters either.
        case .format, .nonspacingMark, .enclosingMark: return length
        default: return nil
        }
    }

    static let percent = UInt8(ascii: "%")
    static let backslash = UInt8(ascii: "\\")

    /// The byte the text at `offset` stands for and how many bytes spell it: `%XX`, `\u00XX`, or `\/`, `\\` and
    /// `\"`; else the byte itself. Nil past the end.
    static func unescaped(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> (UInt8, Int)? {
        guard offset < bytes.count else { return nil }
        func at(_ index: Int) -> UInt8? { index < bytes.count ? bytes[index] : nil }
        func hex(_ index: Int) -> UInt8? {
            guard let byte = at(index) else { return nil }
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
            default: return nil
            }
        }
        guard let byte = at(offset) else { return nil }
        if byte == percent, let high = hex(offset + 1), let low = hex(offset + 2) { return (high << 4 | low, 3) }
        if byte == backslash, let next = at(offset + 1) {
            if next == UInt8(ascii: "u"), hex(offset + 2) == 0, hex(offset + 3) == 0, let high = hex(offset + 4),
                let low = hex(offset + 5)
            {
                return (high << 4 | low, 6)
            }
            if next == UInt8(ascii: "/") || next == backslash || next == UInt8(ascii: "\"") { return (next, 2) }
        }
        return (byte, 1)
    }
}
