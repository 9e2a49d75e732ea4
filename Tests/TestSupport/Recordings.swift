import Foundation

/// One request and the answer real GitHub gave it, as a public project recorded it (Tests/Recorded; sources,
/// licences and copyright lines in Tests/Recorded/NOTICE.md). The body is kept byte for byte: `body` holds it
/// as text, or `bodyBase64` holds the compressed bytes when the answer carried a `Content-Encoding`.
package struct RecordedExchange: Decodable, Sendable {
    package let interaction: Int
    package let recordedAt: String?
    package let method: String
    /// The path and query as recorded, on api.github.com.
    package let path: String
    /// For an error recorded on an endpoint gh-users does not call: the request of gh-users's it is served to
    /// (GitHub's error answer has the same shape on every endpoint). `servedTo` in the file says why.
    private let servedMethod: String?
    private let servedPath: String?
    package let servedTo: String?
    /// Whether the recorded request carried an `Authorization` header.
    package let authenticated: Bool
    package let status: Int
    /// Name and value pairs in recorded order; a header sent twice appears twice.
    package let headers: [[String]]
    private let body: String?
    private let bodyBase64: String?
    private let bodyDecoded: String?

    private enum CodingKeys: String, CodingKey {
        case interaction, method, path, authenticated, status, headers, body
        case recordedAt = "recorded_at"
        case servedMethod = "served_method"
        case servedPath = "served_path"
        case servedTo = "served_to"
        case bodyBase64 = "body_base64"
        case bodyDecoded = "body_decoded"
    }

    /// The bytes GitHub sent, compressed when they were sent compressed.
    package var wireBody: [UInt8] {
        if let bodyBase64 { return Array(Data(base64Encoded: bodyBase64) ?? Data()) }
        return Array((body ?? "").utf8)
    }

    /// The body as JSON text (decompressed when it was sent compressed); empty for 204 and 304.
    package var text: String { bodyDecoded ?? body ?? "" }

    package func header(_ name: String) -> String? {
        headers.first { $0.first?.lowercased() == name.lowercased() }?.last
    }

    package var headerNames: [String] { headers.compactMap { $0.first?.lowercased() } }

    /// The method gh-users's request has: the recorded one, or the one a borrowed error is served to.
    package var requestMethod: String { servedMethod ?? method }

    /// The path and query gh-users's request has: the recorded one, or the one a borrowed error is served to.
    package var requestPath: String { servedPath ?? path }

    /// The path without its query, percent-escapes decoded, for matching a request to the recording.
    package var route: String {
        Self.route(of: requestPath)
    }

    package static func route(of target: String) -> String {
        let path = target.split(separator: "?", maxSplits: 1).first.map(String.init) ?? target
        return path.removingPercentEncoding ?? path
    }

    /// The query item `name` of the recorded path, decoded (`+` as a space, as GitHub reads it).
    package func query(_ name: String) -> String? {
        guard let query = requestPath.split(separator: "?", maxSplits: 1).dropFirst().first else { return nil }
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            if parts.first.map(String.init) == name, let value = parts.dropFirst().first {
                return String(value).replacingOccurrences(of: "+", with: " ").removingPercentEncoding
            }
        }
        return nil
    }
}

/// A recorded cassette's exchanges that belong to one gh-users run, with where they came from.
package struct RecordedCassette: Decodable, Sendable {
    package let source: String
    package let file: String
    package let commit: String
    package let licence: String
    /// For a recording of an endpoint no gh-users command serves yet: the command it waits for. The replay suite
    /// runs it as a known issue, which fails once the command serves it, so the mark goes when its reason does.
    package let awaiting: String?
    package let exchanges: [RecordedExchange]
}

/// The recorded real exchanges in Tests/Recorded, one file per run, named `<project>/<name>`.
package enum Recordings {
    package static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Recorded")

    /// Every recording's name, sorted, so parameterised tests list them in a stable order.
    package static let names: [String] = {
        let manager = FileManager.default
        let projects = (try? manager.contentsOfDirectory(atPath: folder.path)) ?? []
        return projects.flatMap { project -> [String] in
            let files = (try? manager.contentsOfDirectory(atPath: folder.appendingPathComponent(project).path)) ?? []
            return files.filter { $0.hasSuffix(".json") }.map { "\(project)/\($0.dropLast(5))" }
        }.sorted()
    }()

    package static func load(_ name: String) throws -> RecordedCassette {
        let data = try Data(contentsOf: folder.appendingPathComponent(name + ".json"))
        return try JSONDecoder().decode(RecordedCassette.self, from: data)
    }

    package static func all() throws -> [(name: String, cassette: RecordedCassette)] {
        try names.map { ($0, try load($0)) }
    }
}

/// JSON text compared token by token: whitespace between tokens is dropped, everything inside strings and every
/// number is kept as written, so two texts are equal exactly when they hold the same keys in the same order with
/// the same numbers and escapes. Written apart from JSONBytes on purpose: the oracle must not share the code
/// whose output it judges.
package enum JSONTokens {
    /// Follows string literals through JSON text a byte at a time.
    private struct StringTracker {
        private var inString = false
        private var escaped = false

        /// Whether this byte belongs to a string literal, its quotes included.
        mutating func inString(_ byte: UInt8) -> Bool {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                return true
            }
            inString = byte == UInt8(ascii: "\"")
            return inString
        }
    }

    package static func compact(_ text: String) -> String {
        var tracker = StringTracker()
        let bytes = text.utf8.filter { tracker.inString($0) || ![0x20, 0x0A, 0x0D, 0x09].contains($0) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The top-level members of an array (elements) or object (`"key":value`), as compact text.
    package static func members(_ text: String) -> [String] {
        let bytes = Array(compact(text).utf8)
        guard bytes.count >= 2 else { return [] }
        var members: [String] = []
        var tracker = StringTracker()
        var depth = 0
        var start = 1
        for index in 1..<(bytes.count - 1) where !tracker.inString(bytes[index]) {
            switch bytes[index] {
            case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"): depth -= 1
            case UInt8(ascii: ",") where depth == 0:
                members.append(String(decoding: bytes[start..<index], as: UTF8.self))
                start = index + 1
            default: break
            }
        }
        if start < bytes.count - 1 {
            members.append(String(decoding: bytes[start..<(bytes.count - 1)], as: UTF8.self))
        }
        return members
    }

    /// The keys of a JSON object's top level, in written order.
    package static func keys(_ object: String) -> [String] {
        members(object).compactMap { member in
            guard member.hasPrefix("\""), let end = member.dropFirst().firstIndex(of: "\"") else { return nil }
            return String(member[member.index(after: member.startIndex)..<end])
        }
    }

    /// The value of a top-level key of a JSON object, as compact text.
    package static func value(_ key: String, in object: String) -> String? {
        let prefix = "\"\(key)\":"
        return members(object).first { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) }
    }
}
