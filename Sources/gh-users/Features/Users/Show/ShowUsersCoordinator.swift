import AtomicCore
import Domain

/// Runs `gh-users show`: fetches every login, prints the profiles found in the order given, reports each
/// failure on stderr, and picks one exit status for the lot.
struct ShowUsersCoordinator: Coordinator {
    let options: ShowUsersOptions
    let useCase: GetUsersUseCase
    let command: CommandContext

    func run() async -> Int32 {
        let io = command.io
        let context = command.render
        let presenter = command.presenter
        let viewModel = ShowUsersViewModel(useCase: useCase, options: options)
        let outcomes = await viewModel.load()
        let users = viewModel.users
        do {
            try io.out.write(ShowUsersRenderer.render(users, asArray: options.references.count > 1, context: context))
        } catch {
            return ExitCode.success
        }
        var codes: [Int32] = []
        for outcome in outcomes {
            guard case .failure(let error) = outcome.result else { continue }
            let presentation = presenter.present(error)
            io.writeErr(presentation.message)
            codes.append(presentation.exitCode)
        }
        return ShowUsersCoordinator.exitCode(failures: codes, successes: users.count)
    }

    /// One failure kind for every login keeps its own status; a mix, or a partial success, is a plain failure.
    static func exitCode(failures: [Int32], successes: Int) -> Int32 {
        guard let first = failures.first else { return ExitCode.success }
        if successes == 0, failures.allSatisfy({ $0 == first }) { return first }
        if failures.contains(ExitCode.interrupted) { return ExitCode.interrupted }
        return ExitCode.failure
    }
}
