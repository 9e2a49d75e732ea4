/// Which account a `show` asks for.
package enum UserReference: Sendable, Hashable {
    case login(Login)
    case id(Int64)
}

/// Fetches several profiles concurrently, at most `concurrency` at a time, and hands them on in the order asked.
package struct GetUsersUseCase: Sendable {
    private let repository: any UsersRepository

    package init(repository: any UsersRepository) {
        self.repository = repository
    }

    package func execute(logins: [Login], concurrency: Int) async -> [Result<User, DomainError>] {
        await execute(logins.map(UserReference.login), concurrency: concurrency)
    }

    /// Every result, in the order asked.
    package func execute(_ references: [UserReference], concurrency: Int) async -> [Result<User, DomainError>] {
        var results: [Result<User, DomainError>] = []
        results.reserveCapacity(references.count)
        await execute(references, concurrency: concurrency) { result in
            results.append(result)
            return true
        }
        return results
    }

    /// How far past the result awaited a lookup may start, for each one in flight: the results held until those
    /// before them come are at most `concurrency` times this many, however many are asked (at about 4 KB a
    /// profile, 1 MB at the default 4), while the others go on past a slow one for that long.
    package static let aheadPerLookup = 64

    /// Each result handed to `deliver` in the order asked, as soon as it and every one before it are in, so that
    /// a caller can write each and let it go. At most `concurrency` lookups are in flight, and none starts more
    /// than `concurrency × aheadPerLookup` past the one awaited: one slow lookup holds up the start of others
    /// rather than letting the results after it pile up. `deliver` returns false to stop: nothing more is asked,
    /// the lookups in flight are cancelled, and nothing more is delivered.
    package func execute(
        _ references: [UserReference], concurrency: Int, deliver: (Result<User, DomainError>) -> Bool
    ) async {
        // One lookup needs no task group: it is fetched here, in the caller's task.
        // The fetch finishes before the result is handed on (see the group's comment below).
        if references.count == 1 {
            let result = await Self.fetch(references[0], from: repository)
            _ = deliver(result)
            return
        }
        let width = max(1, concurrency)
        let ahead = width * Self.aheadPerLookup
        // Results in before one asked earlier, by index; `awaited` is the index `deliver` waits for.
        var waiting: [Int: Result<User, DomainError>] = [:]
        var awaited = 0
        var stopped = false
        await withTaskGroup(of: (Int, Result<User, DomainError>).self) { group in
            let repository = self.repository
            // Once GitHub says the rate limit is spent, or refuses the token, no lookup is sent into it: each one
            // left gets that answer (before: every login was asked, all refused, which GitHub warns can get an
            // integration banned, and bad credentials lock the account out for a while).
            var spent: DomainError?
            var inFlight = 0
            // Takes a result in, and hands on every one now in order; once `deliver` says stop, cancels the lookups
            // in flight and returns false.
            func take(_ index: Int, _ result: Result<User, DomainError>) -> Bool {
                waiting[index] = result
                while let next = waiting.removeValue(forKey: awaited) {
                    awaited += 1
                    guard deliver(next) else {
                        stopped = true
                        group.cancelAll()
                        return false
                    }
                }
                return true
            }
            for (index, reference) in references.enumerated() {
                // At most `width` in flight, and none started `ahead` or more past the result awaited.
                while inFlight >= width || (inFlight > 0 && index - awaited >= ahead) {
                    guard let next = await group.next() else { break }
                    let (finished, result) = next
                    inFlight -= 1
                    spent = spent ?? result.stopsLookups
                    guard take(finished, result) else { return }
                }
                if let spent {
                    guard take(index, .failure(spent)) else { return }
                    continue
                }
                inFlight += 1
                group.addTask {
                    // The fetch finishes before any part of the returned tuple is built. Swift 6.3.1's optimiser
                    // (LLVM dead-store elimination on async functions) drops the store of `index` when the tuple
                    // is written around an `await` inside a do/catch, so the release build read back garbage.
                    let result = await Self.fetch(reference, from: repository)
                    return (index, result)
                }
            }
            for await (finished, result) in group where !stopped {
                _ = take(finished, result)
            }
        }
        // A lookup the group never finished (none should be) is said as cancelled, in its place.
        while !stopped, awaited < references.count {
            let next = waiting.removeValue(forKey: awaited) ?? .failure(.cancelled)
            awaited += 1
            stopped = !deliver(next)
        }
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
    /// The failure when no further request should be sent into it: a spent rate limit, or a token GitHub refused
    /// (`DomainError.refusesToken`); nil otherwise.
    package var stopsLookups: DomainError? {
        guard case .failure(let error) = self else { return nil }
        if case .rateLimited = error { return error }
        return error.refusesToken ? error : nil
    }
}
