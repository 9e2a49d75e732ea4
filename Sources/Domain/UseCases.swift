/// Pages through all accounts in id order, as `GET /users` gives them.
package struct ListUsersUseCase: Sendable {
    private let repository: any UsersRepository

    package init(repository: any UsersRepository) {
        self.repository = repository
    }

    package func firstPage(since: Int64, perPage: Int) async throws(DomainError) -> UserPage {
        try await repository.listUsers(since: since, perPage: perPage)
    }

    package func page(at cursor: PageCursor) async throws(DomainError) -> UserPage {
        try await repository.users(at: cursor)
    }
}

/// Fetches several profiles concurrently, at most `concurrency` at a time, and returns them in the order asked.
package struct GetUsersUseCase: Sendable {
    private let repository: any UsersRepository

    package init(repository: any UsersRepository) {
        self.repository = repository
    }

    package func execute(logins: [Login], concurrency: Int) async -> [Result<User, DomainError>] {
        let width = max(1, concurrency)
        var results = [Result<User, DomainError>?](repeating: nil, count: logins.count)
        await withTaskGroup(of: (Int, Result<User, DomainError>).self) { group in
            var nextIndex = 0
            func startNext() {
                guard nextIndex < logins.count else { return }
                let index = nextIndex
                let login = logins[index]
                let repository = self.repository
                group.addTask {
                    do throws(DomainError) {
                        return (index, .success(try await repository.user(login: login)))
                    } catch {
                        return (index, .failure(error))
                    }
                }
                nextIndex += 1
            }
            for _ in 0..<min(width, logins.count) { startNext() }
            for await (index, result) in group {
                results[index] = result
                startNext()
            }
        }
        return results.map { $0 ?? .failure(.cancelled) }
    }
}
