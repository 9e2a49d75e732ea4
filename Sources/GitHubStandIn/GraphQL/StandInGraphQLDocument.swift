import Foundation

/// A GraphQL query document (the GraphQL specification's "Language" section), as much of it as gh-users writes
/// (`Sources/Data/GraphQL*.swift`): one `query`, fields with aliases and arguments (literals, or `$variables` the
/// request gives), nested selection sets, named and inline fragments. Variable definitions are skipped. An argument
/// is kept as its text (a string's contents, a number, an enum value); null, lists and input objects (gh-users's
/// `orderBy`, which is the stand-in's own order) are read and left out.
struct StandInGraphQLDocument {
    struct Field {
        /// The alias, else the name: the answer's key.
        var key: String
        var name: String
        var arguments: [String: String] = [:]
        var selections: [Selection] = []

        func text(_ argument: String) -> String? { arguments[argument] }
        func integer(_ argument: String) -> Int? { arguments[argument].flatMap { Int($0) } }
    }

    indirect enum Selection {
        case field(Field)
        /// An inline fragment, or a named one as spread, with its type condition (nil: none).
        case fragment(on: String?, [Selection])
        case spread(String)
    }

    struct SyntaxError: Error {}

    private(set) var selections: [Selection] = []
    private(set) var fragments: [String: Selection] = [:]
    private var tokens: [Substring] = []
    private var next = 0
    private let variables: [String: Any]

    /// A string, a spread, a name, a number or a punctuator; or white space, commas and comments, which are ignored.
    private static var token: Regex<Substring> {
        #/"(?:[^"\\]|\\.)*"|\.\.\.|[_A-Za-z][_0-9A-Za-z]*|-?[0-9]+|[{}()\[\]:$!=@]|[\s,]+|#.*/#
    }

    init(_ text: String, variables: [String: Any]) throws {
        self.variables = variables
        var rest = text[...]
        let token = Self.token
        while let match = try token.prefixMatch(in: rest), !match.output.isEmpty {
            if let first = match.output.first, !first.isWhitespace, first != ",", first != "#" {
                tokens.append(match.output)
            }
            rest = rest[match.output.endIndex...]
        }
        guard rest.isEmpty else { throw SyntaxError() }
        while next < tokens.count {
            if take("fragment") {
                let name = try self.name()
                guard take("on") else { throw SyntaxError() }
                fragments[name] = .fragment(on: try self.name(), try selectionSet())
                continue
            }
            if take("query"), tokens[next...].first?.first?.isLetter == true { next += 1 }
            if take("(") {
                while !take(")") {
                    guard next < tokens.count else { throw SyntaxError() }
                    next += 1
                }
            }
            selections = try selectionSet()
        }
    }

    private mutating func take(_ token: String) -> Bool {
        guard tokens[next...].first == token[...] else { return false }
        next += 1
        return true
    }

    private mutating func name() throws -> String {
        guard let token = tokens[next...].first, token.first == "_" || token.first?.isLetter == true else {
            throw SyntaxError()
        }
        next += 1
        return String(token)
    }

    private mutating func selectionSet() throws -> [Selection] {
        guard take("{") else { throw SyntaxError() }
        var selections: [Selection] = []
        while !take("}") {
            if take("...") {
                let condition = take("on") ? try name() : nil
                let spread = condition == nil && tokens[next...].first != "{"
                selections.append(spread ? .spread(try name()) : .fragment(on: condition, try selectionSet()))
                continue
            }
            let key = try name()
            var field = Field(key: key, name: take(":") ? try name() : key)
            if take("(") {
                while !take(")") {
                    let argument = try name()
                    guard take(":") else { throw SyntaxError() }
                    field.arguments[argument] = try value()
                }
            }
            if tokens[next...].first == "{" { field.selections = try selectionSet() }
            selections.append(.field(field))
        }
        return selections
    }

    private mutating func value() throws -> String? {
        guard let token = tokens[next...].first else { throw SyntaxError() }
        next += 1
        switch token.first {
        case "$":
            let value = variables[try name()]
            return value as? String ?? (value as? Int).map(String.init)
        case "\"":
            // A GraphQL string literal is JSON's (block strings aside, which gh-users does not write).
            return try JSONSerialization.jsonObject(with: Data(token.utf8), options: .fragmentsAllowed) as? String
        case "[", "{":
            while !take(token == "[" ? "]" : "}") {
                if token == "{" {
                    _ = try name()
                    guard take(":") else { throw SyntaxError() }
                }
                _ = try value()
            }
            return nil
        case let first? where first == "_" || first == "-" || first.isLetter || first.isNumber:
            return token == "null" ? nil : String(token)
        default: throw SyntaxError()
        }
    }
}
