import AtomicCore
import Data
import Domain

/// Everything a command does with GitHub: any resource of the endpoint catalog, profile lookups (REST, and
/// GraphQL in batches), contribution calendars, stargazers and a team's own members through GraphQL, and
/// writes. It is Data's repository itself: the command tests run it over the strict stub transport, and the view
/// models and use cases that page or split work depend on Domain's protocols instead, tested with in-memory fakes.
typealias GitHubReader = GitHubRepository

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

/// A parsed command that works with GitHub: its validated options, and how it runs once host, token, cache and
/// retries are resolved. Every command is written as a type (`GitHubCommand`) that is its own run.
protocol GitHubRun: Sendable {
    associatedtype Options: Sendable & Equatable
    var options: Options { get }
    func run(_ context: CommandContext, _ github: GitHubReader) async -> CommandOutcome
}

/// A parsed command that runs on this machine alone (`cache`, `completion`).
protocol LocalRun: Sendable {
    associatedtype Options: Sendable & Equatable
    var options: Options { get }
    func run(_ context: LocalContext) async -> CommandOutcome
}

extension GitHubRun where Options == Self {
    var options: Self { self }
}

extension LocalRun where Options == Self {
    var options: Self { self }
}

/// A command that works with GitHub, written as a type: its help and options declared once (`spec`, from which
/// help, usage, completions and the man page come), its values read from argv by `init` (a bad one is a usage
/// error, exit 64, before anything is sent), and a `run` that reads top to bottom: check the input, ask GitHub
/// through Data, hand the answer to the output. The router picks it; its `run` is its coordinator.
protocol GitHubCommand: GitHubRun, Equatable where Options == Self {
    static var spec: CommandSpec { get }
    init(_ arguments: ParsedArguments, spec: CommandSpec) throws(UsageError)
}

/// A command with subcommands under it (`me edit`, `cache clear`), each a command of its own with its own help,
/// options and usage errors; the router takes the first word after the command to be one of them when it names
/// one.
protocol NestingCommand: Sendable {
    static var subcommands: [Command] { get }
    /// A usage error for an option the command does not take but one of its subcommands does (`me --bio x`); nil
    /// to let the scanner say the option is unknown.
    static func misplaced(_ option: OptionSpec) -> UsageError?
    /// Whether the command does something without a subcommand (`me` shows the profile); one that does not
    /// (`cache`) shows its help when given none, as gh's command groups do.
    static var runsAlone: Bool { get }
}

extension NestingCommand {
    static func misplaced(_ option: OptionSpec) -> UsageError? { nil }
    static var runsAlone: Bool { true }
}

/// A command that runs on this machine alone, written as a type (`cache`, `completion`).
protocol LocalCommand: LocalRun, Equatable where Options == Self {
    static var spec: CommandSpec { get }
    init(_ arguments: ParsedArguments, spec: CommandSpec) throws(UsageError)
}

/// One command, declared once: its help and options (`spec`), and the type argv becomes. The router, help,
/// completions, the man pages and `--fields` all read this one value.
struct Command: Sendable {
    private(set) var spec: CommandSpec
    /// The type argv becomes, which the router builds with the parsed arguments.
    let type: Kind
    /// The commands nested under this one (`me edit`, `cache clear`), each with its own help, options and usage
    /// errors; the router takes the first word after the command to be one of them when it names one.
    private(set) var subcommands: [Command] = []
    /// The type that words the error for an option only its subcommands take (`me --bio x`).
    private var nestingType: (any NestingCommand.Type)?

    /// The type argv becomes.
    enum Kind: Sendable {
        case github(any GitHubCommand.Type)
        case local(any LocalCommand.Type)
    }

    /// A command written as a type. It takes the output, network, cache and logging groups whatever its spec
    /// says, so none can be forgotten.
    init(_ type: any GitHubCommand.Type) {
        spec = Self.withGitHubGroups(type.spec)
        self.type = .github(type)
        nest(type)
    }

    /// A command that runs on this machine alone, written as a type.
    init(local type: any LocalCommand.Type) {
        spec = type.spec
        self.type = .local(type)
        nest(type)
    }

    /// A group of subcommands that does nothing alone (`cache`): given no word, the router shows its help.
    var isGroupOnly: Bool { nestingType.map { !$0.runsAlone } ?? false }

    /// A type that carries subcommands (`NestingCommand`) has them under it.
    private mutating func nest(_ type: Any.Type) {
        guard let nesting = type as? any NestingCommand.Type else { return }
        self = self.nesting(nesting.subcommands)
        nestingType = nesting
    }

    /// A usage error for an option the command does not take but one of its subcommands does (`me --bio x`);
    /// nil to let the scanner say the option is unknown.
    func misplaced(_ option: OptionSpec) -> UsageError? {
        nestingType?.misplaced(option)
    }

    private static func withGitHubGroups(_ spec: CommandSpec) -> CommandSpec {
        spec.adding([OutputGroup.group, NetworkGroup.group, CacheGroup.group, LoggingGroup.group])
    }
}

extension Command {
    /// The same command with subcommands under it.
    func nesting(_ commands: [Command]) -> Command {
        var copy = self
        copy.subcommands = commands
        copy.spec.subcommands = commands.map(\.spec)
        copy.spec.words = commands.map(\.spec.word)
        return copy
    }

    /// The same command, listed under `section` in top-level help.
    func listed(under section: CommandSection) -> Command {
        var copy = self
        copy.spec.section = section
        return copy
    }
}

/// A parsed command line, ready to run: the command, what it runs with its validated options, and the shared
/// options. Two are equal when they name the same command with the same options.
struct Invocation: Sendable, Equatable {
    enum Run: Sendable {
        case local(any LocalRun)
        case github(any GitHubRun)

        /// The command's own options, as its parse decided them.
        var options: any Sendable & Equatable {
            switch self {
            case .local(let run): run.options
            case .github(let run): run.options
            }
        }
    }

    let name: String
    let run: Run
    let common: CommonOptions

    var options: any Sendable & Equatable { run.options }

    static func == (lhs: Invocation, rhs: Invocation) -> Bool {
        lhs.name == rhs.name && lhs.common == rhs.common && same(lhs.options, rhs.options)
    }

    private static func same<Options: Equatable>(_ options: Options, _ other: any Sendable & Equatable) -> Bool {
        (other as? Options) == options
    }
}
