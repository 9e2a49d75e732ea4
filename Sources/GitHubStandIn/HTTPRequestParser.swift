import Foundation

/// A request read off a connection, before routing.
struct ParsedHTTPRequest {
    var method: String
    var target: String
    var version: String
    var headers: [(name: String, value: String)]
    var body: [UInt8]

    func header(_ name: String) -> String? { headerValue(name, in: headers) }

    /// HTTP/1.1 keeps the connection unless told otherwise; HTTP/1.0 closes unless asked to keep it.
    var wantsConnectionClosed: Bool {
        let tokens = (header("Connection") ?? "").lowercased().split(separator: ",").map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        if tokens.contains("close") {
            return true
        }
        if version == "HTTP/1.0" {
            return !tokens.contains("keep-alive")
        }
        return false
    }
}

/// What a parse attempt over the bytes received so far yielded.
enum HTTPParseOutcome {
    case needMoreData
    case request(ParsedHTTPRequest, consumedBytes: Int)
    /// The connection cannot be trusted any further; answer with `status` and close.
    case invalid(status: Int, reason: String)
}

/// Incremental HTTP/1.x request framing: call again with more bytes whenever it asks for them. Its only
/// clients are gh-users and the tests on this machine, so it sets no size limits and takes no chunked bodies.
enum HTTPRequestParser {
    static func parse(_ buffer: [UInt8]) -> HTTPParseOutcome {
        guard let headEnd = endOfHead(in: buffer) else {
            return .needMoreData
        }
        // Split on bytes: as Characters, "\r\n" is a single grapheme and would never match "\n".
        let lines = buffer[..<headEnd].split(separator: 0x0A, omittingEmptySubsequences: false).map { line in
            String(decoding: line.last == 0x0D ? line.dropLast() : line, as: UTF8.self)
        }
        guard let requestLine = lines.first else {
            return .invalid(status: 400, reason: "missing request line")
        }
        let parts = requestLine.split(separator: " ", omittingEmptySubsequences: true)
        guard parts.count == 3, parts[2].hasPrefix("HTTP/1.") else {
            return .invalid(status: 400, reason: "malformed request line")
        }
        var headers: [(name: String, value: String)] = []
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else {
                return .invalid(status: 400, reason: "malformed header line")
            }
            let name = String(line[..<colon])
            guard !name.isEmpty, !name.contains(" ") else {
                return .invalid(status: 400, reason: "malformed header name")
            }
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            headers.append((name: name, value: value))
        }
        var request = ParsedHTTPRequest(
            method: String(parts[0]), target: String(parts[1]), version: String(parts[2]), headers: headers, body: [])
        var bodyLength = 0
        if let lengthText = request.header("Content-Length") {
            guard let length = Int(lengthText), length >= 0 else {
                return .invalid(status: 400, reason: "invalid Content-Length")
            }
            bodyLength = length
        }
        let bodyStart = headEnd + 4
        let bodyEnd = bodyStart + bodyLength
        guard buffer.count >= bodyEnd else {
            return .needMoreData
        }
        request.body = Array(buffer[bodyStart..<bodyEnd])
        return .request(request, consumedBytes: bodyEnd)
    }

    /// Where the blank line that ends the head starts: CRLF line endings, as RFC 9112 writes them.
    private static func endOfHead(in buffer: [UInt8]) -> Int? {
        guard buffer.count >= 4 else { return nil }
        return (0...(buffer.count - 4)).first { index in
            buffer[index] == 0x0D && buffer[index + 1] == 0x0A && buffer[index + 2] == 0x0D && buffer[index + 3] == 0x0A
        }
    }
}

/// Splits a request-target into a decoded path and decoded query items.
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
        guard let questionMark = target.firstIndex(of: "?") else {
            return []
        }
        let rawQuery = target[target.index(after: questionMark)...]
        var items: [(name: String, value: String)] = []
        var positionByName: [String: Int] = [:]
        for item in rawQuery.split(separator: "&", omittingEmptySubsequences: true) {
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
