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

    var forbidsBody: Bool {
        status < 200 || status == 204 || status == 304
    }

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

enum StandInReply {
    case respond(StandInHTTPResponse, closeAfterwards: Bool)
    case truncate(StandInHTTPResponse)
    case hang(seconds: Double)
    case close
}

func headerValue(_ name: String, in headers: [(name: String, value: String)]) -> String? {
    let wanted = name.lowercased()
    return headers.first { $0.name.lowercased() == wanted }?.value
}
