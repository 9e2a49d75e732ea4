import Foundation

/// Byte-level JSON mechanics that keep a document exactly as it was written: splitting a top-level array into
/// its elements, and re-spacing a document (compact or indented) without re-encoding any value, but for the
/// characters a terminal obeys, which are escaped inside strings (`escapingTerminalControls`).
/// The input is expected to be syntactically valid JSON (a decoder has already checked it); the splitter still
/// refuses anything whose brackets or strings do not balance.
package enum JSONText {
    package struct StructureError: Error, Equatable {
        package let offset: Int
        package let reason: String
    }

    /// The deepest nesting of objects and arrays an answer may have, the top-level array counted: 64 levels.
    ///
    /// GitHub's objects are a few levels deep (an event's `payload.pull_request.head.repo.owner` is six inside its
    /// page, a GraphQL page's `data.repository.stargazers.edges[].node` seven), so 64 is ten times what any answer
    /// needs, while it bounds what a hostile one costs: indented JSON puts up to `2 × depth` spaces before every
    /// line, so a body nested D levels prints O(D²) bytes. Foundation's decoder refuses 512 levels and more, which
    /// at 64 MB is gigabytes of output; at 64 levels a byte of body prints at most about 66 bytes, written as it
    /// is made (`pretty(_:indent:level:into:flushingAt:_:)`). Every answer is held to this before it is read
    /// (`GitHubRepository`), so a list of accounts and a list of records refuse the same body the same way.
    package static let maximumDepth = 64

    /// Whether `bytes` nest objects and arrays more than `limit` levels deep, outside strings: one pass that stops
    /// at the first level past the limit.
    package static func nests(_ bytes: some Collection<UInt8>, deeperThan limit: Int) -> Bool {
        let scanned = bytes.withContiguousStorageIfAvailable { nests($0, deeperThan: limit) }
        return scanned ?? Array(bytes).withUnsafeBufferPointer { nests($0, deeperThan: limit) }
    }

    private static func nests(_ buffer: UnsafeBufferPointer<UInt8>, deeperThan limit: Int) -> Bool {
        var depth = 0
        var strings = StringTracker()
        for byte in buffer where !strings.consume(byte) {
            if byte == UInt8(ascii: "[") || byte == UInt8(ascii: "{") {
                depth += 1
                if depth > limit { return true }
            } else if byte == UInt8(ascii: "]") || byte == UInt8(ascii: "}") {
                depth -= 1
            }
        }
        return false
    }

    /// Byte ranges of the elements of a top-level JSON array.
    package static func arrayElements(_ bytes: [UInt8]) throws(StructureError) -> [Range<Int>] {
        var index = skipWhitespace(bytes, from: 0)
        guard index < bytes.count, bytes[index] == UInt8(ascii: "[") else {
            throw StructureError(offset: index, reason: "expected '['")
        }
        index += 1
        var elements: [Range<Int>] = []
        var depth = 0
        var start: Int?
        var lastSignificant = index
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                if start == nil { start = index }
                index = try endOfString(bytes, openingQuote: index)
                lastSignificant = index
                continue
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                if start == nil { start = index }
                depth += 1
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                if depth == 0 {
                    guard byte == UInt8(ascii: "]") else {
                        throw StructureError(offset: index, reason: "unbalanced '}'")
                    }
                    if let start { elements.append(start..<lastSignificant) }
                    let trailing = skipWhitespace(bytes, from: index + 1)
                    guard trailing == bytes.count else {
                        throw StructureError(offset: trailing, reason: "data after the array")
                    }
                    return elements
                }
                depth -= 1
            case UInt8(ascii: ","):
                if depth == 0 {
                    guard let elementStart = start else {
                        throw StructureError(offset: index, reason: "empty element")
                    }
                    elements.append(elementStart..<lastSignificant)
                    start = nil
                    index += 1
                    continue
                }
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"):
                index += 1
                continue
            default:
                if start == nil { start = index }
            }
            index += 1
            lastSignificant = index
        }
        throw StructureError(offset: bytes.count, reason: "unterminated array")
    }

    /// Byte ranges of the values of a top-level JSON object, by key, such as the `items` array of a search
    /// envelope. Keys with escapes are compared as written, which suffices for GitHub's ASCII keys.
    package static func objectMembers(_ bytes: [UInt8]) throws(StructureError) -> [String: Range<Int>] {
        var index = skipWhitespace(bytes, from: 0)
        guard index < bytes.count, bytes[index] == UInt8(ascii: "{") else {
            throw StructureError(offset: index, reason: "expected '{'")
        }
        index = skipWhitespace(bytes, from: index + 1)
        var members: [String: Range<Int>] = [:]
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") { return members }
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "\"") else {
                throw StructureError(offset: index, reason: "expected a key")
            }
            let keyEnd = try endOfString(bytes, openingQuote: index)
            let key = String(decoding: bytes[(index + 1)..<(keyEnd - 1)], as: UTF8.self)
            index = skipWhitespace(bytes, from: keyEnd)
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                throw StructureError(offset: index, reason: "expected ':'")
            }
            let valueStart = skipWhitespace(bytes, from: index + 1)
            let valueEnd = try endOfValue(bytes, from: valueStart)
            members[key] = valueStart..<valueEnd
            index = skipWhitespace(bytes, from: valueEnd)
            guard index < bytes.count else { break }
            if bytes[index] == UInt8(ascii: "}") { return members }
            guard bytes[index] == UInt8(ascii: ",") else { throw StructureError(offset: index, reason: "expected ','") }
            index = skipWhitespace(bytes, from: index + 1)
        }
        throw StructureError(offset: bytes.count, reason: "unterminated object")
    }

    /// An object holding only `keys`, in that order, each with its exact value, or `null` where the object
    /// lacks it: what `--fields` makes of a record in JSON.
    package static func project(_ bytes: [UInt8], keys: [String]) -> [UInt8] {
        let members = (try? objectMembers(bytes)) ?? [:]
        var output: [UInt8] = [UInt8(ascii: "{")]
        for (index, key) in keys.enumerated() {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            appendString(key, to: &output)
            output.append(UInt8(ascii: ":"))
            if let range = members[key] {
                compact(bytes[range], into: &output)
            } else {
                output.append(contentsOf: Array("null".utf8))
            }
        }
        output.append(UInt8(ascii: "}"))
        return output
    }

    /// The object with `members` added after its own, each an exact JSON value; a key it has already is
    /// replaced by the one added. What is not an object is returned as it was.
    package static func adding(_ members: [(key: String, value: [UInt8])], to bytes: [UInt8]) -> [UInt8] {
        guard let own = try? objectMembers(bytes) else { return bytes }
        let added = Set(members.map(\.key))
        var output: [UInt8] = [UInt8(ascii: "{")]
        func append(_ key: String, _ value: some Collection<UInt8>) {
            if output.count > 1 { output.append(UInt8(ascii: ",")) }
            appendString(key, to: &output)
            output.append(UInt8(ascii: ":"))
            compact(value, into: &output)
        }
        for (key, range) in own.sorted(by: { $0.value.lowerBound < $1.value.lowerBound }) where !added.contains(key) {
            append(key, bytes[range])
        }
        for member in members { append(member.key, member.value) }
        output.append(UInt8(ascii: "}"))
        return output
    }

    /// The exact bytes of the value a path of keys leads to (`["repo", "full_name"]`), or nil where it leads
    /// nowhere: a missing key, or a step into something that is not an object.
    package static func value(at path: [String], in bytes: [UInt8]) -> [UInt8]? {
        var current = bytes
        for key in path {
            guard let members = try? objectMembers(current), let range = members[key] else { return nil }
            current = Array(current[range])
        }
        return current
    }

    /// The value at a path as text for a table cell; empty where the path leads nowhere.
    package static func text(at path: [String], in bytes: [UInt8]) -> String {
        value(at: path, in: bytes).map { cellText($0[...]) } ?? ""
    }

    /// The elements of the array at a path, each as its exact bytes; empty where there is no array.
    package static func elements(at path: [String], in bytes: [UInt8]) -> [[UInt8]] {
        guard let array = value(at: path, in: bytes), let ranges = try? arrayElements(array) else { return [] }
        return ranges.map { Array(array[$0]) }
    }

    /// The keys of the object at a path, sorted; empty where there is no object.
    package static func keys(at path: [String], in bytes: [UInt8]) -> [String] {
        guard let object = value(at: path, in: bytes), let members = try? objectMembers(object) else { return [] }
        return members.keys.sorted()
    }

    /// A member's value as text for a table cell: strings unescaped, numbers and booleans as written,
    /// `null` and a missing key as empty, objects and arrays as compact JSON.
    package static func text(of key: String, in bytes: [UInt8]) -> String {
        texts(of: [key], in: bytes)[0]
    }

    /// Several members' texts, from one scan of the object.
    package static func texts(of keys: [String], in bytes: [UInt8]) -> [String] {
        let members = (try? objectMembers(bytes)) ?? [:]
        return keys.map { key in members[key].map { cellText(bytes[$0]) } ?? "" }
    }

    private static func cellText(_ value: ArraySlice<UInt8>) -> String {
        switch value.first {
        case UInt8(ascii: "\""):
            return unescapeString(value)
        case UInt8(ascii: "n"):
            return ""
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var output: [UInt8] = []
            compact(value, into: &output)
            return String(decoding: output, as: UTF8.self)
        default:
            return String(decoding: value, as: UTF8.self)
        }
    }

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

    private static func hexDigit(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(byte - UInt8(ascii: "A") + 10)
        default: return nil
        }
    }

    /// `text` as a JSON string: the short escapes RFC 8259 names (`\n`, `\t`…) where there is one, as GitHub
    /// writes them, and `\uXXXX` for the other control characters, DEL, the C1 controls and the format characters
    /// (a right-to-left override, a zero-width space): the same string to a reader, but one that shown on a
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
            case 0..<0x20, 0x7F...0x9F: appendUnicodeEscape(UInt16(scalar.value), to: &output)
            case 0x20..<0x7F: output.append(UInt8(scalar.value))
            case _ where scalar.properties.generalCategory == .format:
                for unit in String(scalar).utf16 { appendUnicodeEscape(unit, to: &output) }
            default: output += scalar.utf8
            }
        }
        output.append(UInt8(ascii: "\""))
    }

    private static func appendUnicodeEscape(_ unit: UInt16, to output: inout [UInt8]) {
        output += Array(String(format: "\\u%04x", unit).utf8)
    }

    /// The index just past the value (string, number, literal, object or array) that starts at `start`.
    private static func endOfValue(_ bytes: [UInt8], from start: Int) throws(StructureError) -> Int {
        guard start < bytes.count else { throw StructureError(offset: start, reason: "expected a value") }
        if bytes[start] == UInt8(ascii: "\"") { return try endOfString(bytes, openingQuote: start) }
        var depth = 0
        var index = start
        var strings = StringTracker()
        while index < bytes.count {
            let byte = bytes[index]
            if strings.consume(byte) {
                index += 1
                continue
            }
            switch byte {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if depth == 0 { return index }
                depth -= 1
                if depth == 0 { return index + 1 }
            case UInt8(ascii: ","), UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"):
                if depth == 0 { return index }
            default:
                break
            }
            index += 1
        }
        if depth == 0 { return index }
        throw StructureError(offset: start, reason: "unterminated value")
    }

    /// The document without insignificant whitespace: one line, as ndjson needs. GitHub's bodies are
    /// already compact, so the work is copying: whole runs between whitespace are appended at once. Inside strings
    /// the characters a terminal obeys are escaped (`escapingTerminalControls`), the same value to a JSON reader.
    package static func compact(_ bytes: some Collection<UInt8>, into output: inout [UInt8]) {
        let handled: Void? = bytes.withContiguousStorageIfAvailable { compact($0, into: &output) }
        if handled == nil {
            Array(bytes).withUnsafeBufferPointer { compact($0, into: &output) }
        }
    }

    private static func compact(_ buffer: UnsafeBufferPointer<UInt8>, into output: inout [UInt8]) {
        if mayHoldTerminalControls(buffer) {
            escapingTerminalControls(buffer).withUnsafeBufferPointer { compactRuns($0, into: &output) }
        } else {
            compactRuns(buffer, into: &output)
        }
    }

    private static func compactRuns(_ buffer: UnsafeBufferPointer<UInt8>, into output: inout [UInt8]) {
        output.reserveCapacity(output.count + buffer.count)
        var runStart = 0
        var index = 0
        // The string tracking is written out here rather than through StringTracker: on the hot ndjson path that
        // measured 50,600 against 35,900 accounts a second (Scripts/bench W4, 20k, back to back).
        var inString = false
        var escaped = false
        let count = buffer.count
        while index < count {
            let byte = buffer[index]
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
            } else if byte == UInt8(ascii: "\"") {
                inString = true
            } else if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r")
                || byte == UInt8(ascii: "\t")
            {
                if runStart < index {
                    output.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[runStart..<index]))
                }
                runStart = index + 1
            }
            index += 1
        }
        if runStart < count {
            output.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[runStart..<count]))
        }
    }

    /// Whether `buffer` holds a byte from 0x7F up, which every character `escapingTerminalControls` escapes starts
    /// with: one pass with no branch, which the compiler vectorizes (1.3 ms for 20,000 accounts, 22 MB), so that a
    /// document all in ASCII, as a list's accounts are, goes to `compact` and `pretty` untouched. Looking at every
    /// byte of every string in their own loops cost a third of `compact`'s time (32 against 43 ms).
    private static func mayHoldTerminalControls(_ buffer: UnsafeBufferPointer<UInt8>) -> Bool {
        var seen: UInt8 = 0
        for byte in buffer { seen |= byte | (byte &+ 1) }
        return seen & 0x80 != 0
    }

    /// The document with each character inside a string that a terminal obeys or reorders a line by written as a
    /// `\uXXXX` escape, as `appendString` writes it: the ones `TerminalSanitizer` shows visibly in a table, DEL, a
    /// C1 control (U+0080-009F), a bidirectional override, embedding, isolate or mark (U+202A-202E, U+2066-2069,
    /// U+200E, U+200F, U+061C) and U+FEFF. `--json` on a terminal re-emits GitHub's bytes, and passed them through.
    private static func escapingTerminalControls(_ buffer: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(buffer.count + 64)
        var strings = StringTracker()
        var index = 0
        while index < buffer.count {
            let byte = buffer[index]
            if byte >= 0x7F, strings.inUnescapedString, let length = terminalControlLength(buffer, at: index) {
                appendTerminalControlEscape(buffer, at: index, length: length, to: &output)
                index += length
                continue
            }
            _ = strings.consume(byte)
            output.append(byte)
            index += 1
        }
        return output
    }

    /// The length of the UTF-8 sequence at `index` when it is a character `escapingTerminalControls` escapes; nil
    /// for any other.
    private static func terminalControlLength(_ buffer: UnsafeBufferPointer<UInt8>, at index: Int) -> Int? {
        let count = buffer.count
        switch buffer[index] {
        case 0x7F:
            return 1
        case 0xC2:
            return index + 1 < count && (0x80...0x9F).contains(buffer[index + 1]) ? 2 : nil
        case 0xD8:
            return index + 1 < count && buffer[index + 1] == 0x9C ? 2 : nil
        case 0xE2:
            guard index + 2 < count else { return nil }
            let second = buffer[index + 1]
            let third = buffer[index + 2]
            if second == 0x80 { return (0xAA...0xAE).contains(third) || third == 0x8E || third == 0x8F ? 3 : nil }
            return second == 0x81 && (0xA6...0xA9).contains(third) ? 3 : nil
        case 0xEF:
            return index + 2 < count && buffer[index + 1] == 0xBB && buffer[index + 2] == 0xBF ? 3 : nil
        default:
            return nil
        }
    }

    /// The character of `length` bytes at `index` as a `\uXXXX` escape, in `appendString`'s lower-case hex.
    private static func appendTerminalControlEscape(
        _ buffer: UnsafeBufferPointer<UInt8>, at index: Int, length: Int, to output: inout [UInt8]
    ) {
        var value = UInt32(buffer[index])
        switch length {
        case 2: value = (value & 0x1F) << 6 | UInt32(buffer[index + 1] & 0x3F)
        case 3:
            value = (value & 0x0F) << 12 | UInt32(buffer[index + 1] & 0x3F) << 6 | UInt32(buffer[index + 2] & 0x3F)
        default: break
        }
        let digits = Array("0123456789abcdef".utf8)
        output += [UInt8(ascii: "\\"), UInt8(ascii: "u")]
        output += [12, 8, 4, 0].map { digits[Int(value >> $0 & 0xF)] }
    }

    /// Follows string literals byte by byte, so callers can tell structure from string content.
    private struct StringTracker {
        private var inString = false
        private var escaped = false

        /// True inside a string literal where the next byte is not escaped by a backslash.
        var inUnescapedString: Bool { inString && !escaped }

        /// True when `byte` belongs to a string literal, its quotes included.
        mutating func consume(_ byte: UInt8) -> Bool {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                return true
            }
            if byte == UInt8(ascii: "\"") {
                inString = true
                return true
            }
            return false
        }
    }

    /// The document indented by `indent` spaces per level, starting at `level`, with `": "` after keys.
    /// Empty objects and arrays stay `{}` and `[]`; inside strings the characters a terminal obeys are escaped, as
    /// `compact` escapes them.
    package static func pretty(
        _ bytes: some Collection<UInt8>,
        indent: Int = 2,
        level: Int = 0,
        into output: inout [UInt8]
    ) {
        pretty(bytes as? [UInt8] ?? Array(bytes), indent: indent, level: level, into: &output, flushingAt: .max) {
            _ in
        }
    }

    /// `pretty(_:indent:level:into:)` handing `output` to `flush` whenever it holds `threshold` bytes or more,
    /// so that a record whose indented form is far larger than itself (a wide array deep down) is written as it
    /// is made rather than held whole; `flush` writes what it is given and leaves `output` empty, or throws.
    /// The document is read once, its insignificant whitespace skipped, with no compacted copy.
    package static func pretty<Failure: Error>(
        _ buffer: [UInt8],
        indent: Int,
        level: Int,
        into output: inout [UInt8],
        flushingAt threshold: Int,
        _ flush: (inout [UInt8]) throws(Failure) -> Void
    ) throws(Failure) {
        let buffer =
            buffer.withUnsafeBufferPointer(mayHoldTerminalControls)
            ? buffer.withUnsafeBufferPointer(escapingTerminalControls) : buffer
        var depth = level
        var strings = StringTracker()
        var index = 0
        let count = buffer.count
        func newline(_ output: inout [UInt8]) {
            output.append(UInt8(ascii: "\n"))
            output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: depth * indent))
        }
        func isWhitespace(_ byte: UInt8) -> Bool {
            byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r")
                || byte == UInt8(ascii: "\t")
        }
        while index < count {
            let byte = buffer[index]
            if strings.consume(byte) {
                output.append(byte)
                index += 1
                continue
            }
            switch byte {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                output.append(byte)
                let closing = byte == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
                var next = index + 1
                while next < count, isWhitespace(buffer[next]) { next += 1 }
                if next < count, buffer[next] == closing {
                    output.append(closing)
                    index = next + 1
                    continue
                }
                depth += 1
                newline(&output)
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                newline(&output)
                output.append(byte)
            case UInt8(ascii: ","):
                output.append(byte)
                newline(&output)
            case UInt8(ascii: ":"):
                output.append(contentsOf: [UInt8(ascii: ":"), UInt8(ascii: " ")])
            case _ where isWhitespace(byte):
                break
            default:
                output.append(byte)
            }
            index += 1
            if output.count >= threshold { try flush(&output) }
        }
    }

    static func skipWhitespace(_ bytes: [UInt8], from start: Int) -> Int {
        var index = start
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"):
                index += 1
            default:
                return index
            }
        }
        return index
    }

    /// The index just past the closing quote of the string that opens at `openingQuote`.
    private static func endOfString(_ bytes: [UInt8], openingQuote: Int) throws(StructureError) -> Int {
        var index = openingQuote + 1
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\\"):
                index += 2
            case UInt8(ascii: "\""):
                return index + 1
            default:
                index += 1
            }
        }
        throw StructureError(offset: openingQuote, reason: "unterminated string")
    }
}
