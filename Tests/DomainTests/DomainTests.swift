import TestSupport
import Testing

@testable import Domain

struct LoginTests {
    @Test(arguments: ["octocat", "a", "Mona-Lisa", "user_1", "dependabot[bot]", String(repeating: "x", count: 39)])
    func acceptsValidLogins(text: String) throws {
        #expect(try Login(validating: text).value == text)
    }

    @Test(arguments: [
        "", "-leading", "has space", "../x", "a/b", "é", "[bot]", "x[bot]y", "semi;colon", "q?x",
        String(repeating: "x", count: 40), "ok\u{1B}[31m",
    ])
    func refusesInvalidLogins(text: String) {
        #expect(throws: DomainError.self) { try Login(validating: text) }
    }
}

struct PagingPlanTests {
    @Test(arguments: [
        (ItemLimit.count(30), nil as Int?, 30),
        (.count(1), nil, 1),
        (.count(100), nil, 100),
        (.count(101), nil, 100),
        (.count(1000), nil, 100),
        (.all, nil, 100),
        (.count(1000), 7, 7),
    ])
    func choosesTheFewestRequests(limit: ItemLimit, requested: Int?, perPage: Int) {
        #expect(PagingPlan(limit: limit, requestedPerPage: requested).perPage == perPage)
    }
}

struct GetUsersUseCaseTests {
    @Test func keepsTheOrderAskedAndBoundsConcurrency() async throws {
        let repository = FakeUsersRepository()
        let names = (1...9).map { "user\($0)" }
        for (index, name) in names.enumerated() {
            repository.profiles[name] = .success(makeUser(Int64(index + 1), name))
        }
        repository.profiles["user5"] = .failure(.notFound(resource: "user 'user5'"))
        repository.delay = .milliseconds(20)
        let logins = try names.map { try Login(validating: $0) }

        let results = await GetUsersUseCase(repository: repository).execute(logins: logins, concurrency: 3)

        #expect(results.count == 9)
        for (index, result) in results.enumerated() where index != 4 {
            #expect(try result.get().login == names[index])
        }
        #expect(throws: DomainError.notFound(resource: "user 'user5'")) { try results[4].get() }
        #expect(repository.maximumInFlight <= 3)
        #expect(repository.maximumInFlight >= 2)
    }

    @Test func anEmptyListMakesNoCalls() async {
        let repository = FakeUsersRepository()
        let results = await GetUsersUseCase(repository: repository).execute(logins: [], concurrency: 4)
        #expect(results.isEmpty)
        #expect(repository.calls.isEmpty)
    }
}

struct ListUsersUseCaseTests {
    @Test func passesTheCursorThrough() async throws {
        let repository = FakeUsersRepository()
        repository.firstPages["since=5&per_page=2"] = .success(
            UserPage(users: [makeUser(6), makeUser(8)], next: PageCursor(url: "https://x/users?since=8"))
        )
        repository.pages["https://x/users?since=8"] = .success(UserPage(users: [makeUser(9)], next: nil))
        let useCase = ListUsersUseCase(repository: repository)

        let first = try await useCase.firstPage(since: 5, perPage: 2)
        let second = try await useCase.page(at: try #require(first.next))

        #expect(first.users.map(\.id) == [6, 8])
        #expect(second.users.map(\.id) == [9])
        #expect(repository.calls == ["list since=5&per_page=2", "page https://x/users?since=8"])
    }
}

struct AccountTypeTests {
    @Test func keepsUnknownKindsByName() {
        #expect(AccountType(name: "Organization") == .organization)
        #expect(AccountType(name: "Bot").name == "Bot")
        #expect(AccountType(name: "Mannequin") == .other("Mannequin"))
        #expect(AccountType(name: "Mannequin").name == "Mannequin")
    }
}
