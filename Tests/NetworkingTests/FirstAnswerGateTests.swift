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

    @Test func theFirstLeadsTheOthersWaitForItsAnswerAndNoOneWaitsAfter() async throws {
        let gate = FirstAnswerGate()
        #expect(try await gate.pass())
        let passed = Passed()
        let waiters = (0..<5).map { _ in
            Task {
                let leads = try await gate.pass()
                passed.add()
                return leads
            }
        }
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
        for _ in 0..<200 {
            let gate = FirstAnswerGate()
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

    /// The live transport: while the first request's answer is held, no other request reaches the server, however
    /// many are sent at once; then they all go, and all are answered.
    @Test func theLiveTransportSendsOneRequestUntilItsAnswerComes() async throws {
        let release = DispatchSemaphore(value: 0)
        let first = Passed()
        let server = try RawTestServer { connection in
            first.add()
            if first.value == 1 { release.wait() }
            _ = connection.write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}")
        }
        defer { server.stop() }
        let transport = URLSessionTransport.outsideHome()
        let sends = (0..<8).map { index in
            Task { try await transport.send(HTTPRequest(url: URL(string: server.baseURL + "/users/\(index)")!)) }
        }
        for _ in 0..<500 where server.requests.isEmpty { try await Task.sleep(for: .milliseconds(10)) }
        // Without the gate the other seven arrive within milliseconds; a generous window to see none does.
        try await Task.sleep(for: .milliseconds(400))
        #expect(server.requests.count == 1)
        release.signal()
        for send in sends { #expect(try await send.value.status == 200) }
        #expect(server.requests.count == 8)
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
}
