import Foundation

/// Parses an RFC 8288 `Link` header such as GitHub's
/// `<https://api.github.com/users?since=135>; rel="next", <https://api.github.com/users{?since}>; rel="first"`.
/// URLs are kept exactly as given: `rel="first"` on `/users` is a URI template, not a URL.
package struct LinkHeader: Sendable, Equatable {
    package let links: [String: String]

    package init(_ value: String?) {
        var links: [String: String] = [:]
        guard let value else {
            self.links = links
            return
        }
        var remainder = Substring(value)
        while let open = remainder.firstIndex(of: "<") {
            guard let close = remainder[open...].firstIndex(of: ">") else { break }
            let target = String(remainder[remainder.index(after: open)..<close])
            var parameters = remainder[remainder.index(after: close)...]
            // Parameters run until the next link, which starts after a comma outside quotes.
            var end = parameters.endIndex
            var inQuotes = false
            for index in parameters.indices {
                let character = parameters[index]
                if character == "\"" { inQuotes.toggle() }
                if character == "," && !inQuotes {
                    end = index
                    break
                }
            }
            parameters = parameters[..<end]
            for relation in LinkHeader.relations(in: parameters) where links[relation] == nil {
                links[relation] = target
            }
            remainder = end < remainder.endIndex ? remainder[remainder.index(after: end)...] : ""
        }
        self.links = links
    }

    package var next: String? { links["next"] }

    /// `rel` may list several space-separated relations, quoted or not.
    private static func relations(in parameters: Substring) -> [String] {
        for parameter in parameters.split(separator: ";") {
            let parts = parameter.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces).lowercased() == "rel" else {
                continue
            }
            let value = parts[1].trimmingCharacters(in: .whitespaces).trimmingCharacters(
                in: CharacterSet(charactersIn: "\""))
            return value.split(separator: " ").map { $0.lowercased() }
        }
        return []
    }
}
