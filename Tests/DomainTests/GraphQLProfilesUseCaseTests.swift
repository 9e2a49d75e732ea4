import Foundation
import TestSupport
import Testing

@testable import Domain

private func logins(_ count: Int, from first: Int = 1) -> [Login] {
    (first..<first + count).map { try! Login(validating: "user\($0)") }
}

/// A batch that finds every login, as a user whose id is the number in its login.
private func found(_ batch: [Login], cost: Int = 1) -> Result<GraphQLBatch, GraphQLBatchFailure> {
    .success(
        GraphQLBatch(
            lookups: batch.map { .found(makeUser(Int64($0.value.dropFirst(4))!, $0.value)) }, cost: cost,
            remaining: 4_000))
}

private func restProfiles(_ github: FakeGitHub, _ batch: [Login]) {
    for login in batch {
        github.profiles[login.value] = .success(makeUser(Int64(login.value.dropFirst(4))!, login.value))
    }
}

private func graphQLCalls(_ github: FakeGitHub) -> [[String]] {
    github.calls.filter { $0.hasPrefix("graphql ") }.map { $0.dropFirst(8).split(separator: ",").map(String.init) }
}

struct GraphQLProfilesUseCaseTests {
    @Test func batchesAreAtMostAHundredAndResultsKeepTheOrderAsked() async {
        let github = FakeGitHub()
        let asked = logins(250)
        github.graphQLBatches = [
            found(Array(asked[0..<100]), cost: 4), found(Array(asked[100..<200]), cost: 4),
            found(Array(asked[200...]), cost: 2),
        ]
        let useCase = GraphQLProfilesUseCase(graphQL: github, rest: github)
        let results = await useCase.execute(asked)
        #expect(results.map { try? $0.get().login } == asked.map(\.value))
        #expect(graphQLCalls(github).map(\.count) == [100, 100, 50])
        #expect(useCase.statistics == GraphQLProfilesStatistics(requests: 3, points: 10, profiles: 250))
        #expect(useCase.statistics.restRequestsSaved == 247)
        #expect(github.calls.allSatisfy { $0.hasPrefix("graphql ") })
    }

    @Test func accountsGraphQLCannotGiveComeFromRESTInTheirPlace() async {
        let github = FakeGitHub()
        let asked = logins(5)
        var lookups: [GraphQLLookup] = asked.map { .found(makeUser(Int64($0.value.dropFirst(4))!, $0.value)) }
        lookups[1] = .needsREST
        lookups[3] = .needsREST
        github.graphQLBatches = [.success(GraphQLBatch(lookups: lookups, cost: 1, remaining: nil))]
        github.profiles["user2"] = .success(makeUser(2, "user2"))
        github.profiles["user4"] = .failure(.notFound(resource: "user 'user4'"))
        let useCase = GraphQLProfilesUseCase(graphQL: github, rest: github)
        let results = await useCase.execute(asked)
        #expect(results.map { try? $0.get().login } == ["user1", "user2", "user3", nil, "user5"])
        #expect(results[3] == .failure(.notFound(resource: "user 'user4'")))
        #expect(github.calls.filter { $0.hasPrefix("user ") }.sorted() == ["user user2", "user user4"])
        #expect(useCase.statistics == GraphQLProfilesStatistics(requests: 1, points: 1, profiles: 3, restFallbacks: 2))
    }

    @Test func aShortAnswerLeavesTheRestToREST() async {
        let github = FakeGitHub()
        let asked = logins(3)
        github.graphQLBatches = [found(Array(asked.prefix(1)))]
        restProfiles(github, Array(asked.dropFirst()))
        let results = await GraphQLProfilesUseCase(graphQL: github, rest: github).execute(asked)
        #expect(results.map { try? $0.get().login } == ["user1", "user2", "user3"])
    }

    @Test func aBatchTooLargeIsHalvedAndLaterBatchesStaySmall() async {
        let github = FakeGitHub()
        let asked = logins(150)
        github.graphQLBatches = [
            .failure(.tooLarge("HTTP 502")), found(Array(asked[0..<50])), found(Array(asked[50..<100])),
            found(Array(asked[100..<150])),
        ]
        let useCase = GraphQLProfilesUseCase(graphQL: github, rest: github)
        let results = await useCase.execute(asked)
        #expect(results.map { try? $0.get().login } == asked.map(\.value))
        #expect(graphQLCalls(github).map(\.count) == [100, 50, 50, 50])
        #expect(useCase.statistics.requests == 4)
    }

    @Test func aSingleLoginTooLargeForGraphQLComesFromREST() async {
        let github = FakeGitHub()
        let asked = logins(2)
        github.graphQLBatches = [
            .failure(.tooLarge("node limit")), .failure(.tooLarge("node limit")), found([asked[1]]),
        ]
        restProfiles(github, [asked[0]])
        let results = await GraphQLProfilesUseCase(graphQL: github, rest: github).execute(asked)
        #expect(results.map { try? $0.get().login } == ["user1", "user2"])
        #expect(graphQLCalls(github).map(\.count) == [2, 1, 1])
    }

    @Test func aBatchGraphQLWillNotAnswerGoesToRESTAndSoDoLaterOnes() async {
        let github = FakeGitHub()
        let asked = logins(150)
        github.graphQLBatches = [.failure(.unsupported("Field 'isHireable' doesn't exist on type 'User'"))]
        restProfiles(github, asked)
        let useCase = GraphQLProfilesUseCase(graphQL: github, rest: github, concurrency: 8)
        let results = await useCase.execute(asked)
        #expect(results.map { try? $0.get().login } == asked.map(\.value))
        #expect(graphQLCalls(github).count == 1)
        #expect(useCase.statistics == GraphQLProfilesStatistics(requests: 1, restFallbacks: 150))
        #expect(github.maximumInFlight <= 8)
    }

    /// A network failure or a 5xx that outlived the client's retries is what REST would meet too: the run stops
    /// with it, and no batch goes to REST at a hundred times the quota.
    @Test func aBatchTheServerCouldNotAnswerFailsTheRunWithoutREST() async {
        let github = FakeGitHub()
        let asked = logins(150)
        let lost = DomainError.network("connection lost, after 4 attempts over 3.1 s")
        github.graphQLBatches = [.failure(.failed(lost))]
        let useCase = GraphQLProfilesUseCase(graphQL: github, rest: github, concurrency: 8)
        let results = await useCase.execute(asked)
        #expect(results.allSatisfy { $0 == .failure(lost) })
        #expect(graphQLCalls(github).map(\.count) == [100])
        #expect(useCase.statistics.restFallbacks == 0)
        #expect(!github.calls.contains { $0.hasPrefix("user ") })
    }

    /// After a 502 the size recovers: two successes in a row grow it halfway back to what was refused.
    @Test func theBatchSizeGrowsBackAfterSuccesses() async {
        let github = FakeGitHub()
        let asked = logins(400)
        github.graphQLBatches = [
            .failure(.tooLarge("HTTP 502")), found(Array(asked[0..<50])), found(Array(asked[50..<100])),
            found(Array(asked[100..<175])), found(Array(asked[175..<250])), found(Array(asked[250..<337])),
            found(Array(asked[337..<400])),
        ]
        let useCase = GraphQLProfilesUseCase(graphQL: github, rest: github)
        let results = await useCase.execute(asked)
        #expect(results.map { try? $0.get().login } == asked.map(\.value))
        #expect(graphQLCalls(github).map(\.count) == [100, 50, 50, 75, 75, 87, 63])
    }

    /// A server that refuses every batch is not asked forever in batches of one: past a few refusals in a row
    /// the run stops, with a message that says what to do.
    @Test func refusalsInARowStopTheRun() async {
        let github = FakeGitHub()
        let asked = logins(250)
        github.graphQLBatches = Array(repeating: .failure(.tooLarge("POST /graphql answered HTTP 502")), count: 10)
        let useCase = GraphQLProfilesUseCase(graphQL: github, rest: github)
        let results = await useCase.execute(asked)
        #expect(graphQLCalls(github).map(\.count) == [100, 50, 25, 13, 7])
        guard case .failure(.refused(let text)) = results[0] else {
            Issue.record("\(results[0]) is not a refusal")
            return
        }
        #expect(text.contains("refused 5 batches in a row"))
        #expect(text.contains("HTTP 502"))
        #expect(text.contains("--via graphql"))
        #expect(results.allSatisfy { $0 == results[0] })
        #expect(!github.calls.contains { $0.hasPrefix("user ") })
        // A later call sends nothing more.
        _ = await useCase.execute(logins(3, from: 300))
        #expect(graphQLCalls(github).count == 5)
    }

    /// A cost of Int.max from the server, twice, is counted without a trap.
    @Test func hugeCostsDoNotOverflowTheTotal() async {
        let github = FakeGitHub()
        let asked = logins(200)
        github.graphQLBatches = [
            found(Array(asked[0..<100]), cost: Int.max), found(Array(asked[100..<200]), cost: Int.max),
        ]
        let useCase = GraphQLProfilesUseCase(graphQL: github, rest: github)
        _ = await useCase.execute(asked)
        #expect(useCase.statistics.points == Int.max)
        #expect(useCase.statistics.requests == 2)
    }

    @Test func aSpentLimitFailsEveryLoginAndSendsNothingMore() async {
        let github = FakeGitHub()
        let asked = logins(250)
        let reset = Date(timeIntervalSince1970: 2_000_000_000)
        let limited = DomainError.rateLimited(resetAt: reset, message: "API rate limit already exceeded")
        github.graphQLBatches = [found(Array(asked[0..<100])), .failure(.failed(limited))]
        let useCase = GraphQLProfilesUseCase(graphQL: github, rest: github)
        let results = await useCase.execute(asked)
        #expect(results[..<100].allSatisfy { (try? $0.get()) != nil })
        #expect(results[100...].allSatisfy { $0 == .failure(limited) })
        #expect(graphQLCalls(github).count == 2)
        // A later call (the next page of a listing) fails at once too.
        let later = await useCase.execute(logins(3, from: 300))
        #expect(later.allSatisfy { $0 == .failure(limited) })
        #expect(graphQLCalls(github).count == 2)
    }

    @Test func statisticsAddUpAcrossCalls() async {
        let github = FakeGitHub()
        github.graphQLBatches = [found(logins(10), cost: 1), found(logins(5, from: 11), cost: 1)]
        let useCase = GraphQLProfilesUseCase(graphQL: github, rest: github)
        _ = await useCase.execute(logins(10))
        _ = await useCase.execute(logins(5, from: 11))
        #expect(useCase.statistics == GraphQLProfilesStatistics(requests: 2, points: 2, profiles: 15))
        #expect(useCase.statistics.restRequestsSaved == 13)
    }

    @Test func nothingAskedSendsNothing() async {
        let github = FakeGitHub()
        let results = await GraphQLProfilesUseCase(graphQL: github, rest: github).execute([])
        #expect(results.isEmpty)
        #expect(github.calls.isEmpty)
    }
}

struct GraphQLBatchSizingTests {
    @Test func halvesOnRefusalAndGrowsHalfwayBackToTheCeilingAfterTwoSuccesses() {
        var sizing = GraphQLBatchSizing(maximum: 100)
        #expect(sizing.refused(count: 100) == .retry(size: 50))
        sizing.succeeded()
        #expect(sizing.size == 50)
        sizing.succeeded()
        #expect(sizing.size == 75)
        sizing.succeeded()
        sizing.succeeded()
        #expect(sizing.size == 87)
        for _ in 0..<20 { sizing.succeeded() }
        // Never back to the size that was refused, so a steady limit is not hit again and again.
        #expect(sizing.size == 99)
    }

    @Test func withoutARefusalItStaysAtTheMaximum() {
        var sizing = GraphQLBatchSizing(maximum: 100)
        for _ in 0..<10 { sizing.succeeded() }
        #expect(sizing.size == 100)
    }

    @Test func aSteadyLimitIsFoundAndKept() {
        // A server that takes at most 30 lookups a batch.
        var sizing = GraphQLBatchSizing(maximum: 100)
        var refusals = 0
        for _ in 0..<200 {
            if sizing.size > 30 {
                refusals += 1
                _ = sizing.refused(count: sizing.size)
            } else {
                sizing.succeeded()
            }
        }
        #expect(sizing.size == 30)
        #expect(refusals <= 8)
    }

    @Test func theFifthRefusalInARowStops() {
        var sizing = GraphQLBatchSizing(maximum: 100)
        #expect(sizing.refused(count: 100) == .retry(size: 50))
        #expect(sizing.refused(count: 50) == .retry(size: 25))
        #expect(sizing.refused(count: 25) == .retry(size: 13))
        #expect(sizing.refused(count: 13) == .retry(size: 7))
        #expect(sizing.refused(count: 7) == .stop(refusals: 5))
    }

    @Test func aSuccessResetsTheCountOfRefusalsInARow() {
        var sizing = GraphQLBatchSizing(maximum: 100)
        for _ in 0..<4 { _ = sizing.refused(count: sizing.size) }
        sizing.succeeded()
        #expect(sizing.refusalsInRow == 0)
        #expect(sizing.refused(count: sizing.size) != .stop(refusals: 5))
    }

    @Test func aRefusedBatchOfOneGoesToRESTWhileRefusalsAreFew() {
        var sizing = GraphQLBatchSizing(maximum: 100, size: 1)
        #expect(sizing.refused(count: 1) == .single)
        #expect(sizing.size == 1)
    }

    @Test func sizesAreClamped() {
        #expect(GraphQLBatchSizing(maximum: 100, size: 0).size == 1)
        #expect(GraphQLBatchSizing(maximum: 100, size: 1_000).size == 100)
        #expect(GraphQLBatchSizing(maximum: 0).size == 1)
    }
}
