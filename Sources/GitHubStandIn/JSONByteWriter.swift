import JSONBytes

/// Appends compact JSON text to a byte buffer.
///
/// Written by hand instead of using JSONSerialization because GitHub's key order must be kept and a
/// 100-account page has to be assembled in far less than a millisecond. Its members stay internal.
struct JSONByteWriter {
    var bytes: [UInt8] = []

    init(reservingCapacity capacity: Int = 1024) { bytes.reserveCapacity(capacity) }

    static func array<Items: Collection>(_ items: Items, _ element: (inout Self, Items.Element) -> Void) -> [UInt8] {
        var writer = Self(reservingCapacity: 2 + items.count * 1_200)
        writer.raw("[")
        for (index, item) in items.enumerated() {
            writer.raw(index == 0 ? "" : ",")
            element(&writer, item)
        }
        writer.raw("]")
        return writer.bytes
    }

    /// An object of `members`, in their order, each value JSON already and kept as it is.
    static func object(_ members: [(String, [UInt8])]) -> [UInt8] {
        let entries = members.map { JSONValue.string($0).bytes + [UInt8(ascii: ":")] + $1 }
        return [UInt8(ascii: "{")] + Array(entries.joined(separator: [UInt8(ascii: ",")])) + [UInt8(ascii: "}")]
    }

    mutating func raw(_ text: StaticString) { text.withUTF8Buffer { bytes.append(contentsOf: $0) } }

    /// Appends text that the caller guarantees needs no JSON escaping (URLs built from logins, digits).
    mutating func unescaped(_ pieces: String...) { for text in pieces { bytes.append(contentsOf: text.utf8) } }

    mutating func integer(_ value: Int) { bytes.append(contentsOf: String(value).utf8) }

    mutating func boolean(_ value: Bool) { bytes.append(contentsOf: (value ? "true" : "false").utf8) }

    /// A string literal, escaped as JSONBytes escapes it: RFC 8259's escapes, and U+2028 and U+2029 too, so the
    /// text is also safe inside JavaScript sources.
    mutating func string(_ text: String) { bytes += JSONValue.string(text).bytes }

    mutating func optionalString(_ text: String?) { if let text { string(text) } else { raw("null") } }
}
