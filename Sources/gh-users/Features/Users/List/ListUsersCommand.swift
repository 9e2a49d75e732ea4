import AtomicCore
import Domain

/// How `list` runs and looks: GitHub's `/users` order by id, resumable with `--since`.
enum ListUsersCommand {
    static func coordinator(
        options: ListUsersOptions,
        useCase: ListUsersUseCase,
        command: CommandContext
    ) -> PagedListCoordinator<User> {
        let plan = options.plan
        return PagedListCoordinator(
            makeViewModel: {
                // `GET /users` is in id order: anything at or below the last id (or --since) was already written.
                var floor = options.since
                return PagedListViewModel(
                    limit: plan.limit,
                    load: { cursor throws(DomainError) in
                        if let cursor { return try await useCase.page(at: cursor) }
                        return try await useCase.firstPage(since: options.since, perPage: plan.perPage)
                    },
                    admit: { user in
                        guard user.id > floor else { return false }
                        floor = user.id
                        return true
                    }
                )
            },
            makeWriter: { RecordStreamWriter(context: $0, columns: AccountColumns.summary, raw: \.raw) },
            presentation: .init(noun: "accounts", resumeHint: { resumeHint(after: $0.id) }),
            command: command
        )
    }

    static func resumeHint(after lastID: Int64) -> String {
        "To continue from here: gh-users list --since \(lastID)"
    }
}
