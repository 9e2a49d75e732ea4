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
        // One lookup needs no task group: it is fetched here, in the caller's task.
        // The fetch finishes before the array is built (see the group's comment below).
        if references.count == 1 {
            let user: User
            do throws(DomainError) {
                user = try await repository.user(references[0])
            } catch {
                return [.failure(error)]
            }
            return [.success(user)]
        }
        let width = max(1, concurrency)
        var results = [Result<User, DomainError>?](repeating: nil, count: references.count)
        await withTaskGroup(of: (Int, Result<User, DomainError>).self) { group in
            let repository = self.repository
            // Once GitHub says the rate limit is spent, no lookup is sent into it: each one left gets that answer
            // (before: every login was asked, all refused, which GitHub warns can get an integration banned).
            var spent: DomainError?
            for (index, reference) in references.enumerated() {
                // At most `width` in flight: each lookup past the first `width` starts as one finishes.
                if index >= width, let finished = await group.next() {
                    results[finished.0] = finished.1
                    spent = spent ?? finished.1.spentLimit
                }
                if let spent {
                    results[index] = .failure(spent)
                    continue
                }
                group.addTask {
                    // The fetch finishes before any part of the returned tuple is built. Swift 6.3.1's optimiser
                    // (LLVM dead-store elimination on async functions) drops the store of `index` when the tuple
                    // is written around an `await` inside a do/catch, so the release build read back garbage.
                    let result = await Self.fetch(reference, from: repository)
                    return (index, result)
                }
            }
            for await (index, result) in group {
                results[index] = result
            }
        }
        return results.map { $0 ?? .failure(.cancelled) }
    }

    /// One profile as a value: every `await` happens before the result is assembled (see `execute`).
    package static func fetch(
        _ reference: UserReference,
        from repository: any UsersRepository
    ) async -> Result<User, DomainError> {
        let user: User
        do throws(DomainError) {
            user = try await repository.user(reference)
        } catch {
            return .failure(error)
        }
        return .success(user)
    }
}

extension Result where Failure == DomainError {
    /// The failure when it is a spent rate limit, which no further request should be sent into; nil otherwise.
    package var spentLimit: DomainError? {
        guard case .failure(let error) = self, case .rateLimited = error else { return nil }
        return error
    }
}
