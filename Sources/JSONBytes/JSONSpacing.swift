/// Re-spacing a document, compact or indented, without re-encoding any value but for the characters a terminal
/// obeys, which are escaped inside strings (`escapingTerminalControls`).
extension JSONText {
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
    /// U+200E, U+200F, U+061C) and U+FEFF; and the line and paragraph separators (U+2028, U+2029), where a reader
    /// that splits lines by Unicode's rules (Python's `splitlines`) would cut an ndjson record in two. `--json` on
    /// a terminal re-emits GitHub's bytes, and passed them through.
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
            if second == 0x80 { return (0xA8...0xAE).contains(third) || third == 0x8E || third == 0x8F ? 3 : nil }
            return second == 0x81 && (0xA6...0xA9).contains(third) ? 3 : nil
        case 0xEF:
            return index + 2 < count && buffer[index + 1] == 0xBB && buffer[index + 2] == 0xBF ? 3 : nil
        default:
            return nil
        }
    }

    /// The character of `length` bytes at `index` as a `\uXXXX` escape, as `appendString` writes one.
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
        appendUnicodeEscape(UInt16(value), to: &output)
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
}
