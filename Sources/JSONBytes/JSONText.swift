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
    /// (`flaw(in:deeperThan:)`, from `GitHubRepository`), so a list of accounts and a list of records refuse the
    /// same body the same way.
    package static let maximumDepth = 64

    /// Byte ranges of the elements of a top-level JSON array: all of `bytes`, or the array at `range` of them (a
    /// member's value, read where it is rather than copied).
    package static func arrayElements(_ bytes: [UInt8], in range: Range<Int>? = nil) throws(StructureError)
        -> [Range<Int>]
    {
        let end = range?.upperBound ?? bytes.count
        var index = skipWhitespace(bytes, from: range?.lowerBound ?? 0)
        guard index < end, bytes[index] == UInt8(ascii: "[") else {
            throw StructureError(offset: index, reason: "expected '['")
        }
        index += 1
        var elements: [Range<Int>] = []
        var depth = 0
        var start: Int?
        var lastSignificant = index
        while index < end {
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
                    guard trailing >= end else {
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
        throw StructureError(offset: end, reason: "unterminated array")
    }

    /// Byte ranges of the values of a top-level JSON object, by key, such as the `items` array of a search
    /// envelope. Keys with escapes are compared as written, which suffices for GitHub's ASCII keys; of a key
    /// given twice the last is kept, as jq keeps it (Data refuses such an object where it decodes one).
    package static func objectMembers(_ bytes: [UInt8]) throws(StructureError) -> [String: Range<Int>] {
        var members: [String: Range<Int>] = [:]
        try forEachMember(of: bytes) { key, value in
            members[String(decoding: bytes[key], as: UTF8.self)] = value
        }
        return members
    }

    /// The ranges of the values of `keys` in a top-level object, in their order, nil for a key it lacks, by the
    /// rules of `objectMembers` (a key compared as written, the last of two kept), without a dictionary or a
    /// string for every member: a table reads three keys of an account's thirty on each of a crawl's rows.
    package static func memberValues(_ keys: [String], in bytes: [UInt8]) throws(StructureError) -> [Range<Int>?] {
        let wanted = keys.map { Array($0.utf8) }
        let ascii = wanted.map { $0.allSatisfy { $0 < 0x80 } }
        var values = [Range<Int>?](repeating: nil, count: keys.count)
        try forEachMember(of: bytes) { key, value in
            // ASCII keys, GitHub's own, by their bytes; any other as strings compare, canonical equivalence and
            // all, as the dictionary of `objectMembers` finds them (a gist's file name written decomposed).
            let plain = bytes[key].allSatisfy { $0 < 0x80 }
            for (index, name) in wanted.enumerated() {
                let same =
                    plain && ascii[index]
                    ? name.count == key.count && bytes[key].elementsEqual(name)
                    : String(decoding: bytes[key], as: UTF8.self) == keys[index]
                if same { values[index] = value }
            }
        }
        return values
    }

    /// Calls `body` with each member's key (between its quotes, as written) and value, in order.
    private static func forEachMember(
        of bytes: [UInt8], _ body: (_ key: Range<Int>, _ value: Range<Int>) -> Void
    ) throws(StructureError) {
        var index = skipWhitespace(bytes, from: 0)
        guard index < bytes.count, bytes[index] == UInt8(ascii: "{") else {
            throw StructureError(offset: index, reason: "expected '{'")
        }
        index = skipWhitespace(bytes, from: index + 1)
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") { return }
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "\"") else {
                throw StructureError(offset: index, reason: "expected a key")
            }
            let keyEnd = try endOfString(bytes, openingQuote: index)
            let key = (index + 1)..<(keyEnd - 1)
            index = skipWhitespace(bytes, from: keyEnd)
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                throw StructureError(offset: index, reason: "expected ':'")
            }
            let valueStart = skipWhitespace(bytes, from: index + 1)
            let valueEnd = try endOfValue(bytes, from: valueStart)
            body(key, valueStart..<valueEnd)
            index = skipWhitespace(bytes, from: valueEnd)
            guard index < bytes.count else { break }
            if bytes[index] == UInt8(ascii: "}") { return }
            guard bytes[index] == UInt8(ascii: ",") else { throw StructureError(offset: index, reason: "expected ','") }
            index = skipWhitespace(bytes, from: index + 1)
        }
        throw StructureError(offset: bytes.count, reason: "unterminated object")
    }

    /// The first key that an object gives twice, at any depth (an account's `plan`, the rate limits' buckets),
    /// its escapes resolved (`"log\u0069n"` is `login`); nil when every object gives each key once, or the bytes
    /// are not JSON. Foundation's `JSONDecoder` keeps the first of two values where jq and `objectMembers` keep the
    /// last, so a record holding one would say two things. Nil too past `maximumDepth` levels, where it stops
    /// looking: a file of `[`s would cost 16 bytes of this scan for each (such bytes are no answer or file anyone
    /// reads further).
    package static func repeatedKey(in bytes: [UInt8]) -> String? {
        // One open object or array each: an object's keys so far, and whether a key comes next.
        var open: [(keys: Set<String>?, keyNext: Bool)] = []
        var index = 0
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                guard open.count < maximumDepth else { return nil }
                open.append(bytes[index] == UInt8(ascii: "{") ? ([], true) : (nil, false))
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                guard open.popLast() != nil else { return nil }
            case UInt8(ascii: ","):
                if let last = open.indices.last, open[last].keys != nil { open[last].keyNext = true }
            case UInt8(ascii: "\""):
                guard let end = try? endOfString(bytes, openingQuote: index) else { return nil }
                if let last = open.indices.last, open[last].keyNext, open[last].keys != nil {
                    let key = unescapeString(bytes[index..<end])
                    guard open[last].keys?.insert(key).inserted == true else { return key }
                    open[last].keyNext = false
                }
                index = end
                continue
            default: break
            }
            index += 1
        }
        return nil
    }

    /// An object holding only `keys`, in that order, each with its exact value, or `null` where the object
    /// lacks it: what `--fields` makes of a record in JSON.
    package static func project(_ bytes: [UInt8], keys: [String]) -> [UInt8] {
        let values = (try? memberValues(keys, in: bytes)) ?? keys.map { _ in nil }
        var output: [UInt8] = [UInt8(ascii: "{")]
        for (index, key) in keys.enumerated() {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            appendString(key, to: &output)
            output.append(UInt8(ascii: ":"))
            if let range = values[index] {
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
            guard let found = try? memberValues([key], in: current), let range = found[0] else { return nil }
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

    /// The keys of the object at a path as a person reads them: in the order written, escapes resolved (a file
    /// named `a"b.txt` is sent as `"a\\"b.txt"`); empty where there is no object.
    package static func keyTexts(at path: [String], in bytes: [UInt8]) -> [String] {
        guard let object = value(at: path, in: bytes), let members = try? objectMembers(object) else { return [] }
        return members.sorted { $0.value.lowerBound < $1.value.lowerBound }.map { key, _ in
            unescapeString(Array(("\"" + key + "\"").utf8))
        }
    }

    /// A member's value as text for a table cell: strings unescaped, numbers and booleans as written,
    /// `null` and a missing key as empty, objects and arrays as compact JSON.
    package static func text(of key: String, in bytes: [UInt8]) -> String {
        texts(of: [key], in: bytes)[0]
    }

    /// Several members' texts, from one scan of the object.
    package static func texts(of keys: [String], in bytes: [UInt8]) -> [String] {
        let values = (try? memberValues(keys, in: bytes)) ?? []
        return keys.indices.map { index in values.isEmpty ? "" : values[index].map { cellText(bytes[$0]) } ?? "" }
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

    /// Follows string literals byte by byte, so callers can tell structure from string content.
    struct StringTracker {
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
    /// Each quote is found by `memchr`, a word or more at a time; one after an odd run of backslashes is escaped.
    private static func endOfString(_ bytes: [UInt8], openingQuote: Int) throws(StructureError) -> Int {
        let end = bytes.withUnsafeBufferPointer { buffer -> Int? in
            guard let base = buffer.baseAddress else { return nil }
            var index = openingQuote + 1
            while index < buffer.count,
                let found = memchr(base + index, Int32(UInt8(ascii: "\"")), buffer.count - index)
            {
                let quote = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
                var escape = quote - 1
                while escape > openingQuote, buffer[escape] == UInt8(ascii: "\\") { escape -= 1 }
                if (quote - escape) % 2 == 1 { return quote + 1 }
                index = quote + 1
            }
            return nil
        }
        guard let end else { throw StructureError(offset: openingQuote, reason: "unterminated string") }
        return end
    }
}
