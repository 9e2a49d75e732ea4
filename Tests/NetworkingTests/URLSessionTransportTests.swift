import Foundation
import TestSupport
import Testing

@testable import Networking

#if canImport(Glibc)
    import Glibc
#endif

/// The live transport against a raw loopback server: the body cap, redirects off http(s), libcurl's failures
/// as they really arrive, and cancellation, which the delegate-driven task must still honour.
struct URLSessionTransportTests {
    private static let mebibyte = 1 << 20

    private func get(_ url: String, transport: URLSessionTransport) async throws -> HTTPResponse {
        try await transport.send(HTTPRequest(url: URL(string: url)!))
    }

    /// How long a server waits for a client past the cap to hang up. URLSession's cancel waits for its work
    /// queue, which a fast body keeps busy: on a loaded machine that took up to 50 s (measured, a CI run).
    private static let patience = 120.0

    /// Sends the head and four mebibytes of spaces, four times the cap, with or without announcing `total`,
    /// then waits for the client to hang up. One that does not (it is reading on, or waiting for more) is sent
    /// the rest of `total`, which a client without the cap reads to its end. So nothing depends on how soon
    /// the cancel lands, however loaded the machine.
    private func stallingServer(total: Int, announce: Bool) throws -> RawTestServer {
        try RawTestServer { connection in
            let length = announce ? "Content-Length: \(total)\r\n" : "Connection: close\r\n"
            guard connection.write("HTTP/1.1 200 OK\r\n\(length)\r\n") else { return }
            let chunk = [UInt8](repeating: 0x20, count: URLSessionTransportTests.mebibyte)
            var sent = 0
            while sent < 4 * chunk.count, connection.write(chunk) { sent += chunk.count }
            guard !connection.awaitHangUp(seconds: URLSessionTransportTests.patience) else { return }
            while sent < total, connection.write(chunk) { sent += chunk.count }
        }
    }

    @Test func aBodyThatGrowsPastTheCapIsStoppedNotRead() async throws {
        let total = 256 * Self.mebibyte
        let server = try stallingServer(total: total, announce: false)
        defer { server.stop() }
        let transport = URLSessionTransport.outsideHome(maximumBodyBytes: Self.mebibyte)
        await #expect(throws: TransportError.responseTooLarge(limit: Self.mebibyte)) {
            try await get(server.baseURL + "/users", transport: transport)
        }
        await server.waitForConnectionsToEnd(1, within: Int(Self.patience) + 60)
        // Without the cap the client waits for the rest, and then reads all of it.
        #expect(server.hungUp == 1, "the client never hung up")
        #expect(server.written < total / 2, "the server wrote \(server.written) bytes")
    }

    @Test func aBodyAnnouncedAsTooLargeIsRefusedEarly() async throws {
        let total = 256 * Self.mebibyte
        let server = try stallingServer(total: total, announce: true)
        defer { server.stop() }
        let transport = URLSessionTransport.outsideHome(maximumBodyBytes: Self.mebibyte)
        await #expect(throws: TransportError.responseTooLarge(limit: Self.mebibyte)) {
            try await get(server.baseURL + "/users", transport: transport)
        }
        await server.waitForConnectionsToEnd(1, within: Int(Self.patience) + 60)
        #expect(server.hungUp == 1, "the client never hung up")
        #expect(server.written < total / 2, "the server wrote \(server.written) bytes")
    }

    @Test func aBodyWithinTheCapArrivesWholeAndInflated() async throws {
        let json = Array(("[" + String(repeating: " ", count: 200_000) + "{\"id\":1}]").utf8)
        let compressed = StoredDeflate.zlib(json)
        let server = try RawTestServer { connection in
            _ = connection.write(
                "HTTP/1.1 200 OK\r\nContent-Encoding: deflate\r\nContent-Length: \(compressed.count)\r\n"
                    + "X-Echo: yes\r\n\r\n")
            connection.write(compressed)
        }
        defer { server.stop() }
        let transport = URLSessionTransport.outsideHome(maximumBodyBytes: json.count)
        let response = try await get(server.baseURL + "/users", transport: transport)
        #expect(response.status == 200)
        #expect(response.headers["x-echo"] == "yes")
        #expect([UInt8](response.body) == json)
    }

    /// A compressed body goes through the same count. (That the count is of inflated bytes, a small body that
    /// inflates past the cap, is the end-to-end bomb test's: building one needs real compression.)
    @Test func aCompressedBodyOverTheCapIsStoppedToo() async throws {
        let json = Array(("[" + String(repeating: " ", count: 300_000) + "]").utf8)
        let compressed = StoredDeflate.zlib(json)
        let server = try RawTestServer { connection in
            _ = connection.write(
                "HTTP/1.1 200 OK\r\nContent-Encoding: deflate\r\nContent-Length: \(compressed.count)\r\n\r\n")
            connection.write(compressed)
        }
        defer { server.stop() }
        let transport = URLSessionTransport.outsideHome(maximumBodyBytes: json.count - 1)
        await #expect(throws: TransportError.responseTooLarge(limit: json.count - 1)) {
            try await get(server.baseURL + "/users", transport: transport)
        }
    }

    @Test func aRedirectToAFileURLIsRefused() async throws {
        let server = try RawTestServer { connection in
            _ = connection.write("HTTP/1.1 302 Found\r\nLocation: file:///etc/hostname\r\nContent-Length: 0\r\n\r\n")
        }
        defer { server.stop() }
        await #expect(throws: TransportError.redirectRefused("file:///etc/hostname")) {
            try await get(server.baseURL + "/users/octocat", transport: URLSessionTransport.outsideHome())
        }
        // Left alone, swift-corelibs-foundation asks the same server for /etc/hostname until it gives up.
        #expect(server.requests.count == 1)
    }

    @Test func aShortBodyIsStillATruncatedBody() async throws {
        let server = try RawTestServer { connection in
            _ = connection.write("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n0123456789")
        }
        defer { server.stop() }
        await #expect(throws: TransportError.truncatedBody) {
            try await get(server.baseURL + "/users", transport: URLSessionTransport.outsideHome())
        }
    }

    @Test func plainHTTPOnATLSURLIsAFailedHandshakeNamingTheHost() async throws {
        let server = try RawTestServer(readsHead: false) { connection in
            _ = connection.write("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n")
        }
        defer { server.stop() }
        do {
            _ = try await get("https://127.0.0.1:\(server.port)/users", transport: URLSessionTransport.outsideHome())
            Issue.record("a TLS request to a plain HTTP server succeeded")
        } catch let error as TransportError {
            guard case .tls(.handshake, let host, _) = error else {
                Issue.record("expected a handshake failure, got \(error)")
                return
            }
            #expect(host == "127.0.0.1:\(server.port)")
        }
    }

    @Test func aTaskCancelledBeforeItStartsEndsAtOnce() async throws {
        let server = try RawTestServer { _ in sleep(600) }
        defer { server.stop() }
        let transport = URLSessionTransport.outsideHome()
        let request = Task {
            // Cancelled before the data task exists: the handler runs first, then the task must still end.
            withUnsafeCurrentTask { $0?.cancel() }
            return try await get(server.baseURL + "/users", transport: transport)
        }
        // Without cancellation it would wait out the server's 600 s and end with its closed connection instead.
        await #expect(throws: TransportError.cancelled) { try await request.value }
    }

    @Test func cancellingTheTaskStopsTheRequest() async throws {
        let server = try RawTestServer { _ in sleep(600) }
        defer { server.stop() }
        let transport = URLSessionTransport.outsideHome()
        let request = Task { try await get(server.baseURL + "/users", transport: transport) }
        try await Task.sleep(for: .milliseconds(200))
        request.cancel()
        // Without cancellation it would wait out the server's 600 s and end with its closed connection instead.
        await #expect(throws: TransportError.cancelled) { try await request.value }
    }
}
