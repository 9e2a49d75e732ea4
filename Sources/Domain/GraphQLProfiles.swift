import Foundation

/// What one batched GraphQL lookup answered for one login.
package enum GraphQLLookup: Sendable, Equatable {
    /// The profile, rebuilt in the shape of GitHub's REST user object.
    case found(User)
    /// GraphQL cannot give this account's REST profile: an organization (GraphQL's Organization has no follower
    /// count), or an alias that came back null (a bot is no GraphQL User; a renamed or deleted account). REST
    /// answers for it, and says "not found" when that is the truth.
    case needsREST
}

/// One batch's answer: a lookup per login, in the order asked, and what the query cost.
package struct GraphQLBatch: Sendable, Equatable {
    package let lookups: [GraphQLLookup]
    /// Points of the `graphql` rate limit the query spent (`rateLimit { cost }`); nil when GitHub did not say.
    package let cost: Int?
    /// Points left in the hour (`rateLimit { remaining }`).
    package let remaining: Int?
    /// The POSTs the batch took: more than one when the repository asked again (without a field the token's
    /// scopes refused), so that the run's count of requests is true.
    package var requests = 1

    package init(lookups: [GraphQLLookup], cost: Int?, remaining: Int?) {
        self.lookups = lookups
        self.cost = cost
        self.remaining = remaining
    }
}

/// Why a whole batch came back without its lookups, sorted by what the caller should do next.
package enum GraphQLBatchFailure: Error, Sendable, Equatable {
    /// The batch was too much for the server (the node limit, or a 502 or 504 when the query ran out of time):
    /// the same logins in smaller batches may pass.
    case tooLarge(String)
    /// The server will not answer this query at all (a validation error from an older Enterprise schema, an
    /// error that names no alias, an answer that is no GraphQL response): REST answers from now on.
    case unsupported(String)
    /// A failure REST would meet as well (a spent rate limit, a bad token, a network failure or 5xx that outlived
    /// the retries, an interrupt): every login fails with it, and no later batch is sent.
    case failed(DomainError)
}

/// Looks up to `GraphQLProfilesUseCase.maximumBatchSize` accounts in one GraphQL request (Data implements it).
package protocol GraphQLProfilesRepository: Sendable {
    /// One lookup per login, in the order given.
    func profiles(_ logins: [Login]) async throws(GraphQLBatchFailure) -> GraphQLBatch
}

/// What the batched lookups have cost and saved so far.
package struct GraphQLProfilesStatistics: Sendable, Equatable {
    /// GraphQL requests sent, halved retries included.
    package var requests = 0
    /// Points of the `graphql` limit those requests spent.
    /// Never past `Int.max`: a cost is the server's number, not ours.
    package var points = 0
    /// Profiles GraphQL gave.
    package var profiles = 0
    /// REST requests made instead, for organizations, bots, null aliases and batches GraphQL would not answer.
    package var restFallbacks = 0

    package init(requests: Int = 0, points: Int = 0, profiles: Int = 0, restFallbacks: Int = 0) {
        self.requests = requests
        self.points = points
        self.profiles = profiles
        self.restFallbacks = restFallbacks
    }

    /// REST would have spent one request per profile GraphQL gave; the batches spent `requests` instead.
    package var restRequestsSaved: Int { max(0, profiles - requests) }
}

/// Full profiles for many logins at a hundredth of REST's requests: batches of at most `maximumBatchSize`
/// aliased lookups, up to `concurrency` requests at a time across callers, each account GraphQL cannot give
/// fetched from REST instead.
/// Results come back in the order asked, as `GetUsersUseCase`'s do.
///
/// A batch too big for the server is halved and tried again; successes grow the size back
/// (`GraphQLBatchSizing`), and refusals in a row past a few stop the run. A batch the server will not answer
/// goes to REST, and so do all later ones (the schema will not change mid-run). A failure REST would meet too
/// (rate limit, token, a network failure that outlived the retries, interrupt) fails the batch and every later
/// one without another request. One value serves a whole run, so its `statistics` add up across calls.
package final class GraphQLProfilesUseCase: @unchecked Sendable {
    package static let maximumBatchSize = 100

    private let graphQL: any GraphQLProfilesRepository
    private let rest: any UsersRepository
    private let concurrency: Int
    private let lock = NSLock()
    private var totals = GraphQLProfilesStatistics()
    private var sizing: GraphQLBatchSizing
    private var unsupported = false
    private var stopped: DomainError?
    /// REST's limit spent, or the token refused: no fallback is sent into it again (`fromREST`).
    private var restStopped: DomainError?
    /// At most `concurrency` POSTs at a time, however many callers (`--full` expands several batches at once),
    /// first come first served; a batch's REST fallbacks never wait for another batch's POST.
    private let gate: CountingGate

    /// `concurrency` bounds the POSTs in flight and each batch's REST fallbacks, as `--concurrency` does for
    /// `show`; `batchSize` is clamped to 1...`maximumBatchSize`.
    package init(
        graphQL: any GraphQLProfilesRepository,
        rest: any UsersRepository,
        concurrency: Int = 4,
        batchSize: Int = GraphQLProfilesUseCase.maximumBatchSize
    ) {
        self.graphQL = graphQL
        self.rest = rest
        self.concurrency = max(1, concurrency)
        gate = CountingGate(max(1, concurrency))
        sizing = GraphQLBatchSizing(maximum: Self.maximumBatchSize, size: batchSize)
    }

    package var statistics: GraphQLProfilesStatistics { lock.withLock { totals } }

    /// The profiles of `logins`, in order. Those at `restOnly` are known not to be GraphQL Users (an organization
    /// or a bot, as the list that named them says): they go to REST at once, beside the batches' POSTs, instead of
    /// after a null answer (issue 29: each batch's fallbacks waited for its POST).
    package func execute(_ logins: [Login], restOnly: Set<Int> = []) async -> [Result<User, DomainError>] {
        let direct = logins.indices.filter { restOnly.contains($0) }
        guard !direct.isEmpty else { return await inBatches(logins) }
        let asked = logins.indices.filter { !restOnly.contains($0) }
        async let besides = directly(direct.map { logins[$0] })
        let found = await inBatches(asked.map { logins[$0] })
        let fetched = await besides
        var results = [Result<User, DomainError>?](repeating: nil, count: logins.count)
        for (index, result) in zip(asked, found) { results[index] = result }
        for (index, result) in zip(direct, fetched) { results[index] = result }
        return results.map { $0 ?? .failure(.cancelled) }
    }

    /// The profiles of `logins`, each handed to `deliver` in the order asked as soon as it and every one before it
    /// are in, so that a caller can write each and let it go (`show --via graphql`, which held every profile until
    /// the last batch came). Batches of the current size go out up to `concurrency` at a time (one refused as too
    /// large is asked again smaller, within its own logins), and none starts more than `concurrency` batches past
    /// the one awaited: what is held is that window, however many logins. `deliver` returns false to stop:
    /// nothing more is asked, and the batches in flight are cancelled.
    package func execute(_ logins: [Login], deliver: (Result<User, DomainError>) -> Bool) async {
        // Each batch's logins, as started; `awaited` is the batch `deliver` waits for, and `waiting` holds the
        // batches answered before it.
        var batches: [Range<Int>] = []
        var waiting: [Int: [Result<User, DomainError>]] = [:]
        var awaited = 0
        var stopped = false
        await withTaskGroup(of: (Int, [Result<User, DomainError>]).self) { group in
            // Takes a batch in, and hands on every result now in order; false once `deliver` says stop.
            func take(_ index: Int, _ results: [Result<User, DomainError>]) -> Bool {
                waiting[index] = results
                while let next = waiting.removeValue(forKey: awaited) {
                    awaited += 1
                    for result in next where !deliver(result) {
                        stopped = true
                        group.cancelAll()
                        return false
                    }
                }
                return true
            }
            var start = 0
            while start < logins.count {
                let index = batches.count
                while index - awaited >= concurrency {
                    guard let (finished, results) = await group.next() else { break }
                    guard take(finished, results) else { return }
                }
                // Sized as it starts, so that a size the answers so far shrank or grew applies.
                let size = lock.withLock { sizing.size }
                let range = start..<min(logins.count, start + size)
                batches.append(range)
                start = range.upperBound
                let batch = Array(logins[range])
                group.addTask {
                    // Every `await` before the tuple is built (see `GetUsersUseCase.execute`).
                    let results = await self.resolve(batch)
                    return (index, results)
                }
            }
            for await (finished, results) in group where !stopped {
                _ = take(finished, results)
            }
        }
        // A batch the group never finished (none should be) is said as cancelled, each login in its place.
        while !stopped, awaited < batches.count {
            let next = waiting.removeValue(forKey: awaited) ?? batches[awaited].map { _ in .failure(.cancelled) }
            awaited += 1
            stopped = next.contains { !deliver($0) }
        }
    }

    /// Accounts GraphQL cannot give, from REST; nothing is sent once the run has stopped.
    private func directly(_ logins: [Login]) async -> [Result<User, DomainError>] {
        if let error = lock.withLock({ stopped }) { return logins.map { _ in .failure(error) } }
        return await fromREST(logins)
    }

    /// `logins` in batches of the current size, which refusals shrink and successes grow.
    private func inBatches(_ logins: [Login]) async -> [Result<User, DomainError>] {
        var results: [Result<User, DomainError>] = []
        results.reserveCapacity(logins.count)
        while results.count < logins.count {
            let start = results.count
            let size = lock.withLock { sizing.size }
            let batch = Array(logins[start..<min(logins.count, start + size)])
            results += await resolve(batch)
        }
        return results
    }

    /// One batch, made smaller as often as the server asks (within `GraphQLBatchSizing`'s bounds).
    private func resolve(_ logins: [Login]) async -> [Result<User, DomainError>] {
        let state = lock.withLock { (stopped, unsupported) }
        if let error = state.0 { return logins.map { _ in .failure(error) } }
        if state.1 { return await fromREST(logins) }
        switch await lookUp(logins) {
        case .found(let batch): return await deliver(batch, for: logins)
        case .smaller: return await inBatches(logins)
        case .fromREST: return await fromREST(logins)
        case .stop(let error): return logins.map { _ in .failure(error) }
        }
    }

    /// What one batch's answer means for its logins.
    private enum Answer {
        case found(GraphQLBatch)
        /// Refused as too large: ask again in smaller batches.
        case smaller
        /// GraphQL cannot give these (the schema refuses the query, or a batch of one was too large).
        case fromREST
        /// The run stops with this, for these logins and every later one.
        case stop(DomainError)
    }

    /// The request as a value: every `await` happens before the result is assembled (see `GetUsersUseCase`).
    /// What the answer means is decided before the gate lets another batch go, so refusals and successes reach
    /// the sizing policy as the server gave them (a refusal of a batch sent before an earlier refusal shrank the
    /// size does not count again: `GraphQLBatchSizing.refused`), and a caller that waited at the gate while
    /// another's batch stopped the run or switched it to REST sends nothing.
    private func lookUp(_ logins: [Login]) async -> Answer {
        await gate.enter()
        let answer = await send(logins)
        await gate.leave()
        return answer
    }

    /// Only `lookUp` calls this, inside the gate.
    private func send(_ logins: [Login]) async -> Answer {
        let state = lock.withLock { (stopped, unsupported) }
        if let error = state.0 { return .stop(error) }
        if state.1 { return .fromREST }
        let result: Result<GraphQLBatch, GraphQLBatchFailure>
        do throws(GraphQLBatchFailure) {
            result = .success(try await graphQL.profiles(logins))
        } catch {
            result = .failure(error)
        }
        return lock.withLock { record(result, count: logins.count) }
    }

    /// Called with `lock` held.
    private func record(_ result: Result<GraphQLBatch, GraphQLBatchFailure>, count: Int) -> Answer {
        let failure: GraphQLBatchFailure
        switch result {
        case .success(let batch):
            sizing.succeeded(count: count)
            return .found(batch)
        case .failure(let error):
            failure = error
        }
        totals.requests += 1
        switch failure {
        case .tooLarge(let reason):
            switch sizing.refused(count: count) {
            case .retry: return .smaller
            case .single: return .fromREST
            case .stop(let refusals):
                return stopRun(with: .graphQLBatchesRefused(batches: refusals, accounts: count, reason: reason))
            }
        case .unsupported:
            unsupported = true
            return .fromREST
        case .failed(let error):
            return stopRun(with: error)
        }
    }

    /// Called with `lock` held: the first error that stops the run is the one every later batch gets.
    private func stopRun(with error: DomainError) -> Answer {
        if stopped == nil { stopped = error }
        return .stop(stopped ?? error)
    }

    private func deliver(_ batch: GraphQLBatch, for logins: [Login]) async -> [Result<User, DomainError>] {
        // A server that answers fewer lookups than asked is wrong about the rest: REST answers for them.
        var results: [Result<User, DomainError>?] = logins.indices.map { index in
            guard index < batch.lookups.count, case .found(let user) = batch.lookups[index] else { return nil }
            return .success(user)
        }
        let found = results.count(where: { $0 != nil })
        lock.withLock {
            totals.requests += max(1, batch.requests)
            let (sum, overflow) = totals.points.addingReportingOverflow(max(0, batch.cost ?? 0))
            totals.points = overflow ? Int.max : sum
            totals.profiles += found
        }
        let missing = logins.indices.filter { results[$0] == nil }
        if !missing.isEmpty {
            let fetched = await fromREST(missing.map { logins[$0] })
            for (index, result) in zip(missing, fetched) { results[index] = result }
        }
        return results.map { $0 ?? .failure(.cancelled) }
    }

    /// Once REST says its rate limit is spent, or refuses the token, no later batch sends a lookup into it: each
    /// one left gets that answer (each batch's `GetUsersUseCase` knew only its own refusals).
    private func fromREST(_ logins: [Login]) async -> [Result<User, DomainError>] {
        if let stop = lock.withLock({ restStopped }) { return logins.map { _ in .failure(stop) } }
        lock.withLock { totals.restFallbacks += logins.count }
        let results = await GetUsersUseCase(repository: rest).execute(logins: logins, concurrency: concurrency)
        if let stop = results.lazy.compactMap(\.stopsLookups).first {
            lock.withLock { restStopped = restStopped ?? stop }
        }
        return results
    }
}

/// An async semaphore of `limit` places that lets its waiters in first come, first served.
private actor CountingGate {
    private var free: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(_ limit: Int) {
        free = limit
    }

    func enter() async {
        guard free == 0 else {
            free -= 1
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    func leave() {
        if waiting.isEmpty {
            free += 1
        } else {
            waiting.removeFirst().resume()
        }
    }
}
