import Domain
import Foundation

/// A scripted GitHub: each resource is scripted by its `path?query` (`/users?since=0&per_page=30`), each later
/// page by its `Link` URL, each profile by login or id. An unscripted call fails the test loudly.
package final class FakeGitHub: ResourceRepository, UsersRepository, ActionRepository, GraphQLProfilesRepository,
    ContributionsRepository, @unchecked Sendable
{
    package init() {}

    private let lock = NSLock()
    private var resources: [String: Result<any Sendable, DomainError>] = [:]
    private var pages: [String: Result<any Sendable, DomainError>] = [:]
    package var profiles: [String: Result<User, DomainError>] = [:]
    /// Outcomes of writes by `METHOD path` (`PUT /user/following/octocat`); an unscripted write succeeds.
    package var actions: [String: DomainError] = [:]
    package var profilesByID: [Int64: Result<User, DomainError>] = [:]
    package var delay: Duration = .zero
    package private(set) var calls: [String] = []
    private var inFlight = 0
    package private(set) var maximumInFlight = 0

    /// The answer to `GET target`, such as `/users/octocat/repos?per_page=30`.
    package func script<Value: Sendable>(_ target: String, _ result: Result<Value, DomainError>) {
        lock.withLock { resources[target] = result.map { $0 as any Sendable } }
    }

    /// The answer for the page a `Link` URL points at.
    package func scriptPage<Item: Sendable>(_ url: String, _ result: Result<Page<Item>, DomainError>) {
        lock.withLock { pages[url] = result.map { $0 as any Sendable } }
    }

    package func fetch<Value: Sendable>(_ resource: Resource<Value>) async throws(DomainError) -> Value {
        try answer("GET " + resource.target) { resources[resource.target] }
    }

    package func page<Item: Sendable>(_ list: ListResource<Item>, at cursor: PageCursor) async throws(DomainError)
        -> Page<Item>
    {
        try answer("page " + cursor.url) { pages[cursor.url] }
    }

    /// The same scripted answers, since a fake has no limit to wait for; the call is recorded, so a test sees
    /// that a run asked for it.
    package func waitingOutPerMinuteLimits() -> any ResourceRepository {
        record("waiting out per-minute limits")
        return self
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

    /// Answers to GraphQL batches, consumed in order; a batch beyond them fails the test loudly.
    package var graphQLBatches: [Result<GraphQLBatch, GraphQLBatchFailure>] = []

    package func profiles(_ logins: [Login]) async throws(GraphQLBatchFailure) -> GraphQLBatch {
        record("graphql " + logins.map(\.value).joined(separator: ","))
        let next = lock.withLock { graphQLBatches.isEmpty ? nil : graphQLBatches.removeFirst() }
        guard let next else {
            throw .failed(.server(status: 599, message: "unscripted call: graphql batch of \(logins.count)"))
        }
        return try next.get()
    }

    /// Calendars by `login from..to` (`octocat 2025-01-01...2025-12-31`); an unscripted span fails loudly.
    package var calendars: [String: Result<ContributionCalendar, DomainError>] = [:]
    /// Spans, keyed as `calendars`, that GitHub refuses with `RESOURCE_LIMITS_EXCEEDED` and this message.
    package var refusedAsTooLong: [String: String] = [:]

    package func contributions(of login: Login, in span: ClosedRange<CalendarDay>) async throws(DomainError)
        -> ContributionsPiece
    {
        let call = "contributions \(login.value) \(span.lowerBound)...\(span.upperBound)"
        record(call)
        let key = call.dropFirst("contributions ".count).description
        if let message = lock.withLock({ refusedAsTooLong[key] }) { return .tooLong(message: message) }
        guard let result = lock.withLock({ calendars[key] }) else {
            throw DomainError.server(status: 599, message: "unscripted call: \(call)")
        }
        return .calendar(try result.get())
    }

    package func user(id: Int64) async throws(DomainError) -> User {
        record("user id \(id)")
        guard let result = lock.withLock({ profilesByID[id] }) else {
            throw DomainError.server(status: 599, message: "unscripted call: user id \(id)")
        }
        return try result.get()
    }

    package func perform(_ action: Action) async throws(DomainError) -> ResourceBody {
        let call = action.method.rawValue + " " + action.path
        record(call)
        if let error = lock.withLock({ actions[call] }) { throw error }
        return ResourceBody(bytes: [], next: nil, label: call, status: 204)
    }

    package func describe(_ action: Action) -> String {
        action.method.rawValue + " https://api.github.com" + action.path
    }

    private func answer<Value>(_ call: String, _ lookup: () -> Result<any Sendable, DomainError>?) throws(DomainError)
        -> Value
    {
        record(call)
        guard let result = lock.withLock(lookup) else {
            throw DomainError.server(status: 599, message: "unscripted call: \(call)")
        }
        let value = try result.get()
        guard let typed = value as? Value else {
            throw DomainError.server(status: 599, message: "scripted with the wrong type: \(call)")
        }
        return typed
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
