import AtomicCore
import Data
import Domain
import JSONBytes

/// What a command that lists something of one account takes: the LOGIN and the paging options.
struct AccountListOptions: PagedOptions {
    var login: Login
    var paging = PagingOptions()

    @Sendable static func parse(_ parsed: ParsedArguments, spec: CommandSpec) throws(UsageError) -> AccountListOptions {
        AccountListOptions(login: try LoginArgument.single(parsed, spec: spec))
    }
}

/// A column read from a record's JSON by a path of keys, as GitHub sent it.
extension Column where Item == Record {
    init(_ header: String, path: [String], shrink: ColumnShrink? = nil) {
        self.init(header, key: path.joined(separator: "."), shrink: shrink) {
            JSONText.text(at: path, in: $0.raw.bytes)
        }
    }

    /// A timestamp: relative on a terminal, as sent anywhere else.
    static func time(_ header: String, _ key: String, _ context: RenderContext) -> Column<Record> {
        Column(header, key: key) { RelativeTime.cell(JSONText.text(of: key, in: $0.raw.bytes), context: context) }
    }
}

extension Command {
    /// A list under one account (`.keys`: `GET /users/{username}/keys`) whose records need no typed field: the
    /// row gives the request, the columns read GitHub's JSON, JSON output is GitHub's objects, and a record whose
    /// id was already written is dropped.
    init(
        records endpoint: Endpoint,
        noun: String,
        columns: @escaping @Sendable (RenderContext) -> [Column<Record>],
        spec: CommandSpec
    ) {
        self.init(
            list: ListDeclaration(
                noun: noun,
                list: { GitHubEndpoints.records(endpoint, of: $0.login) },
                columns: columns
            ),
            spec: spec,
            parse: AccountListOptions.parse
        )
    }
}
