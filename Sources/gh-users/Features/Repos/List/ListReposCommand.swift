import AtomicCore
import Domain
import Foundation

/// How `repos` runs and looks.
enum ListReposCommand {
    static func coordinator(options: ListReposOptions, useCase: ListReposUseCase, command: CommandContext)
        -> PagedListCoordinator<Repo>
    {
        let plan = options.plan
        return PagedListCoordinator(
            makeViewModel: {
                PagedListViewModel(
                    limit: plan.limit,
                    first: { () throws(DomainError) in
                        try await useCase.firstPage(of: options.login, query: options.query, perPage: plan.perPage)
                    },
                    next: { cursor throws(DomainError) in try await useCase.page(at: cursor) },
                    id: \.id,
                    keep: options.query.forks.admits
                )
            },
            makeWriter: { RecordStreamWriter(context: $0, columns: columns($0), raw: \.raw) },
            presentation: .init(noun: "repositories"),
            command: command
        )
    }

    /// Times are relative on a terminal ("3 days ago") and RFC 3339 otherwise.
    static func columns(_ context: RenderContext) -> [Column<Repo>] {
        let now = context.now
        let relative = context.isTTY
        return [
            Column("NAME", key: "full_name", shrinkable: true) { $0.fullName },
            Column("LANGUAGE") { $0.language ?? "" },
            Column("STARS", key: "stargazers_count") { String($0.stargazers) },
            Column("FORKS", key: "forks_count") { String($0.forks) },
            Column("UPDATED", key: "pushed_at") { repo in
                guard let date = repo.pushedAt ?? repo.updatedAt else { return "" }
                return relative ? RelativeTime.describe(date, now: now) : RelativeTime.rfc3339(date)
            },
            Column("DESCRIPTION", shrinkable: true) { ($0.fork ? "(fork) " : "") + ($0.description ?? "") },
        ]
    }
}
