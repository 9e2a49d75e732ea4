/// A count with its noun, as a person reads it: "1 entry", "2 entries", "0 files".
enum Counted {
    static func text(_ count: Int, _ singular: String, plural: String? = nil) -> String {
        "\(count) " + (count == 1 ? singular : plural ?? singular + "s")
    }

    /// A count of a list's items, whose noun is kept in the plural ("repositories", "email addresses"): one is
    /// "1 repository", "1 email address".
    static func text(_ count: Int, plural: String) -> String {
        text(count, singular(of: plural), plural: plural)
    }

    /// 12345 as "12,345".
    static func grouped(_ number: Int) -> String {
        let digits = String(number.magnitude)
        var text = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { text.append(",") }
            text.append(digit)
        }
        return (number < 0 ? "-" : "") + text
    }

    /// The singular of a list's plural noun: "repositories", "addresses", "accounts".
    private static func singular(of plural: String) -> String {
        if plural.hasSuffix("ies") { return plural.dropLast(3) + "y" }
        if plural.hasSuffix("sses") { return String(plural.dropLast(2)) }
        return plural.hasSuffix("s") ? String(plural.dropLast()) : plural
    }
}
