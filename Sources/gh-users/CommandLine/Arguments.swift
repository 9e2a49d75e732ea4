import AtomicCore
import Domain

extension UsageError {
    /// The option's choices are every word it takes, other words for a choice (`read` for `pull`) included.
    static func invalidChoice(_ option: OptionSpec, _ value: String, spec: CommandSpec) -> UsageError {
        let names = option.choices
        var message = "invalid value '\(value)' for '--\(option.name)': choose one of \(names.joined(separator: ", "))"
        if let suggestion = Suggestions.nearest(to: value, among: names) {
            message += "\nDid you mean '\(suggestion)'?"
        }
        return UsageError(message: message, command: spec)
    }

    static func invalidNumber(_ option: OptionSpec, _ value: String, rule: String, spec: CommandSpec) -> UsageError {
        UsageError(message: "invalid value '\(value)' for '--\(option.name)': \(rule)", command: spec)
    }
}

/// The one argument a command takes, as its spec declares it (`CommandSpec.taking`): the scanner checks it
/// before the options are read, so the command's `init` takes it as a value (`ParsedArguments.login(_:)`). A
/// missing, extra or malformed one is a usage error (exit 64), named as the spec names it (LOGIN, ORG, OWNER/REPO,
/// ORG/TEAM), with an example for an owned name.
enum Operand: Sendable {
    case login, repository, team

    func read(_ parsed: ParsedArguments, spec: CommandSpec) throws(UsageError) -> OperandValue {
        let name = spec.arguments.first?.name ?? (self == .login ? "LOGIN" : "OWNER/REPO")
        guard let text = parsed.positionals.first else {
            let example = ["OWNER/REPO": "octocat/Hello-World", "ORG/TEAM": "github/justice-league"][name]
            let article = "AEIOU".contains(name.prefix(1)) ? "an" : "a"
            throw UsageError(
                message: "\(spec.name) needs \(article) \(name)" + (example.map { ", such as \($0)" } ?? ""),
                command: spec)
        }
        if let extra = parsed.positionals.dropFirst().first {
            throw UsageError(message: "unexpected argument '\(extra)': \(spec.name) takes one \(name)", command: spec)
        }
        do throws(DomainError) {
            switch self {
            case .login: return .login(try Login(validating: text))
            case .repository: return .repository(try RepositoryName(validating: text))
            case .team: return .team(try TeamName(validating: text))
            }
        } catch {
            guard case .invalidInput(let message) = error else {
                throw UsageError(message: "invalid \(self == .login ? "login" : name)", command: spec)
            }
            throw UsageError(message: message + Self.repositoryGiven(text, for: name, spec: spec), command: spec)
        }
    }

    /// An ORG given as OWNER/REPO: where the command takes a repository (`access`'s `--repo NAME`), or which
    /// commands take one as their argument.
    private static func repositoryGiven(_ text: String, for name: String, spec: CommandSpec) -> String {
        guard name == "ORG", let repository = try? RepositoryName(validating: text) else { return "" }
        if spec.option(named: "repo") != nil {
            return "\nDid you mean 'gh-users \(spec.name) \(repository.owner) --repo \(repository.name)'?"
        }
        // ORG/NAME is as likely a team (`github/justice-league`) as a repository.
        return "\n\(spec.name) takes an organization: for a team's members, 'gh-users team-members \(repository)'; "
            + "for a repository's people, a repository command such as 'gh-users collaborators \(repository)'"
    }
}

/// The checked argument, as the scanner read it.
enum OperandValue: Sendable {
    case login(Login)
    case repository(RepositoryName)
    case team(TeamName)
}

extension ParsedArguments {
    /// The login the scanner checked; a spec that declares none has it checked here.
    func login(_ spec: CommandSpec) throws(UsageError) -> Login {
        guard case .login(let login) = try checked(.login, spec) else {
            throw Self.mismatch(spec)
        }
        return login
    }

    /// The OWNER/REPO the scanner checked, or checked here as `login(_:)` is.
    func repository(_ spec: CommandSpec) throws(UsageError) -> RepositoryName {
        guard case .repository(let name) = try checked(.repository, spec) else {
            throw Self.mismatch(spec)
        }
        return name
    }

    /// The ORG/TEAM the scanner checked, or checked here as `login(_:)` is.
    func team(_ spec: CommandSpec) throws(UsageError) -> TeamName {
        guard case .team(let name) = try checked(.team, spec) else {
            throw Self.mismatch(spec)
        }
        return name
    }

    /// The argument the scanner checked, or `kind` checked now.
    private func checked(_ kind: Operand, _ spec: CommandSpec) throws(UsageError) -> OperandValue {
        if let operand { return operand }
        return try kind.read(self, spec: spec)
    }

    /// A spec that declares one kind of argument for a command that reads another: a usage error, not a crash.
    private static func mismatch(_ spec: CommandSpec) -> UsageError {
        UsageError(message: "invalid \(spec.arguments.first?.name ?? "argument")", command: spec)
    }
}

/// A login from the command line, or a usage error that says what a login may hold.
enum LoginArgument {
    /// `option` names the option that gave it (`person`), else it is an argument.
    static func parse(_ text: String, spec: CommandSpec, option: String? = nil) throws(UsageError) -> Login {
        do {
            return try Login(validating: text)
        } catch {
            if case .invalidInput(let message) = error {
                throw UsageError(message: (option.map { "--\($0): " } ?? "") + message, command: spec)
            }
            throw UsageError(message: "invalid login", command: spec)
        }
    }

    /// At most one login; none means the token's own account (`followers`, `subscriptions`).
    static func optional(_ parsed: ParsedArguments, spec: CommandSpec) throws(UsageError) -> Login? {
        if let extra = parsed.positionals.dropFirst().first {
            throw UsageError(message: "unexpected argument '\(extra)': \(spec.name) takes one LOGIN", command: spec)
        }
        return try parsed.positionals.first.map { text throws(UsageError) in try parse(text, spec: spec) }
    }
}

/// The one word a command takes from a closed set (`cache info|clear`, `completion bash|zsh|fish`).
enum WordArgument {
    static func parse<Value: RawRepresentable & CaseIterable>(
        _ parsed: ParsedArguments,
        spec: CommandSpec,
        missing: String,
        unknown kind: String,
        extraHint: String? = nil
    ) throws(UsageError) -> Value where Value.RawValue == String {
        let names = Value.allCases.map(\.rawValue)
        let choices = names.dropLast().joined(separator: ", ") + (names.count > 1 ? " or " : "") + (names.last ?? "")
        guard let word = parsed.positionals.first else {
            throw UsageError(message: "\(missing): \(choices)", command: spec)
        }
        guard let value = Value(rawValue: word) else {
            var message = "unknown \(kind) '\(word)': choose \(choices)"
            if let suggestion = Suggestions.nearest(to: word, among: names) {
                message += "\nDid you mean '\(suggestion)'?"
            }
            throw UsageError(message: message, command: spec)
        }
        if let extra = parsed.positionals.dropFirst().first {
            throw UsageError(
                message: "unexpected argument '\(extra)'" + (extraHint.map { ": " + $0 } ?? ""), command: spec)
        }
        return value
    }
}

/// Logins given on the command line, or `-` alone for one a line on stdin (blank lines and `#` comments
/// skipped), so that one gh-users can feed another: `gh-users following --format tsv --fields login | …`.
enum LoginInput: Sendable, Equatable {
    case given([Login])
    case standardInput

    static func parse(_ positionals: [String], spec: CommandSpec) throws(UsageError) -> LoginInput {
        guard !positionals.isEmpty else {
            throw UsageError(
                message: "\(spec.name) needs at least one LOGIN, or - to read them from stdin", command: spec)
        }
        if positionals.contains("-") {
            guard positionals.count == 1 else {
                // `- -` is no mix of the two: stdin is read once (helper-287).
                let message =
                    positionals.allSatisfy { $0 == "-" }
                    ? "give - once: stdin is read once, for every LOGIN on it" : "give LOGINs or -, not both"
                throw UsageError(message: message, command: spec)
            }
            return .standardInput
        }
        var logins: [Login] = []
        for text in positionals { logins.append(try LoginArgument.parse(text, spec: spec)) }
        return .given(logins)
    }

    /// What stderr says when stdin held no login: a clean-up pipeline with nothing to clean up is no error.
    static let noLoginsNote = "gh-users: no logins on stdin (one a line; # starts a comment): nothing to do\n"

    /// At most this many logins come from stdin, and this many lines: stdin may never end, and everything is
    /// read and checked before anything is sent.
    static let maximumLogins = 10_000
    static let maximumLines = 100_000
    /// A login has at most 39 characters; a line far longer is no login, and is not read to its end.
    static let maximumLineBytes = 1024

    /// The logins, read and validated in full before anything is sent; a bad line is a usage error. None (an
    /// empty stdin, or comments only) is nothing to do: the caller says so (`noLoginsNote`) and ends well.
    func resolve(_ io: IOStreams) throws(DomainError) -> [Login] {
        guard case .standardInput = self else {
            if case .given(let logins) = self { return logins }
            return []
        }
        if let spent = io.stdinSpentOn {
            throw .invalidInput(
                "\(TerminalSanitizer.sanitize(spent)) read stdin for the token, so - has no logins left to read: "
                    + "give the logins as arguments, or the token another way")
        }
        var logins: [Login] = []
        // Logins are case-insensitive: the cap counts accounts, so a list given twice is not refused for it.
        var accounts: Set<String> = []
        var lines = InputLines(reading: io, maximumLength: Self.maximumLineBytes)
        while var line = try lines.next() {
            let number = lines.number
            // A file saved by an editor that marks UTF-8 (a BOM), as the token file may be.
            if number == 1, line.starts(with: [0xEF, 0xBB, 0xBF]) { line = line.dropFirst(3) }
            guard number <= Self.maximumLines else {
                throw .invalidInput("stdin has more than \(Self.maximumLines) lines; give the logins in parts")
            }
            let word = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            if word.isEmpty || word.hasPrefix("#") { continue }
            // What `jq -r .login` prints for a record without a login (an anonymous contributor, an invitation by
            // e-mail) or without the key: a write to the account named null is never what such a line meant.
            if word == "null" {
                throw .invalidInput(
                    "line \(number) of stdin is 'null', as jq -r prints a missing value, not a login; to name the "
                        + "account null, give it as an argument")
            }
            // The header of gh-users's own csv (`login`) or table (`LOGIN`) with `--fields login`: github.com/login
            // is the sign-in page, so no account has that login, and a write for it is never what was meant.
            if logins.isEmpty, word.lowercased() == "login" {
                io.writeErr("gh-users: line \(number) of stdin, '\(word)', is a header, not an account: skipped\n")
                continue
            }
            do {
                logins.append(try Login(validating: word))
            } catch {
                // A token there is not written back: its line is named alone (helper-342).
                let shown =
                    Login.holdsToken(String(decoding: line, as: UTF8.self))
                    ? "(it looks like a GitHub token, so it is not shown)" : InputLines.quotedPrefix(line)
                throw .invalidInput("line \(number) of stdin: invalid login \(shown)")
            }
            accounts.insert(word.lowercased())
            guard accounts.count <= Self.maximumLogins else {
                throw .invalidInput("stdin has more than \(Self.maximumLogins) logins; give them in parts")
            }
        }
        return logins
    }
}

/// The lines of stdin, read a chunk at a time, so that what is held stays under `maximumLength` plus a chunk
/// however long a line or the stream is.
struct InputLines {
    /// Where the chunks come from: stdin, or a test's.
    let io: IOStreams
    let maximumLength: Int
    /// The line `next()` returned last, counted from 1.
    private(set) var number = 0
    private var buffer: [UInt8] = []
    private var ended = false

    init(reading io: IOStreams, maximumLength: Int) {
        self.io = io
        self.maximumLength = maximumLength
    }

    /// The next line without its newline; nil at the end. A line longer than `maximumLength` is refused at once,
    /// without reading the rest of it.
    mutating func next() throws(DomainError) -> ArraySlice<UInt8>? {
        number += 1
        var searched = 0
        while true {
            if let newline = buffer[searched...].firstIndex(of: UInt8(ascii: "\n")) {
                let line = buffer[..<newline]
                try check(line)
                buffer.removeSubrange(...newline)
                return Array(line)[...]
            }
            try check(buffer[...])
            if ended {
                guard !buffer.isEmpty else { return nil }
                defer { buffer.removeAll() }
                return buffer[...]
            }
            searched = buffer.count
            let chunk: [UInt8]
            do {
                chunk = try io.readInput()
            } catch {
                // A failure to read is no mistake in the input: exit 1, as a failure to write stdout is.
                throw .refused("cannot read the logins from stdin: \(error.reason)")
            }
            if chunk.isEmpty { ended = true }
            buffer.append(contentsOf: chunk)
        }
    }

    private func check(_ line: ArraySlice<UInt8>) throws(DomainError) {
        guard line.count > maximumLength else { return }
        throw .invalidInput(
            "line \(number) of stdin is longer than \(maximumLength) bytes, so it holds no login: "
                + "\(Self.quotedPrefix(line))")
    }

    /// A line as an error may show it: quoted, made safe for a terminal, and cut to a short prefix.
    static func quotedPrefix(_ line: ArraySlice<UInt8>) -> String {
        let shown = 40
        let text = String(decoding: line.prefix(shown * 4), as: UTF8.self)
        let cut = text.count > shown || line.count > shown * 4
        let head = text.trimmingCharacters(in: .whitespacesAndNewlines).prefix(shown)
        // A character no one sees is named (`\u{200b}`) as a login argument's is; a control one escaped (`\e`).
        return "'" + TerminalSanitizer.sanitize(Login.visible(String(head))) + (cut ? "…'" : "'")
    }
}
