import Domain
import Foundation

/// A scripted repository: each call must have been scripted, and an unscripted call fails the test.
package final class FakeUsersRepository: UsersRepository, @unchecked Sendable {
    package init() {}

    private let lock = NSLock()
    package var firstPages: [String: Result<UserPage, DomainError>] = [:]
    package var pages: [String: Result<UserPage, DomainError>] = [:]
    package var profiles: [String: Result<User, DomainError>] = [:]
    package var profilesByID: [Int64: Result<User, DomainError>] = [:]
    /// First pages of followers/following, keyed "followers octocat per_page=30".
    package var relationPages: [String: Result<UserPage, DomainError>] = [:]
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

    package func user(id: Int64) async throws(DomainError) -> User {
        record("user id \(id)")
        guard let result = lock.withLock({ profilesByID[id] }) else {
            throw DomainError.server(status: 599, message: "unscripted call: user id \(id)")
        }
        return try result.get()
    }

    package func relations(_ relation: UserRelation, of login: Login, perPage: Int) async throws(DomainError)
        -> UserPage
    {
        let key = "\(relation.rawValue) \(login.value) per_page=\(perPage)"
        record(key)
        guard let result = lock.withLock({ relationPages[key] }) else {
            throw DomainError.server(status: 599, message: "unscripted call: \(key)")
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

/// Scripted repositories, searches and rate limits; anything unscripted fails the call loudly.
package final class FakeGitHubData: ReposRepository, SearchRepository, RateLimitRepository, @unchecked Sendable {
    private let lock = NSLock()
    /// First pages, keyed by a description of the request ("repos octocat per_page=30", "search q per_page=30").
    package var firstPages: [String: Result<Page<Repo>, DomainError>] = [:]
    package var searchPages: [String: Result<Page<User>, DomainError>] = [:]
    /// Later pages by cursor URL.
    package var repoPages: [String: Result<Page<Repo>, DomainError>] = [:]
    package var searchCursorPages: [String: Result<Page<User>, DomainError>] = [:]
    package var rateLimit: Result<RateLimitOverview, DomainError>?
    package private(set) var calls: [String] = []

    package init() {}

    package func repos(of login: Login, query: RepoQuery, perPage: Int) async throws(DomainError) -> Page<Repo> {
        try answer("repos \(login.value) per_page=\(perPage)") { firstPages[$0] }
    }

    package func repos(at cursor: PageCursor) async throws(DomainError) -> Page<Repo> {
        try answer("repos page \(cursor.url)") { _ in repoPages[cursor.url] }
    }

    package func searchUsers(_ query: UserSearchQuery, perPage: Int) async throws(DomainError) -> Page<User> {
        try answer("search \(query.text) per_page=\(perPage)") { searchPages[$0] }
    }

    package func searchUsers(at cursor: PageCursor) async throws(DomainError) -> Page<User> {
        try answer("search page \(cursor.url)") { _ in searchCursorPages[cursor.url] }
    }

    package func rateLimits() async throws(DomainError) -> RateLimitOverview {
        try answer("rate_limit") { _ in rateLimit }
    }

    private func answer<T>(_ call: String, _ lookup: (String) -> Result<T, DomainError>?) throws(DomainError) -> T {
        let result = lock.withLock {
            calls.append(call)
            return lookup(call)
        }
        guard let result else { throw DomainError.server(status: 599, message: "unscripted call: \(call)") }
        return try result.get()
    }
}

package func makeRepo(_ id: Int64, _ name: String, fork: Bool = false, language: String? = "Swift") -> Repo {
    Repo(
        id: id,
        name: name,
        fullName: "octocat/\(name)",
        description: "about \(name)",
        language: language,
        fork: fork,
        stargazers: Int(id) * 10,
        forks: Int(id),
        raw: RawJSON(#"{"id":\#(id),"name":"\#(name)","full_name":"octocat/\#(name)","fork":\#(fork)}"#)
    )
}
