import Domain
import Foundation

/// The URLs of GitHub's user endpoints under an API root (`https://api.github.com`, or `https://HOST/api/v3`).
package struct UsersEndpoint: Sendable {
    package let apiRoot: URL

    package init(apiRoot: URL) {
        self.apiRoot = apiRoot
    }

    /// `GET /users?since=ID&per_page=N`
    package func list(since: Int64, perPage: Int) -> URL {
        url(path: "/users", query: "since=\(since)&per_page=\(perPage)")
    }

    /// `GET /users/{username}`, with the login percent-encoded as one path segment.
    package func user(_ login: Login) -> URL {
        url(path: "/users/" + UsersEndpoint.encodePathSegment(login.value), query: nil)
    }

    /// `GET /user/{id}`
    package func user(id: Int64) -> URL {
        url(path: "/user/\(id)", query: nil)
    }

    /// `GET /users/{username}/followers` or `/following`
    package func relations(_ relation: UserRelation, of login: Login, perPage: Int) -> URL {
        url(
            path: "/users/\(UsersEndpoint.encodePathSegment(login.value))/\(relation.rawValue)",
            query: "per_page=\(perPage)")
    }

    /// `GET /users/{username}/repos`, sending only the parameters that were chosen.
    package func repos(of login: Login, query: RepoQuery, perPage: Int) -> URL {
        var items: [String] = []
        if let kind = query.kind { items.append("type=\(kind.rawValue)") }
        if let sort = query.sort { items.append("sort=\(sort.rawValue)") }
        if let direction = query.direction { items.append("direction=\(direction.rawValue)") }
        items.append("per_page=\(perPage)")
        return url(
            path: "/users/\(UsersEndpoint.encodePathSegment(login.value))/repos",
            query: items.joined(separator: "&")
        )
    }

    /// `GET /search/users?q=…`, with the query form-encoded so qualifiers such as `followers:>100` survive.
    package func searchUsers(_ query: UserSearchQuery, perPage: Int) -> URL {
        var items = ["q=" + UsersEndpoint.encodeQueryValue(query.text)]
        if let sort = query.sort { items.append("sort=\(sort.rawValue)") }
        if let order = query.order { items.append("order=\(order.rawValue)") }
        items.append("per_page=\(perPage)")
        return url(path: "/search/users", query: items.joined(separator: "&"))
    }

    /// `GET /rate_limit`
    package func rateLimit() -> URL {
        url(path: "/rate_limit", query: nil)
    }

    private func url(path: String, query: String?) -> URL {
        var root = apiRoot.absoluteString
        while root.hasSuffix("/") { root.removeLast() }
        let text = root + path + (query.map { "?" + $0 } ?? "")
        // The root was a valid URL and the additions are ASCII-safe, so this cannot fail.
        return URL(string: text)!
    }

    /// Everything but RFC 3986 unreserved characters is encoded, so `/`, `..`, `?` and `#` cannot change the path.
    package static func encodePathSegment(_ segment: String) -> String {
        var result = ""
        for byte in segment.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "~"):
                result.append(Character(Unicode.Scalar(byte)))
            case UInt8(ascii: "."):
                // "." alone or ".." would be resolved as a dot-segment; encoding it keeps it literal.
                result += "%2E"
            default:
                result += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return result
    }
}

extension UsersEndpoint {
    /// application/x-www-form-urlencoded: unreserved characters stay, a space becomes `+`, everything else
    /// (`+`, `&`, `=`, `#`, `:`, `>`, quotes, non-ASCII) is percent-encoded.
    package static func encodeQueryValue(_ value: String) -> String {
        var result = ""
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."),
                UInt8(ascii: "~"):
                result.append(Character(Unicode.Scalar(byte)))
            case UInt8(ascii: " "):
                result.append("+")
            default:
                result += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return result
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
