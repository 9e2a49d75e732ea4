import Foundation
import Networking
import TestSupport
import Testing

@testable import Domain

private func logins(_ count: Int, from first: Int = 1) -> [Login] {
    (first..<first + count).map { try! Login(validating: "user\($0)") }
}

/// GitHub's answer finding every login of `batch`, as an account whose id is the number in its login.
private func found(_ batch: [Login], cost: Int = 1) -> String {
    graphQLProfiles(
        batch.map { graphQLOwner(Int64($0.value.dropFirst(4))!, $0.value, name: $0.value, followers: 0) }, cost: cost,
        remaining: 4_000)
}

private func answer(_ github: StubTransport, _ batches: [String]) {
    for batch in batches { github.answer("POST /graphql", json: batch) }
}

/// GitHub's 502 to a query that ran out of time: the batch was too large, and is not retried.
private func tooLarge(_ github: StubTransport, times: Int = 1) {
    for _ in 0..<times { github.refuse("POST /graphql", status: 502, message: "Bad Gateway") }
}

private func restProfiles(_ github: StubTransport, _ batch: [Login]) {
    for login in batch {
        github.answer("GET /users/" + login.value, json: account(Int64(login.value.dropFirst(4))!, login.value))
    }
}

/// The use case over the real repository on `github`, GraphQL and REST alike.
private func useCase(_ github: StubTransport, concurrency: Int? = nil, over: HTTPTransport? = nil)
    -> GraphQLProfilesUseCase
{
    let repository = github.repository(over: over)
    guard let concurrency else { return GraphQLProfilesUseCase(graphQL: repository, rest: repository) }
    return GraphQLProfilesUseCase(graphQL: repository, rest: repository, concurrency: concurrency)
}

struct GraphQLProfilesUseCaseTests {
    @Test func batchesAreAtMostAHundredAndResultsKeepTheOrderAsked() async {
        let github = StubTransport()
        let asked = logins(250)
        answer(
            github,
            [
                found(Array(asked[0..<100]), cost: 4), found(Array(asked[100..<200]), cost: 4),
                found(Array(asked[200...]), cost: 2),
            ])
        let useCase = useCase(github)
        let results = await useCase.execute(asked)
        #expect(results.map { try? $0.get().login } == asked.map(\.value))
        #expect(github.graphQLLoginsAsked.map(\.count) == [100, 100, 50])
        #expect(useCase.statistics == GraphQLProfilesStatistics(requests: 3, points: 10, profiles: 250))
        #expect(useCase.statistics.restRequestsSaved == 247)
        #expect(github.calls.allSatisfy { $0 == "POST /graphql" })
    }

    /// Once REST says its limit is spent, a later batch's fallbacks are not sent into it: each batch's lookups
    /// knew only their own refusals, so every batch asked again (12 refused requests for three batches).
    @Test func aSpentRESTLimitIsNotAskedAgainByALaterBatch() async {
        let github = StubTransport()
        let asked = logins(4)
        // Two batches of two, GraphQL finding no one: every account falls back to REST.
        for _ in 0..<2 { github.answer("POST /graphql", json: graphQLProfiles([nil, nil])) }
        github.refuseAsRateLimited("GET /users/user1")
        let useCase = GraphQLProfilesUseCase(
            graphQL: github.repository(), rest: github.repository(), concurrency: 1, batchSize: 2)
        let results = await useCase.execute(asked)
        #expect(github.calls.filter { $0.hasPrefix("GET ") } == ["GET /users/user1"])
        for result in results {
            guard case .failure(.rateLimited) = result else {
                Issue.record("\(result) is no rate-limit failure")
                continue
            }
        }
    }

    @Test func accountsGraphQLCannotGiveComeFromRESTInTheirPlace() async {
        let github = StubTransport()
        let asked = logins(5)
        var owners: [String?] = asked.map {
            graphQLOwner(Int64($0.value.dropFirst(4))!, $0.value, name: $0.value, followers: 0)
        }
        owners[1] = nil
        owners[3] = nil
        github.answer("POST /graphql", json: graphQLProfiles(owners))
        restProfiles(github, [asked[1]])
        github.refuse("GET /users/user4", status: 404, message: "Not Found")
        let useCase = useCase(github)
        let results = await useCase.execute(asked)
        #expect(results.map { try? $0.get().login } == ["user1", "user2", "user3", nil, "user5"])
        #expect(results[3] == .failure(.notFound(resource: "user 'user4'")))
        #expect(github.calls.filter { $0.hasPrefix("GET ") }.sorted() == ["GET /users/user2", "GET /users/user4"])
        #expect(useCase.statistics == GraphQLProfilesStatistics(requests: 1, points: 1, profiles: 3, restFallbacks: 2))
    }

    /// An organization or a bot the list named as such is not asked of GraphQL: its REST profile is asked for
    /// while the batch's POST is still unanswered, not after it (issue 29).
    @Test func accountsKnownNotToBeUsersGoToRESTBesideThePOST() async {
        let github = StubTransport()
        let asked = logins(4)
        github.answer("POST /graphql", json: found([asked[0], asked[2]]))
        restProfiles(github, [asked[1], asked[3]])
        let restAsked = Count()
        let postAnswered = Flag()
        let restAfterPOST = Flag()
        let over: HTTPTransport = { request in
            if request.method == .get {
                if postAnswered.isSet { restAfterPOST.set() }
                restAsked.add()
            }
            // The POST's answer waits for both REST requests: after it, none would come. Waiting for the first
            // alone let a loaded machine start the second just after the answer, which the check below took for
            // REST sent after the POST. The bound (60 s) is only for a use case that sends REST after the POST,
            // which would otherwise hang here; 2 s was passed on a loaded machine before a REST request started.
            if request.method == .post {
                for _ in 0..<6_000 where restAsked.value < 2 { try await Task.sleep(for: .milliseconds(10)) }
                postAnswered.set()
            }
            return try await github.transport(request)
        }
        let useCase = useCase(github, over: over)
        let results = await useCase.execute(asked, restOnly: [1, 3])
        #expect(results.map { try? $0.get().login } == ["user1", "user2", "user3", "user4"])
        #expect(github.graphQLLoginsAsked == [[asked[0].value, asked[2].value]])
        #expect(github.calls.filter { $0.hasPrefix("GET ") }.sorted() == ["GET /users/user2", "GET /users/user4"])
        #expect(!restAfterPOST.isSet)
        #expect(useCase.statistics == GraphQLProfilesStatistics(requests: 1, points: 1, profiles: 2, restFallbacks: 2))
    }

    @Test func aShortAnswerLeavesTheRestToREST() async {
        let github = StubTransport()
        let asked = logins(3)
        answer(github, [found(Array(asked.prefix(1)))])
        restProfiles(github, Array(asked.dropFirst()))
        let results = await useCase(github).execute(asked)
        #expect(results.map { try? $0.get().login } == ["user1", "user2", "user3"])
    }

    @Test func aBatchTooLargeIsHalvedAndLaterBatchesStaySmall() async {
        let github = StubTransport()
        let asked = logins(150)
        tooLarge(github)
        answer(github, [found(Array(asked[0..<50])), found(Array(asked[50..<100])), found(Array(asked[100..<150]))])
        let useCase = useCase(github)
        let results = await useCase.execute(asked)
        #expect(results.map { try? $0.get().login } == asked.map(\.value))
        #expect(github.graphQLLoginsAsked.map(\.count) == [100, 50, 50, 50])
        #expect(useCase.statistics.requests == 4)
    }

    @Test func aSingleLoginTooLargeForGraphQLComesFromREST() async {
        let github = StubTransport()
        let asked = logins(2)
        tooLarge(github, times: 2)
        answer(github, [found([asked[1]])])
        restProfiles(github, [asked[0]])
        let results = await useCase(github).execute(asked)
        #expect(results.map { try? $0.get().login } == ["user1", "user2"])
        #expect(github.graphQLLoginsAsked.map(\.count) == [2, 1, 1])
    }

    @Test func aBatchGraphQLWillNotAnswerGoesToRESTAndSoDoLaterOnes() async {
        let github = StubTransport()
        let asked = logins(150)
        // GitHub's answer to a query naming a field its schema lacks: an error about the query, no data.
        github.answer(
            "POST /graphql",
            json: #"{"errors":[{"path":["query GhUsersProfiles"],"extensions":{"code":"undefinedField","#
                + #""typeName":"User","fieldName":"isHireable"},"#
                + #""message":"Field 'isHireable' doesn't exist on type 'User'"}]}"#)
        restProfiles(github, asked)
        let gauge = InFlightGauge()
        let profiles = github.transport(latency: .milliseconds(2), gauge: gauge) { $0.method == .get }
        let useCase = useCase(github, concurrency: 8, over: profiles)
        let results = await useCase.execute(asked)
        #expect(results.map { try? $0.get().login } == asked.map(\.value))
        #expect(github.graphQLLoginsAsked.count == 1)
        #expect(useCase.statistics == GraphQLProfilesStatistics(requests: 1, restFallbacks: 150))
        #expect(gauge.maximum <= 8)
    }

    /// A network failure or a 5xx that outlived the client's retries is what REST would meet too: the run stops
    /// with it, and no batch goes to REST at a hundred times the quota.
    @Test func aBatchTheServerCouldNotAnswerFailsTheRunWithoutREST() async {
        let github = StubTransport()
        let asked = logins(150)
        for _ in 0..<StubTransport.attemptsWithDefaultRetries {
            github.fail(StubTransport.apiRoot + "/graphql", with: .connectionLost)
        }
        let useCase = useCase(github, concurrency: 8)
        let results = await useCase.execute(asked)
        guard case .failure(.network) = results[0] else {
            Issue.record("\(results[0]) is not the lost connection")
            return
        }
        #expect(results.allSatisfy { $0 == results[0] })
        // One batch, asked again only by the client's own retries.
        let batches = github.graphQLLoginsAsked
        #expect(batches.count == StubTransport.attemptsWithDefaultRetries)
        #expect(batches.allSatisfy { $0 == asked.prefix(100).map(\.value) })
        #expect(useCase.statistics.restFallbacks == 0)
        #expect(!github.calls.contains { $0.hasPrefix("GET ") })
    }

    /// After a 502 the size recovers: two successes in a row grow it halfway back to what was refused.
    @Test func theBatchSizeGrowsBackAfterSuccesses() async {
        let github = StubTransport()
        let asked = logins(400)
        tooLarge(github)
        answer(
            github,
            [
                found(Array(asked[0..<50])), found(Array(asked[50..<100])), found(Array(asked[100..<175])),
                found(Array(asked[175..<250])), found(Array(asked[250..<337])), found(Array(asked[337..<400])),
            ])
        let useCase = useCase(github)
        let results = await useCase.execute(asked)
        #expect(results.map { try? $0.get().login } == asked.map(\.value))
        #expect(github.graphQLLoginsAsked.map(\.count) == [100, 50, 50, 75, 75, 87, 63])
    }

    /// `--full` expands several batches at once: their POSTs are in flight together, up to the concurrency and
    /// no more (issue 29: one at a time, the POSTs of `list --full --via graphql` fell behind its pages).
    @Test func batchesOfSeveralCallersAreInFlightTogetherUpToTheConcurrency() async {
        let github = StubTransport()
        github.answerEvery { request, _ in
            let query = (try? JSONSerialization.jsonObject(with: request.body ?? Data()) as? [String: Any])?["query"]
            let asked = ((query as? String) ?? "").matches(of: /login: "([^"]+)"/).map {
                try! Login(validating: String($0.1))
            }
            return HTTPResponse(
                status: 200, headers: HTTPHeaders([("Content-Type", "application/json")]),
                body: Data(found(asked).utf8), url: request.url)
        }
        let meter = InFlight()
        let over: HTTPTransport = { request in
            meter.enter()
            defer { meter.leave() }
            // Held until another is in flight too (a generous bound), so the gate's limit is what shows.
            for _ in 0..<200 where meter.current < 2 { try await Task.sleep(for: .milliseconds(10)) }
            return try await github.transport(request)
        }
        let useCase = useCase(github, concurrency: 2, over: over)
        let results = await withTaskGroup(of: [Result<User, DomainError>].self) { group in
            for start in [1, 101, 201, 301] { group.addTask { await useCase.execute(logins(100, from: start)) } }
            var all: [Result<User, DomainError>] = []
            for await batch in group { all += batch }
            return all
        }
        #expect(results.count == 400)
        #expect(results.allSatisfy { (try? $0.get()) != nil })
        #expect(meter.peak == 2)
        #expect(github.graphQLLoginsAsked.map(\.count) == [100, 100, 100, 100])
    }

    /// A server that refuses every batch is not asked forever in batches of one: past a few refusals in a row
    /// the run stops, with a message that says what to do.
    @Test func refusalsInARowStopTheRun() async {
        let github = StubTransport()
        let asked = logins(250)
        tooLarge(github, times: 10)
        let useCase = useCase(github)
        let results = await useCase.execute(asked)
        #expect(github.graphQLLoginsAsked.map(\.count) == [100, 50, 25, 13, 7])
        guard case .failure(.graphQLBatchesRefused(let batches, let accounts, let reason)) = results[0] else {
            Issue.record("\(results[0]) is not a refusal")
            return
        }
        #expect(batches == 5)
        #expect(accounts == 7)
        #expect(reason.contains("HTTP 502"))
        #expect(results.allSatisfy { $0 == results[0] })
        #expect(!github.calls.contains { $0.hasPrefix("GET ") })
        // A later call sends nothing more.
        _ = await useCase.execute(logins(3, from: 300))
        #expect(github.graphQLLoginsAsked.count == 5)
    }

    /// A cost of Int.max from the server, twice, is counted without a trap: the repository drops a cost past any
    /// real limit (`GraphQLProfileResponseDTO.RateLimit.largest`), so the sum never sees it.
    @Test func hugeCostsDoNotOverflowTheTotal() async {
        let github = StubTransport()
        let asked = logins(200)
        answer(github, [found(Array(asked[0..<100]), cost: Int.max), found(Array(asked[100..<200]), cost: Int.max)])
        let useCase = useCase(github)
        _ = await useCase.execute(asked)
        #expect(useCase.statistics.points == 0)
        #expect(useCase.statistics.requests == 2)
        #expect(useCase.statistics.profiles == 200)
    }

    @Test func aSpentLimitFailsEveryLoginAndSendsNothingMore() async {
        let github = StubTransport()
        let asked = logins(250)
        let reset = Date(timeIntervalSince1970: 2_000_000_000)
        answer(github, [found(Array(asked[0..<100]))])
        // GitHub's recorded answer when the GraphQL limit is spent.
        github.register(
            RequestMatcher("POST /graphql"),
            headers: [("x-ratelimit-reset", "2000000000"), ("x-ratelimit-resource", "graphql")],
            body: GitHubBodies.named("graphql-rate-limit"))
        let useCase = useCase(github)
        let results = await useCase.execute(asked)
        #expect(results[..<100].allSatisfy { (try? $0.get()) != nil })
        guard case .failure(let limited) = results[100], case .rateLimited(let resetAt, _, _, _) = limited,
            resetAt == reset
        else {
            Issue.record("\(results[100]) is not the spent limit resetting at \(reset)")
            return
        }
        #expect(results[100...].allSatisfy { $0 == .failure(limited) })
        #expect(github.graphQLLoginsAsked.count == 2)
        // A later call (the next page of a listing) fails at once too.
        let later = await useCase.execute(logins(3, from: 300))
        #expect(later.allSatisfy { $0 == .failure(limited) })
        #expect(github.graphQLLoginsAsked.count == 2)
    }

    @Test func statisticsAddUpAcrossCalls() async {
        let github = StubTransport()
        answer(github, [found(logins(10), cost: 1), found(logins(5, from: 11), cost: 1)])
        let useCase = useCase(github)
        _ = await useCase.execute(logins(10))
        _ = await useCase.execute(logins(5, from: 11))
        #expect(useCase.statistics == GraphQLProfilesStatistics(requests: 2, points: 2, profiles: 15))
        #expect(useCase.statistics.restRequestsSaved == 13)
    }

    @Test func nothingAskedSendsNothing() async {
        let github = StubTransport()
        let results = await useCase(github).execute([])
        #expect(results.isEmpty)
        #expect(github.calls.isEmpty)
    }
}

struct GraphQLBatchSizingTests {
    @Test func halvesOnRefusalAndGrowsHalfwayBackToTheCeilingAfterTwoSuccesses() {
        var sizing = GraphQLBatchSizing(maximum: 100)
        #expect(sizing.refused(count: 100) == .retry(size: 50))
        sizing.succeeded(count: sizing.size)
        #expect(sizing.size == 50)
        sizing.succeeded(count: sizing.size)
        #expect(sizing.size == 75)
        sizing.succeeded(count: sizing.size)
        sizing.succeeded(count: sizing.size)
        #expect(sizing.size == 87)
        for _ in 0..<20 { sizing.succeeded(count: sizing.size) }
        // Never back to the size that was refused, so a steady limit is not hit again and again.
        #expect(sizing.size == 99)
    }

    /// GitHub's timeouts come and go: a refusal of a size that went through before is a passing moment, and the
    /// size grows back all the way; a second refusal of it, with no success at it between, marks the ceiling.
    @Test func aSizeTakenBeforeIsRefusedTwiceBeforeItIsTheCeiling() {
        var sizing = GraphQLBatchSizing(maximum: 100)
        sizing.succeeded(count: 100)
        #expect(sizing.refused(count: 100) == .retry(size: 50))
        for _ in 0..<20 { sizing.succeeded(count: sizing.size) }
        #expect(sizing.size == 100)
        #expect(sizing.refused(count: 100) == .retry(size: 50))
        for _ in 0..<20 where sizing.size < 100 { sizing.succeeded(count: sizing.size) }
        #expect(sizing.size == 100)
        // Refused again with no success at 100 between: now it is the ceiling.
        #expect(sizing.refused(count: 100) == .retry(size: 50))
        for _ in 0..<20 { sizing.succeeded(count: sizing.size) }
        #expect(sizing.size == 99)
    }

    /// A long crawl with one passing refusal in twenty batches, whatever their size, keeps large batches; when
    /// each refusal lowered the ceiling, it ended asking one account a POST.
    @Test func passingRefusalsDoNotWearTheSizeDown() {
        var sizing = GraphQLBatchSizing(maximum: 100)
        var accounts = 0
        for batch in 1..<2_000 {
            if batch.isMultiple(of: 20) {
                _ = sizing.refused(count: sizing.size)
            } else {
                accounts += sizing.size
                sizing.succeeded(count: sizing.size)
            }
        }
        #expect(sizing.size == 100)
        #expect(accounts > 150_000)
    }

    @Test func withoutARefusalItStaysAtTheMaximum() {
        var sizing = GraphQLBatchSizing(maximum: 100)
        for _ in 0..<10 { sizing.succeeded(count: sizing.size) }
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
                sizing.succeeded(count: sizing.size)
            }
        }
        #expect(sizing.size == 30)
        #expect(refusals <= 8)
    }

    /// Batches overlap: one sent at 100 before another refusal shrank the size to 50 is asked again at 50, and
    /// is not a second refusal in a row.
    @Test func aRefusalOfABatchSentBeforeTheSizeShrankIsNotCountedAgain() {
        var sizing = GraphQLBatchSizing(maximum: 100)
        #expect(sizing.refused(count: 100) == .retry(size: 50))
        #expect(sizing.refused(count: 100) == .retry(size: 50))
        #expect(sizing.refusalsInRow == 1)
        #expect(sizing.refused(count: 50) == .retry(size: 25))
        #expect(sizing.refusalsInRow == 2)
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
        sizing.succeeded(count: sizing.size)
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

/// How many requests are in flight, and the most there were at once.
private final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}

private final class Count: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var value: Int { lock.withLock { count } }
    func add() { lock.withLock { count += 1 } }
}

private final class InFlight: @unchecked Sendable {
    private let lock = NSLock()
    private var now = 0
    private var most = 0
    var current: Int { lock.withLock { now } }
    var peak: Int { lock.withLock { most } }

    func enter() {
        lock.withLock {
            now += 1
            most = max(most, now)
        }
    }

    func leave() { lock.withLock { now -= 1 } }
}
