import AtomicCore
import Data
import Domain
import JSONBytes

/// A command that lists something of one account (`keys LOGIN`): the LOGIN, then the paging options, read the
/// same way by each. Each such command is its own type with its own `run`, which calls `AccountRecords.stream`.
protocol AccountRecordsCommand: GitHubCommand, PagedOptions {
    var login: Login { get }
    init(login: Login)
}

extension AccountRecordsCommand {
    /// The LOGIN, then the paging group: a missing or bad LOGIN is the usage error before a bad `--limit`.
    init(_ parsed: ParsedArguments, spec: CommandSpec) throws(UsageError) {
        self.init(login: try parsed.login(spec))
        paging = parsed.paging
    }
}

/// The shared part of the account record lists: the row's list under one account, paged as the paging options
/// say, never a record whose id was already written, streamed to the output.
enum AccountRecords {
    /// Pages through `endpoint` for `login` (`.keys`: `GET /users/{username}/keys`) and writes each page as it
    /// arrives: the columns read GitHub's JSON, and JSON output is GitHub's objects.
    static func stream(
        _ endpoint: Endpoint, of login: Login, paging: PagingOptions, noun: String,
        columns: (RenderContext) -> [Column<Record>], _ context: CommandContext, _ github: GitHubReader
    ) async -> CommandOutcome {
        let plan = paging.plan
        let pages = PagedListViewModel(
            GitHubEndpoints.records(endpoint, of: login), plan: plan, github: github)
        let render = context.render
        return await ListStream(noun: noun, columns: render.readsColumns ? columns(render) : [], command: context)
            .run(pages)
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
