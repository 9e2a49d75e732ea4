import Foundation
import TestSupport
import Testing

@testable import Networking

/// One request first, the rest once its answer came (issue 29: eight connections where one would do).
struct FirstAnswerGateTests {
    /// Counts the passes that went on.
    private final class Passed: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        var value: Int { lock.withLock { count } }
        func add() { lock.withLock { count += 1 } }
    }

    /// A pass through `gate`, counted in `passed` once it went on; the task's value is whether it leads.
    private static func waiting(at gate: FirstAnswerGate, counted passed: Passed) -> Task<Bool, any Error> {
        Task {
            let leads = try await gate.pass()
            passed.add()
            return leads
        }
    }

    @Test func theFirstLeadsTheOthersWaitForItsAnswerAndNoOneWaitsAfter() async throws {
        let gate = FirstAnswerGate()
        #expect(try await gate.pass())
        let passed = Passed()
        let waiters = (0..<5).map { _ in Self.waiting(at: gate, counted: passed) }
        // They wait while the leader's answer has not come: nothing the leader does not do lets them on.
        for _ in 0..<50 { await Task.yield() }
        #expect(passed.value == 0)
        gate.open()
        for waiter in waiters { #expect(try await waiter.value == false) }
        #expect(passed.value == 5)
        #expect(try await gate.pass() == false)
        #expect(gate.isOpen)
    }

    @Test func aCancelledWaiterStopsWaitingAndTheOthersStillGoOn() async throws {
        let gate = FirstAnswerGate()
        #expect(try await gate.pass())
        let cancelled = Task { try await gate.pass() }
        let kept = Task { try await gate.pass() }
        cancelled.cancel()
        await #expect(throws: CancellationError.self) { try await cancelled.value }
        #expect(!gate.isOpen)
        gate.open()
        #expect(try await kept.value == false)
    }

    /// Many runs of many passes, a third of them cancelled at random moments: every pass that is not cancelled
    /// goes on once the gate opens, exactly one leads each time, and nothing is left waiting.
    @Test func manyPassesWithCancellationsNeverHangOrLeadTwice() async throws {
        for run in 0..<Stress.rounds(50) {
            // With room ahead or without (HTTPS lets four go before the first answer).
            let gate = FirstAnswerGate(ahead: 1 + run % 5)
            let outcomes = await withTaskGroup(of: Bool?.self) { group in
                for index in 0..<40 {
                    group.addTask {
                        let pass = Task { try await gate.pass() }
                        if index % 3 == 1 { pass.cancel() }
                        if index == 20 { gate.open() }
                        return try? await pass.value
                    }
                }
                // Opened by the leader's end in real use; here, in case no pass led before index 20 ran.
                group.addTask {
                    await Task.yield()
                    gate.open()
                    return nil
                }
                var outcomes: [Bool?] = []
                for await outcome in group { outcomes.append(outcome) }
                return outcomes
            }
            #expect(outcomes.filter { $0 == true }.count <= 1)
            #expect(gate.isOpen)
        }
    }

    @Test func aGateWithRoomAheadLetsThatManyGoBeforeTheAnswer() async throws {
        let gate = FirstAnswerGate(ahead: 4)
        #expect(try await gate.pass())
        for _ in 0..<3 { #expect(try await gate.pass() == false) }
        let passed = Passed()
        let fifth = Self.waiting(at: gate, counted: passed)
        for _ in 0..<50 { await Task.yield() }
        #expect(passed.value == 0)
        gate.open()
        #expect(try await fifth.value == false)
        #expect(passed.value == 1)
    }

    /// Plain http is HTTP/1.1, which cannot multiplex: nothing waits for a first answer, and as many requests as the
    /// pool has connections (six by default) all reach the server while the first is still held.
    @Test func overPlainHTTPNoRequestWaitsForTheFirstAnswer() async throws {
        let release = DispatchSemaphore(value: 0)
        let server = try RawTestServer { connection in
            _ = release.wait(timeout: .now() + 10)
            _ = connection.write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}")
        }
        defer { server.stop() }
        let transport = URLSessionTransport.outsideHome()
        let sends = (0..<6).map { index in
            Task { try await transport.send(HTTPRequest(url: URL(string: server.baseURL + "/users/\(index)")!)) }
        }
        for _ in 0..<500 where server.requests.count < 6 { try await Task.sleep(for: .milliseconds(10)) }
        #expect(server.requests.count == 6)
        for _ in 0..<6 { release.signal() }
        for send in sends { #expect(try await send.value.status == 200) }
    }
}

/// HTTPS goes on one connection a host, where HTTP/2 multiplexes, until an answer shows HTTP/1.1 (issue 29).
struct ProtocolRoutingTests {
    /// The names of one answer from nginx in front of the stand-in, as swift-corelibs-foundation hands them over
    /// (it capitalizes every name but an `X-` one), over HTTP/2 and over HTTP/1.1 (`Scripts/bench --network`).
    static let overHTTP2 = [
        "Content-Length", "Content-Type", "Date", "Server", "Vary", "x-accepted-oauth-scopes",
        "x-github-api-version-selected", "x-github-media-type", "x-github-request-id", "x-oauth-scopes",
        "x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset", "x-ratelimit-resource", "x-ratelimit-used",
    ]
    static let overHTTP1 = [
        "Connection", "Content-Length", "Content-Type", "Date", "Server", "Vary", "X-Accepted-OAuth-Scopes",
        "X-GitHub-Media-Type", "X-GitHub-Request-Id", "X-OAuth-Scopes", "x-github-api-version-selected",
        "x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset", "x-ratelimit-resource", "x-ratelimit-used",
    ]

    @Test func anAnswerShowsHTTP1ByAConnectionFieldOrACapitalInAnXName() {
        #expect(!URLSessionTransport.showsHTTP1(Self.overHTTP2))
        #expect(URLSessionTransport.showsHTTP1(Self.overHTTP1))
        for field in ["Connection", "Keep-Alive", "Transfer-Encoding", "Upgrade", "Proxy-Connection"] {
            #expect(URLSessionTransport.showsHTTP1(Self.overHTTP2 + [field]), "\(field)")
        }
        #expect(URLSessionTransport.showsHTTP1(["Content-Type", "X-GitHub-Request-Id"]))
        #expect(!URLSessionTransport.showsHTTP1(["Content-Type", "Etag", "x-github-request-id"]))
    }

    @Test func httpsGoesOnOneConnectionUntilAnAnswerShowsHTTP1AndPlainHTTPNever() throws {
        let transport = URLSessionTransport.outsideHome()
        let https = try #require(URL(string: "https://api.github.com/users/octocat"))
        let http = try #require(URL(string: "http://127.0.0.1:8080/users/octocat"))
        #expect(transport.routesToOneConnection(https))
        #expect(!transport.routesToOneConnection(http))
        transport.note(headerNames: Self.overHTTP2)
        #expect(transport.routesToOneConnection(https))
        transport.note(headerNames: Self.overHTTP1)
        #expect(!transport.routesToOneConnection(https))
    }

    /// A host an earlier run saw answer over HTTP/1.1 (issue 38): every request goes to the pool from the start,
    /// none queued on the one connection behind the first answer.
    @Test func aHostRememberedAsHTTP1GoesToThePoolFromTheStart() throws {
        FoundationFolders.keepOutOfHome()
        let https = try #require(URL(string: "https://api.github.com/users/octocat"))
        #expect(!URLSessionTransport(remembersHTTP1: true).routesToOneConnection(https))
        #expect(URLSessionTransport(remembersHTTP1: false).routesToOneConnection(https))
    }

    /// What a run learns is told once, for the next run to remember; an answer over HTTP/2 teaches nothing new.
    @Test func learningHTTP1IsToldOnce() {
        FoundationFolders.keepOutOfHome()
        let told = Told()
        let transport = URLSessionTransport(learnedHTTPVersion: { told.append($0) })
        transport.note(headerNames: Self.overHTTP2)
        #expect(told.values.isEmpty)
        transport.note(headerNames: Self.overHTTP1)
        transport.note(headerNames: Self.overHTTP1)
        #expect(told.values == [true])
    }

    private final class Told: @unchecked Sendable {
        private let lock = NSLock()
        private var list: [Bool] = []
        var values: [Bool] { lock.withLock { list } }
        func append(_ value: Bool) { lock.withLock { list.append(value) } }
    }
}

/// The live transport tells a request's `onHead` the answer's head as soon as it arrives, before the body (issue
/// 29: the next page can go out on the `Link` header instead of after the whole page).
struct HeadObserverTests {
    private final class Seen: @unchecked Sendable {
        private let lock = NSLock()
        private var link: String?
        var value: String? { lock.withLock { link } }
        func set(_ text: String?) { lock.withLock { link = text } }
    }

    @Test func theHeadIsToldBeforeTheBodyIsSent() async throws {
        let headTold = DispatchSemaphore(value: 0)
        let releasedByHead = Seen()
        let server = try RawTestServer { connection in
            let body = "[]"
            _ = connection.write(
                "HTTP/1.1 200 OK\r\nContent-Length: \(body.utf8.count)\r\n"
                    + "Link: <http://127.0.0.1/users?page=2>; rel=\"next\"\r\n\r\n")
            // The body waits for the head to be told: were it told only with the body, this waits its bound.
            releasedByHead.set(headTold.wait(timeout: .now() + 10) == .success ? "yes" : "no")
            _ = connection.write(body)
        }
        defer { server.stop() }
        let link = Seen()
        var request = HTTPRequest(url: URL(string: server.baseURL + "/users")!)
        request.onHead = HeadObserver { status, headers in
            link.set("\(status) \(headers["link"] ?? "")")
            headTold.signal()
        }
        let response = try await URLSessionTransport.outsideHome().send(request)
        #expect(response.status == 200 && String(decoding: response.body, as: UTF8.self) == "[]")
        #expect(link.value == "200 <http://127.0.0.1/users?page=2>; rel=\"next\"")
        #expect(releasedByHead.value == "yes")
    }

    /// A 200's next page is told with the body length its head announces; a compressed body's length, or none, is
    /// no length, and only then do the reports of the body's growth tell the next page again. Another status's
    /// `Link` asks for no page.
    @Test func aNextPageIsToldWithTheLengthItsHeadAnnounces() {
        let told = Told()
        let link = ("Link", "<https://api.github.com/users?page=2>; rel=\"next\"")
        func observer() -> HeadObserver {
            HeadObserver.nextPage { url, bytes in told.append("\(url) \(bytes.map(String.init) ?? "none")") }
        }
        let announced = observer()
        announced.observe(200, HTTPHeaders([link, ("Content-Length", "1234")]))
        announced.grew?(2_097_152)
        let compressed = observer()
        compressed.observe(200, HTTPHeaders([link, ("Content-Length", "99"), ("Content-Encoding", "gzip")]))
        compressed.grew?(1_048_576)
        let refused = observer()
        refused.observe(403, HTTPHeaders([link, ("Content-Length", "80")]))
        refused.grew?(1_048_576)
        let page2 = "https://api.github.com/users?page=2"
        #expect(told.values == ["\(page2) 1234", "\(page2) none", "\(page2) 1048576"])
    }

    private final class Told: @unchecked Sendable {
        private let lock = NSLock()
        private var list: [String] = []
        var values: [String] { lock.withLock { list } }
        func append(_ value: String) { lock.withLock { list.append(value) } }
    }
}

/// Over HTTP/1.1 the pool keeps its connections for the whole run (issue 29: libcurl closed idle ones whenever the
/// transfers under way fell, and opened them again for the next burst).
struct PooledConnectionsTests {
    /// Holds each answer until `together` requests are waiting (or a generous bound passed), so a burst takes
    /// that many connections.
    private final class Burst: @unchecked Sendable {
        private let lock = NSCondition()
        private var waiting = 0
        private var together = 1

        /// Answers wait until `count` requests are in.
        func of(_ count: Int) { lock.withLock { together = count } }

        func hold() {
            lock.lock()
            defer { lock.unlock() }
            waiting += 1
            lock.broadcast()
            let deadline = Date().addingTimeInterval(10)
            while waiting < together, lock.wait(until: deadline) {}
            together = 1
            waiting -= 1
        }
    }

    @Test func burstsAndLullsReuseTheSameConnections() async throws {
        let burst = Burst()
        // Keep-alive: a connection answers request after request, the server having read the first head.
        let server = try RawTestServer { connection in
            repeat {
                burst.hold()
                guard connection.write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}") else { return }
            } while LoopbackListener.readHead(connection.descriptor) != nil
        }
        defer { server.stop() }
        FoundationFolders.keepOutOfHome()
        let transport = URLSessionTransport(maximumConnectionsPerHost: 8)
        let url = try #require(URL(string: server.baseURL + "/users"))
        for _ in 0..<3 {
            burst.of(8)
            try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<8 { group.addTask { try await transport.send(HTTPRequest(url: url)).status } }
                for try await status in group { #expect(status == 200) }
            }
            // A lull of one request at a time: a single pool of eight dropped a connection at each answer.
            for _ in 0..<5 { #expect(try await transport.send(HTTPRequest(url: url)).status == 200) }
        }
        #expect(server.connections == 8)
    }
}
