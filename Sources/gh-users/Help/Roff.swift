/// The man(7) pieces the manual pages are written with. Text is escaped so that it prints as typed: a `-` is
/// `\-` (a hyphen would not paste into a shell), quotes and `^ ~` keep their ASCII look, a leading `.` is not
/// read as a request, and anything beyond ASCII is a `\[uXXXX]` escape, so no preconv is needed.
enum Roff {
    /// One run of text, escaped; its line breaks are kept, each line made safe on its own.
    static func escape(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            var escaped = ""
            for scalar in line.unicodeScalars {
                switch scalar {
                case "\\": escaped += "\\e"
                case "-": escaped += "\\-"
                case "'": escaped += "\\(aq"
                case "`": escaped += "\\(ga"
                case "^": escaped += "\\(ha"
                case "~": escaped += "\\(ti"
                case _ where scalar.isASCII: escaped.unicodeScalars.append(scalar)
                default:
                    let hex = String(scalar.value, radix: 16, uppercase: true)
                    escaped += "\\[u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "]"
                }
            }
            return escaped.hasPrefix(".") ? "\\&" + escaped : escaped
        }.joined(separator: "\n")
    }

    static func bold(_ text: String) -> String { "\\fB" + escape(text) + "\\fR" }

    static func italic(_ text: String) -> String { "\\fI" + escape(text) + "\\fR" }

    /// The page's title line, and no hyphenation or justification: a word such as `--per-page` broken at a line's
    /// end, or spaces stretched inside a sentence, would not read as `--help` prints it.
    static func header(title: String, version: String, date: String) -> String {
        ".TH \"\(title.uppercased())\" \"1\" \"\(date)\" \"gh-users \(version)\" \"gh-users Manual\"\n.nh\n.ad l\n"
    }

    static func section(_ title: String) -> String { ".SH \"\(title)\"\n" }

    /// A filled paragraph.
    static func paragraph(_ text: String) -> String { ".PP\n" + escape(text) + "\n" }

    /// A labelled paragraph: `label` (already roff) on its line, `text` indented under it.
    static func tagged(_ label: String, _ text: String) -> String { ".TP\n" + label + "\n" + escape(text) + "\n" }

    /// Lines printed as they are, neither filled nor adjusted (examples, snippets, usage).
    static func verbatim(_ lines: String) -> String { ".PP\n.nf\n" + escape(lines) + "\n.fi\n" }

    /// The page without a paragraph break right after a section heading, which starts a paragraph already
    /// (`mandoc -Tlint`: "skipping paragraph macro: PP after SH").
    static func tidy(_ page: String) -> String {
        var lines: [Substring] = []
        for line in page.split(separator: "\n", omittingEmptySubsequences: false) {
            if line == ".PP", lines.last?.hasPrefix(".SH ") == true { continue }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }

    /// A reference to another page: `gh-users-list(1)`.
    static func reference(_ page: String) -> String { ".BR \(escape(page)) (1)" }
}
