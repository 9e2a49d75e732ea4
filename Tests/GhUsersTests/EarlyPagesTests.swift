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

/// Pages asked for early, under failures and a reader that goes away at random moments (issue 29: a page that
/// failed left the pages it had named running).
struct EarlyPagesStressTests {
    private final class Log: @unchecked Sendable {
        private let lock = NSLock()
        private var urls: [String] = []
        var sent: [String] { lock.withLock { urls } }
        func record(_ url: String) { lock.withLock { urls.append(url) } }
    }

    private static let list = "/orgs/github/members"

    /// Eight pages of two members each naming the next; page `failing` (if any) is refused, and the reader stops
    /// after `reading` pages (or reads to the end). Every run ends; no page is asked twice; none is asked more than
    /// two beyond the last one the reader asked for, plus the one that names it.
    @Test func failuresAndReadersGoingAwayNeverHangOrRunAhead() async throws {
        for run in 0..<300 {
            let failing = run % 3 == 0 ? Int.random(in: 2...8) : nil
            let reading = run % 2 == 0 ? Int.random(in: 1...8) : 8
            let github = StubTransport()
            for page in 1...8 {
                let path = "GET \(Self.list)?per_page=2" + (page == 1 ? "" : "&page=\(page)")
                if page == failing {
                    github.refuse(path, status: 404, message: "Not Found")
                } else {
                    let next = page < 8 ? Self.list + "?per_page=2&page=\(page + 1)" : nil
                    github.answer(path, accounts: [Int64(page * 2 - 1), Int64(page * 2)], next: next)
                }
            }
            let log = Log()
            let over: HTTPTransport = { request in
                log.record(request.url.absoluteString)
                for _ in 0..<Int.random(in: 0...3) { await Task.yield() }
                let response = try await github.transport(request)
                request.onHead?.observe(response.status, response.headers)
                for _ in 0..<Int.random(in: 0...3) { await Task.yield() }
                return response
            }
            let login = try Login(validating: "github")
            let reader = Task { () -> Int in
                let model = PagedListViewModel(
                    limit: .all, list: GitHubEndpoints.accounts(.members, under: .organization(login)), perPage: 2,
                    github: github.repository(over: over),
                    admission: ListDeclaration<PeopleListOptions, User>.unseen(id: \.listedID)(
                        PeopleListOptions(owner: .organization(login))))
                var read = 0
                while !model.isExhausted, read < reading {
                    do { _ = try await model.loadNextPage() } catch { break }
                    read += 1
                }
                return read
            }
            let read = await reader.value
            // Whatever was started early and not cancelled would be sent now.
            for _ in 0..<50 { await Task.yield() }
            let sent = log.sent
            #expect(Set(sent).count == sent.count, "a page asked twice: \(sent)")
            #expect(sent.count <= min(8, read + 3), "\(sent.count) pages asked, \(read) read")
        }
    }
}
