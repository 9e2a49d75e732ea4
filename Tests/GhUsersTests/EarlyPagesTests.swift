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
    /// the body is handed back. Each answer is held until the next page's request (`&page=N`) has gone out (or
    /// 30 s passed), so a next page asked for only after the body shows as a missing early request. The bound
    /// only ends a run whose early request never comes; a correct run waits for the request, never for it.
    private func github(_ wire: Wire, holding: Bool = true, announcingLengths: Bool = false)
        -> (StubTransport, HTTPTransport)
    {
        let github = StubTransport()
        let pages: [(String, [Int64], String?)] = [
            ("", [1, 2], Self.list + "?per_page=2&page=2"), ("&page=2", [3, 4], Self.list + "?per_page=2&page=3"),
            ("&page=3", [5, 6], nil),
        ]
        for (query, ids, next) in pages {
            let body = accounts(ids)
            var headers = next.map { [StubTransport.link(next: $0)] } ?? []
            if announcingLengths { headers.append(("Content-Length", String(body.utf8.count))) }
            github.answer("GET \(Self.list)?per_page=2" + query, headers: headers, json: body)
        }
        let over: HTTPTransport = { request in
            wire.record(request.url.absoluteString)
            let response = try await github.transport(request)
            request.onHead?.observe(response.status, response.headers)
            if holding, let next = LinkHeader(response.headers["Link"]).next {
                // "&page=2", not "page=2": the first page's own URL ends in "per_page=2".
                for _ in 0..<3000 where !wire.has(String(next.suffix(7))) {
                    try await Task.sleep(for: .milliseconds(10))
                }
            }
            return response
        }
        return (github, over)
    }

    private func model(
        _ limit: ItemLimit, over: @escaping HTTPTransport, github: StubTransport,
        aheadBudget: Int = PagedListViewModel<User>.defaultAheadBudget
    ) throws -> PagedListViewModel<User> {
        let list = GitHubEndpoints.accounts(.members, under: .organization(try Login(validating: "github")))
        return PagedListViewModel(
            limit: limit, list: list, perPage: 2, github: github.repository(over: over),
            aheadBudget: aheadBudget)
    }

    /// Reads to the end, noting how many requests had been sent once each page was back and everything started
    /// meanwhile had had its chance to send.
    private func sentAsEachPageCameBack(_ model: PagedListViewModel<User>, _ wire: Wire) async throws
        -> (ids: [Int64], sent: [Int])
    {
        var ids: [Int64] = []
        var sent: [Int] = []
        while !model.isExhausted {
            ids += try await model.loadNextPage().map(\.id)
            for _ in 0..<50 { await Task.yield() }
            sent.append(wire.requests.count)
        }
        return (ids, sent)
    }

    /// Pages bigger than the budget for pages ahead (32 MiB; a few bytes here) are asked one at a time: none is
    /// asked before the reader has the one before it, so one page's memory is held at a time (issue 38: 62 MB
    /// pages asked ahead peaked at 955 MB, three pages' worth). A head that announces its length is believed
    /// before the body is in.
    @Test func pagesOverTheBudgetAreAskedOneAtATime() async throws {
        let wire = Wire()
        let (github, over) = github(wire, holding: false, announcingLengths: true)
        let model = try model(.all, over: over, github: github, aheadBudget: 16)
        let (ids, sent) = try await sentAsEachPageCameBack(model, wire)
        #expect(ids == [1, 2, 3, 4, 5, 6])
        #expect(sent == [1, 2, 3])
    }

    /// A first page whose head announces no length (compressed, or chunked) still names the second early; once
    /// its size is known, nothing more is asked ahead.
    @Test func afterAPageOverTheBudgetNothingMoreIsAskedAhead() async throws {
        let wire = Wire()
        let (github, over) = github(wire, holding: false)
        let model = try model(.all, over: over, github: github, aheadBudget: 16)
        let (ids, sent) = try await sentAsEachPageCameBack(model, wire)
        #expect(ids == [1, 2, 3, 4, 5, 6])
        #expect(sent == [2, 2, 3])
    }

    /// A first page whose head announces no length (a chunked body) names the second, which starts early; its
    /// body, as it grows past the budget (`HeadObserver.grew`), stops that page, and paging asks for it again
    /// once the reader has the first. Before, the pages started after such a head were each decoded beside it:
    /// four chunked 64 MiB pages of short accounts peaked at 547 MiB where one at a time took 364 (issue 38).
    @Test func aBodyThatGrowsPastTheBudgetStopsThePagesStartedAfterItsHead() async throws {
        let wire = Wire()
        let github = StubTransport()
        let pages: [(String, [Int64], String?)] = [
            ("", [1, 2], Self.list + "?per_page=2&page=2"), ("&page=2", [3, 4], Self.list + "?per_page=2&page=3"),
            ("&page=3", [5, 6], nil),
        ]
        // Page 2 is asked twice by design: early, then again once the reader has page 1 (its first answer is
        // taken by the request that is stopped).
        for (query, ids, next) in pages + [pages[1]] {
            github.answer(
                "GET \(Self.list)?per_page=2" + query, headers: next.map { [StubTransport.link(next: $0)] } ?? [],
                json: accounts(ids))
        }
        let over: HTTPTransport = { request in
            let url = request.url.absoluteString
            // "&page=2": the first page's own URL ends in "per_page=2".
            let again = url.hasSuffix("&page=2") && wire.has("&page=2")
            wire.record(url)
            let response = try await github.transport(request)
            request.onHead?.observe(response.status, response.headers)
            if url.hasSuffix("?per_page=2") {
                // The first body arrives slowly and big: the second page has gone out on its head by now.
                for _ in 0..<200 where !wire.has("&page=2") { try await Task.sleep(for: .milliseconds(10)) }
                request.onHead?.grew?(1 << 20)
            } else if again || !url.hasSuffix("&page=2") {
                return response
            } else {
                // The second page, asked early, answers only once stopped (or after a generous bound).
                for _ in 0..<300 where !Task.isCancelled { try? await Task.sleep(for: .milliseconds(10)) }
                try Task.checkCancellation()
            }
            return response
        }
        let model = try model(.all, over: over, github: github, aheadBudget: 1 << 19)
        let (ids, _) = try await sentAsEachPageCameBack(model, wire)
        #expect(ids == [1, 2, 3, 4, 5, 6])
        #expect(wire.requests.filter { $0.hasSuffix("&page=2") }.count == 2, "\(wire.requests)")
        #expect(github.problems.isEmpty, "\(github.problems)")
    }

    /// Pages ahead for the largest page so far, under the 32 MiB budget: two for GitHub's (about 130 KB), none
    /// for a page near the 64 MB cap.
    @Test(arguments: [
        (0, 2), (130_000, 2), (16 << 20, 2), ((16 << 20) + 1, 1), (32 << 20, 1), ((32 << 20) + 1, 0), (64 << 20, 0),
    ])
    func pagesAheadFollowTheLargestPage(bytes: Int, ahead: Int) {
        #expect(
            PagedListViewModel<User>.pagesAhead(
                largestPageBytes: bytes, budget: PagedListViewModel<User>.defaultAheadBudget) == ahead)
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
                    github: github.repository(over: over))
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
