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

struct InMemoryRepositoryTests {
    private func login(_ text: String) -> Login {
        try! Login(validating: text)
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
        var taken: [String?] = []
        await first.execute(logins) { result in
            taken.append(try? result.get().login)
            return false
        }
        #expect(taken == ["u1"])
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
            var taken: [String?] = []
            await useCase.execute(logins) { result in
                taken.append(try? result.get().login)
                return taken.count <= stop
            }
            #expect(taken == logins.prefix(stop + 1).map(\.value), "width \(width), stop at \(stop)")
        }
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
