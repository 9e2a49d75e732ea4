import AtomicCore

/// A word for a command line that a person will paste back into a shell: left bare when it holds only
/// characters no shell treats specially, else single-quoted. A word with a control or format character (an
/// escape sequence, a right-to-left override in a file's name) is written in ANSI-C quotes, `$'…'`, with that
/// character as an escape (`\e`, `\u202e`): the hint never carries it to the terminal, and bash, zsh and ksh
/// read the word back as it is.
enum ShellWord {
    static func quote(_ word: String) -> String {
        if word.unicodeScalars.contains(where: TerminalSanitizer.isUnsafeInPath) { return ansiC(word) }
        // zsh reads a word that starts with `=` as a command's path (`=ls` is /usr/bin/ls).
        let plain =
            !word.isEmpty && !word.hasPrefix("=")
            && word.unicodeScalars.allSatisfy { scalar in
                scalar.isASCII
                    && (scalar.properties.isAlphabetic || scalar.properties.numericType != nil
                        || "_-./:=,@%+".unicodeScalars.contains(scalar))
            }
        return plain ? word : "'" + word.replacing("'", with: #"'\''"#) + "'"
    }

    /// `--NAME VALUE` quoted, or `--NAME=VALUE` for a value that starts with `-`, which the scanner would read as
    /// an option were it the next word.
    static func option(_ name: String, _ value: String) -> String {
        value.hasPrefix("-") ? quote("--\(name)=\(value)") : "--\(name) " + quote(value)
    }

    static func line(_ words: [String]) -> String {
        words.map(quote).joined(separator: " ")
    }

    private static func ansiC(_ word: String) -> String {
        var text = "$'"
        for scalar in word.unicodeScalars {
            switch scalar {
            case "\\", "'": text += "\\" + String(scalar)
            case "\u{1B}": text += "\\e"
            case "\n": text += "\\n"
            case "\t": text += "\\t"
            case "\r": text += "\\r"
            case _ where scalar.value < 0x80 && TerminalSanitizer.isUnsafeInPath(scalar):
                text += "\\x" + hex(scalar.value, digits: 2)
            case _ where TerminalSanitizer.isUnsafeInPath(scalar):
                text +=
                    scalar.value > 0xFFFF ? "\\U" + hex(scalar.value, digits: 8) : "\\u" + hex(scalar.value, digits: 4)
            default: text.unicodeScalars.append(scalar)
            }
        }
        return text + "'"
    }

    private static func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
