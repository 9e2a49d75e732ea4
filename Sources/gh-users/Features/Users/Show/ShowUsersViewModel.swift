import AtomicCore
import Domain

/// Fetches the asked-for profiles and keeps each login's outcome in the order given.
final class ShowUsersViewModel {
    private let useCase: GetUsersUseCase
    private let options: ShowUsersOptions

    private(set) var state: ViewState<[(login: Login, result: Result<User, DomainError>)]> = .idle

    init(useCase: GetUsersUseCase, options: ShowUsersOptions) {
        self.useCase = useCase
        self.options = options
    }

    func load() async -> [(login: Login, result: Result<User, DomainError>)] {
        state = .loading
        let results = await useCase.execute(logins: options.logins, concurrency: options.concurrency)
        let outcomes = Array(zip(options.logins, results)).map { (login: $0.0, result: $0.1) }
        state = .loaded(outcomes)
        return outcomes
    }

    var users: [User] {
        (state.value ?? []).compactMap { try? $0.result.get() }
    }

    var failures: [DomainError] {
        (state.value ?? []).compactMap { outcome in
            if case .failure(let error) = outcome.result { return error }
            return nil
        }
    }
}
