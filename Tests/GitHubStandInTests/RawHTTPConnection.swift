import Foundation
import Glibc
import Testing

@testable import GitHubStandIn

enum RawHTTPError: Error {
    case socket(errno: Int32)
    /// The peer closed (or stopped answering) before the whole response arrived.
    case closedEarly
    case malformedHead
}

struct RawHTTPResponse {
    var status: Int
    var headers: [(name: String, value: String)]
    var body: [UInt8]

    func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    var text: String { String(decoding: body, as: UTF8.self) }

    func jsonObject() throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any])
    }

    func jsonArray() throws -> [[String: Any]] {
        try #require(try JSONSerialization.jsonObject(with: Data(body)) as? [[String: Any]])
    }
}

/// A blocking HTTP/1.1 client over one socket, for the tests of the server's connections: reuse, requests in
/// fragments, framing. Every other test asks the server's own request path (`fetch`).
final class RawHTTPConnection {
    private let descriptor: Int32
    private var buffer: [UInt8] = []

    init(port: Int) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        // A test must fail, not hang, if the server never answers.
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        _ = setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr = in_addr(s_addr: UInt32(0x7F00_0001).bigEndian)
        let result = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            let code = errno
            _ = close(descriptor)
            throw RawHTTPError.socket(errno: code)
        }
    }

    deinit {
        _ = close(descriptor)
    }

    func write(_ text: String) throws { try write(Array(text.utf8)) }

    func write(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { raw in
                send(descriptor, raw.baseAddress, raw.count, Int32(MSG_NOSIGNAL))
            }
            guard sent > 0 else {
                throw RawHTTPError.socket(errno: errno)
            }
            offset += sent
        }
    }

    static func requestText(method: String = "GET", target: String, headers: [(String, String)] = []) -> String {
        var text = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: standin-tests\r\n"
        for (name, value) in headers {
            text += "\(name): \(value)\r\n"
        }
        return text + "\r\n"
    }

    func request(
        _ method: String = "GET", _ target: String, headers: [(String, String)] = []
    ) throws -> RawHTTPResponse {
        try write(Self.requestText(method: method, target: target, headers: headers))
        return try readResponse(bodyExpected: method != "HEAD")
    }

    /// Reads one response framed by Content-Length (or bodiless for 304/204/HEAD).
    func readResponse(bodyExpected: Bool = true) throws -> RawHTTPResponse {
        while buffer.firstRange(of: [13, 10, 13, 10]) == nil {
            guard receiveMore() else { throw RawHTTPError.closedEarly }
        }
        let end = buffer.firstRange(of: [13, 10, 13, 10])!.upperBound
        let headText = String(decoding: buffer[0..<end], as: UTF8.self)
        let lines = headText.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        let statusParts = lines.first?.split(separator: " ") ?? []
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else { throw RawHTTPError.malformedHead }
        var headers: [(name: String, value: String)] = []
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { throw RawHTTPError.malformedHead }
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            headers.append((name: String(line[..<colon]), value: value))
        }
        buffer.removeFirst(end)
        var response = RawHTTPResponse(status: status, headers: headers, body: [])
        let length = Int(response.header("Content-Length") ?? "0") ?? 0
        guard bodyExpected, status != 304, status != 204 else {
            return response
        }
        while buffer.count < length {
            guard receiveMore() else { throw RawHTTPError.closedEarly }
        }
        response.body = Array(buffer[0..<length])
        buffer.removeFirst(length)
        return response
    }

    /// True if the server closed the connection within the timeout.
    func peerClosed() -> Bool {
        buffer.isEmpty && !receiveMore()
    }

    /// Never waits.
    func hasBytesWaiting() -> Bool {
        var byte: UInt8 = 0
        return !buffer.isEmpty || recv(descriptor, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT)) > 0
    }

    private func receiveMore() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 16_384)
        let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else {
            return false
        }
        buffer.append(contentsOf: chunk[0..<count])
        return true
    }
}

/// A stand-in of `configuration`, not listening: `fetch` asks it directly.
func standIn(_ configuration: StandInConfiguration = StandInConfiguration(userCount: 250)) throws -> StandInServer {
    try StandInServer(configuration: configuration)
}

func withStandInServer<T>(
    _ configuration: StandInConfiguration = StandInConfiguration(userCount: 250),
    _ body: (StandInServer) throws -> T
) throws -> T {
    try body(standIn(configuration))
}

/// The server's answer to one request, as `login` (its stand-in token) where given, with a body where given,
/// from its own request path: everything but the connection (`StandInConnectionTests`).
func fetch(
    _ server: StandInServer, _ target: String, method: String = "GET", headers: [(String, String)] = [],
    as login: String? = nil, body: String = ""
) throws -> RawHTTPResponse {
    let headers = headers + (login.map { bearer(StandInTokens.token(for: $0)) } ?? [])
    let request = RecordedRequest(
        method: method, target: target, headers: headers.map { (name: $0, value: $1) }, body: Array(body.utf8))
    guard case .respond(let response) = server.reply(to: request) else { throw RawHTTPError.closedEarly }
    return RawHTTPResponse(status: response.status, headers: response.headers, body: response.body)
}

func bearer(_ token: String) -> [(String, String)] {
    [("Authorization", "Bearer \(token)")]
}

func logins(_ response: RawHTTPResponse) throws -> [String] {
    try response.jsonArray().compactMap { $0["login"] as? String }
}

/// `POST /graphql` of `query` (with `variables` where given), or of a whole JSON `body`.
func graphQL(
    _ server: StandInServer, _ query: String = "", variables: [String: String]? = nil, body: [UInt8]? = nil,
    token: String? = "gql-tests"
) throws -> RawHTTPResponse {
    let document: [String: Any] = variables.map { ["query": query, "variables": $0] } ?? ["query": query]
    let body = try body ?? Array(JSONSerialization.data(withJSONObject: document))
    let headers = [("Content-Type", "application/json")] + (token.map(bearer) ?? [])
    return try fetch(server, "/graphql", method: "POST", headers: headers, body: String(decoding: body, as: UTF8.self))
}

let userNotFound =
    #"{"message":"Not Found","documentation_url":"https://docs.github.com/rest/users/users#get-a-user","status":"404"}"#
let routeNotFound = #"{"message":"Not Found","documentation_url":"https://docs.github.com/rest","status":"404"}"#

/// The value at `path` (keys of nested objects) in decoded JSON; nil where there is none.
func value(_ json: Any?, _ path: String...) -> Any? {
    path.reduce(json) { ($0 as? [String: Any])?[$1] }
}

/// Each page of a GraphQL connection (the object at `path` of an answer) from the first to the last: `answer` asks
/// for the page after a cursor (nil: the first).
func pages(at path: String..., answer: (String?) throws -> [String: Any]) throws -> [[String: Any]] {
    var connections: [[String: Any]] = []
    var cursor: String? = nil
    repeat {
        let connection = try #require(path.reduce(try answer(cursor) as Any?) { ($0 as? [String: Any])?[$1] })
        connections.append(try #require(connection as? [String: Any]))
        let info = value(connection, "pageInfo")
        cursor = value(info, "hasNextPage") as? Bool == true ? value(info, "endCursor") as? String : nil
    } while cursor != nil && connections.count < 1_000
    return connections
}
