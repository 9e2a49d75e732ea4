import AtomicCore
import Domain

/// How `followers` and `following` run and look: accounts, page by page, never one twice.
enum RelationsCommand {
    static func coordinator(options: RelationsOptions, useCase: ListUsersUseCase, command: CommandContext)
        -> PagedListCoordinator<User>
    {
        let plan = options.paging.plan
        return PagedListCoordinator(
            makeViewModel: {
                PagedListViewModel(
                    limit: plan.limit,
                    first: { () throws(DomainError) in
                        try await useCase.firstPage(of: options.relation, login: options.login, perPage: plan.perPage)
                    },
                    next: { cursor throws(DomainError) in try await useCase.page(at: cursor) },
                    id: \.id
                )
            },
            makeWriter: { RecordStreamWriter(context: $0, columns: AccountColumns.summary, raw: \.raw) },
            presentation: .init(noun: options.relation == .followers ? "followers" : "accounts"),
            command: command
        )
    }
}
