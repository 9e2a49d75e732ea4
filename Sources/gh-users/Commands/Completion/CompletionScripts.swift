/// The script `gh-users completion SHELL` prints, generated from the command specs.
enum CompletionScripts {
    /// `commands` is normally `CommandCatalog.specs`; `completion` is added when it is not among them.
    static func script(for shell: CompletionOptions.Shell, commands: [CommandSpec]) -> String {
        let model = CompletionModel(commands: commands)
        switch shell {
        case .bash: return BashCompletionScript.render(model)
        case .zsh: return ZshCompletionScript.render(model)
        case .fish: return FishCompletionScript.render(model)
        }
    }
}

/// Quoting for text that comes from the specs, so that a quote, `$`, a backtick or a newline in a help text
/// stays text in every shell.
enum CompletionQuoting {
    /// A bash or zsh literal: inside single quotes nothing is special but the quote itself.
    static func posix(_ text: String) -> String {
        "'" + text.replacing("'", with: #"'\''"#) + "'"
    }

    /// A fish literal: inside single quotes a backslash escapes only a backslash and a quote.
    static func fish(_ text: String) -> String {
        "'" + text.replacing("\\", with: #"\\"#).replacing("'", with: #"\'"#) + "'"
    }

    /// A word for zsh to `eval`, as `_arguments` does with an action: each character that is not plainly part of
    /// a word gets a backslash.
    static func zshWord(_ text: String) -> String {
        if text.isEmpty { return "''" }
        var quoted = ""
        for character in text {
            if !(character.isLetter || character.isNumber || "_-.,/+@%".contains(character)) {
                quoted.append("\\")
            }
            quoted.append(character)
        }
        return quoted
    }

    /// Help text as one line without control characters: a description is shown on one row, and a newline
    /// inside a zsh spec or a fish line would end it.
    static func oneLine(_ text: String) -> String {
        let visible = text.unicodeScalars.map { scalar -> String in
            scalar.properties.generalCategory == .control ? " " : String(scalar)
        }
        return visible.joined().split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
    }
}
