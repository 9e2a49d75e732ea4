import AtomicCore
import AtomicLogger
import Domain

/// Bad input caught before any request: exit 64 with `Error:`, `Usage:` and a pointer to the help.
struct UsageError: Error, Sendable, Equatable {
    private(set) var message: String
    /// The command whose usage to show; nil for problems before a command was known.
    let commandName: String?
    let usage: String?
    /// The help that explains it, when not a command's: `help environment` for a setting.
    var helpCommand: String?

    init(message: String, command: CommandSpec?) {
        self.message = message
        self.commandName = command?.name
        self.usage = command?.usage
    }

    /// The same error, its message showing none of `redactor`'s secrets.
    func masking(with redactor: Redactor) -> UsageError {
        var masked = self
        masked.message = redactor.redact(message)
        return masked
    }

    /// An environment variable's value gh-users cannot take: `gh-users help environment` says what each takes.
    static func setting(_ message: String) -> UsageError {
        var error = UsageError(message: message, command: nil)
        error.helpCommand = "help environment"
        return error
    }

    /// `value` is the word after the option (or after its `=`), which may be its value: gh's `--jq EXPR`.
    static func unknownOption(_ option: String, spec: CommandSpec, value: String? = nil) -> UsageError {
        // An option another command takes is no typo: say it does not apply here, and where it does.
        // Names are matched as typed: `--ALL` is a typo of `--all`, which the suggestion below offers.
        let name = String(option.dropFirst(2))
        // gh's `-R, --repo` is a habit before it is another command's option (`access --repo`).
        if option == "-R" || option == "--repo" {
            return UsageError(
                message: "unknown option '\(option)': \(repositoryHint(spec, value: value))", command: spec)
        }
        let takers = CommandCatalog.specs.filter { $0.option(named: name) != nil }.map(\.name)
        if option.hasPrefix("--"), !takers.isEmpty {
            // A command's own option names the few that take it; a group's (most commands) would be a long list.
            let whereItApplies =
                takers.count > 3
                ? "" : "; " + takers.joined(separator: ", ") + (takers.count == 1 ? " takes it" : " take it")
            // One of this command's own may be what was meant: `followers --not-following-back` is following's, and
            // followers' own is `--not-followed-back` (before, only "following takes it"; helper-341's M2).
            let own = Suggestions.nearest(to: option, among: spec.allOptions.map { "--\($0.name)" })
            return UsageError(
                message: "option '\(option)' does not apply to \(spec.name)" + whereItApplies
                    + (own.map { "\nDid you mean '\($0)'?" } ?? ""),
                command: spec)
        }
        // GitHub's search negates a qualifier with a leading `-`, which reads as an option before `--`.
        if !option.hasPrefix("--"), option.contains(":"), spec.arguments.contains(where: { $0.name == "QUERY" }) {
            return UsageError(
                message: "unknown option '\(option)': a negated qualifier goes after --, which ends the options: "
                    + "gh-users \(spec.name) [options] -- QUERY",
                command: spec)
        }
        // A format named as an option: `--ndjson` was offered `--json`, one array, not a record a line (helper-341).
        let format = option.drop { $0 == "-" }.lowercased()
        if ["ndjson", "csv", "tsv", "table"].contains(format), spec.allOptions.contains(where: { $0.name == "format" })
        {
            return UsageError(
                message: "unknown option '\(option)': a format is --format's value: --format \(format)", command: spec)
        }
        // gh's `-q` is its `--jq`.
        let habitName = option == "-q" ? "jq" : name.lowercased()
        if let habit = ghHabits[habitName], spec.allOptions.contains(where: { $0.name == "json" }) {
            var text = habit
            // The expression given, quoted for a shell, where the hint says EXPR.
            if habitName == "jq", let value, !value.hasPrefix("-") {
                text = text.replacingOccurrences(of: "'EXPR' here", with: ShellWord.quote(value) + " here")
            }
            return UsageError(message: "unknown option '\(option)': \(text)", command: spec)
        }
        return unknownOption(option, among: spec.allOptions.map { "--\($0.name)" }, spec: spec)
    }

    /// gh's output options, which gh-users answers with its own way to the same output: `--jq EXPR` is jq on
    /// `--json`, which is the JSON gh gives (one object for `show LOGIN`; a list is one array, on which `.login`
    /// fails: `.[].login`, or one object a line with `--format ndjson`).
    private static let ghHabits = [
        "jq": "gh-users has no jq of its own; gh's --jq EXPR is --json | jq -r 'EXPR' here, on the JSON gh would "
            + "give (a list is one array: '.[].login'; --format ndjson | jq -r .login reads one record a line)",
        "template": "gh-users has no templates; pick keys with --json --fields login,name, or pipe --json into jq",
    ]

    /// gh's `-R, --repo OWNER/REPO`: here the repository is the command's argument, or `access`'s `--repo NAME`
    /// (the name alone: given OWNER/REPO after -R, `value`, it names that name).
    private static func repositoryHint(_ spec: CommandSpec, value: String?) -> String {
        if spec.arguments.contains(where: { $0.name == "OWNER/REPO" }) {
            return "gh-users takes the repository as the command's argument, not as -R: gh-users \(spec.name) "
                + "OWNER/REPO"
        }
        if spec.option(named: "repo") != nil {
            let name = value.flatMap { try? RepositoryName(validating: $0) }.map(\.name) ?? "NAME"
            return "gh-users has no -R; \(spec.name) takes a repository of ORG as --repo NAME: gh-users "
                + "\(spec.name) ORG --repo \(name)"
        }
        return "gh-users has no -R; a repository's lists take it as their argument (gh-users collaborators "
            + "OWNER/REPO), and \(spec.name) takes none"
    }

    static func unknownOption(_ option: String, among names: [String], spec: CommandSpec?) -> UsageError {
        var message = "unknown option '\(option)'"
        if let suggestion = Suggestions.nearest(to: option, among: names) {
            message += "\nDid you mean '\(suggestion)'?"
        }
        return UsageError(message: message, command: spec)
    }

    /// The longest line of a message said whole; longer than any list of valid names.
    static let lineLimit = 1_000

    /// Lists of gh-users's own (a command's fields), `label` before the first, each filled to 80 columns as the
    /// usage is, the rest of a list indented: `repos`' fields ran to 1,169 characters on one line, cut at
    /// `lineLimit` mid-word (helper-361). Broken between items only, so a field keeps its note ("name (with --anon
    /// or --full)", helper-364).
    static func filled(_ label: String, _ lines: [String]) -> String {
        lines.enumerated().map { index, line in
            let line = index == 0 ? label + line : line
            var rows: [String] = []
            var row = ""
            for item in line.components(separatedBy: ", ") {
                if row.isEmpty {
                    row = item
                } else if DisplayWidth.of(row) + 2 + DisplayWidth.of(item) > 80 {
                    rows.append(row + ",")
                    row = "  " + item
                } else {
                    row += ", " + item
                }
            }
            return (rows + [row]).joined(separator: "\n")
        }
        .joined(separator: "\n")
    }

    /// The text for stderr, after swift-argument-parser's layout.
    var rendered: String { rendered(echoing: []) }

    /// The text for stderr, where a word of `arguments` echoed in the message (an option's value, a mistyped
    /// command) shows a line break in it as `\n`: the message's own line breaks ("Did you mean …?") are its
    /// lines, while one an argument brought would print a line of its own (before: `--since $'1\n2'` split the
    /// message in two, a review's find).
    func rendered(echoing arguments: [String]) -> String {
        var message = message
        // What an argument brings whole, after `=`, or as an item of a list (`--fields login,na⏎me`); longest
        // first, so a word that holds another is escaped whole. A word of line breaks alone is left: it would match
        // the message's own.
        let words = Set(
            arguments.flatMap { argument in
                let value = String(argument.split(separator: "=", maxSplits: 1).last ?? "")
                return [argument, value] + value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            }
        ).filter { $0.contains(where: \.isNewline) && $0.contains { !$0.isNewline } }
        for word in words.sorted(by: { $0.count > $1.count }) {
            message = message.replacing(word, with: TerminalSanitizer.sanitize(word))
        }
        // An option's value is echoed as given, and may carry escape sequences: each line is made safe to print.
        // A value of any length may be echoed (a 1 MB argument): a line is cut after `lineLimit` characters.
        let visible = message.split(separator: "\n", omittingEmptySubsequences: false)
            .map { line in
                let cut = line.count > Self.lineLimit
                return TerminalSanitizer.sanitize(String(cut ? line.prefix(Self.lineLimit) : line))
                    + (cut ? "… (\(line.count - Self.lineLimit) more characters)" : "")
            }
            .joined(separator: "\n")
        var text = "Error: \(visible)\n"
        if let usage {
            // Filled to 80 columns, as the help's USAGE is, and never broken inside a bracketed group.
            text += HelpRenderer.fillUsage("Usage: " + usage, indent: 0, hanging: 7, width: 80) + "\n"
        }
        if let helpCommand {
            text += "See 'gh-users \(helpCommand)'.\n"
        } else if let commandName {
            text += "See 'gh-users \(commandName) --help'.\n"
        } else {
            text += "See 'gh-users --help'.\n"
        }
        return text
    }
}

/// "Did you mean" for commands and options: the closest candidate by edit distance, when it is close enough.
enum Suggestions {
    static func nearest(to input: String, among candidates: [String]) -> String? {
        let typed = input.lowercased()
        // Of names as near as each other, the one that begins as the input does, then the one nearest its length:
        // `gist` is `gists`, not `list`; `blocked` is `blocks` (a review's find).
        let scored = candidates.map { candidate in
            let name = candidate.lowercased()
            let shared = zip(typed, name).prefix { $0 == $1 }.count
            return (candidate, distance(typed, name), -shared, abs(name.count - typed.count))
        }
        guard let best = scored.min(by: { ($0.1, $0.2, $0.3) < ($1.1, $1.2, $1.3) }) else { return nil }
        let allowed = max(1, min(3, input.count / 3))
        if best.1 <= allowed { return best.0 }
        // A unique prefix ("--lim") is a good guess too.
        let prefixed = candidates.filter { $0.hasPrefix(input) && input.count >= 3 }
        return prefixed.count == 1 ? prefixed[0] : nil
    }

    /// Edit distance counting an adjacent transposition as one edit ("hlep" is one edit from "help"),
    /// the optimal-string-alignment variant of Damerau-Levenshtein.
    static func distance(_ lhs: String, _ rhs: String) -> Int {
        let left = Array(lhs)
        let right = Array(rhs)
        if left.isEmpty { return right.count }
        if right.isEmpty { return left.count }
        var table = [[Int]](repeating: [Int](repeating: 0, count: right.count + 1), count: left.count + 1)
        for i in 0...left.count { table[i][0] = i }
        for j in 0...right.count { table[0][j] = j }
        for i in 1...left.count {
            for j in 1...right.count {
                let cost = left[i - 1] == right[j - 1] ? 0 : 1
                table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, left[i - 1] == right[j - 2], left[i - 2] == right[j - 1] {
                    table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
                }
            }
        }
        return table[left.count][right.count]
    }
}
