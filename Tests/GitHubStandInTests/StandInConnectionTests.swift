import Dispatch
import Foundation
import GitHubStandIn
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Collects results from worker threads in tests.
private final class LockedList<Element>: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [Element] = []

    func append(_ element: Element) {
        lock.lock()
        storage.append(element)
        lock.unlock()
    }

    var elements: [Element] {
        lock.lock()
        defer { lock.unlock() }
        return storage
    }
}

@Suite struct StandInConnectionTests {
    @Test func oneConnectionServesManyRequests() throws {
        try withStandInServer { server throws in
            let connection = try RawHTTPConnection(port: server.port)
            for target in ["/users", "/users/octocat", "/users/nobody", "/users?since=40&per_page=3", "/nowhere"] {
                let response = try connection.request("GET", target)
                #expect(response.header("Connection") == "keep-alive")
            }
            #expect(server.acceptedConnectionCount == 1)
            #expect(server.requests.count == 5)
        }
    }

    @Test func pipelinedRequestsAreAnsweredInOrder() throws {
        try withStandInServer { server throws in
            let connection = try RawHTTPConnection(port: server.port)
            try connection.write(
                RawHTTPConnection.requestText(target: "/users/octocat")
                    + RawHTTPConnection.requestText(target: "/users/nobody")
                    + RawHTTPConnection.requestText(target: "/users?per_page=1"))
            #expect(try connection.readResponse().status == 200)
            #expect(try connection.readResponse().status == 404)
            #expect(try connection.readResponse().jsonArray().count == 1)
        }
    }

    @Test func connectionCloseIsHonoured() throws {
        try withStandInServer { server throws in
            let connection = try RawHTTPConnection(port: server.port)
            let response = try connection.request("GET", "/users/octocat", headers: [("Connection", "close")])
            #expect(response.status == 200)
            #expect(response.header("Connection") == "close")
            #expect(connection.peerClosed())

            let legacy = try RawHTTPConnection(port: server.port)
            try legacy.write("GET /users/octocat HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n")
            #expect(try legacy.readResponse().status == 200)
            #expect(legacy.peerClosed())
        }
    }

    @Test func requestsArrivingInFragmentsAreReassembled() throws {
        try withStandInServer { server throws in
            let connection = try RawHTTPConnection(port: server.port)
            let request = Array(
                RawHTTPConnection.requestText(
                    target: "/users/Yamada-Taro", headers: [("Accept", "application/vnd.github+json")]
                ).utf8)
            var offset = 0
            while offset < request.count {
                let end = min(request.count, offset + 7)
                try connection.write(Array(request[offset..<end]))
                usleep(2_000)
                offset = end
            }
            let response = try connection.readResponse()
            #expect(response.status == 200)
            #expect(try response.jsonObject()["name"] as? String == "山田太郎")
            #expect(server.requests.first?.header("accept") == "application/vnd.github+json")
        }
    }

    @Test func requestWithBodyIsFramedByContentLength() throws {
        try withStandInServer { server throws in
            let connection = try RawHTTPConnection(port: server.port)
            try connection.write("POST /users HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhel")
            usleep(20_000)
            try connection.write("lo" + RawHTTPConnection.requestText(target: "/users/octocat"))
            #expect(try connection.readResponse().status == 404)
            #expect(try connection.readResponse().status == 200)
            #expect(server.requests.first?.body == Array("hello".utf8))
        }
    }

    @Test func garbageGets400AndACloseNotACrash() throws {
        try withStandInServer { server throws in
            let connection = try RawHTTPConnection(port: server.port)
            try connection.write("THIS IS NOT HTTP\r\n\r\n")
            #expect(try connection.readResponse().status == 400)
            #expect(connection.peerClosed())
            #expect(try fetch(server, "/users/octocat").status == 200)
        }
    }

    @Test func latencyDelaysEachResponseAndOverlapsAcrossConnections() throws {
        try withStandInServer(StandInConfiguration(userCount: 20, latencyMilliseconds: 1_000)) { server throws in
            let single = ContinuousClock.now
            #expect(try fetch(server, "/users/octocat").status == 200)
            #expect(ContinuousClock.now - single >= .milliseconds(990))

            // Four requests on four threads of their own (concurrentPerform would run only as many as there are
            // cores): served one after another they take 4 s, overlapped about 1 s. The bound between leaves a
            // loaded machine 2.5 s to spare.
            let statuses = LockedList<Int>()
            let port = server.port
            let done = DispatchGroup()
            let concurrent = ContinuousClock.now
            for _ in 0..<4 {
                done.enter()
                Thread.detachNewThread {
                    statuses.append((try? RawHTTPConnection(port: port).request("GET", "/users").status) ?? -1)
                    done.leave()
                }
            }
            done.wait()
            let elapsed = ContinuousClock.now - concurrent
            #expect(statuses.elements == [200, 200, 200, 200])
            #expect(elapsed >= .milliseconds(990) && elapsed < .milliseconds(3_500), "\(elapsed)")
        }
    }

    @Test func stopReturnsPromptlyWithBusyAndIdleConnections() throws {
        let server = try StandInServer(configuration: StandInConfiguration(userCount: 20))
        try server.start()
        let port = server.port
        #expect(port > 0)
        #expect(server.baseURL == "http://127.0.0.1:\(port)")
        server.injectFaults([.hang(seconds: 30)], forPath: "/users")
        let idle = try RawHTTPConnection(port: port)
        #expect(try idle.request("GET", "/users/octocat").status == 200)
        let hanging = try RawHTTPConnection(port: port)
        try hanging.write(RawHTTPConnection.requestText(target: "/users"))
        usleep(100_000)

        let started = ContinuousClock.now
        server.stop()
        #expect(ContinuousClock.now - started < .seconds(2))
        #expect(idle.peerClosed())
        #expect(hanging.peerClosed())
        #expect(throws: RawHTTPError.self) { _ = try RawHTTPConnection(port: port) }
        server.stop()
    }

    @Test func startTwiceAndBadConfigurationsAreRejected() throws {
        #expect(throws: StandInServerError.self) { try StandInServer(configuration: .init(userCount: -1)) }
        #expect(throws: StandInServerError.self) { try StandInServer(configuration: .init(port: 70_000)) }
        let server = try StandInServer(configuration: .init(userCount: 1))
        try server.start()
        defer { server.stop() }
        #expect(throws: StandInServerError.alreadyStarted) { try server.start() }
    }

    @Test func urlSessionGetsAnswersAndReusesItsConnection() async throws {
        let server = try StandInServer(configuration: StandInConfiguration(userCount: 120))
        try server.start()
        defer { server.stop() }
        FoundationFolders.keepOutOfHome()
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        let session = URLSession(configuration: configuration)
        defer { session.finishTasksAndInvalidate() }

        var logins: [String] = []
        var next: URL? = URL(string: "\(server.baseURL)/users?per_page=50")
        while let url = next {
            let (data, response) = try await session.data(from: url)
            let http = try #require(response as? HTTPURLResponse)
            #expect(http.statusCode == 200)
            let page = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
            logins += page.compactMap { $0["login"] as? String }
            next = nil
            if let link = http.value(forHTTPHeaderField: "Link"), link.contains("rel=\"next\""),
                let open = link.firstIndex(of: "<"), let close = link.firstIndex(of: ">")
            {
                next = URL(string: String(link[link.index(after: open)..<close]))
            }
        }
        #expect(logins == server.population.users.map(\.login))
        #expect(server.acceptedConnectionCount == 1)

        server.injectFaults([.redirect(to: "\(server.baseURL)/users/octocat")], forPath: "/users/renamed")
        let (data, response) = try await session.data(
            from: try #require(URL(string: "\(server.baseURL)/users/renamed")))
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        let profile = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(profile["login"] as? String == "octocat")
    }
}
