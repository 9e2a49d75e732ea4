import AtomicCore
import Domain

/// Everything a command does with GitHub: any resource of the endpoint catalog, profile lookups (REST, and
/// GraphQL in batches), contribution calendars, and writes.
typealias GitHubReader = ResourceRepository & UsersRepository & ActionRepository & GraphQLProfilesRepository
    & ContributionsRepository

/// How a command ends. `ExitStatus` turns it into the exit status, in one place for every command.
enum CommandOutcome: Sendable, Equatable {
    case success
    /// The reader of stdout went away (`| head -1`): a quiet success.
    case outputClosed
    /// Bad input, found before anything was sent; printed by the app.
    case usage(UsageError)
    /// A failure the command has already reported on stderr.
    case failed(DomainError)
    /// Several independent lookups (`show A B C`): the failures, already reported, and how many succeeded.
    case partial(failures: [DomainError], successes: Int)
    /// A problem with the machine rather than the input (no cache directory), already reported.
    case setupFailed
    /// A yes-or-no question answered (`follows A B`): yes is 0 and no is 1, as `grep -q` has it.
    case answered(Bool)
    /// A yes-or-no question that could not be answered: a general failure is 2, so 1 always means no.
    case unanswered(DomainError)
}

extension CommandOutcome {
    /// How a failed write to stdout ends a command: the reader leaving (`| head -1`) is a quiet success; any
    /// other failure (a full disk, `ulimit -f`) left the output cut short, so it is said and the status is 1.
    static func writeFailed(_ error: any Error, io: IOStreams) -> CommandOutcome {
        guard let failure = error as? OutputWriteError else { return .outputClosed }
        io.writeErr("gh-users: \(failure.message)\n")
        return .setupFailed
    }
}

/// What a command that runs on this machine alone gets: the streams and the resolved output, the shared
/// options, and the environment (for `cache`, its location).
struct LocalContext: Sendable {
    let command: CommandContext
    let common: CommonOptions
    let environment: AppEnvironment
}

/// How a declared command runs once its arguments are parsed. The kind decides what is set up first: a
/// `github` command gets host, token, cache and retries resolved (and the option groups that set them).
enum CommandAction<Options: Sendable>: Sendable {
    case local(@Sendable (Options, LocalContext) async -> CommandOutcome)
    case github(@Sendable (Options, CommandContext, any GitHubReader) async -> CommandOutcome)
}

/// One command, declared once: its help and options (`spec`), how argv becomes its `Options`, and how it runs.
/// The router, help, completions, the man pages and `--fields` all read this one value.
struct Command<Options: Sendable & Equatable>: AnyCommand {
    let spec: CommandSpec
    let parse: @Sendable (ParsedArguments, CommandSpec) throws(UsageError) -> Options
    let action: CommandAction<Options>

    /// A `github` command takes the output, network, cache and logging groups whatever its spec says, so none
    /// can be forgotten.
    init(
        spec: CommandSpec,
        parse: @escaping @Sendable (ParsedArguments, CommandSpec) throws(UsageError) -> Options,
        action: CommandAction<Options>
    ) {
        switch action {
        case .github:
            self.spec = spec.adding([OutputGroup.group, NetworkGroup.group, CacheGroup.group, LoggingGroup.group])
        case .local:
            self.spec = spec
        }
        self.parse = parse
        self.action = action
    }

    func invocation(_ parsed: ParsedArguments) throws(UsageError) -> Invocation {
        invocation(try parse(parsed, spec), try CommonOptions.parse(parsed, spec: spec))
    }

    /// The invocation for values already parsed: what the router returns, and what its tests expect.
    func invocation(_ options: Options, _ common: CommonOptions = CommonOptions()) -> Invocation {
        let run: Invocation.Run
        switch action {
        case .local(let body): run = .local { context in await body(options, context) }
        case .github(let body): run = .github { context, github in await body(options, context, github) }
        }
        return Invocation(
            name: spec.name,
            options: options,
            common: common,
            matches: { ($0 as? Options) == options },
            run: run
        )
    }
}

/// A command whatever its options type, as the catalog lists it.
protocol AnyCommand: Sendable {
    var spec: CommandSpec { get }
    func invocation(_ parsed: ParsedArguments) throws(UsageError) -> Invocation
}

/// A parsed command line, ready to run: the command, its validated options and the shared ones.
struct Invocation: Sendable, Equatable {
    enum Run: Sendable {
        case local(@Sendable (LocalContext) async -> CommandOutcome)
        case github(@Sendable (CommandContext, any GitHubReader) async -> CommandOutcome)
    }

    let name: String
    let options: any Sendable
    let common: CommonOptions
    let matches: @Sendable (any Sendable) -> Bool
    let run: Run

    static func == (lhs: Invocation, rhs: Invocation) -> Bool {
        lhs.name == rhs.name && lhs.common == rhs.common && lhs.matches(rhs.options)
    }
}
