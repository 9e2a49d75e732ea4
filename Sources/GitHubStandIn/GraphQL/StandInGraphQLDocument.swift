import Foundation

/// A GraphQL query document (the GraphQL specification's "Language" section), as much of it as gh-users writes
/// (`Sources/Data/GraphQL*.swift`): one `query` operation, fields with aliases and arguments (literals, or
/// `$variables` replaced by the request's `variables`), nested selection sets, named fragments and inline
/// fragments. Variable definitions are skipped: a variable the request does not give is null.
struct StandInGraphQLDocument {
    enum Value: Equatable {
        case string(String)
        case integer(Int)
        /// An enum value, `true` or `false`.
        case name(String)
        case null
        case list([Value])
        case object([String: Value])
    }

    struct Field {
        /// The alias, else the name: the answer's key.
        var key: String
        var name: String
        var arguments: [String: Value]
        var selections: [Selection]

        func text(_ argument: String) -> String? {
            switch arguments[argument] {
            case .string(let text), .name(let text): text
            default: nil
            }
        }

        func integer(_ argument: String) -> Int? {
            if case .integer(let number) = arguments[argument] { number } else { nil }
        }
    }

    indirect enum Selection {
        case field(Field)
        /// An inline fragment, or a named one spread, with its type condition (nil: none).
        case fragment(on: String?, [Selection])
        case spread(String)
    }

    struct SyntaxError: Error {}

    private(set) var selections: [Selection] = []
    private(set) var fragments: [String: Selection] = [:]

    private enum Token: Equatable {
        case punctuator(Unicode.Scalar)
        case name(String)
        case string(String)
        case integer(Int)
    }

    private var tokens: [Token] = []
    private var next = 0
    private let variables: [String: Any]

    init(_ text: String, variables: [String: Any]) throws {
        self.variables = variables
        tokens = try Self.tokens(of: Array(text.unicodeScalars))
        while next < tokens.count {
            switch tokens[next] {
            case .punctuator("{"): selections = try selectionSet()
            case .name("query"):
                next += 1
                if case .name = tokens[safe: next] { next += 1 }
                if take("(") { try skip(to: ")") }
                selections = try selectionSet()
            case .name("fragment"):
                next += 1
                let name = try self.name()
                guard try self.name() == "on" else { throw SyntaxError() }
                fragments[name] = .fragment(on: try self.name(), try selectionSet())
            default: throw SyntaxError()
            }
        }
    }

    private mutating func take(_ punctuator: Unicode.Scalar) -> Bool {
        guard tokens[safe: next] == .punctuator(punctuator) else { return false }
        next += 1
        return true
    }

    private mutating func skip(to punctuator: Unicode.Scalar) throws {
        while !take(punctuator) {
            guard next < tokens.count else { throw SyntaxError() }
            next += 1
        }
    }

    private mutating func name() throws -> String {
        guard case .name(let name) = tokens[safe: next] else { throw SyntaxError() }
        next += 1
        return name
    }

    private mutating func selectionSet() throws -> [Selection] {
        guard take("{") else { throw SyntaxError() }
        var selections: [Selection] = []
        while !take("}") {
            if take(".") {
                if tokens[safe: next] == .name("on") {
                    next += 1
                    let condition = try name()
                    selections.append(.fragment(on: condition, try selectionSet()))
                } else if tokens[safe: next] == .punctuator("{") {
                    selections.append(.fragment(on: nil, try selectionSet()))
                } else {
                    selections.append(.spread(try name()))
                }
                continue
            }
            let key = try name()
            var field = Field(key: key, name: take(":") ? try name() : key, arguments: [:], selections: [])
            if take("(") {
                while !take(")") {
                    let argument = try name()
                    guard take(":") else { throw SyntaxError() }
                    field.arguments[argument] = try value()
                }
            }
            if tokens[safe: next] == .punctuator("{") { field.selections = try selectionSet() }
            selections.append(.field(field))
        }
        return selections
    }

    private mutating func value() throws -> Value {
        let token = tokens[safe: next]
        next += 1
        switch token {
        case .string(let text): return .string(text)
        case .integer(let number): return .integer(number)
        case .name("null"): return .null
        case .name(let name): return .name(name)
        case .punctuator("$"):
            switch variables[try name()] {
            case let text as String: return .string(text)
            case let number as Int: return .integer(number)
            default: return .null
            }
        case .punctuator("["):
            var items: [Value] = []
            while !take("]") { items.append(try value()) }
            return .list(items)
        case .punctuator("{"):
            var members: [String: Value] = [:]
            while !take("}") {
                let member = try name()
                guard take(":") else { throw SyntaxError() }
                members[member] = try value()
            }
            return .object(members)
        default: throw SyntaxError()
        }
    }

    private static let nameScalars = Set(
        "_0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".unicodeScalars)

    /// The lexical tokens; commas, white space and comments are ignored, as the specification says.
    private static func tokens(of text: [Unicode.Scalar]) throws -> [Token] {
        var tokens: [Token] = []
        var at = 0
        func run(from start: Int, while include: (Unicode.Scalar) -> Bool) -> String {
            at = start
            while at < text.count, include(text[at]) { at += 1 }
            return String(String.UnicodeScalarView(text[start..<at]))
        }
        while at < text.count {
            let scalar = text[at]
            if scalar == "#" {
                _ = run(from: at) { $0 != "\n" }
            } else if scalar.properties.isWhitespace || scalar == "," || scalar == "\u{FEFF}" {
                at += 1
            } else if scalar == "." {
                guard text[at..<min(text.count, at + 3)].elementsEqual("...".unicodeScalars) else {
                    throw SyntaxError()
                }
                tokens.append(.punctuator("."))
                at += 3
            } else if scalar == "\"" {
                // A GraphQL string literal is JSON's (block strings aside, which gh-users does not write).
                var end = at + 1
                while end < text.count, text[end] != "\"" { end += text[end] == "\\" ? 2 : 1 }
                let literal = Data(String(String.UnicodeScalarView(text[at..<min(text.count, end + 1)])).utf8)
                guard
                    let string = try? JSONSerialization.jsonObject(with: literal, options: .fragmentsAllowed) as? String
                else { throw SyntaxError() }
                tokens.append(.string(string))
                at = end + 1
            } else if scalar == "-" || ("0"..."9").contains(scalar) {
                let digits = run(from: at + 1) { ("0"..."9").contains($0) }
                guard let number = Int(String(Character(scalar)) + digits) else { throw SyntaxError() }
                tokens.append(.integer(number))
            } else if nameScalars.contains(scalar) {
                tokens.append(.name(run(from: at) { nameScalars.contains($0) }))
            } else if "{}()[]:$!=@".unicodeScalars.contains(scalar) {
                tokens.append(.punctuator(scalar))
                at += 1
            } else {
                throw SyntaxError()
            }
        }
        return tokens
    }
}

extension Array {
    fileprivate subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
