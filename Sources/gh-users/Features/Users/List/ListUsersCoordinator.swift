import AtomicCore
import Domain

/// Runs `gh-users list`: loads page after page, writes each as it arrives, and stops at the limit, at the end,
/// at a failure, or when stdout is closed. A stop that leaves accounts unread names the `--since` to resume from.
struct ListUsersCoordinator: Coordinator {
    let options: ListUsersOptions
    let useCase: ListUsersUseCase
    let io: IOStreams
    let context: RenderContext
    let presenter: ErrorPresenter

    func run() async -> Int32 {
        let viewModel = ListUsersViewModel(useCase: useCase, since: options.since, plan: options.plan)
        var writer = ListUsersRenderer.writer(context)
        // The id of the last account that reached stdout: the only safe place to resume from.
        var lastWritten: Int64?
        while !viewModel.isExhausted {
            let users: [User]
            do {
                users = try await viewModel.loadNextPage()
            } catch {
                try? io.out.write(writer.finish(completed: false))
                let presentation = presenter.present(error)
                var message = presentation.message
                if let lastWritten {
                    message += ListUsersRenderer.resumeHint(after: lastWritten) + "\n"
                }
                io.writeErr(message)
                return presentation.exitCode
            }
            do {
                try io.out.write(writer.render(users))
            } catch {
                // The reader went away (`| head`): stop fetching, quietly.
                return ExitCode.success
            }
            if let last = users.last { lastWritten = last.id }
        }
        do {
            try io.out.write(writer.finish(completed: true))
        } catch {
            return ExitCode.success
        }
        if context.isTTY, viewModel.hasMore, let lastWritten {
            io.writeErr(
                "Showing \(viewModel.taken) accounts. " + ListUsersRenderer.resumeHint(after: lastWritten) + "\n")
        }
        return ExitCode.success
    }
}
