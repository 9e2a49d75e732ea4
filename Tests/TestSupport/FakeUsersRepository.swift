import Domain
import Foundation

/// A scripted repository: each call must have been scripted, and an unscripted call fails the test.
package final class FakeUsersRepository: UsersRepository, @unchecked Sendable {
    package init() {}

    private let lock = NSLock()
    package var firstPages: [String: Result<UserPage, DomainError>] = [:]
    package var pages: [String: Result<UserPage, DomainError>] = [:]
    package var profiles: [String: Result<User, DomainError>] = [:]
    package var delay: Duration = .zero
    package private(set) var calls: [String] = []
    private var inFlight = 0
    package private(set) var maximumInFlight = 0

    package func listUsers(since: Int64, perPage: Int) async throws(DomainError) -> UserPage {
        let key = "since=\(since)&per_page=\(perPage)"
        record("list " + key)
        guard let result = lock.withLock({ firstPages[key] }) else {
            throw DomainError.server(status: 599, message: "unscripted call: list \(key)")
        }
        return try result.get()
    }

    package func users(at cursor: PageCursor) async throws(DomainError) -> UserPage {
        record("page " + cursor.url)
        guard let result = lock.withLock({ pages[cursor.url] }) else {
            throw DomainError.server(status: 599, message: "unscripted call: page \(cursor.url)")
        }
        return try result.get()
    }

    package func user(login: Login) async throws(DomainError) -> User {
        record("user " + login.value)
        lock.withLock {
            inFlight += 1
            maximumInFlight = max(maximumInFlight, inFlight)
        }
        try? await Task.sleep(for: delay)
        lock.withLock { inFlight -= 1 }
        guard let result = lock.withLock({ profiles[login.value] }) else {
            throw DomainError.server(status: 599, message: "unscripted call: user \(login.value)")
        }
        return try result.get()
    }

    private func record(_ call: String) {
        lock.withLock { calls.append(call) }
    }
}

package func makeUser(_ id: Int64, _ login: String? = nil) -> User {
    let name = login ?? "user\(id)"
    return User(
        id: id, login: name, htmlURL: "https://github.com/\(name)", raw: RawJSON(#"{"login":"\#(name)","id":\#(id)}"#))
}
