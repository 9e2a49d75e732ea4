import Foundation
import Glibc
import TestSupport
import Testing

@testable import GitHubStandIn

/// The server's connections: framing, reuse, HEAD, closing and stopping. What it answers is the other suites'.
/// Each test has a stand-in of its own listening on a free port, stopped after it.
@Suite final class StandInConnectionTests {
    let server: StandInServer

    init() throws {
        server = try standIn()
        try server.start()
    }

    deinit { server.stop() }

    /// Requests sent back to back are answered in order, each framed by its head and `Content-Length`, on a
    /// connection that stays open, whether they arrive at once or cut by bytes, seven at a time: some pieces end
    /// between a line's \r and its \n (a Character apiece), and one in the middle of the body.
    @Test(arguments: [Int.max, 7])
    func oneConnectionAnswersPipelinedRequestsInOrderAndStaysOpen(cutEvery pieceSize: Int) throws {
        let connection = try RawHTTPConnection(port: server.port)
        var requests = Array(
            (RawHTTPConnection.requestText(
                target: "/users/Yamada-Taro", headers: [("Accept", "application/vnd.github+json")])
                + RawHTTPConnection.requestText(target: "/users/nobody")
                + "POST /users HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello"
                + RawHTTPConnection.requestText(target: "/users?per_page=1")).utf8)[...]
        while !requests.isEmpty {
            try connection.write(String(decoding: requests.prefix(pieceSize), as: UTF8.self))
            requests = requests.dropFirst(pieceSize)
            usleep(2_000)
        }
        let first = try connection.readResponse()
        #expect(try first.status == 200 && first.jsonObject()["name"] as? String == "山田太郎")
        #expect(try connection.readResponse().status == 404)
        #expect(try connection.readResponse().status == 404)
        let last = try connection.readResponse()
        #expect(try last.jsonArray().count == 1 && last.header("Connection") == "keep-alive")
        #expect(try connection.request("GET", "/nowhere").header("Connection") == "keep-alive")
        #expect(server.requests.map(\.body) == [[], [], Array("hello".utf8), [], []])
        #expect(server.requests.first?.header("accept") == "application/vnd.github+json")
    }

    /// `Connection: close`, HTTP/1.0 and bytes that are no HTTP request (a 400, not a crash) are answered, then the
    /// connection is closed; the server goes on answering others.
    @Test(arguments: [
        "GET /users/octocat HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
        "GET /users/octocat HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n", "THIS IS NOT HTTP\r\n\r\n",
    ])
    func aConnectionIsClosedAfterTheAnswerWhenAskedOrOnHTTP10OrGarbage(request: LoggedText) throws {
        let connection = try RawHTTPConnection(port: server.port)
        try connection.write(request.text)
        let response = try connection.readResponse()
        #expect(response.status == (request.text.hasPrefix("GET") ? 200 : 400))
        #expect(response.header("Connection") == "close")
        #expect(connection.peerClosed())
        #expect(try RawHTTPConnection(port: server.port).request("GET", "/users/octocat").status == 200)
    }

    /// GitHub answers HEAD by the GET row: the same head, the length of the body it does not send.
    @Test func headIsAnsweredOnEveryRouteWithoutABody() throws {
        for target in [
            "/users", "/users/octocat", "/user/1", "/users/octocat/repos", "/user/2/followers",
            "/users/octocat/following", "/search/users?q=a", "/rate_limit",
        ] {
            let connection = try RawHTTPConnection(port: server.port)
            let get = try connection.request("GET", target, headers: tokenHeader)
            let head = try connection.request("HEAD", target, headers: tokenHeader)
            #expect(head.status == 200 && head.body.isEmpty, "\(target)")
            #expect(head.header("Content-Length") == String(get.body.count), "\(target)")
            #expect(head.header("ETag") == get.header("ETag"), "\(target)")
            // Had HEAD leaked a body, this answer would be read out of it.
            #expect(try connection.request("GET", "/users/nobody").status == 404, "\(target)")
        }
    }
}

/// The server's own life: configurations it refuses, recording before answering, and stopping. Each test starts
/// the stand-in it needs, or none.
struct StandInServerLifeTests {
    /// A request is recorded on arrival, before the configured latency delays the answer: the journal has the
    /// request while no byte of its answer has come back.
    @Test func requestsAreRecordedOnArrival() throws {
        let server = try standIn(StandInConfiguration(userCount: 50, latencyMilliseconds: 1_500))
        try server.start()
        defer { server.stop() }
        let connection = try RawHTTPConnection(port: server.port)
        try connection.write(RawHTTPConnection.requestText(target: "/users/octocat", headers: tokenHeader))
        for _ in 0..<10_000 where server.requests.isEmpty { usleep(1_000) }
        #expect(server.requests.map(\.path) == ["/users/octocat"])
        #expect(!connection.hasBytesWaiting())
        #expect(try connection.readResponse().status == 200)
    }

    @Test func stopReturnsPromptlyWithBusyAndIdleConnections() throws {
        let server = try standIn(StandInConfiguration(userCount: 20))
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

        server.stop()
        #expect(idle.peerClosed())
        #expect(hanging.peerClosed())
        #expect(throws: RawHTTPError.self) { _ = try RawHTTPConnection(port: port) }
        server.stop()
    }

    @Test(arguments: [
        StandInConfiguration(userCount: -1), StandInConfiguration(port: 70_000),
        StandInConfiguration(searchWindowSeconds: 0), StandInConfiguration(sameSecondAccounts: -1),
    ])
    func badConfigurationsAreRejected(_ configuration: StandInConfiguration) {
        #expect(throws: StandInServerError.invalidConfiguration) { try StandInServer(configuration: configuration) }
    }
}

/// A blocking HTTP/1.1 client over one socket, for the tests of the server's connections: reuse, requests in
/// fragments, framing. Every other test asks the server's own request path (`fetch`).
private final class RawHTTPConnection {
    private let descriptor: Int32

    init(port: Int) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        // A test must fail, not hang, if the server never answers.
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        _ = setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        guard LoopbackSocket.withLoopbackAddress(port: port, { connect(descriptor, $0, $1) }) == 0 else {
            _ = close(descriptor)
            throw RawHTTPError()
        }
    }

    deinit { _ = close(descriptor) }

    func write(_ text: String) throws {
        guard LoopbackSocket.sendAll(Array(text.utf8), to: descriptor) else { throw RawHTTPError() }
    }

    static func requestText(method: String = "GET", target: String, headers: [(String, String)] = []) -> String {
        let lines = ["Host: 127.0.0.1", "User-Agent: standin-tests"] + headers.map { "\($0): \($1)" }
        return "\(method) \(target) HTTP/1.1\r\n" + lines.map { $0 + "\r\n" }.joined() + "\r\n"
    }

    func request(
        _ method: String = "GET", _ target: String, headers: [(String, String)] = []
    ) throws -> RawHTTPResponse {
        try write(Self.requestText(method: method, target: target, headers: headers))
        return try readResponse(bodyExpected: method != "HEAD")
    }

    /// Reads one response framed by Content-Length (or bodiless for 304/204/HEAD): its head a byte at a time, as
    /// the test servers read theirs, so nothing after the response is consumed.
    func readResponse(bodyExpected: Bool = true) throws -> RawHTTPResponse {
        guard let head = LoopbackListener.readHead(descriptor) else { throw RawHTTPError() }
        let lines = head.split(separator: "\r\n")
        let statusParts = lines.first?.split(separator: " ") ?? []
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else { throw RawHTTPError() }
        let headers = try lines.dropFirst().map { line in
            guard let colon = line.firstIndex(of: ":") else { throw RawHTTPError() }
            return (
                name: String(line[..<colon]), value: line[colon...].dropFirst().trimmingCharacters(in: .whitespaces)
            )
        }
        var response = RawHTTPResponse(status: status, headers: headers, body: [])
        guard bodyExpected, status != 304, status != 204 else { return response }
        response.body = [UInt8](repeating: 0, count: Int(response.header("Content-Length") ?? "0") ?? 0)
        // MSG_WAITALL: the whole body, unless the peer closes or the timeout passes first.
        let received = response.body.withUnsafeMutableBytes {
            recv(descriptor, $0.baseAddress, $0.count, Int32(MSG_WAITALL))
        }
        guard received == response.body.count else { throw RawHTTPError() }
        return response
    }

    /// True if the server closed the connection within the timeout (false if it sent more, or kept it open).
    func peerClosed() -> Bool {
        var byte: UInt8 = 0
        let count = recv(descriptor, &byte, 1, 0)
        return count == 0 || (count < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
    }

    /// Never waits.
    func hasBytesWaiting() -> Bool {
        var byte: UInt8 = 0
        return recv(descriptor, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT)) > 0
    }
}
