import Domain
import JSONBytes

/// What a command that changes accounts declares (`follow`, `unfollow`): the endpoint row it sends for each
/// account, its verb in the words messages need, when it asks first, and the help that is its own. Reading the
/// logins (`LOGIN...` or `-`), `--dry-run`, `--yes`, the spacing of writes, the records, the exit statuses, the
/// scope named when the token lacks it and the command that finishes an interrupted run are the kind's.
struct WriteDeclaration: Sendable {
    /// The row each account's request is built from (`PUT /user/following/{username}`); its scope is the one
    /// named when the token is refused.
    let endpoint: Endpoint
    /// The command's name and the `action` of its records (`follow`).
    let name: String
    /// The `outcome` of a record whose write succeeded (`followed`).
    let past: String
    /// What the progress line and the question say (`Following 2 of 5: octocat`).
    let progressive: String
    let confirmation: ConfirmationRule
    /// The write that undoes this one (`unfollow`), named in the help of a `--yes` that never asks.
    let counterpart: String
    /// The first line of help, without the row, which the kind adds (`Follow accounts as the token's user`).
    let abstract: String
    /// What `gh-users NAME octocat` does, the first example.
    let example: String
    /// Examples after the kind's own (one account, a dry run).
    var moreExamples: [(command: String, comment: String)] = []

    /// The OAuth scope the row needs (`user:follow`), named in the exit-4 hint.
    var scope: String { endpoint.scope ?? "" }
}

extension Action {
    /// What `--dry-run` prints for a write instead of sending it: the request line, then the JSON it would send.
    func dryRun(_ github: GitHubReader) -> String {
        var text = github.describe(self) + "\n"
        if let body {
            var pretty: [UInt8] = []
            JSONText.pretty(body, into: &pretty)
            text += String(decoding: pretty, as: UTF8.self) + "\n"
        }
        return text
    }

    /// `--dry-run` for a format asked for (`--json`, `--format`): the request as a record, `method`, `url` and the
    /// JSON `body` it would send (null for none), after what a run would write of the account (`login`, `action`,
    /// `outcome` "dry run") for a write per account.
    func dryRunRecord(_ github: GitHubReader, account: (login: Login, action: String)? = nil) -> RawJSON {
        var members: [JSONValue.Member] = []
        if let account {
            members += [
                .init("login", .string(account.login.value)), .init("action", .string(account.action)),
                .init("outcome", .string("dry run")),
            ]
        }
        members += [.init("method", .string(method.rawValue)), .init("url", .string(github.url(of: self)))]
        var bytes = JSONValue.object(members).bytes
        bytes.removeLast()
        bytes += Array(#","body":"#.utf8)
        bytes += body ?? Array("null".utf8)
        bytes.append(UInt8(ascii: "}"))
        return RawJSON(bytes: bytes)
    }

    /// The columns of dry-run records in csv, tsv and a table: `leading` (the account's), then the request's.
    static func dryRunColumns(after leading: [Column<RawJSON>]) -> [Column<RawJSON>] {
        leading
            + [("METHOD", "method", nil), ("URL", "url", ColumnShrink.second), ("BODY", "body", .first)].map {
                header, key, shrink in
                Column(header, key: key, shrink: shrink) { JSONText.text(of: key, in: $0.bytes) }
            }
    }
}

/// When a write asks before it is sent. As `gh` does, only what cannot simply be undone asks.
enum ConfirmationRule: Sendable, Equatable {
    case never
    /// A run of several accounts is listed and asked about (`unfollow`).
    case whenMoreThanOne
    case always

    func asks(about count: Int) -> Bool {
        switch self {
        case .never: false
        case .whenMoreThanOne: count > 1
        case .always: true
        }
    }
}

/// What a write command takes: the logins (or `-`), `--dry-run` and `--yes`.
struct WriteOptions: OptionValues {
    var logins: LoginInput = .given([])
    var dryRun = false
    var yes = false
}

extension WriteDeclaration {
    /// The keys of the record each account gets.
    static let fields = ["login", "action", "outcome"]
    /// The keys a `--dry-run` record adds: the request it would send.
    static let requestFields = ["method", "url", "body"]

    /// Never in a "To finish" command: that one sends what is left.
    static let dryRun = OptionDeclaration<WriteOptions>.flag(
        "dry-run",
        help: "Print each request that would be sent (method and URL; with --json or --format, a record each) and "
            + "send none.",
        apply: { options, _ in options.dryRun = true })

    /// Every write takes `--yes`, even one that never asks, so one command line serves both of a pair (the
    /// "To finish" hints carry it).
    var yes: OptionDeclaration<WriteOptions> {
        let lowered = progressive.lowercased()
        let help =
            switch confirmation {
            case .never: "Accepted for symmetry with \(counterpart); \(name) never asks."
            case .whenMoreThanOne:
                "Do not ask before \(lowered) several accounts (needed when there is no terminal to ask on)."
            case .always: "Do not ask before \(lowered) (needed when there is no terminal to ask on)."
            }
        return OptionDeclaration(
            spec: OptionSpec("yes", short: "y", help: help), read: { options, _ in options.yes = true },
            resume: { $0.yes ? ["--yes"] : [] })
    }

    /// The options every write takes, each declared once: help, parsing and the "To finish" command read them.
    var options: GroupDeclaration<WriteOptions> {
        GroupDeclaration(title: "OPTIONS", options: [Self.dryRun, yes])
    }

    var spec: CommandSpec {
        CommandSpec(
            name: name,
            abstract: "\(abstract) (\(endpoint)).",
            usage: "gh-users \(name) LOGIN... | - [--dry-run] [--yes] [options]",
            discussion: discussion,
            arguments: [("LOGIN", "An account to \(name); - reads them from stdin.")],
            options: options.group.options,
            examples: [
                ("gh-users \(name) octocat", example),
                (
                    "gh-users \(name) --dry-run alice bob",
                    "Print the \(endpoint.method.rawValue) requests that would be sent."
                ),
            ] + moreExamples,
            fields: Self.fields,
            optionFields: [("With --\(Self.dryRun.spec.name)", Self.fields + Self.requestFields)]
        )
    }

    private var discussion: String {
        let common = """
            - reads the logins from stdin, one a line (blank lines, # comments and a first line 'login', the
            header of csv or a table, are skipped; none at all is nothing to do, status 0), so one gh-users can
            feed another. Writes go one at a time, at least
            a second apart, as GitHub asks; a secondary rate limit is waited out. Each account gets one record: its login, the action and
            the outcome. The exit status is 0 when every one succeeded, 3 when every account was unknown,
            and 1 for a mix. A token without the \(scope) scope stops at the first refusal with status 4.
            Ctrl-C stops between writes with status 130 and says what is left to do.
            """
        let asking =
            "asks for confirmation on the terminal (even when the logins come from stdin); without a "
            + "terminal it needs --yes, and without --yes nothing is sent."
        switch confirmation {
        case .never: return common + " \(name) never asks for confirmation."
        case .whenMoreThanOne: return common + "\n\n\(progressive) more than one account lists them and " + asking
        case .always: return common + "\n\n\(progressive) lists the accounts and " + asking
        }
    }
}

/// A command that sends one write per account (`follow`): its declaration, and what argv gave it: the logins
/// (`LOGIN...` or `-`), `--dry-run` and `--yes`. Each such command is its own type, whose `run` hands its
/// declaration and options to the `WriteCoordinator`.
protocol AccountWriteCommand: GitHubCommand {
    static var declaration: WriteDeclaration { get }
    var write: WriteOptions { get }
    init(write: WriteOptions)
}

extension AccountWriteCommand {
    static var spec: CommandSpec { declaration.spec }

    /// The logins first, then the options: a bad login is the usage error before a misplaced option's.
    init(_ parsed: ParsedArguments, spec: CommandSpec) throws(UsageError) {
        let logins = try LoginInput.parse(parsed.positionals, spec: spec)
        var options = try Self.declaration.options.parse(parsed, spec: spec)
        options.logins = logins
        // A request's keys are a dry run's: without one, each would be a blank column.
        if !options.dryRun,
            let field = parsed.chosenFields?.first(where: { WriteDeclaration.requestFields.contains($0.fieldRoot) })
        {
            throw UsageError(
                message: "the field '\(field)' exists only with --dry-run, whose records have "
                    + (WriteDeclaration.fields + WriteDeclaration.requestFields).joined(separator: ", "),
                command: spec)
        }
        // A write's records are flat (a follow's request has no body): `url.host` would be a blank column.
        try OutputGroup.refusePaths(parsed.chosenFields ?? [], spec: spec)
        self.init(write: options)
    }

    /// The writes this command's declaration and options say, through the `WriteCoordinator`.
    func send(_ context: CommandContext, _ github: GitHubReader) async -> CommandOutcome {
        await WriteCoordinator(declaration: Self.declaration, options: write, context: context, github: github).run()
    }
}
