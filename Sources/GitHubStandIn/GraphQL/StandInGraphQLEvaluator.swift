import JSONBytes

/// What a field resolves to: a scalar, an object to select from, or a list of either.
enum StandInGraphQLResult {
    case leaf(JSONValue)
    case object(StandInGraphQLObject)
    case list([StandInGraphQLResult])

    static var null: Self { leaf(.null) }
    static func text(_ text: String?) -> Self { leaf(text.map(JSONValue.string) ?? .null) }
    static func number(_ number: Int) -> Self { leaf(.integer(Int64(number))) }
    static func flag(_ flag: Bool) -> Self { leaf(.bool(flag)) }
    static func object(_ type: String, _ fields: [String: Self]) -> Self { .object(StandInGraphQLObject(type, fields)) }
}

/// An object of GitHub's schema: its type, and how it answers a field (nil: the schema has no such field here).
struct StandInGraphQLObject {
    let type: String
    let field: (StandInGraphQLDocument.Field) throws -> StandInGraphQLResult?

    init(_ type: String, field: @escaping (StandInGraphQLDocument.Field) throws -> StandInGraphQLResult?) {
        (self.type, self.field) = (type, field)
    }

    /// An object whose fields are all at hand.
    init(_ type: String, _ fields: [String: StandInGraphQLResult]) { self.init(type) { fields[$0.name] } }
}

/// A field GitHub answers with null beside an error at the field's path (`FORBIDDEN`, `NOT_FOUND` …).
struct StandInGraphQLFieldError: Error {
    let type: String
    let message: String
}

/// An error about the whole query, answered with no `data` and no `path`.
struct StandInGraphQLQueryError: Error {
    let message: String
}

/// Executes a document as the GraphQL specification's "Execution" section does: each object's fields collected
/// from its selection set (fragments whose type condition it meets included, fields of one key merged, in their
/// first place), each written under its key in that order, and a field error nulling the nearest nullable field
/// above it.
struct StandInGraphQLEvaluator {
    typealias Field = StandInGraphQLDocument.Field
    typealias Selection = StandInGraphQLDocument.Selection

    /// The interfaces gh-users's fragments name, with the types that implement them.
    static let interfaces = ["RepositoryOwner": ["User", "Organization"]]
    /// The non-null fields gh-users asks (`ContributionsCollection!`, `ContributionCalendar!` in GitHub's schema).
    static let nonNull: Set = ["contributionsCollection", "contributionCalendar"]

    let fragments: [String: Selection]
    private(set) var errors: [(type: String, path: [JSONValue], message: String)] = []

    private struct Nulled: Error {}

    func collect(_ selections: [Selection], on type: String?) -> [Field] {
        var fields: [Field] = []
        // A fragment spread twice in one selection set is collected once (the specification's visitedFragments).
        var visited: Set<String> = []
        func visit(_ selections: [Selection]) {
            for selection in selections {
                switch selection {
                case .field(let field):
                    guard let index = fields.firstIndex(where: { $0.key == field.key }) else {
                        fields.append(field)
                        continue
                    }
                    fields[index].selections += field.selections
                case .fragment(let condition, let inner):
                    let met = type == nil || condition == nil || condition == type
                    if met || Self.interfaces[condition ?? ""]?.contains(type ?? "") == true { visit(inner) }
                case .spread(let name):
                    if visited.insert(name).inserted { fragments[name].map { visit([$0]) } }
                }
            }
        }
        visit(selections)
        return fields
    }

    /// `field` of `object`, completed: null with an error recorded where the field fails.
    mutating func value(of field: Field, in object: StandInGraphQLObject, at path: [JSONValue]) throws -> JSONValue {
        do {
            guard field.name != "__typename" else { return .string(object.type) }
            guard let result = try object.field(field) else {
                throw StandInGraphQLQueryError(message: "Field '\(field.name)' doesn't exist on type '\(object.type)'")
            }
            return try complete(result, field.selections, at: path)
        } catch let error as StandInGraphQLFieldError {
            errors.append((error.type, path, error.message))
        } catch is Nulled {}
        guard !Self.nonNull.contains(field.name) else { throw Nulled() }
        return .null
    }

    private mutating func complete(_ result: StandInGraphQLResult, _ selections: [Selection], at path: [JSONValue])
        throws -> JSONValue
    {
        switch result {
        case .leaf(let value):
            return value
        case .list(let items):
            return .array(
                try items.indices.map { try complete(items[$0], selections, at: path + [.integer(Int64($0))]) })
        case .object(let object):
            return .object(
                try collect(selections, on: object.type).map {
                    .init($0.key, try value(of: $0, in: object, at: path + [.string($0.key)]))
                })
        }
    }

    /// GitHub's cost of a query ("Calculating a rate limit score"): the requests its connections need, each
    /// connection (a field that asks `totalCount`, `edges`, `nodes` or `pageInfo`) one per page of the connections
    /// above it, divided by 100 and rounded, at least 1.
    func cost(of selections: [Selection]) -> Int {
        // Counted in Double: pages of nested connections multiply, and a document may nest them deep enough to
        // pass Int's range (a page is at most 100, as the schema answers no more).
        func requests(_ selections: [Selection], _ pages: Double) -> Double {
            collect(selections, on: nil).reduce(0) { sum, field in
                let connection = collect(field.selections, on: nil).contains {
                    ["totalCount", "edges", "nodes", "pageInfo"].contains($0.name)
                }
                let first = Double(min(max(field.integer("first") ?? 1, 0), 100))
                return sum + (connection ? pages : 0) + requests(field.selections, connection ? pages * first : pages)
            }
        }
        let points = ((requests(selections, 1) + 50) / 100).rounded(.down)
        return max(1, points < 1e15 ? Int(points) : Int(1e15))
    }
}
