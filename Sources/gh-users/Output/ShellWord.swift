import AtomicCore

/// A word for a command line that a person will paste back into a shell: left bare when it holds only
/// characters no shell treats specially, else single-quoted. Control characters are made visible first, so a
/// hint can never carry an escape sequence to the terminal.
enum ShellWord {
    static func quote(_ word: String) -> String {
        let visible = TerminalSanitizer.sanitize(word)
        // zsh reads a word that starts with `=` as a command's path (`=ls` is /usr/bin/ls).
        let plain =
            !visible.isEmpty && !visible.hasPrefix("=")
            && visible.unicodeScalars.allSatisfy { scalar in
                scalar.isASCII
                    && (scalar.properties.isAlphabetic || scalar.properties.numericType != nil
                        || "_-./:=,@%+".unicodeScalars.contains(scalar))
            }
        return plain ? visible : "'" + visible.replacing("'", with: #"'\''"#) + "'"
    }

    static func line(_ words: [String]) -> String {
        words.map(quote).joined(separator: " ")
    }
}
