/// Which account a `show` asks for.
package enum UserReference: Sendable, Hashable {
    case login(Login)
    case id(Int64)
}

/// Fetches several profiles concurrently, at most `concurrency` at a time, and returns them in the order asked.
package struct GetUsersUseCase: Sendable {
    private let repository: any UsersRepository

    package init(repository: any UsersRepository) {
        self.repository = repository
    }

    package func execute(logins: [Login], concurrency: Int) async -> [Result<User, DomainError>] {
        await execute(logins.map(UserReference.login), concurrency: concurrency)
    }

    package func execute(_ references: [UserReference], concurrency: Int) async -> [Result<User, DomainError>] {
        let logins = references
        let width = max(1, concurrency)
        var results = [Result<User, DomainError>?](repeating: nil, count: logins.count)
        await withTaskGroup(of: (Int, Result<User, DomainError>).self) { group in
            var nextIndex = 0
            func startNext() {
                guard nextIndex < logins.count else { return }
                let index = nextIndex
                let reference = logins[index]
                let repository = self.repository
                group.addTask {
                    do throws(DomainError) {
                        switch reference {
                        case .login(let login):
                            return (index, .success(try await repository.user(login: login)))
                        case .id(let id):
                            return (index, .success(try await repository.user(id: id)))
                        }
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
