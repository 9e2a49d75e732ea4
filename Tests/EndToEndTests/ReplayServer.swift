import Foundation
import TestSupport

/// Serves recorded real GitHub exchanges (Tests/Recorded) to the binary, over the tests' raw server: each request
/// gets the first exchange not yet served whose path (without its query) it asks for, with GitHub's status,
/// headers and body bytes as recorded. Only what a live hop would change is changed: the body is framed with its
/// own `Content-Length` on a closed connection, and `Link` and `Location` URLs name this server instead of
/// api.github.com (a redirect GitHub sent on its own origin stays on the origin it was served from).
final class ReplayServer: @unchecked Sendable {
    private let lock = NSLock()
    private var waiting: [RecordedExchange]
    private var unmatched: [String] = []
    private var served: [String] = []
    private var server: RawTestServer?

    init(_ exchanges: [RecordedExchange]) throws {
        waiting = exchanges
        server = try RawTestServer { [self] connection in
            answer(connection)
        }
    }

    var baseURL: String { server?.baseURL ?? "" }
    /// Request targets that matched no recorded exchange (each was answered 404).
    var unmatchedRequests: [String] { lock.withLock { unmatched } }
    /// Request targets that were answered from the recording, in order.
    var servedRequests: [String] { lock.withLock { served } }

    func stop() { server?.stop() }

    private func answer(_ connection: RawTestServer.Connection) {
        let requestLine = connection.head.split(separator: "\r\n", maxSplits: 1).first ?? ""
        let parts = requestLine.split(separator: " ")
        let method = parts.first.map(String.init) ?? ""
        let target = parts.count > 1 ? String(parts[1]) : ""
        let route = RecordedExchange.route(of: target)
        let exchange: RecordedExchange? = lock.withLock {
            guard let index = waiting.firstIndex(where: { $0.requestMethod == method && $0.route == route }) else {
                unmatched.append("\(method) \(target)")
                return nil
            }
            served.append("\(method) \(target)")
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
                ? pair[1].replacingOccurrences(of: "https://api.github.com", with: baseURL) : pair[1]
            head += "\(name): \(value)\r\n"
        }
        head += "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n"
        connection.write(Array(head.utf8) + body)
    }
}
