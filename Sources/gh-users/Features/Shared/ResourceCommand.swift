import AtomicCore
import Domain

/// What a command that reads whole resources declares (`show`, `rate-limit`): how to fetch them, each with
/// its own outcome, and how the ones found look. Writing, reporting each failure and the outcome are the
/// shared `ResourceCoordinator`'s.
struct ResourceDeclaration<Options: Sendable, Value: Sendable>: Sendable {
    let load: @Sendable (Options, any GitHubReader, CommandContext) async -> ResourceLoad<Value>
    let render: @Sendable ([Value], Options, RenderContext) -> [UInt8]
    /// What needs a token, if these options do (`gh-users me`, `--via graphql`): without one, exit 4 before
    /// any request.
    var tokenRequirement: @Sendable (Options) -> TokenRequirement?
    /// For a resource whose table can have no rows (a hovercard without contexts): what the rows are called, and
    /// whether a value has none. A terminal is then told so, as a list with no items is (`nothingFound`).
    var empty: (noun: String, isEmpty: @Sendable (Value) -> Bool)?

    init(
        fetch: @escaping @Sendable (Options, any GitHubReader, CommandContext) async -> [Result<Value, DomainError>],
        render: @escaping @Sendable ([Value], Options, RenderContext) -> [UInt8],
        tokenRequirement: @escaping @Sendable (Options) -> TokenRequirement? = { _ in nil }
    ) {
        self.init(
            load: { options, github, context in ResourceLoad(await fetch(options, github, context)) },
            render: render, tokenRequirement: tokenRequirement)
    }

    /// For a fetch with something to say once the output is written (`ResourceLoad.closingLine`).
    init(
        load: @escaping @Sendable (Options, any GitHubReader, CommandContext) async -> ResourceLoad<Value>,
        render: @escaping @Sendable ([Value], Options, RenderContext) -> [UInt8],
        tokenRequirement: @escaping @Sendable (Options) -> TokenRequirement? = { _ in nil }
    ) {
        self.load = load
        self.render = render
        self.tokenRequirement = tokenRequirement
    }
}

extension ResourceDeclaration {
    /// This declaration, saying "no `noun` found" on a terminal when what was found has no rows.
    func sayingNothingFound(_ noun: String, when isEmpty: @escaping @Sendable (Value) -> Bool) -> Self {
        var declaration = self
        declaration.empty = (noun, isEmpty)
        return declaration
    }
}

/// What a token is needed for, named in the exit-4 message, and an optional hint after it.
struct TokenRequirement: Sendable, Equatable {
    let command: String
    var hint: String?

    /// Says on stderr that the command needs a token, with the hint, and ends the run (exit 4).
    func refuse(_ context: CommandContext) -> CommandOutcome {
        let error = DomainError.tokenRequired(command: command)
        context.io.writeErr(context.presenter.present(error).message + (hint ?? ""))
        return .failed(error)
    }
}

/// The outcome of each resource asked for, in order, and a closing line for a terminal's stderr (what a
/// GraphQL run spent and saved), written after the output and the failures.
struct ResourceLoad<Value: Sendable>: Sendable {
    let results: [Result<Value, DomainError>]
    var closingLine: String?

    init(_ results: [Result<Value, DomainError>], closingLine: String? = nil) {
        self.results = results
        self.closingLine = closingLine
    }
}

/// Loads the resources a command asked for and keeps each one's outcome, in the order asked.
final class ResourceViewModel<Options: Sendable, Value: Sendable> {
    private let load: () async -> ResourceLoad<Value>
    private(set) var state: ViewState<[Result<Value, DomainError>]> = .idle
    private(set) var closingLine: String?

    init(load: @escaping () async -> ResourceLoad<Value>) {
        self.load = load
    }

    func load() async -> [Result<Value, DomainError>] {
        state = .loading
        let loaded = await load()
        closingLine = loaded.closingLine
        state = .loaded(loaded.results)
        return loaded.results
    }

    var values: [Value] { (state.value ?? []).compactMap { try? $0.get() } }
    var failures: [DomainError] {
        (state.value ?? []).compactMap { result in
            if case .failure(let error) = result { return error }
            return nil
        }
    }
}

/// Writes what was found, then reports each failure on stderr, and sums the lot up as one outcome.
struct ResourceCoordinator<Options: Sendable, Value: Sendable> {
    let viewModel: ResourceViewModel<Options, Value>
    let render: @Sendable ([Value]) -> [UInt8]
    /// The declaration's `empty`.
    var empty: (noun: String, isEmpty: @Sendable (Value) -> Bool)?
    let command: CommandContext

    func run() async -> CommandOutcome {
        _ = await viewModel.load()
        let values = viewModel.values
        if !values.isEmpty || viewModel.failures.isEmpty {
            do {
                try command.io.out.write(render(values))
            } catch {
                return .writeFailed(error, io: command.io)
            }
        }
        let failures = viewModel.failures
        if failures.isEmpty, !values.isEmpty, let empty, values.allSatisfy(empty.isEmpty),
            let line = command.render.nothingFound(empty.noun)
        {
            command.io.writeErr(line + "\n")
        }
        // A failure every lookup met (a spent rate limit, say) is said once, not once per login.
        var said: Set<String> = []
        for failure in failures {
            let presentation = command.presenter.present(failure)
            if said.insert(presentation.withoutRequestID).inserted { command.io.writeErr(presentation.message) }
        }
        if command.io.stderrIsTTY, let line = viewModel.closingLine {
            command.io.writeErr(line)
        }
        return failures.isEmpty ? .success : .partial(failures: failures, successes: values.count)
    }
}

extension Command {
    /// A command that reads one resource, or several independent ones, and prints them together.
    init<Value: Sendable>(
        resource declaration: ResourceDeclaration<Options, Value>,
        spec: CommandSpec,
        parse: @escaping @Sendable (ParsedArguments, CommandSpec) throws(UsageError) -> Options
    ) {
        self.init(
            spec: spec, parse: parse,
            action: .github { options, context, github in await declaration.run(options, context, github) })
    }
}

extension ResourceDeclaration {
    /// One run: exit 4 before any request when these options need a token and there is none, else the shared
    /// coordinator. A command that does something else for some options (`me edit --dry-run`) runs this for
    /// the rest.
    func run(_ options: Options, _ context: CommandContext, _ github: any GitHubReader) async -> CommandOutcome {
        if let requirement = tokenRequirement(options), !context.presenter.hasToken {
            return requirement.refuse(context)
        }
        return await ResourceCoordinator<Options, Value>(
            viewModel: ResourceViewModel { await load(options, github, context) },
            render: { render($0, options, context.render) },
            empty: empty,
            command: context
        ).run()
    }
}

extension Result where Failure == DomainError {
    /// The outcome of one typed-throwing fetch, as a value.
    static func of(_ body: () async throws(DomainError) -> Success) async -> Result<Success, DomainError> {
        do {
            return .success(try await body())
        } catch {
            return .failure(error)
        }
    }
}
