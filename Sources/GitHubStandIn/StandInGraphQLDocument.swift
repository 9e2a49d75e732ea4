/// The part of GraphQL's query language a profile lookup uses, parsed: one operation (`query Name? { … }` or
/// a bare `{ … }`, without variables or directives), named fragments, aliases, arguments whose values are
/// strings, enum names, numbers or lists of them, inline fragments and fragment spreads. Anything else is a
/// syntax error, which the handler reports as GitHub reports a parse error: with no `path`.
struct StandInGraphQLDocument {
    indirect enum Selection {
        case field(Field)
        case inlineFragment(typeCondition: String?, selections: [Selection])
        case fragmentSpread(String)
    }

    struct Field {
        var alias: String?
        var name: String
        var arguments: [String: Value]
        var selections: [Selection]

        var responseKey: String { alias ?? name }
    }

    indirect enum Value: Equatable {
        case string(String)
        case enumName(String)
        case number(String)
        case list([Value])
    }

    struct Fragment {
        var typeCondition: String
        var selections: [Selection]
    }

    struct SyntaxError: Error {
        let message: String
    }

    var operation: [Selection]
    var fragments: [String: Fragment]

    init(parsing text: String) throws(SyntaxError) {
        var parser = Parser(tokens: try Self.tokens(text))
        var operation: [Selection]?
        var fragments: [String: Fragment] = [:]
        while !parser.atEnd {
            if parser.peek == "fragment" {
                parser.advance()
                let name = try parser.name()
                guard name != "on" else { throw SyntaxError(message: "a fragment needs a name") }
                try parser.expect("on")
                let type = try parser.name()
                guard fragments[name] == nil else { throw SyntaxError(message: "fragment '\(name)' is defined twice") }
                fragments[name] = Fragment(typeCondition: type, selections: try parser.selectionSet())
                continue
            }
            guard operation == nil else { throw SyntaxError(message: "only one operation is supported") }
            if parser.peek == "query" {
                parser.advance()
                if parser.peek != "{" { _ = try parser.name() }
                if parser.peek == "(" { throw SyntaxError(message: "variables are not supported by this stand-in") }
            }
            operation = try parser.selectionSet()
        }
        guard let operation else { throw SyntaxError(message: "the document has no operation") }
        self.operation = operation
        self.fragments = fragments
    }

    private static func tokens(_ text: String) throws(SyntaxError) -> [Token] {
        var tokens: [Token] = []
        let scalars = Array(text.unicodeScalars)
        var index = 0
        func isNameStart(_ scalar: Unicode.Scalar) -> Bool {
            scalar == "_" || ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
        }
        while index < scalars.count {
            let scalar = scalars[index]
            switch scalar {
            case " ", "\t", "\n", "\r", ",", "\u{FEFF}":
                index += 1
            case "#":
                while index < scalars.count, scalars[index] != "\n" { index += 1 }
            case "{", "}", "(", ")", ":", "[", "]", "!", "$", "=", "@":
                tokens.append(Token(kind: .punctuator, text: String(scalar)))
                index += 1
            case ".":
                guard index + 2 < scalars.count, scalars[index + 1] == ".", scalars[index + 2] == "." else {
                    throw SyntaxError(message: "unexpected '.'")
                }
                tokens.append(Token(kind: .punctuator, text: "..."))
                index += 3
            case "\"":
                index += 1
                var value = ""
                var closed = false
                while index < scalars.count {
                    let next = scalars[index]
                    index += 1
                    if next == "\"" {
                        closed = true
                        break
                    }
                    guard next != "\n" else { break }
                    guard next == "\\" else {
                        value.unicodeScalars.append(next)
                        continue
                    }
                    guard index < scalars.count else { break }
                    let escaped = scalars[index]
                    index += 1
                    switch escaped {
                    case "\"", "\\", "/": value.unicodeScalars.append(escaped)
                    case "n": value += "\n"
                    case "t": value += "\t"
                    case "r": value += "\r"
                    case "b": value += "\u{08}"
                    case "f": value += "\u{0C}"
                    case "u":
                        guard index + 4 <= scalars.count,
                            let code = UInt32(String(String.UnicodeScalarView(scalars[index..<index + 4])), radix: 16),
                            let decoded = Unicode.Scalar(code)
                        else { throw SyntaxError(message: "a bad \\u escape in a string") }
                        value.unicodeScalars.append(decoded)
                        index += 4
                    default: throw SyntaxError(message: "a bad escape in a string")
                    }
                }
                guard closed else { throw SyntaxError(message: "a string is not closed") }
                tokens.append(Token(kind: .string, text: value))
            case "-", "0"..."9":
                var number = ""
                while index < scalars.count, scalars[index] == "-" || ("0"..."9").contains(scalars[index]) {
                    number.unicodeScalars.append(scalars[index])
                    index += 1
                }
                tokens.append(Token(kind: .number, text: number))
            default:
                guard isNameStart(scalar) else { throw SyntaxError(message: "unexpected character '\(scalar)'") }
                var name = ""
                while index < scalars.count, isNameStart(scalars[index]) || ("0"..."9").contains(scalars[index]) {
                    name.unicodeScalars.append(scalars[index])
                    index += 1
                }
                tokens.append(Token(kind: .name, text: name))
            }
        }
        return tokens
    }

    private struct Token {
        enum Kind { case punctuator, name, string, number }
        let kind: Kind
        let text: String
    }

    private struct Parser {
        let tokens: [Token]
        var position = 0

        var atEnd: Bool { position >= tokens.count }
        /// The next token's text, or "" at the end (no token is empty).
        var peek: String { atEnd ? "" : tokens[position].text }

        mutating func advance() { position += 1 }

        mutating func expect(_ text: String) throws(SyntaxError) {
            guard peek == text else { throw SyntaxError(message: "expected '\(text)', found '\(peek)'") }
            advance()
        }

        mutating func name() throws(SyntaxError) -> String {
            guard !atEnd, tokens[position].kind == .name else {
                throw SyntaxError(message: "expected a name, found '\(peek)'")
            }
            defer { advance() }
            return tokens[position].text
        }

        /// Nesting is bounded by the document's length, which the server caps at a mebibyte; 64 levels is
        /// far more than any lookup needs and keeps the recursion shallow.
        mutating func selectionSet(depth: Int = 0) throws(SyntaxError) -> [Selection] {
            guard depth < 64 else { throw SyntaxError(message: "the query is nested too deeply") }
            try expect("{")
            var selections: [Selection] = []
            while peek != "}" {
                guard !atEnd else { throw SyntaxError(message: "a selection set is not closed") }
                selections.append(try selection(depth: depth))
            }
            advance()
            guard !selections.isEmpty else { throw SyntaxError(message: "a selection set is empty") }
            return selections
        }

        private mutating func selection(depth: Int) throws(SyntaxError) -> Selection {
            if peek == "..." {
                advance()
                if peek == "on" {
                    advance()
                    let type = try name()
                    return .inlineFragment(typeCondition: type, selections: try selectionSet(depth: depth + 1))
                }
                if peek == "{" {
                    return .inlineFragment(typeCondition: nil, selections: try selectionSet(depth: depth + 1))
                }
                return .fragmentSpread(try name())
            }
            var alias: String?
            var fieldName = try name()
            if peek == ":" {
                advance()
                alias = fieldName
                fieldName = try name()
            }
            var arguments: [String: Value] = [:]
            if peek == "(" {
                advance()
                while peek != ")" {
                    let argument = try name()
                    try expect(":")
                    guard arguments[argument] == nil else {
                        throw SyntaxError(message: "argument '\(argument)' is given twice")
                    }
                    arguments[argument] = try value(depth: depth)
                }
                advance()
            }
            if peek == "@" { throw SyntaxError(message: "directives are not supported by this stand-in") }
            let selections = peek == "{" ? try selectionSet(depth: depth + 1) : []
            return .field(Field(alias: alias, name: fieldName, arguments: arguments, selections: selections))
        }

        private mutating func value(depth: Int) throws(SyntaxError) -> Value {
            guard depth < 64 else { throw SyntaxError(message: "the query is nested too deeply") }
            guard !atEnd else { throw SyntaxError(message: "expected a value") }
            let token = tokens[position]
            switch token.kind {
            case .string:
                advance()
                return .string(token.text)
            case .number:
                advance()
                return .number(token.text)
            case .name:
                advance()
                return .enumName(token.text)
            case .punctuator:
                guard token.text == "[" else {
                    if token.text == "$" { throw SyntaxError(message: "variables are not supported by this stand-in") }
                    throw SyntaxError(message: "expected a value, found '\(token.text)'")
                }
                advance()
                var elements: [Value] = []
                while peek != "]" {
                    guard !atEnd else { throw SyntaxError(message: "a list is not closed") }
                    elements.append(try value(depth: depth + 1))
                }
                advance()
                return .list(elements)
            }
        }
    }
}
