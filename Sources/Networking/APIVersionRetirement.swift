import Foundation

/// What an answer says about the retirement of the REST API version a request asked for. GitHub's docs ("API
/// versions") announce a version's end with `Deprecation` and `Sunset` headers before it answers `410 Gone`, and a
/// `Link` with `rel="deprecation"` names where to read about it (RFC 8594, RFC 9745); `x-github-api-version-selected`
/// names the version that answered, which differs from the one asked for when GitHub chose another.
package enum APIVersionRetirement {
    /// The longest value quoted from a header: the server's text, so it is kept short.
    static let maximumValueLength = 80

    /// The signs found, in words ("Deprecation: @1893456000; Sunset: Sat, 01 Jan 2028 00:00:00 GMT"), or nil
    /// when the answer has none. The caller sanitises the text for the terminal.
    package static func signs(in headers: HTTPHeaders, asked version: String) -> String? {
        var signs: [String] = []
        for name in ["Deprecation", "Sunset"] {
            if let value = headers[name].map(trimmed), !value.isEmpty { signs.append("\(name): \(value)") }
        }
        if let link = LinkHeader(headers["Link"]).links["deprecation"] {
            signs.append("see \(trimmed(link))")
        }
        if let selected = headers["x-github-api-version-selected"].map(trimmed), !selected.isEmpty,
            selected != version
        {
            signs.append("version \(selected) answered")
        }
        return signs.isEmpty ? nil : signs.joined(separator: "; ")
    }

    private static func trimmed(_ value: String) -> String {
        let value = value.trimmingCharacters(in: .whitespaces)
        return value.count > maximumValueLength ? value.prefix(maximumValueLength - 1) + "…" : value
    }
}

/// A flag that is set once: `setOnce()` answers true to the first caller only, whichever thread it is on.
package final class OnceFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false

    package init() {}

    package var isSet: Bool { lock.withLock { value } }

    @discardableResult
    package func setOnce() -> Bool {
        lock.withLock {
            defer { value = true }
            return !value
        }
    }
}
