import Foundation
import Testing

/// A JSON value that keeps object keys in the order they were written.
///
/// `JSONSerialization` forgets key order, and GitHub's documented key order is part of what the stand-in promises
/// (clients that compare bodies byte for byte depend on it), so shape tests parse with this instead.
indirect enum OrderedJSON: Equatable {
    case object([(key: String, value: OrderedJSON)])
    case array([OrderedJSON])
    case string(String)
    case number(String)
    case bool(Bool)
    case null

    static func == (lhs: OrderedJSON, rhs: OrderedJSON) -> Bool {
        switch (lhs, rhs) {
        case (.object(let a), .object(let b)):
            a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        case (.array(let a), .array(let b)):
            a == b
        case (.string(let a), .string(let b)), (.number(let a), .number(let b)):
            a == b
        case (.bool(let a), .bool(let b)):
            a == b
        case (.null, .null):
            true
        default:
            false
        }
    }

    /// The object's keys in written order; empty for anything else.
    var keys: [String] {
        if case .object(let members) = self {
            return members.map(\.key)
        }
        return []
    }

    subscript(key: String) -> OrderedJSON? {
        if case .object(let members) = self {
            return members.first { $0.key == key }?.value
        }
        return nil
    }

    var elements: [OrderedJSON] {
        if case .array(let items) = self {
            return items
        }
        return []
    }

    var stringValue: String? {
        if case .string(let text) = self {
            return text
        }
        return nil
    }

    static func parse(_ bytes: [UInt8]) throws -> OrderedJSON {
        var parser = OrderedJSONParser(bytes: bytes)
        let value = try parser.value()
        parser.skipWhitespace()
        guard parser.position == bytes.count else {
            throw OrderedJSONParser.Failure(position: parser.position)
        }
        return value
    }

    static func parse(_ text: String) throws -> OrderedJSON {
        try parse(Array(text.utf8))
    }
}

/// Strings are decoded through JSONSerialization so escapes and surrogate pairs follow the standard exactly.
struct OrderedJSONParser {
    struct Failure: Error {
        var position: Int
    }

    let bytes: [UInt8]
    var position = 0

    mutating func skipWhitespace() {
        while position < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[position]) {
            position += 1
        }
    }

    mutating func value() throws -> OrderedJSON {
        skipWhitespace()
        guard position < bytes.count else {
            throw Failure(position: position)
        }
        switch bytes[position] {
        case UInt8(ascii: "{"):
            position += 1
            var members: [(key: String, value: OrderedJSON)] = []
            skipWhitespace()
            if position < bytes.count, bytes[position] == UInt8(ascii: "}") {
                position += 1
                return .object(members)
            }
            while true {
                skipWhitespace()
                let key = try string()
                skipWhitespace()
                try expect(UInt8(ascii: ":"))
                members.append((key, try value()))
                skipWhitespace()
                if try separatorEnds(UInt8(ascii: "}")) {
                    return .object(members)
                }
            }
        case UInt8(ascii: "["):
            position += 1
            var items: [OrderedJSON] = []
            skipWhitespace()
            if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
                position += 1
                return .array(items)
            }
            while true {
                items.append(try value())
                skipWhitespace()
                if try separatorEnds(UInt8(ascii: "]")) {
                    return .array(items)
                }
            }
        case UInt8(ascii: "\""):
            return .string(try string())
        case UInt8(ascii: "t"):
            try literal("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try literal("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try literal("null")
            return .null
        default:
            let start = position
            while position < bytes.count, Array("+-0123456789.eE".utf8).contains(bytes[position]) {
                position += 1
            }
            guard position > start else {
                throw Failure(position: position)
            }
            return .number(String(decoding: bytes[start..<position], as: UTF8.self))
        }
    }

    private mutating func separatorEnds(_ closer: UInt8) throws -> Bool {
        guard position < bytes.count else {
            throw Failure(position: position)
        }
        if bytes[position] == closer {
            position += 1
            return true
        }
        try expect(UInt8(ascii: ","))
        return false
    }

    private mutating func expect(_ byte: UInt8) throws {
        guard position < bytes.count, bytes[position] == byte else {
            throw Failure(position: position)
        }
        position += 1
    }

    private mutating func literal(_ text: String) throws {
        for byte in text.utf8 {
            try expect(byte)
        }
    }

    private mutating func string() throws -> String {
        let start = position
        try expect(UInt8(ascii: "\""))
        while position < bytes.count, bytes[position] != UInt8(ascii: "\"") {
            position += bytes[position] == UInt8(ascii: "\\") ? 2 : 1
        }
        try expect(UInt8(ascii: "\""))
        let quoted = Data(bytes[start..<position])
        guard let decoded = try JSONSerialization.jsonObject(with: quoted, options: .fragmentsAllowed) as? String
        else {
            throw Failure(position: start)
        }
        return decoded
    }
}

/// The item objects of a JSON array body, keys in order.
func orderedItems(_ response: RawHTTPResponse) throws -> [OrderedJSON] {
    let parsed = try OrderedJSON.parse(response.body)
    guard case .array(let items) = parsed else {
        throw OrderedJSONParser.Failure(position: 0)
    }
    return items
}
