import AtomicCore
import Domain

/// What a command that reads whole resources declares (`show`, `rate-limit`): how to fetch them, each with
/// its own outcome, and how the ones found look. Writing, reporting each failure and the outcome are the
/// shared `ResourceCoordinator`'s.
struct ResourceDeclaration<Options: Sendable, Value: Sendable>: Sendable {
    let fetch: @Sendable (Options, any GitHubReader, CommandContext) async -> [Result<Value, DomainError>]
    let render: @Sendable ([Value], Options, RenderContext) -> [UInt8]
    /// The resource is the token's own (`gh-users me`): without a token, exit 4 before any request.
    var needsToken = false
}

/// Loads the resources a command asked for and keeps each one's outcome, in the order asked.
final class ResourceViewModel<Options: Sendable, Value: Sendable> {
    private let load: () async -> [Result<Value, DomainError>]
    private(set) var state: ViewState<[Result<Value, DomainError>]> = .idle

    init(load: @escaping () async -> [Result<Value, DomainError>]) {
        self.load = load
    }

    func load() async -> [Result<Value, DomainError>] {
        state = .loading
        let results = await load()
        state = .loaded(results)
        return results
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
    let command: CommandContext

    func run() async -> CommandOutcome {
        _ = await viewModel.load()
        let values = viewModel.values
        if !values.isEmpty || viewModel.failures.isEmpty {
            do {
                try command.io.out.write(render(values))
            } catch {
                return .outputClosed
            }
        }
        let failures = viewModel.failures
        for failure in failures {
            command.io.writeErr(command.presenter.present(failure).message)
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
            spec: spec,
            parse: parse,
            action: .github { options, context, github in
                if declaration.needsToken, !context.presenter.hasToken {
                    let error = DomainError.tokenRequired(command: "gh-users " + spec.name)
                    context.io.writeErr(context.presenter.present(error).message)
                    return .failed(error)
                }
                return await ResourceCoordinator<Options, Value>(
                    viewModel: ResourceViewModel { await declaration.fetch(options, github, context) },
                    render: { declaration.render($0, options, context.render) },
                    command: context
                ).run()
            }
        )
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
