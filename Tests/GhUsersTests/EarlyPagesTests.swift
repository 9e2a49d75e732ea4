import Data
import Domain
import Foundation
import Networking
import TestSupport
import Testing

@testable import gh_users

/// The next page is asked for as soon as the page before names it in its head, before that page's body is in
/// (issue 29: chained pages waited for each whole body), and never a page the limit does not need.
struct EarlyPagesTests {
    /// Records which requests were sent, and lets a page's answer wait until another request has been sent.
    private final class Wire: @unchecked Sendable {
        private let lock = NSLock()
        private var sent: [String] = []
        var requests: [String] { lock.withLock { sent } }
        func record(_ url: String) { lock.withLock { sent.append(url) } }
        func has(_ suffix: String) -> Bool { lock.withLock { sent.contains { $0.hasSuffix(suffix) } } }
    }

    private static let list = "/orgs/github/members"

    /// Three pages of two members, each page's head naming the next, as the live transport tells a head: before
    /// the body is handed back. Each answer is held until the next page's request has gone out (or a generous
    /// bound passed), so a next page asked for only after the body shows as a missing early request.
    private func github(_ wire: Wire, holding: Bool = true) -> (StubTransport, HTTPTransport) {
        let github = StubTransport()
        github.answer("GET \(Self.list)?per_page=2", accounts: [1, 2], next: Self.list + "?per_page=2&page=2")
        github.answer("GET \(Self.list)?per_page=2&page=2", accounts: [3, 4], next: Self.list + "?per_page=2&page=3")
        github.answer("GET \(Self.list)?per_page=2&page=3", accounts: [5, 6])
        let over: HTTPTransport = { request in
            wire.record(request.url.absoluteString)
            let response = try await github.transport(request)
            request.onHead?.observe(response.status, response.headers)
            if holding, let next = LinkHeader(response.headers["Link"]).next {
                for _ in 0..<200 where !wire.has(String(next.suffix(6))) {
                    try await Task.sleep(for: .milliseconds(10))
                }
            }
            return response
        }
        return (github, over)
    }

    private func model(_ limit: ItemLimit, over: @escaping HTTPTransport, github: StubTransport) throws
        -> PagedListViewModel<User>
    {
        let list = GitHubEndpoints.accounts(.members, under: .organization(try Login(validating: "github")))
        return PagedListViewModel(
            limit: limit, list: list, perPage: 2, github: github.repository(over: over),
            admission: ListDeclaration<PeopleListOptions, User>.unseen(id: \.listedID)(
                PeopleListOptions(owner: .organization(try Login(validating: "github")))))
    }

    @Test func eachNextPageIsAskedForOnItsPredecessorsHeadAndOnlyOnce() async throws {
        let wire = Wire()
        let (github, over) = github(wire)
        let model = try model(.all, over: over, github: github)
        var ids: [Int64] = []
        var sentBeforeEachPageCameBack: [Int] = []
        while !model.isExhausted {
            ids += try await model.loadNextPage().map(\.id)
            sentBeforeEachPageCameBack.append(wire.requests.count)
        }
        #expect(ids == [1, 2, 3, 4, 5, 6])
        // Page 2 had gone out before page 1 came back, and page 3 before page 2.
        #expect(sentBeforeEachPageCameBack == [2, 3, 3])
        #expect(wire.requests.count == 3)
    }

    /// A limit that two pages fill: the third page, which the second names, is never asked for.
    @Test func aPageTheLimitDoesNotNeedIsNeverAskedFor() async throws {
        let wire = Wire()
        let (github, over) = github(wire, holding: false)
        let model = try model(.count(4), over: over, github: github)
        var ids: [Int64] = []
        while !model.isExhausted { ids += try await model.loadNextPage().map(\.id) }
        #expect(ids == [1, 2, 3, 4])
        for _ in 0..<50 { await Task.yield() }
        #expect(wire.requests.count == 2)
        #expect(!wire.has("page=3"))
    }
}
