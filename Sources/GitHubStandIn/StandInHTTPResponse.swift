/// A response ready to be written to a connection.
struct StandInHTTPResponse {
    var status: Int
    var headers: [(name: String, value: String)] = []
    var body: [UInt8] = []

    init(status: Int, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    init(status: Int, json: String) {
        self.init(status: status, body: Array(json.utf8))
    }

    func header(_ name: String) -> String? {
        let wanted = name.lowercased()
        return headers.first { $0.name.lowercased() == wanted }?.value
    }

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

    static func reasonPhrase(for status: Int) -> String {
        switch status {
        case 100: return "Continue"
        case 200: return "OK"
        case 201: return "Created"
        case 202: return "Accepted"
        case 204: return "No Content"
        case 301: return "Moved Permanently"
        case 302: return "Found"
        case 303: return "See Other"
        case 304: return "Not Modified"
        case 307: return "Temporary Redirect"
        case 308: return "Permanent Redirect"
        case 400: return "Bad Request"
        case 401: return "Unauthorized"
        case 403: return "Forbidden"
        case 404: return "Not Found"
        case 405: return "Method Not Allowed"
        case 409: return "Conflict"
        case 410: return "Gone"
        case 413: return "Content Too Large"
        case 422: return "Unprocessable Entity"
        case 429: return "Too Many Requests"
        case 431: return "Request Header Fields Too Large"
        case 500: return "Internal Server Error"
        case 501: return "Not Implemented"
        case 502: return "Bad Gateway"
        case 503: return "Service Unavailable"
        case 504: return "Gateway Timeout"
        default: return "Status \(status)"
        }
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
