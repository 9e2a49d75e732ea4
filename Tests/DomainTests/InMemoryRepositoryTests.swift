import Foundation
import TestSupport
import Testing

@testable import Domain

/// Domain's use cases against in-memory repositories, the second implementation of each protocol they depend on:
/// what they ask, in what order, and what they make of the answers, with no HTTP underneath.

/// Profiles held in memory; a login it does not hold is GitHub's 404. It counts the lookups under way at once.
private final class InMemoryUsers: UsersRepository, @unchecked Sendable {
    private let lock = NSLock()
    private let users: [String: User]
    private var underWay = 0
    private var most = 0
    var mostAtOnce: Int { lock.withLock { most } }

    init(_ users: [User]) {
        self.users = Dictionary(uniqueKeysWithValues: users.map { ($0.login, $0) })
    }

    func user(login: Login) async throws(DomainError) -> User {
        lock.withLock {
            underWay += 1
            most = max(most, underWay)
        }
        await Task.yield()
        lock.withLock { underWay -= 1 }
        guard let user = users[login.value] else { throw .notFound(resource: "user '\(login.value)'") }
        return user
    }

    func user(id: Int64) async throws(DomainError) -> User {
        guard let user = users.values.first(where: { $0.id == id }) else { throw .notFound(resource: "user \(id)") }
        return user
    }
}

/// A calendar of one contribution a day, held in memory, that refuses as too long any piece over `longest` days,
/// as GitHub refuses a long history since July 2026. It records the pieces asked.
private final class InMemoryContributions: ContributionsRepository, @unchecked Sendable {
    private let lock = NSLock()
    private let longest: Int
    private var asked: [ClosedRange<CalendarDay>] = []
    var pieces: [ClosedRange<CalendarDay>] { lock.withLock { asked } }

    init(longest: Int) {
        self.longest = longest
    }

    func contributions(of login: Login, in span: ClosedRange<CalendarDay>) async throws(DomainError)
        -> ContributionsPiece
    {
        lock.withLock { asked.append(span) }
        let length = span.upperBound.ordinal - span.lowerBound.ordinal + 1
        guard length <= longest else { return .tooLong(message: "Resource limits for this query exceeded.") }
        let days = (span.lowerBound.ordinal...span.upperBound.ordinal).map {
            ContributionDay(date: CalendarDay(ordinal: $0), count: 1, level: .firstQuartile)
        }
        return .calendar(ContributionCalendar(total: days.count, days: days))
    }
}

/// A GraphQL endpoint held in memory: it refuses as too large any batch over `largest` logins, answers an
/// organization (a login starting "org-") as one GraphQL cannot give, and records the batch sizes asked.
private final class InMemoryGraphQL: GraphQLProfilesRepository, @unchecked Sendable {
    private let lock = NSLock()
    private let largest: Int
    private var asked: [Int] = []
    /// The POSTs each batch says it took (a repository that asked again without a refused field says 2).
    var postsPerBatch = 1
    var batches: [Int] { lock.withLock { asked } }

    init(largest: Int) {
        self.largest = largest
    }

    func profiles(_ logins: [Login]) async throws(GraphQLBatchFailure) -> GraphQLBatch {
        lock.withLock { asked.append(logins.count) }
        guard logins.count <= largest else { throw .tooLarge("the node limit") }
        let lookups = logins.map { login -> GraphQLLookup in
            login.value.hasPrefix("org-")
                ? .needsREST : .found(makeUser(Int64(login.value.dropFirst(1)) ?? 0, login.value))
        }
        var batch = GraphQLBatch(lookups: lookups, cost: 1, remaining: 4_999)
        batch.requests = postsPerBatch
        return batch
    }
}

/// A GraphQL endpoint that answers its first batch at once and holds every later one until it is cancelled (or a
/// minute has passed), as a slow server does: what a caller that stops early leaves in flight. It counts the
/// batches it saw cancelled.
private final class FirstBatchOnly: GraphQLProfilesRepository, @unchecked Sendable {
    private let lock = NSLock()
    private var cancelledBatches = 0
    var cancelled: Int { lock.withLock { cancelledBatches } }

    func profiles(_ logins: [Login]) async throws(GraphQLBatchFailure) -> GraphQLBatch {
        if logins.first?.value != "u1" {
            do {
                try await Task.sleep(for: .seconds(60))
            } catch {
                lock.withLock { cancelledBatches += 1 }
                throw .failed(.cancelled)
            }
        }
        return GraphQLBatch(
            lookups: logins.map { .found(makeUser(Int64($0.value.dropFirst(1)) ?? 0, $0.value)) }, cost: 1,
            remaining: 4_999)
    }
}

/// A GraphQL endpoint whose first batch meets a spent rate limit at once, and whose later ones fail with a 500 a
/// moment after: two batches in flight when the run stops, each failing its own way.
private final class LimitThenServerError: GraphQLProfilesRepository, @unchecked Sendable {
    static let limit = DomainError.rateLimited(resetAt: nil, message: "API rate limit exceeded", resource: "graphql")

    private let lock = NSLock()
    private var asked = 0

    func profiles(_ logins: [Login]) async throws(GraphQLBatchFailure) -> GraphQLBatch {
        lock.withLock { asked += 1 }
        guard logins.first?.value == "u1" else {
            try? await Task.sleep(for: .milliseconds(200))
            throw .failed(.server(status: 500, message: "Internal Server Error"))
        }
        // The limit is met once the second batch is in flight too.
        for _ in 0..<200 where lock.withLock({ asked }) < 2 { try? await Task.sleep(for: .milliseconds(10)) }
        throw .failed(Self.limit)
    }
}

struct InMemoryRepositoryTests {
    private func login(_ text: String) -> Login {
        try! Login(validating: text)
    }

    /// The logins `useCase` hands on for `logins`, in order, the caller stopping once it has `limit` of them.
    private func delivered(_ useCase: GraphQLProfilesUseCase, _ logins: [Login], upTo limit: Int = .max) async
        -> [String?]
    {
        var taken: [String?] = []
        await useCase.execute(logins) { result in
            taken.append(try? result.get().login)
            return taken.count < limit
        }
        return taken
    }

    @Test func profilesComeBackInTheOrderAskedWithEachFailureInItsPlace() async {
        let users = InMemoryUsers([makeUser(1, "a"), makeUser(2, "b"), makeUser(3, "c")])
        let results = await GetUsersUseCase(repository: users).execute(
            logins: ["c", "nobody", "a", "b"].map(login), concurrency: 2)
        #expect(results.map { try? $0.get().login } == ["c", nil, "a", "b"])
        #expect(results[1] == .failure(.notFound(resource: "user 'nobody'")))
        #expect(users.mostAtOnce <= 2)
    }

    @Test func aRefusedPieceIsHalvedAndEveryDayComesOnce() async throws {
        let contributions = InMemoryContributions(longest: 100)
        let start = CalendarDay(year: 2025, month: 1, day: 1)!
        let span = start...start.adding(days: 364)
        let calendar = try await GetContributionsUseCase(repository: contributions).execute(
            login("octocat"), span: span)
        #expect(calendar.days.map(\.date.ordinal) == Array(span.lowerBound.ordinal...span.upperBound.ordinal))
        #expect(calendar.total == 365)
        // 182 days refused, then 91 at a time from there on.
        let lengths = contributions.pieces.map { $0.upperBound.ordinal - $0.lowerBound.ordinal + 1 }
        #expect(lengths.first == ContributionSpan.daysPerPiece)
        #expect(lengths.dropFirst().allSatisfy { $0 <= 91 })
    }

    @Test func aPieceRefusedAtTheShortestEndsTheRunWithGitHubsMessage() async {
        let contributions = InMemoryContributions(longest: 10)
        let start = CalendarDay(year: 2025, month: 1, day: 1)!
        await #expect(throws: DomainError.self) {
            _ = try await GetContributionsUseCase(repository: contributions).execute(
                login("octocat"), span: start...start.adding(days: 99))
        }
        let lengths = contributions.pieces.map { $0.upperBound.ordinal - $0.lowerBound.ordinal + 1 }
        #expect(lengths.last == ContributionSpan.shortestPiece)
    }

    /// A batch too large is halved until it passes, every account comes back in the order asked, and one
    /// GraphQL cannot give is asked of REST.
    @Test func batchesTooLargeAreHalvedAndAnOrganizationGoesToREST() async {
        let graphQL = InMemoryGraphQL(largest: 30)
        let rest = InMemoryUsers([makeUser(9_000, "org-github")])
        let logins = (1...60).map { login("u\($0)") } + [login("org-github")]
        let useCase = GraphQLProfilesUseCase(graphQL: graphQL, rest: rest, concurrency: 1)
        let results = await useCase.execute(logins)
        #expect(results.map { try? $0.get().login } == logins.map(\.value))
        #expect(graphQL.batches.first == 61)
        #expect(graphQL.batches.dropFirst().allSatisfy { $0 <= 31 })
        #expect(useCase.statistics.requests == graphQL.batches.count)
        #expect(useCase.statistics.restFallbacks == 1)
        #expect(useCase.statistics.profiles == 60)
    }

    /// Each profile is handed on once its chunk of 100 and every one before it are in, at most `concurrency` chunks
    /// ahead: a caller that stops at the first profile (`show - --via graphql | head -1`) sends no further batch,
    /// and one that takes them all gets every login in order. helper-356: `show --via graphql` held every profile
    /// until the last batch came, one batch after another, so memory grew with the logins.
    @Test func profilesAreHandedOnChunkByChunkAndAStopSendsNoMoreBatches() async {
        let logins = (1...250).map { login("u\($0)") }
        let graphQL = InMemoryGraphQL(largest: 100)
        let first = GraphQLProfilesUseCase(graphQL: graphQL, rest: InMemoryUsers([]), concurrency: 1)
        #expect(await delivered(first, logins, upTo: 1) == ["u1"])
        #expect(graphQL.batches == [100])
        let windowed = InMemoryGraphQL(largest: 100)
        let all = GraphQLProfilesUseCase(graphQL: windowed, rest: InMemoryUsers([]), concurrency: 2)
        var every: [String?] = []
        var askedAtFirst: Int?
        await all.execute(logins) { result in
            askedAtFirst = askedAtFirst ?? windowed.batches.count
            every.append(try? result.get().login)
            return true
        }
        #expect(every == logins.map(\.value))
        #expect(askedAtFirst.map { $0 <= 2 } == true, "\(String(describing: askedAtFirst))")
        #expect(windowed.batches.sorted() == [50, 100, 100])
    }

    /// Stopped at every place, at every width, many times over: what is handed on is always the logins asked, in
    /// order, up to the stop, and nothing after it (the window's tasks race each other, so one run proves little).
    @Test func stoppingAnywhereHandsOnExactlyThePrefixInOrder() async {
        let logins = (1...450).map { login("u\($0)") }
        for round in 0..<200 {
            let width = 1 + round % 5
            let stop = (round * 37) % logins.count
            let useCase = GraphQLProfilesUseCase(
                graphQL: InMemoryGraphQL(largest: 100), rest: InMemoryUsers([]), concurrency: width)
            let taken = await delivered(useCase, logins, upTo: stop + 1)
            #expect(taken == logins.prefix(stop + 1).map(\.value), "width \(width), stop at \(stop)")
        }
    }

    /// A caller that stops (`show - --via graphql | head -1`) cancels the batches in flight: it does not wait for
    /// a slow POST whose profiles nobody will read.
    @Test func aStopCancelsTheBatchesInFlight() async {
        let graphQL = FirstBatchOnly()
        let useCase = GraphQLProfilesUseCase(graphQL: graphQL, rest: InMemoryUsers([]), concurrency: 2)
        #expect(await delivered(useCase, (1...200).map { login("u\($0)") }, upTo: 1) == ["u1"])
        // The second batch was in flight: cancelled, not waited for.
        #expect(graphQL.cancelled == 1)
    }

    /// Handed on as they come, batches are sized as each starts: once a hundred was refused as too large, no later
    /// batch asks a hundred again (each would be refused, and asked again smaller: twice the POSTs).
    @Test func handedOnBatchesStartAtTheSizeThatPassed() async {
        let logins = (1...400).map { login("u\($0)") }
        let graphQL = InMemoryGraphQL(largest: 50)
        let useCase = GraphQLProfilesUseCase(graphQL: graphQL, rest: InMemoryUsers([]), concurrency: 1)
        #expect(await delivered(useCase, logins) == logins.map(\.value))
        #expect(graphQL.batches.filter { $0 == 100 } == [100], "\(graphQL.batches)")
    }

    /// The first failure that stops the run is what every login after it is told, a batch already in flight that
    /// failed otherwise included: a spent limit is not said as a 500 for the accounts after it.
    @Test func theFirstFailureThatStopsTheRunIsEveryLaterLoginsToo() async {
        let useCase = GraphQLProfilesUseCase(
            graphQL: LimitThenServerError(), rest: InMemoryUsers([]), concurrency: 2)
        var taken: [Result<User, DomainError>] = []
        await useCase.execute((1...300).map { login("u\($0)") }) { result in
            taken.append(result)
            return true
        }
        #expect(taken.count == 300)
        #expect(taken.allSatisfy { $0 == .failure(LimitThenServerError.limit) })
    }

    /// A batch that took two POSTs (asked again without `email`) counts two in the run's closing line.
    @Test func everyPOSTOfABatchIsCounted() async {
        let graphQL = InMemoryGraphQL(largest: 100)
        graphQL.postsPerBatch = 2
        let useCase = GraphQLProfilesUseCase(graphQL: graphQL, rest: InMemoryUsers([]), concurrency: 1)
        _ = await useCase.execute((1...150).map { login("u\($0)") })
        #expect(useCase.statistics.requests == 4)
    }
}
