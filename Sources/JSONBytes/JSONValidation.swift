/// Whether bytes are one JSON document (RFC 8259) that gh-users may pass on as written.
///
/// gh-users writes GitHub's bytes as they came (`RawJSON`), and a decoder reads only the fields it maps, so a
/// raw control character, a bad escape, a lone surrogate or bytes that are not UTF-8 inside a field nothing
/// decodes would reach `jq` as a document it cannot read, or split an ndjson record over two lines. One pass over
/// every answer finds them, and a nesting deeper than a limit, before anything reads it.
extension JSONText {
    package enum Flaw: Error, Equatable {
        /// Objects and arrays nest more than the limit deep.
        case tooDeep
        /// Not JSON at byte `offset`, for `reason` ("a raw control character (U+000A) in a string").
        case notJSON(offset: Int, reason: String)
        /// An object or an array holds more than the limit of members.
        case tooWide
        /// The document holds more than the limit of values, containers and scalars alike.
        case tooManyValues
    }

    /// What an answer may hold (`flaw(in:deeperThan:within:)`): reading JSON costs about 80 bytes a value
    /// whatever its size, so a value of two bytes (`{}`) is the costliest a byte.
    package struct Bounds: Sendable {
        /// Members of one object or array.
        package var members: Int
        /// Values in the whole document.
        package var values: Int

        package init(members: Int, values: Int) {
            self.members = members
            self.values = values
        }

        /// None: a file of one's own (a snapshot, a state) is as long as it is.
        package static let none = Bounds(members: .max, values: .max)
    }

    /// The first flaw of `bytes`, or nil for a valid document nested at most `depth` levels (the outermost array
    /// or object is level 1), and within `bounds`.
    package static func flaw(
        in bytes: some Collection<UInt8>, deeperThan depth: Int = maximumDepth, within bounds: Bounds = .none
    ) -> Flaw? {
        let found = bytes.withContiguousStorageIfAvailable { buffer in
            var validator = JSONValidator(bytes: buffer, maximumDepth: depth, bounds: bounds)
            return validator.firstFlaw()
        }
        if let found { return found }
        return Array(bytes).withUnsafeBufferPointer { buffer in
            var validator = JSONValidator(bytes: buffer, maximumDepth: depth, bounds: bounds)
            return validator.firstFlaw()
        }
    }
}

extension JSONText {
    /// Past the printable ASCII other than `"` and `\` from `start`, eight bytes at a time while there are eight:
    /// a word holding none of the bytes a string's reader must look at (a quote, a backslash, a control character,
    /// a byte of a multibyte character) is all plain text. The tests may flag a byte after a true one, never a word
    /// without one; what is left is read a byte at a time.
    static func endOfPlainText(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs = ones &* 0x80
        func hasZero(_ word: UInt64) -> Bool { (word &- ones) & ~word & highs != 0 }
        var index = start
        while index + 8 <= bytes.count, let base = bytes.baseAddress {
            let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
            let control = (word &- ones &* 0x20) & ~word & highs != 0
            guard word & highs == 0, !control, !hasZero(word ^ (ones &* 0x22)), !hasZero(word ^ (ones &* 0x5C)) else {
                return index
            }
            index += 8
        }
        return index
    }
}

/// A recursive descent over the grammar, at most `maximumDepth` calls deep.
private struct JSONValidator {
    typealias Flaw = JSONText.Flaw

    let bytes: UnsafeBufferPointer<UInt8>
    let maximumDepth: Int
    let bounds: JSONText.Bounds
    var index = 0
    var values = 0

    init(bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int, bounds: JSONText.Bounds) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
        self.bounds = bounds
    }

    mutating func firstFlaw() -> Flaw? {
        do throws(Flaw) {
            skipSpace()
            try value(depth: 0)
            skipSpace()
            if index < bytes.count { throw notJSON("more after the document") }
            return nil
        } catch {
            return error
        }
    }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private func notJSON(_ reason: String) -> Flaw { .notJSON(offset: index, reason: reason) }

    private mutating func skipSpace() {
        while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { index += 1 }
    }

    private mutating func expect(_ byte: UInt8, _ what: String) throws(Flaw) {
        skipSpace()
        guard current == byte else { throw notJSON("expected \(what)") }
        index += 1
    }

    private mutating func value(depth: Int) throws(Flaw) {
        guard let byte = current else { throw notJSON("expected a value") }
        values += 1
        guard values <= bounds.values else { throw .tooManyValues }
        switch byte {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            guard depth < maximumDepth else { throw .tooDeep }
            try container(closedBy: byte + 2, depth: depth + 1)
        case UInt8(ascii: "\""): try string()
        case UInt8(ascii: "t"): try literal("true")
        case UInt8(ascii: "f"): try literal("false")
        case UInt8(ascii: "n"): try literal("null")
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try number()
        default: throw notJSON("expected a value")
        }
    }

    /// An object (closed by `}`, its members keyed by strings) or an array (closed by `]`).
    private mutating func container(closedBy closing: UInt8, depth: Int) throws(Flaw) {
        let isObject = closing == UInt8(ascii: "}")
        index += 1
        skipSpace()
        if current == closing {
            index += 1
            return
        }
        var members = 0
        while true {
            members += 1
            guard members <= bounds.members else { throw .tooWide }
            skipSpace()
            if isObject {
                guard current == UInt8(ascii: "\"") else { throw notJSON("expected a key") }
                try string()
                try expect(UInt8(ascii: ":"), "':'")
                skipSpace()
            }
            try value(depth: depth)
            skipSpace()
            guard let byte = current, byte == UInt8(ascii: ",") || byte == closing else {
                throw notJSON(isObject ? "expected ',' or '}'" : "expected ',' or ']'")
            }
            index += 1
            if byte == closing { return }
        }
    }

    private mutating func literal(_ word: StaticString) throws(Flaw) {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count,
            (0..<count).allSatisfy({ bytes[index + $0] == word.utf8Start[$0] })
        else { throw notJSON("expected a value") }
        index += count
    }

    private mutating func number() throws(Flaw) {
        if current == UInt8(ascii: "-") { index += 1 }
        if current == UInt8(ascii: "0") {
            index += 1
        } else if try digits() == 0 {
            throw notJSON("a number without digits")
        }
        if current == UInt8(ascii: ".") {
            index += 1
            if try digits() == 0 { throw notJSON("a number without digits after its '.'") }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            if try digits() == 0 { throw notJSON("a number without digits in its exponent") }
        }
    }

    private mutating func digits() throws(Flaw) -> Int {
        let start = index
        while let byte = current, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") { index += 1 }
        return index - start
    }

    /// A string from its opening quote: no raw control character, escapes JSON knows, surrogates in pairs, and
    /// UTF-8 (no overlong form, no surrogate, nothing past U+10FFFF).
    private mutating func string() throws(Flaw) {
        index += 1
        // A word the skip stopped in is read byte by byte before the next is tried: text of escapes or of
        // multibyte characters (CJK) is not tried a word at a time after every one.
        var nextWord = index
        while true {
            if index >= nextWord {
                index = JSONText.endOfPlainText(in: bytes, from: index)
                nextWord = index + 8
            }
            guard let byte = current else { break }
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return
            case UInt8(ascii: "\\"):
                try escape()
            case 0..<0x20:
                throw notJSON("a raw control character (U+00\(hex(byte))) in a string")
            case 0x20..<0x80:
                index += 1
            default:
                try utf8Sequence(from: byte)
            }
        }
        throw notJSON("an unterminated string")
    }

    private mutating func escape() throws(Flaw) {
        guard index + 1 < bytes.count else { throw notJSON("an unterminated string") }
        switch bytes[index + 1] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
            UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            index += 2
        case UInt8(ascii: "u"):
            let unit = try codeUnit()
            if (0xDC00...0xDFFF).contains(unit) { throw notJSON("a lone UTF-16 surrogate in a string") }
            guard (0xD800...0xDBFF).contains(unit) else { return }
            let low =
                index + 1 < bytes.count && bytes[index] == UInt8(ascii: "\\") && bytes[index + 1] == UInt8(ascii: "u")
            guard low, (0xDC00...0xDFFF).contains(try codeUnit()) else {
                throw notJSON("a lone UTF-16 surrogate in a string")
            }
        default:
            index += 1
            throw notJSON("an escape JSON does not have in a string")
        }
    }

    /// The four hex digits of a `\u` escape at `index`, which moves past them.
    private mutating func codeUnit() throws(Flaw) -> Int {
        guard index + 6 <= bytes.count else { throw notJSON("an unterminated string") }
        var unit = 0
        for offset in 2..<6 {
            guard let digit = JSONText.hexDigit(bytes[index + offset]) else {
                throw notJSON("a \\u escape without four hex digits in a string")
            }
            unit = unit << 4 | Int(digit)
        }
        index += 6
        return unit
    }

    /// One UTF-8 sequence of 2 to 4 bytes whose first is `lead` (at `index`), as RFC 3629's table allows it.
    private mutating func utf8Sequence(from lead: UInt8) throws(Flaw) {
        var (length, lower, upper): (Int, UInt8, UInt8) = (0, 0x80, 0xBF)
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: (length, lower) = (3, 0xA0)
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: (length, upper) = (3, 0x9F)
        case 0xF0: (length, lower) = (4, 0x90)
        case 0xF1...0xF3: length = 4
        case 0xF4: (length, upper) = (4, 0x8F)
        default: throw notJSON("bytes that are not UTF-8 in a string")
        }
        guard index + length <= bytes.count else { throw notJSON("bytes that are not UTF-8 in a string") }
        for offset in 1..<length {
            let byte = bytes[index + offset]
            guard byte >= (offset == 1 ? lower : 0x80), byte <= (offset == 1 ? upper : 0xBF) else {
                throw notJSON("bytes that are not UTF-8 in a string")
            }
        }
        index += length
    }

    private func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
    }
}
