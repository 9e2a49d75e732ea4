/// A response ready to be written to a connection.
struct StandInHTTPResponse {
    var status: Int
    var headers: [(name: String, value: String)] = []
    var body: [UInt8] = []

    func header(_ name: String) -> String? { headerValue(name, in: headers) }

    /// Replaces every field with that name (case-insensitively) so injected headers override the defaults.
    mutating func setHeader(_ name: String, _ value: String) {
        let wanted = name.lowercased()
        // Keeping the first occurrence's position leaves the header order stable for readers of raw responses.
        let position = headers.firstIndex { $0.name.lowercased() == wanted } ?? headers.endIndex
        headers.removeAll { $0.name.lowercased() == wanted }
        headers.insert((name: name, value: value), at: min(position, headers.endIndex))
    }

    /// 1xx, 204 and 304 never carry content, so they also get no Content-Length.
    var forbidsBody: Bool {
        status < 200 || status == 204 || status == 304
    }

    /// Serialises the head and, unless `omitBody` (HEAD requests), the body.
    ///
    /// `declaredLength` lets the truncated-body fault promise more bytes than it will send.
    func serialized(omitBody: Bool, closeConnection: Bool, declaredLength: Int? = nil, bodyPrefix: Int? = nil)
        -> [UInt8]
    {
        var head = "HTTP/1.1 \(status) \(StandInHTTPResponse.reasonPhrase(for: status))\r\n"
        for field in headers {
            head += "\(field.name): \(field.value)\r\n"
        }
        if !forbidsBody {
            head += "Content-Length: \(declaredLength ?? body.count)\r\n"
        }
        head += closeConnection ? "Connection: close\r\n" : "Connection: keep-alive\r\n"
        head += "\r\n"
        var bytes = Array(head.utf8)
        if !omitBody, !forbidsBody {
            if let bodyPrefix {
                bytes.append(contentsOf: body.prefix(bodyPrefix))
            } else {
                bytes.append(contentsOf: body)
            }
        }
        return bytes
    }

    /// The statuses the stand-in sends; any other gets `Status N`, which no client reads.
    private static let reasonPhrases = [
        200: "OK", 201: "Created", 204: "No Content", 301: "Moved Permanently", 302: "Found",
        304: "Not Modified", 307: "Temporary Redirect", 308: "Permanent Redirect", 400: "Bad Request",
        401: "Unauthorized", 403: "Forbidden", 404: "Not Found", 413: "Content Too Large",
        422: "Unprocessable Entity", 431: "Request Header Fields Too Large", 500: "Internal Server Error",
        501: "Not Implemented", 502: "Bad Gateway", 503: "Service Unavailable",
    ]

    static func reasonPhrase(for status: Int) -> String {
        reasonPhrases[status] ?? "Status \(status)"
    }
}

/// What a connection does with one parsed request.
enum StandInReply {
    case respond(StandInHTTPResponse, closeAfterwards: Bool)
    /// Promise the whole body, send only the first part, then close.
    case truncate(StandInHTTPResponse)
    /// Say nothing for a while, then close.
    case hang(seconds: Double)
    case close
}

/// The first value of a header field; names compare case-insensitively, as HTTP requires.
func headerValue(_ name: String, in headers: [(name: String, value: String)]) -> String? {
    let wanted = name.lowercased()
    return headers.first { $0.name.lowercased() == wanted }?.value
}
