/// Reads one JSON object member by member, in one pass over its bytes, for a decoder that knows its fields: the
/// accounts of a list, a million to a page at the body cap, where Foundation's `JSONDecoder` spends about 13 µs
/// on each (docs/PERFORMANCE.md).
///
/// It is strict, and it is partial on purpose. Whatever is not JSON as RFC 8259 writes it makes the reader
/// `unreadable`, and so does what it leaves to Foundation: text that is not ASCII (whose UTF-8 Foundation
/// checks), a `\u` escape, an escaped key, a key an object gives twice. A caller that meets `unreadable` hands the bytes to `JSONDecoder`,
/// which decides and words any error, so the reader can only make reading faster, never accept more.
package struct JSONMemberReader {
    /// A member's value: what the decoders read, or `other` for a valid value they do not (an object, an
    /// array, a number that is not a whole `Int64`).
    package enum Value: Equatable {
        case string(String)
        case integer(Int64)
        case boolean(Bool)
        case null
        case other
    }

    private let bytes: [UInt8]
    private let end: Int
    private var index: Int
    private var started = false
    private var closed = false
    /// The object's keys so far, to tell one given twice.
    private var keys = SeenKeys()
    /// Set when the bytes are not an object this reader reads: see the type's comment.
    package private(set) var unreadable = false
    /// Where the value `next` last returned is in the bytes: an `other`'s text, for a reader of it.
    package private(set) var lastValue = 0..<0

    /// A reader of the object that fills `range` of `bytes`, leading and trailing whitespace allowed.
    package init(_ bytes: [UInt8], in range: Range<Int>) {
        self.bytes = bytes
        self.end = range.upperBound
        self.index = range.lowerBound
    }

    /// Whether the object was read to its closing brace with nothing but whitespace after it in the range.
    package var finished: Bool { closed && !unreadable }

    /// The next member, its key as written (no escape in it), or nil at the end of the object or once it is
    /// `unreadable`. A string whose key `keeping` declines is checked as any other but read as `other`: an
    /// account's fifteen URLs are not made into strings no one reads.
    package mutating func next(
        keeping: (ArraySlice<UInt8>) -> Bool = { _ in true }
    ) -> (key: ArraySlice<UInt8>, value: Value)? {
        guard !closed, !unreadable else { return nil }
        skipWhitespace()
        if !started {
            started = true
            guard take(UInt8(ascii: "{")) else { return fail() }
            skipWhitespace()
            if take(UInt8(ascii: "}")) { return close() }
        } else if take(UInt8(ascii: "}")) {
            return close()
        } else {
            guard take(UInt8(ascii: ",")) else { return fail() }
            skipWhitespace()
        }
        guard let keyBytes = plainString(), keys.insert(keyBytes, of: bytes) else { return fail() }
        skipWhitespace()
        guard take(UInt8(ascii: ":")) else { return fail() }
        skipWhitespace()
        let start = index
        guard let value = value(depth: 1, keeping: keeping(bytes[keyBytes])) else { return fail() }
        lastValue = start..<index
        skipWhitespace()
        return (bytes[keyBytes], value)
    }

    private mutating func close() -> (key: ArraySlice<UInt8>, value: Value)? {
        skipWhitespace()
        closed = true
        if index != end { unreadable = true }
        return nil
    }

    private mutating func fail() -> (key: ArraySlice<UInt8>, value: Value)? {
        unreadable = true
        return nil
    }

    private mutating func take(_ byte: UInt8) -> Bool {
        guard index < end, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    private mutating func skipWhitespace() {
        while index < end {
            switch bytes[index] {
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"): index += 1
            default: return
            }
        }
    }

    /// A string with no escape at `index`: the range of its text. Nil for anything else.
    private mutating func plainString() -> Range<Int>? {
        guard take(UInt8(ascii: "\"")) else { return nil }
        let start = index
        while index < end {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                return start..<(index - 1)
            }
            guard byte >= 0x20, byte < 0x80, byte != UInt8(ascii: "\\") else { return nil }
            index += 1
        }
        return nil
    }

    /// A string at `index`, its escapes resolved, or "" unless `keeping`: ASCII only, and no `\u`.
    private mutating func string(keeping: Bool) -> String? {
        guard take(UInt8(ascii: "\"")) else { return nil }
        let start = index
        var escaped = false
        var nextWord = index  // as `JSONText.flaw`'s strings: a word the skip stopped in is read byte by byte
        while index < end {
            if index >= nextWord {
                index = bytes.withUnsafeBufferPointer { JSONText.endOfPlainText(in: $0, from: index) }
                nextWord = index + 8
            }
            guard index < end else { return nil }
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                let text = bytes[(start - 1)..<index]
                guard keeping else { return "" }
                return escaped
                    ? JSONText.unescapeString(text) : String(decoding: text.dropFirst().dropLast(), as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard index + 1 < end else { return nil }
                switch bytes[index + 1] {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                    UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    escaped = true
                    index += 2
                default:
                    return nil
                }
            case 0x20..<0x80:
                index += 1
            default:
                return nil
            }
        }
        return nil
    }

    /// The value at `index`, nested no deeper than `JSONText.maximumDepth`; nil where it is not one.
    private mutating func value(depth: Int, keeping: Bool) -> Value? {
        guard index < end, depth <= JSONText.maximumDepth else { return nil }
        switch bytes[index] {
        case UInt8(ascii: "\""):
            return string(keeping: keeping).map { keeping ? .string($0) : .other }
        case UInt8(ascii: "t"):
            return literal("true") ? .boolean(true) : nil
        case UInt8(ascii: "f"):
            return literal("false") ? .boolean(false) : nil
        case UInt8(ascii: "n"):
            return literal("null") ? .null : nil
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            return container(depth: depth) ? .other : nil
        default:
            return number()
        }
    }

    private mutating func literal(_ word: StaticString) -> Bool {
        let count = word.utf8CodeUnitCount
        guard end - index >= count else { return false }
        let matches = word.withUTF8Buffer { text in
            text.indices.allSatisfy { bytes[index + $0] == text[$0] }
        }
        if matches { index += count }
        return matches
    }

    /// An object's keys so far, byte for byte: a key given twice makes the object unreadable here, at any depth,
    /// and `JSONText.repeatedKey` words it on Foundation's path. Compared one by one while they are few (GitHub's
    /// objects have dozens), through a set past that: one by one, a hostile account of 60,000 small keys (512 KiB)
    /// took 7 s to read, four times as long for twice the keys.
    private struct SeenKeys {
        private var few: [Range<Int>] = []
        private var many: Set<ArraySlice<UInt8>>?

        /// False for a key seen before.
        mutating func insert(_ key: Range<Int>, of bytes: [UInt8]) -> Bool {
            if many != nil { return many?.insert(bytes[key]).inserted ?? false }
            guard !few.contains(where: { $0.count == key.count && bytes[$0].elementsEqual(bytes[key]) }) else {
                return false
            }
            few.append(key)
            if few.count == 64 { many = Set(few.map { bytes[$0] }) }
            return true
        }
    }

    /// An object or an array at `index`, each of its values checked.
    private mutating func container(depth: Int) -> Bool {
        let closing = bytes[index] == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
        let isObject = closing == UInt8(ascii: "}")
        index += 1
        skipWhitespace()
        if take(closing) { return true }
        var keys = SeenKeys()
        while true {
            if isObject {
                guard let key = plainString(), keys.insert(key, of: bytes) else { return false }
                skipWhitespace()
                guard take(UInt8(ascii: ":")) else { return false }
                skipWhitespace()
            }
            guard value(depth: depth + 1, keeping: false) != nil else { return false }
            skipWhitespace()
            if take(closing) { return true }
            guard take(UInt8(ascii: ",")) else { return false }
            skipWhitespace()
        }
    }

    /// A number as RFC 8259 writes it: `integer` when it is a whole number that fits `Int64`, else `other`.
    private mutating func number() -> Value? {
        let start = index
        _ = take(UInt8(ascii: "-"))
        guard index < end, isDigit(bytes[index]) else { return nil }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else {
            skipDigits()
        }
        var whole = true
        if take(UInt8(ascii: ".")) {
            whole = false
            guard index < end, isDigit(bytes[index]) else { return nil }
            skipDigits()
        }
        if index < end, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            whole = false
            index += 1
            if !take(UInt8(ascii: "+")) { _ = take(UInt8(ascii: "-")) }
            guard index < end, isDigit(bytes[index]) else { return nil }
            skipDigits()
        }
        guard whole, let integer = Int64(String(decoding: bytes[start..<index], as: UTF8.self)) else { return .other }
        return .integer(integer)
    }

    private func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    private mutating func skipDigits() {
        while index < end, isDigit(bytes[index]) { index += 1 }
    }
}

extension JSONText {
    /// The elements of a top-level array, as `arrayElements` finds them, when the text between them is exactly
    /// what JSON allows (whitespace, and one comma between two elements); nil otherwise, such as for a trailing
    /// comma, which `arrayElements` passes over.
    package static func strictArrayElements(_ bytes: [UInt8]) -> [Range<Int>]? {
        guard let elements = try? arrayElements(bytes) else { return nil }
        var index = skipWhitespace(bytes, from: skipWhitespace(bytes, from: 0) + 1)
        for (position, element) in elements.enumerated() {
            if position > 0 {
                guard index < bytes.count, bytes[index] == UInt8(ascii: ",") else { return nil }
                index = skipWhitespace(bytes, from: index + 1)
            }
            guard element.lowerBound == index else { return nil }
            index = skipWhitespace(bytes, from: element.upperBound)
        }
        return index < bytes.count && bytes[index] == UInt8(ascii: "]") ? elements : nil
    }
}
