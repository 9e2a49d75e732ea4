import AtomicCore
import Domain

/// Fetches the asked-for profiles and keeps each login's outcome in the order given.
final class ShowUsersViewModel {
    private let useCase: GetUsersUseCase
    private let options: ShowUsersOptions

    private(set) var state: ViewState<[(reference: UserReference, result: Result<User, DomainError>)]> = .idle

    init(useCase: GetUsersUseCase, options: ShowUsersOptions) {
        self.useCase = useCase
        self.options = options
    }

    func load() async -> [(reference: UserReference, result: Result<User, DomainError>)] {
        state = .loading
        let results = await useCase.execute(options.references, concurrency: options.concurrency)
        let outcomes = Array(zip(options.references, results)).map { (reference: $0.0, result: $0.1) }
        state = .loaded(outcomes)
        return outcomes
    }

    var users: [User] {
        (state.value ?? []).compactMap { try? $0.result.get() }
    }
}
