import Foundation

/// A request as it came off a connection, its target's path and query decoded; the server's journal keeps these.
package struct RecordedRequest: Sendable {
    package let method: String
    package let target: String
    package let path: String
    /// When a name repeats, the last value wins.
    package let query: [String: String]
    package let headers: [(name: String, value: String)]
    package let body: [UInt8]
    /// Monotonic, so tests can check how a client paced its requests.
    package let receivedAt: ContinuousClock.Instant

    /// Taken now, before any work or latency, so the journal shows when the client sent, not when it was answered.
    init(method: String, target: String, headers: [(name: String, value: String)], body: [UInt8] = []) {
        (self.method, self.target, self.headers, self.body) = (method, target, headers, body)
        (path, query) = RequestTargetDecoding.split(target)
        receivedAt = .now
    }

    package func header(_ name: String) -> String? { headerValue(name, in: headers) }
}

/// Incremental HTTP/1.x request framing: call again with more bytes whenever it asks for them (nil). Its only
/// clients are gh-users and the tests on this machine, so it sets no size limits and takes no chunked bodies.
enum HTTPRequestParser {
    /// Bytes that are no HTTP request: answered 400, and the connection closed, as it cannot be trusted further.
    struct Invalid: Error { let reason: String }

    /// The first request of `buffer`, whether its connection closes after it, and how many bytes it took.
    static func parse(_ buffer: [UInt8]) throws(Invalid) -> (request: RecordedRequest, closes: Bool, size: Int)? {
        // The blank line that ends the head: CRLF line endings, as RFC 9112 writes them.
        guard let headEnd = buffer.firstRange(of: [0x0D, 0x0A, 0x0D, 0x0A])?.lowerBound else { return nil }
        // Split on bytes: as Characters, "\r\n" is a single grapheme and would never match "\n".
        let lines = buffer[..<headEnd].split(separator: 0x0A, omittingEmptySubsequences: false).map { line in
            String(decoding: line.last == 0x0D ? line.dropLast() : line, as: UTF8.self)
        }
        let parts = lines[0].split(separator: " ")
        guard parts.count == 3, parts[2].hasPrefix("HTTP/1.") else { throw Invalid(reason: "malformed request line") }
        var headers: [(name: String, value: String)] = []
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { throw Invalid(reason: "malformed header line") }
            let name = String(line[..<colon])
            guard !name.isEmpty, !name.contains(" ") else { throw Invalid(reason: "malformed header name") }
            headers.append((name, line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        let lengthText = headerValue("Content-Length", in: headers) ?? "0"
        guard let bodyLength = Int(lengthText), bodyLength >= 0 else { throw Invalid(reason: "invalid Content-Length") }
        let bodyEnd = headEnd + 4 + bodyLength
        guard buffer.count >= bodyEnd else { return nil }
        let connection = (headerValue("Connection", in: headers) ?? "").lowercased().split(separator: ",").map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        // HTTP/1.1 keeps the connection unless told otherwise; HTTP/1.0 closes unless asked to keep it.
        let closes = connection.contains("close") || (parts[2] == "HTTP/1.0" && !connection.contains("keep-alive"))
        let body = Array(buffer[(headEnd + 4)..<bodyEnd])
        let request = RecordedRequest(method: String(parts[0]), target: String(parts[1]), headers: headers, body: body)
        return (request, closes, bodyEnd)
    }
}

enum RequestTargetDecoding {
    static func split(_ target: String) -> (path: String, query: [String: String]) {
        // Clients send origin-form targets (RFC 9112): a path and a query, no fragment.
        let rawPath = target.prefix { $0 != "?" }
        let query = Dictionary(orderedQueryItems(target).map { ($0.name, $0.value) }, uniquingKeysWith: { $1 })
        return (percentDecoded(rawPath, plusIsSpace: false), query)
    }

    /// Decoded query items in the order the client sent them; a repeated name keeps its first position and its
    /// last value. Paged routes echo them in `Link` URLs; `split` makes its dictionary of them.
    static func orderedQueryItems(_ target: String) -> [(name: String, value: String)] {
        guard let questionMark = target.firstIndex(of: "?") else { return [] }
        var items: [(name: String, value: String)] = []
        var positionByName: [String: Int] = [:]
        for item in target[target.index(after: questionMark)...].split(separator: "&") {
            let pieces = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = percentDecoded(pieces[0], plusIsSpace: true)
            let value = pieces.count > 1 ? percentDecoded(pieces[1], plusIsSpace: true) : ""
            if let position = positionByName[name] {
                items[position].value = value
            } else {
                positionByName[name] = items.count
                items.append((name: name, value: value))
            }
        }
        return items
    }

    /// Decodes `%XX` escapes; a text with a malformed escape, or one that decodes to no UTF-8, is kept as sent.
    static func percentDecoded(_ text: Substring, plusIsSpace: Bool) -> String {
        let text = plusIsSpace ? String(text).replacing("+", with: " ") : String(text)
        return text.removingPercentEncoding ?? text
    }
}

struct StandInHTTPResponse {
    var status: Int
    var headers: [(name: String, value: String)] = []
    var body: [UInt8] = []

    func header(_ name: String) -> String? { headerValue(name, in: headers) }

    /// Replaces every field with that name (case-insensitively), in the first one's place.
    mutating func setHeader(_ name: String, _ value: String) {
        let wanted = name.lowercased()
        let position = headers.firstIndex { $0.name.lowercased() == wanted } ?? headers.endIndex
        headers.removeAll { $0.name.lowercased() == wanted }
        headers.insert((name: name, value: value), at: min(position, headers.endIndex))
    }

    var forbidsBody: Bool { status < 200 || status == 204 || status == 304 }

    /// The bytes on the wire; no body for HEAD (`omitBody`) nor for a status that forbids one.
    func serialized(omitBody: Bool, closeConnection: Bool) -> [UInt8] {
        let fields = headers + (forbidsBody ? [] : [("Content-Length", String(body.count))])
        let lines = fields + [("Connection", closeConnection ? "close" : "keep-alive")]
        let head = lines.map { "\($0.name): \($0.value)\r\n" }.joined()
        let statusLine = "HTTP/1.1 \(status) \(StandInHTTPResponse.reasonPhrase(for: status))\r\n"
        return Array((statusLine + head + "\r\n").utf8) + (omitBody || forbidsBody ? [] : body)
    }

    private static let reasonPhrases = [
        200: "OK", 201: "Created", 204: "No Content", 301: "Moved Permanently", 302: "Found",
        304: "Not Modified", 307: "Temporary Redirect", 308: "Permanent Redirect", 400: "Bad Request",
        401: "Unauthorized", 403: "Forbidden", 404: "Not Found", 413: "Content Too Large",
        422: "Unprocessable Entity", 431: "Request Header Fields Too Large", 500: "Internal Server Error",
        501: "Not Implemented", 502: "Bad Gateway", 503: "Service Unavailable",
    ]

    static func reasonPhrase(for status: Int) -> String { reasonPhrases[status] ?? "Status \(status)" }
}

/// What the server does with a request: answer it, or one of the faults that answer otherwise.
enum StandInReply {
    case respond(StandInHTTPResponse)
    /// Declares the whole body's length but sends only part of it, then closes.
    case truncate(StandInHTTPResponse)
    case hang(seconds: Double)
    case close
}

func headerValue(_ name: String, in headers: [(name: String, value: String)]) -> String? {
    let wanted = name.lowercased()
    return headers.first { $0.name.lowercased() == wanted }?.value
}
