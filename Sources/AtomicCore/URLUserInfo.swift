/// A user name and password written into a URL (`http://alice:secret@proxy:3128`) are a credential wherever the
/// URL is quoted: libcurl's messages quote a proxy setting as it was given, and a server's `Location` may hold
/// one. `masked(in:)` shows every such part of a text as `***`.
package enum URLUserInfo {
    /// `text` with the user information of each `SCHEME://…@HOST` in it replaced by `***`: everything from the
    /// `://` to the last `@` before the authority ends (a `/`, `?`, `#`, a space or a quote), so a path's or a
    /// query's `@` (`?user=me@corp.example`) is left as it is.
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

    private static let ends: Set<Character> = ["/", "?", "#", "'", "\"", "`", "<", ">", "(", ")"]

    /// `text` (libcurl's words about a proxy setting it cannot read, which it quotes as given: `Unsupported proxy
    /// syntax in 'alice:pw@127.0.0.1:99999'`) with everything from the setting's start, after any `SCHEME://`,
    /// to the text's last `@` as `***`: a setting that is no valid URL may hold a password with a space, a quote
    /// or a `/`, and no scheme at all.
    package static func maskedSetting(in text: String) -> String {
        guard let quote = text.firstIndex(of: "'"), let at = text[quote...].lastIndex(of: "@") else { return text }
        var start = text.index(after: quote)
        // A scheme is a letter, then letters, digits, `+`, `-` or `.`: `bob:pw://x@proxy` holds no scheme, and its
        // password was shown (helper-338).
        if let scheme = text[start..<at].range(of: "://"), let first = text[start..<scheme.lowerBound].first,
            first.isASCII, first.isLetter,
            text[start..<scheme.lowerBound].allSatisfy({
                $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0))
            })
        {
            start = scheme.upperBound
        }
        return String(text[..<start]) + "***" + String(text[at...])
    }
}
