/// A user name and password written into a URL (`http://alice:secret@proxy:3128`) are a credential wherever the
/// URL is quoted: libcurl's messages quote a proxy setting as it was given, and a server's `Location` may hold
/// one. `masked(in:)` shows every such part of a text as `***`.
package enum URLUserInfo {
    /// `text` with the user information of each `SCHEME://…@HOST` in it replaced by `***`: everything from the
    /// `://` to the last `@` before a space or a quote. A password may hold a `/` where the setting was not
    /// a valid URL (which is when libcurl quotes it), so a path's `@` may be masked too: better than a leak.
    package static func masked(in text: String) -> String {
        guard text.contains("@") else { return text }
        var result = ""
        var rest = Substring(text)
        while let separator = rest.range(of: "://") {
            result += rest[..<separator.upperBound]
            rest = rest[separator.upperBound...]
            let authority = rest.prefix { !ends.contains($0) && !$0.isWhitespace }
            guard let at = authority.lastIndex(of: "@") else { continue }
            result += "***"
            rest = rest[at...]
        }
        return result + rest
    }

    private static let ends: Set<Character> = ["'", "\"", "`", "<", ">", "(", ")"]
}
