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
        return base.unicodeScalars.allSatisfy { scalar in
            switch scalar {
            case "a"..."z", "A"..."Z", "0"..."9", "-", "_": return true
            default: return false
            }
        }
    }

    private static func problem(with text: String) -> String {
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
