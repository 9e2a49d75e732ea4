import AtomicCore
import Domain

/// Pages through accounts up to the limit. It never prints: the coordinator asks for the next page and writes it.
final class ListUsersViewModel {
    private let useCase: ListUsersUseCase
    private let since: Int64
    private let plan: PagingPlan

    private(set) var state: ViewState<[User]> = .idle
    /// No more pages will be loaded: the limit is reached or GitHub has nothing after the last page.
    private(set) var isExhausted = false
    /// GitHub has accounts beyond what the limit let through.
    private(set) var hasMore = false
    /// The highest id handed out so far; every later account must be above it.
    private(set) var lastID: Int64?
    private(set) var taken = 0
    private(set) var requests = 0
    private var cursor: PageCursor?

    init(useCase: ListUsersUseCase, since: Int64, plan: PagingPlan) {
        self.useCase = useCase
        self.since = since
        self.plan = plan
    }

    /// Loads the next page and returns the accounts in it that are new and within the limit.
    func loadNextPage() async throws(DomainError) -> [User] {
        precondition(!isExhausted, "loadNextPage called after the last page")
        state = .loading
        let page: UserPage
        do {
            if requests == 0 {
                page = try await useCase.firstPage(since: since, perPage: plan.perPage)
            } else if let cursor {
                page = try await useCase.page(at: cursor)
            } else {
                page = UserPage(users: [], next: nil)
            }
        } catch {
            state = .failed(error)
            throw error
        }
        requests += 1
        // `GET /users` is in id order: anything at or below the last id (or --since) was already written.
        let floor = lastID ?? since
        var fresh = page.users.filter { $0.id > floor }
        if case .count(let limit) = plan.limit, taken + fresh.count >= limit {
            let room = limit - taken
            hasMore = fresh.count > room || page.next != nil
            fresh = Array(fresh.prefix(room))
            isExhausted = true
        }
        // A page that adds nothing, or a link back to itself, would loop forever.
        if page.next == nil || page.next == cursor || fresh.isEmpty {
            isExhausted = true
        }
        cursor = page.next
        taken += fresh.count
        if let last = fresh.last { lastID = last.id }
        state = .loaded(fresh)
        return fresh
    }
}
