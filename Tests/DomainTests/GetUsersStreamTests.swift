import Foundation
import Testing

@testable import Domain

/// Profiles looked up by login: `user0` waits until `release()`, or until `othersBeforeRelease` other lookups
/// have finished; every other login answers after `yields(index)` yields. It counts the lookups started.
private final class GatedUsers: UsersRepository, @unchecked Sendable {
    private let lock = NSLock()
    private var started = 0
    private var gate: CheckedContinuation<Void, Never>?
    private var released = false
    private let yields: @Sendable (Int) -> Int

    init(yields: @escaping @Sendable (Int) -> Int = { _ in 0 }) {
        self.yields = yields
    }

    var startedCount: Int { lock.withLock { started } }

    func release() {
        let waiting = lock.withLock {
            released = true
            defer { gate = nil }
            return gate
        }
        waiting?.resume()
    }

    func user(login: Login) async throws(DomainError) -> User {
        lock.withLock { started += 1 }
        let index = Int(login.value.dropFirst("user".count)) ?? 0
        if index == 0 {
            await withCheckedContinuation { continuation in
                let open = lock.withLock {
                    if !released { gate = continuation }
                    return released
                }
                if open { continuation.resume() }
            }
        } else {
            for _ in 0..<yields(index) { await Task.yield() }
        }
        return User(id: Int64(index + 1), login: login.value, raw: RawJSON("{}"))
    }

    func user(id: Int64) async throws(DomainError) -> User {
        throw .notFound(resource: "user \(id)")
    }
}

/// `show`'s lookups handed on in order as they come (`GetUsersUseCase.execute(_:concurrency:deliver:)`).
struct GetUsersStreamTests {
    private func references(_ count: Int) -> [UserReference] {
        (0..<count).map { .login(try! Login(validating: "user\($0)")) }
    }

    /// The first lookup hangs: no more than `concurrency × aheadPerLookup` lookups start past it, so the results
    /// held for it stay a window, and nothing is handed on out of order. Before (every result held to the end),
    /// all started. The bound is a hard one: with it, the count cannot pass `ahead` however long the wait; without
    /// it, the yields below let the rest start.
    @Test func aSlowFirstLookupHoldsUpTheStartOfOthersNotTheirResults() async {
        let users = GatedUsers()
        let delivered = Delivered()
        let ahead = 2 * GetUsersUseCase.aheadPerLookup
        let count = ahead + 40
        let task = Task {
            await GetUsersUseCase(repository: users).execute(references(count), concurrency: 2) { result in
                delivered.append(try? result.get().login)
                return true
            }
        }
        while users.startedCount < ahead { await Task.yield() }
        for _ in 0..<2_000 { await Task.yield() }
        #expect(users.startedCount == ahead)
        #expect(delivered.logins.isEmpty)
        users.release()
        await task.value
        #expect(users.startedCount == count)
        #expect(delivered.logins == (0..<count).map { "user\($0)" })
    }

    /// `deliver` saying stop ends the lookups: nothing more is handed on, and no lookup past the window starts.
    @Test func deliverSayingStopEndsTheLookups() async {
        let users = GatedUsers()
        users.release()
        let delivered = Delivered()
        await GetUsersUseCase(repository: users).execute(references(1_000), concurrency: 4) { result in
            delivered.append(try? result.get().login)
            return delivered.logins.count < 3
        }
        #expect(delivered.logins == ["user0", "user1", "user2"])
        #expect(users.startedCount <= 3 + 4 * GetUsersUseCase.aheadPerLookup)
    }

    /// Lookups finishing in every order, many times over, in the release build as in debug: every result comes
    /// once, in the order asked.
    @Test func resultsComeInOrderWhateverOrderTheLookupsFinishIn() async {
        for round in 0..<200 {
            let users = GatedUsers { index in (index * 7 + round) % 5 }
            users.release()
            let delivered = Delivered()
            let count = 1 + round % 60
            await GetUsersUseCase(repository: users).execute(references(count), concurrency: 1 + round % 10) {
                result in
                delivered.append(try? result.get().login)
                return true
            }
            #expect(delivered.logins == (0..<count).map { "user\($0)" }, "round \(round)")
        }
    }
}

private final class Delivered: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [String?] = []
    var logins: [String?] { lock.withLock { list } }
    func append(_ login: String?) { lock.withLock { list.append(login) } }
}
