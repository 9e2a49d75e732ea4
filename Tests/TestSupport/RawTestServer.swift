import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A listening socket on 127.0.0.1 and a free port, handing each connection it accepts to `serve` on a thread
/// of its own, which owns (and closes) the descriptor. The base of the tests' raw servers and proxies.
package final class LoopbackListener: @unchecked Sendable {
    package let port: UInt16
    private let descriptor: Int32

    package init(serve: @escaping @Sendable (Int32) -> Void) throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        descriptor = listener
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(listener, 16) == 0 else {
            close(listener)
            throw POSIXError(.EADDRINUSE)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        port = UInt16(bigEndian: address.sin_port)
        Thread.detachNewThread {
            while true {
                let client = accept(listener, nil, nil)
                if client < 0 { return }
                Thread.detachNewThread { serve(client) }
            }
        }
    }

    package func stop() {
        shutdown(descriptor, Int32(SHUT_RDWR))
        close(descriptor)
    }

    /// A free port on 127.0.0.1 for a server in another process to listen on, below Linux's ephemeral range
    /// (32768 and up): a port the system picks from that range can be taken a moment later by any test's
    /// outgoing connection, and the server's bind then fails (seen in a full run). A random port of
    /// 20000...32000 that binds now is returned; a few hundred tries leave the chance of none negligible.
    package static func freePort() throws -> UInt16 {
        for _ in 0..<400 {
            let candidate = UInt16.random(in: 20_000...32_000)
            let probe = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard probe >= 0 else { break }
            defer { close(probe) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = candidate.bigEndian
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(probe, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            if bound == 0 { return candidate }
        }
        throw POSIXError(.EADDRINUSE)
    }

    /// Reads an HTTP head a byte at a time, so nothing after it is consumed; nil when the peer goes away first
    /// or sends more than 64 KiB without ending it.
    package static func readHead(_ descriptor: Int32) -> String? {
        var byte: UInt8 = 0
        var head: [UInt8] = []
        let end = Array("\r\n\r\n".utf8)
        while head.count < end.count || Array(head.suffix(end.count)) != end {
            if read(descriptor, &byte, 1) != 1 || head.count > 64 * 1024 { return nil }
            head.append(byte)
        }
        return String(decoding: head, as: UTF8.self)
    }
}

/// A loopback HTTP server of a few lines, for what the GitHub stand-in will not do: stream a body without
/// end, send compressed bytes, redirect anywhere, answer a TLS ClientHello in plain HTTP, replay real GitHub's
/// recorded answers (`init(replaying:)`). Each connection reads one request head and hands the socket to
/// `respond`, which writes through `Connection` (which counts what the peer accepted).
package final class RawTestServer: @unchecked Sendable {
    package final class Connection {
        package let descriptor: Int32
        package let head: String
        /// The server's own URL, for answers that name it (a replayed `Link`).
        package let baseURL: String
        fileprivate(set) var written = 0
        /// The peer closed the connection: a write failed, or `awaitHangUp` saw it go.
        fileprivate(set) var hungUp = false

        fileprivate init(descriptor: Int32, head: String, baseURL: String) {
            self.descriptor = descriptor
            self.head = head
            self.baseURL = baseURL
        }

        /// false once the peer has gone away.
        @discardableResult
        package func write(_ bytes: [UInt8]) -> Bool {
            var offset = 0
            while offset < bytes.count {
                let sent = bytes[offset...].withUnsafeBytes {
                    send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
                }
                if sent <= 0 {
                    hungUp = true
                    return false
                }
                offset += sent
                written += sent
            }
            return true
        }

        @discardableResult
        package func write(_ text: String) -> Bool {
            write(Array(text.utf8))
        }

        /// Waits up to `seconds` for the peer to close the connection, reading and dropping whatever it sends
        /// meanwhile. True once it has gone; false if it was still there at the end.
        package func awaitHangUp(seconds: Double) -> Bool {
            let deadline = Date().addingTimeInterval(seconds)
            var buffer = [UInt8](repeating: 0, count: 4096)
            while !hungUp, Date() < deadline {
                var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                guard poll(&poller, 1, 100) > 0 else { continue }
                let received = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
                if received == 0 || (received < 0 && errno != EINTR && errno != EAGAIN) { hungUp = true }
            }
            return hungUp
        }
    }

    private let lock = NSLock()
    private var heads: [String] = []
    private var accepted = 0
    private var bytesWritten = 0
    private var ended = 0
    private var hangUps = 0
    private var listener: LoopbackListener?
    /// The recording a replaying server answers from; nil for one that answers through `respond`.
    private let replay: RecordedReplay?

    package var port: UInt16 { listener?.port ?? 0 }
    package var baseURL: String { "http://127.0.0.1:\(port)" }
    package var requests: [String] { lock.withLock { heads } }
    package var connections: Int { lock.withLock { accepted } }
    /// Bytes the clients accepted, over all connections that have ended.
    package var written: Int { lock.withLock { bytesWritten } }
    /// Connections, of those that have ended, whose peer closed them first.
    package var hungUp: Int { lock.withLock { hangUps } }
    /// For a replaying server: request targets that matched no recorded exchange (each was answered 404).
    package var unmatchedRequests: [String] { replay?.unmatched ?? [] }
    /// For a replaying server: request targets that were answered from the recording, in order.
    package var servedRequests: [String] { replay?.served ?? [] }

    /// `readsHead: false` answers at once, for clients that never send an HTTP head (a TLS ClientHello).
    package convenience init(readsHead: Bool = true, respond: @escaping @Sendable (Connection) -> Void) throws {
        try self.init(readsHead: readsHead, replay: nil, respond: respond)
    }

    /// Serves recorded real GitHub exchanges (Tests/Recorded): see `RecordedReplay`.
    package convenience init(replaying exchanges: [RecordedExchange]) throws {
        let replay = RecordedReplay(exchanges)
        try self.init(readsHead: true, replay: replay) { replay.answer($0) }
    }

    private init(
        readsHead: Bool, replay: RecordedReplay?, respond: @escaping @Sendable (Connection) -> Void
    ) throws {
        self.replay = replay
        listener = try LoopbackListener { [self] client in
            defer { close(client) }
            lock.withLock { accepted += 1 }
            guard let head = readsHead ? LoopbackListener.readHead(client) : "" else { return }
            lock.withLock { heads.append(head) }
            let connection = Connection(descriptor: client, head: head, baseURL: baseURL)
            respond(connection)
            lock.withLock {
                bytesWritten += connection.written
                hangUps += connection.hungUp ? 1 : 0
                ended += 1
            }
        }
    }

    package func stop() {
        listener?.stop()
    }

    /// Waits (up to `seconds`, a generous bound) until `count` connections have been answered and closed.
    package func waitForConnectionsToEnd(_ count: Int, within seconds: Int = 20) async {
        for _ in 0..<(seconds * 50) where lock.withLock({ ended }) < count {
            try? await Task.sleep(for: .milliseconds(20))
        }
    }
}

/// The answers of a replaying `RawTestServer`: each request gets the first exchange not yet served whose path
/// (without its query) it asks for, with GitHub's status, headers and body bytes as recorded. Only what a live
/// hop would change is changed: the body is framed with its own `Content-Length` on a closed connection, and
/// `Link` and `Location` URLs name the server instead of api.github.com (a redirect GitHub sent on its own
/// origin stays on the origin it was served from).
final class RecordedReplay: @unchecked Sendable {
    private let lock = NSLock()
    private var waiting: [RecordedExchange]
    private var unmatchedTargets: [String] = []
    private var servedTargets: [String] = []

    init(_ exchanges: [RecordedExchange]) { waiting = exchanges }

    var unmatched: [String] { lock.withLock { unmatchedTargets } }
    var served: [String] { lock.withLock { servedTargets } }

    func answer(_ connection: RawTestServer.Connection) {
        let requestLine = connection.head.split(separator: "\r\n", maxSplits: 1).first ?? ""
        let parts = requestLine.split(separator: " ")
        let method = parts.first.map(String.init) ?? ""
        let target = parts.count > 1 ? String(parts[1]) : ""
        let route = RecordedExchange.route(of: target)
        let exchange: RecordedExchange? = lock.withLock {
            guard let index = waiting.firstIndex(where: { $0.requestMethod == method && $0.route == route }) else {
                unmatchedTargets.append("\(method) \(target)")
                return nil
            }
            servedTargets.append("\(method) \(target)")
            return waiting.remove(at: index)
        }
        guard let exchange else {
            connection.write(
                "HTTP/1.1 404 Not Found\r\nContent-Type: application/json\r\nContent-Length: 31\r\n"
                    + "Connection: close\r\n\r\n{\"message\":\"not in recording\"}")
            return
        }
        let body = exchange.status == 204 || exchange.status == 304 ? [] : exchange.wireBody
        // Clients read the code, never the reason phrase, which the recordings do not all keep.
        var head = "HTTP/1.1 \(exchange.status) Recorded\r\n"
        for pair in exchange.headers where pair.count == 2 {
            let name = pair[0]
            guard !["transfer-encoding", "content-length", "connection"].contains(name.lowercased()) else { continue }
            let value =
                ["link", "location"].contains(name.lowercased())
                ? pair[1].replacingOccurrences(of: "https://api.github.com", with: connection.baseURL) : pair[1]
            head += "\(name): \(value)\r\n"
        }
        head += "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n"
        connection.write(Array(head.utf8) + body)
    }
}
