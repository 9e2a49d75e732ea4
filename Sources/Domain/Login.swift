/// A GitHub login that has passed validation, so it can be put in a URL path without surprises:
/// letters, digits, `-` and `_`, 1 to 39 of them, not starting with `-`, optionally followed by `[bot]`.
package struct Login: Sendable, Hashable, CustomStringConvertible {
    package let value: String

    package static let maximumLength = 39

    package init(validating text: String) throws(DomainError) {
        guard Login.isValid(text) else {
            throw DomainError.invalidInput(Login.problem(with: text))
        }
        self.value = text
    }

    package var description: String { value }

    package static func isValid(_ text: String) -> Bool {
        // GitHub reads a login in any case, its App accounts' `[bot]` too.
        let base = text.lowercased().hasSuffix("[bot]") ? String(text.dropLast(5)) : text
        guard (1...maximumLength).contains(base.count), base.first != "-" else { return false }
        let characters = base.unicodeScalars.allSatisfy { scalar in
            switch scalar {
            case "a"..."z", "A"..."Z", "0"..."9", "-", "_": return true
            default: return false
            }
        }
        // A token's shape is no login's: typed where a login goes (stdin too), it is never sent.
        return characters && !holdsToken(text)
    }

    /// The prefixes of GitHub's tokens: classic (`ghp_`), OAuth (`gho_`), user-to-server (`ghu_`),
    /// server-to-server (`ghs_`), refresh (`ghr_`) and fine-grained (`github_pat_`).
    package static let tokenPrefixes = ["ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"]

    /// Whether `text` holds a GitHub token's shape anywhere: one of its prefixes (`ghp_`, `gho_`, `ghu_`, `ghs_`,
    /// `ghr_`, `github_pat_`) and 30 or more letters, digits and `_` after it (a classic token has 36, a
    /// fine-grained one 82). No login has it: a login holds at most 39 characters, and `_` only before an
    /// Enterprise Managed User's short code.
    package static func holdsToken(_ text: some StringProtocol) -> Bool {
        // The shortest: a prefix of 4 and its 30 letters.
        guard text.utf8.count >= 34 else { return false }
        let bytes = Array(text.utf8)
        let isWord = { (byte: UInt8) in
            byte == UInt8(ascii: "_") || (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte)
                || (0x61...0x7A).contains(byte)
        }
        for prefix in tokenPrefixes.map({ Array($0.utf8) })
        where bytes.count >= prefix.count + 30 {
            for start in 0...(bytes.count - prefix.count)
            where bytes[start..<start + prefix.count].elementsEqual(prefix) {
                if bytes[(start + prefix.count)...].prefix(while: isWord).count >= 30 { return true }
            }
        }
        return false
    }

    private static func problem(with text: String) -> String {
        // A token, or 40 hexadecimal digits (an older token's form, and no login's length), is never written back.
        if holdsToken(text) || (text.count == 40 && text.allSatisfy(\.isHexDigit)) {
            return
                "invalid login (it looks like a GitHub token, so it is not shown): a token goes in GH_TOKEN, or in a "
                + "file named by --token-file PATH, never where a login goes"
        }
        let shown =
            text.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }
            ? "(with control characters)" : "'" + visible(text) + "'"
        if text.isEmpty { return "a login cannot be empty" }
        // A mention or a profile's address pasted as it was seen (helper-341's M9): the login in it, named.
        if let login = pastedLogin(text) {
            return "invalid login \(shown): give the login alone, \(login)"
        }
        return "invalid login \(shown): a login has 1 to \(maximumLength) letters, digits, '-' or '_', "
            + "does not start with '-', and may end in '[bot]'"
    }

    /// The login in `@octocat` or a profile's address (`https://github.com/octocat`, without its scheme or `www.`,
    /// with a final `/`), or nil.
    private static func pastedLogin(_ text: String) -> String? {
        var rest = Substring(text)
        if rest.hasPrefix("@") {
            rest = rest.dropFirst()
        } else {
            for prefix in ["https://", "http://"] where rest.lowercased().hasPrefix(prefix) {
                rest = rest.dropFirst(prefix.count)
            }
            if rest.lowercased().hasPrefix("www.") { rest = rest.dropFirst(4) }
            guard rest.lowercased().hasPrefix("github.com/") else { return nil }
            rest = rest.dropFirst("github.com/".count)
            if rest.hasSuffix("/") { rest = rest.dropLast() }
        }
        return isValid(String(rest)) ? String(rest) : nil
    }

    /// `text` with each character a reader could not see (a zero-width or other ignorable one, a direction mark, a
    /// space that is not ASCII's, the blank braille pattern) named by its code point, `\u{200b}`: else
    /// `oct\u{200b}ocat` is refused as a login that looks valid. Control characters are left to the caller.
    package static func visible(_ text: String) -> String {
        var shown = ""
        for scalar in text.unicodeScalars {
            let properties = scalar.properties
            if properties.isDefaultIgnorableCodePoint || properties.generalCategory == .format
                || (!scalar.isASCII && properties.isWhitespace) || scalar.value == 0x2800
            {
                shown += "\\u{" + String(scalar.value, radix: 16) + "}"
            } else {
                shown.unicodeScalars.append(scalar)
            }
        }
        return shown
    }
}
