/// JSON that gh-users writes of its own (not GitHub's bytes): built as a value and encoded here, with strings
/// escaped as JSON requires and an object's members in the order given, which `JSONEncoder` does not keep.
package enum JSONValue: Sendable, Equatable {
    case string(String)
    case integer(Int64)
    case bool(Bool)
    case null
    case array([JSONValue])
    case object([Member])

    package struct Member: Sendable, Equatable {
        package let key: String
        package let value: JSONValue

        package init(_ key: String, _ value: JSONValue) {
            self.key = key
            self.value = value
        }
    }

    /// Compact JSON text.
    package var bytes: [UInt8] {
        var output: [UInt8] = []
        encode(into: &output)
        return output
    }

    private func encode(into output: inout [UInt8]) {
        switch self {
        case .string(let text): JSONText.appendString(text, to: &output)
        case .integer(let number): output.append(contentsOf: Array(String(number).utf8))
        case .bool(let flag): output.append(contentsOf: Array((flag ? "true" : "false").utf8))
        case .null: output.append(contentsOf: Array("null".utf8))
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                element.encode(into: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let members):
            output.append(UInt8(ascii: "{"))
            for (index, member) in members.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                JSONText.appendString(member.key, to: &output)
                output.append(UInt8(ascii: ":"))
                member.value.encode(into: &output)
            }
            output.append(UInt8(ascii: "}"))
        }
    }
}
