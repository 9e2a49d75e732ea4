import AtomicCore
import Domain

/// What a command that reads whole resources declares (`show`, `rate-limit`): how to fetch them, each with
/// its own outcome, and how the ones found look. Writing, reporting each failure and the outcome are the
/// shared `ResourceRun`'s.
struct ResourceDeclaration<Options: Sendable, Value: Sendable>: Sendable {
    let load: @Sendable (Options, GitHubReader, CommandContext) async -> ResourceLoad<Value>
    let render: @Sendable ([Value], Options, RenderContext) -> [UInt8]
    /// What needs a token, if these options do (`gh-users me`, `--via graphql`): without one, exit 4 before
    /// any request.
    var tokenRequirement: @Sendable (Options) -> TokenRequirement?
    /// For a resource whose table can have no rows (a hovercard without contexts): what the rows are called, and
    /// whether a value has none. A terminal is then told so, as a list with no items is (`nothingFound`).
    var empty: (noun: String, isEmpty: @Sendable (Value) -> Bool)?

    init(
        fetch: @escaping @Sendable (Options, GitHubReader, CommandContext) async -> [Result<Value, DomainError>],
        render: @escaping @Sendable ([Value], Options, RenderContext) -> [UInt8],
        tokenRequirement: @escaping @Sendable (Options) -> TokenRequirement? = { _ in nil }
    ) {
        self.init(
            load: { options, github, context in ResourceLoad(await fetch(options, github, context)) },
            render: render, tokenRequirement: tokenRequirement)
    }

    /// For a fetch with something to say once the output is written (`ResourceLoad.closingLine`).
    init(
        load: @escaping @Sendable (Options, GitHubReader, CommandContext) async -> ResourceLoad<Value>,
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

/// One run of a command that reads whole resources: its declaration and the options parsed for it.
struct ResourceRun<Options: Sendable & Equatable, Value: Sendable>: GitHubRun {
    let declaration: ResourceDeclaration<Options, Value>
    let options: Options

    /// Exit 4 before any request when these options need a token and there is none; else loads what was asked
    /// and writes it (`write`).
    func run(_ context: CommandContext, _ github: GitHubReader) async -> CommandOutcome {
        if let requirement = declaration.tokenRequirement(options), !context.presenter.hasToken {
            return requirement.refuse(context)
        }
        let loaded = await declaration.load(options, github, context)
        return loaded.write(to: context, empty: declaration.empty) { declaration.render($0, options, context.render) }
    }
}

extension ResourceLoad {
    /// Writes what was found, then reports each failure on stderr, and sums the lot up as one outcome: the
    /// resource kind's ending, and that of a command that loads its resources itself (`show`).
    func write(
        to context: CommandContext, empty: (noun: String, isEmpty: @Sendable (Value) -> Bool)? = nil,
        render: ([Value]) -> [UInt8]
    ) -> CommandOutcome {
        let values = results.compactMap { try? $0.get() }
        let failures = results.compactMap { result in
            if case .failure(let error) = result { return error }
            return nil
        }
        if !values.isEmpty || failures.isEmpty {
            do {
                try context.io.out.write(render(values))
            } catch {
                return .writeFailed(error, io: context.io)
            }
        }
        if failures.isEmpty, !values.isEmpty, let empty, values.allSatisfy(empty.isEmpty),
            let line = context.render.nothingFound(empty.noun)
        {
            context.io.writeErr(line + "\n")
        }
        // A failure every lookup met (a spent rate limit, say) is said once, not once per login.
        var said: Set<String> = []
        for failure in failures {
            let presentation = context.presenter.present(failure)
            if said.insert(presentation.withoutRequestID).inserted { context.io.writeErr(presentation.message) }
        }
        if context.io.stderrIsTTY, let line = closingLine {
            context.io.writeErr(line)
        }
        return failures.isEmpty ? .success : .partial(failures: failures, successes: values.count)
    }
}

extension Command {
    /// A command that reads one resource, or several independent ones, and prints them together.
    init<Options: Sendable & Equatable, Value: Sendable>(
        resource declaration: ResourceDeclaration<Options, Value>,
        spec: CommandSpec,
        parse: @escaping @Sendable (ParsedArguments, CommandSpec) throws(UsageError) -> Options
    ) {
        self.init(github: spec) { parsed, spec throws(UsageError) in
            .github(ResourceRun(declaration: declaration, options: try parse(parsed, spec)))
        }
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
