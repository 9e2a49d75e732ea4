import AtomicCore
import Domain

/// How `search` runs and looks: accounts, and a word on stderr when GitHub's 1,000-result cap or a partial
/// answer limits what could be shown.
enum SearchUsersCommand {
    static func coordinator(
        options: SearchUsersOptions,
        useCase: SearchUsersUseCase,
        command: CommandContext
    ) -> PagedListCoordinator<User> {
        let plan = options.plan
        let wantedMore: Bool = {
            switch options.paging.limit {
            case .all: return true
            case .count(let count): return count > UserSearchQuery.maximumResults
            }
        }()
        return PagedListCoordinator(
            makeViewModel: {
                PagedListViewModel(
                    limit: plan.limit,
                    first: { () throws(DomainError) in try await useCase.firstPage(options.query, perPage: plan.perPage)
                    },
                    next: { cursor throws(DomainError) in try await useCase.page(at: cursor) },
                    id: \.id
                )
            },
            makeWriter: { RecordStreamWriter(context: $0, columns: AccountColumns.summary, raw: \.raw) },
            presentation: .init(
                noun: "accounts",
                closingNotes: { taken, total, incomplete in
                    notes(taken: taken, total: total, incomplete: incomplete, wantedMore: wantedMore)
                }
            ),
            command: command
        )
    }

    static func notes(taken: Int, total: Int?, incomplete: Bool, wantedMore: Bool) -> [String] {
        var notes: [String] = []
        if incomplete {
            notes.append("gh-users: GitHub's search timed out before it finished: these results may be incomplete.")
        }
        if let total, total > UserSearchQuery.maximumResults, taken >= UserSearchQuery.maximumResults, wantedMore {
            notes.append(
                "gh-users: GitHub returns only the first \(UserSearchQuery.maximumResults) of the \(total) results; "
                    + "narrow the query (for example with created:<DATE) to reach the rest."
            )
        }
        return notes
    }
}
