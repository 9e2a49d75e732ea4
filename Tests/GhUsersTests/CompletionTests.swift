import Foundation
import TestSupport
import Testing

@testable import gh_users

/// What the generated scripts are checked against: the command specs, never a list written out here. The
/// catalog may or may not list `completion` yet; the scripts offer it either way.
private let commands =
    CommandCatalog.specs

/// The commands and, named in full, the subcommands (`me edit`): each completes its own options.
private let everyCommand = CommandCatalog.allSpecs

/// The options the router accepts for a command and completion should offer: `--fields` is rejected by the
/// router where a command has no fields.
private func offeredOptions(_ spec: CommandSpec) -> [OptionSpec] {
    spec.allOptions.filter { $0.name != "fields" || !spec.fields.isEmpty }
}

private func spellings(_ options: [OptionSpec]) -> Set<String> {
    Set(options.flatMap { option in ["--" + option.name] + (option.short.map { ["-\($0)"] } ?? []) })
}

private func spec(named name: String) throws -> CommandSpec {
    try #require(everyCommand.first { $0.name == name })
}

struct CompletionOptionsTests {
    private func parse(_ arguments: [String]) -> Result<CompletionOptions, UsageError> {
        Result { () throws(UsageError) -> CompletionOptions in
            let spec = Command(local: CompletionOptions.self).spec
            return try CompletionOptions(try ArgumentScanner.scan(arguments, spec: spec), spec: spec)
        }
    }

    @Test(arguments: CompletionOptions.Shell.allCases)
    func everyShellParses(shell: CompletionOptions.Shell) {
        #expect(parse([shell.rawValue]) == .success(CompletionOptions(shell: shell)))
    }

    @Test(arguments: [
        ([String](), "completion needs a shell: bash, zsh or fish"),
        (["zhs"], "unknown shell 'zhs': choose bash, zsh or fish\nDid you mean 'zsh'?"),
        (["powershell"], "unknown shell 'powershell': choose bash, zsh or fish"),
        (["bash", "zsh"], "unexpected argument 'zsh': completion takes one shell"),
    ])
    func usageErrors(arguments: [String], message: String) {
        guard case .failure(let error) = parse(arguments) else {
            Issue.record("\(arguments) parsed")
            return
        }
        #expect(error.message == message)
        #expect(error.commandName == "completion")
    }

    @Test func theSpecExplainsHowToInstallEachShell() throws {
        let discussion = try #require(Command(local: CompletionOptions.self).spec.discussion)
        #expect(
            discussion.contains(
                "gh-users completion bash \\\n      > ~/.local/share/bash-completion/completions/gh-users"))
        #expect(discussion.contains("source <(gh-users completion bash)"))
        #expect(discussion.contains("gh-users completion zsh > ~/.zfunc/_gh-users"))
        #expect(discussion.contains("compinit"))
        #expect(discussion.contains("gh-users completion fish > ~/.config/fish/completions/gh-users.fish"))
        // fish 3.6 makes no such folder on a new account: the line alone failed there (helper-269).
        #expect(discussion.contains("mkdir -p ~/.config/fish/completions\n"))
        #expect(CatalogScripts.of(.fish).contains("# Install: mkdir -p ~/.config/fish/completions && "))
        #expect(Command(local: CompletionOptions.self).spec.examples.count == 3)
    }
}

struct CompletionScriptTextTests {
    @Test(arguments: CompletionOptions.Shell.allCases)
    func completionIsListedOnceWhetherOrNotTheCallerPassesIt(shell: CompletionOptions.Shell) {
        let catalog = CommandCatalog.specs
        let script = CatalogScripts.of(shell)
        #expect(
            script
                == CompletionScripts.script(
                    for: shell, commands: catalog + [Command(local: CompletionOptions.self).spec]))
        let names = CompletionModel(commands: catalog + [Command(local: CompletionOptions.self).spec]).commands.map(
            \.name)
        #expect(names == everyCommand.map(\.name))
        #expect(names.count(where: { $0 == "completion" }) == 1)
    }

    @Test func theFieldsOptionNamesARealOption() {
        let options = CommandCatalog.specs.flatMap(\.allOptions)
        #expect(Set(options.map(\.name)).contains(CompletionModel.fieldsOption))
    }

    /// Every option whose value help calls a FILE, a PATH or a folder completes paths there, in every command
    /// that takes it; none other does. A new option named so cannot be left out.
    @Test func everyOptionTakingAPathCompletesPaths() {
        let model = CompletionModel(commands: CommandCatalog.specs)
        var paths: Set<String> = []
        for command in model.commands {
            for option in command.options {
                let named = ["FILE", "PATH"].contains(option.spec.valueName) || option.spec.name == "cache-dir"
                let completesPaths = option.value == .files || option.value == .directories
                #expect(named == completesPaths, "\(command.name) \(option.long)")
                if completesPaths { paths.insert(option.long) }
            }
        }
        #expect(paths == ["--state", "--output", "--changes", "--token-file", "--cache-dir"])
    }

    /// zsh and fish complete files after the same options (checked in their scripts: CI may lack the shells,
    /// whose real completion is tested below when they are installed).
    @Test(arguments: [("list", "state"), ("list", "output"), ("followers", "changes"), ("following", "changes")])
    func zshAndFishCompleteFilesAfterAFileOption(command: String, option: String) throws {
        let zsh = CatalogScripts.of(.zsh)
        let block = try #require(section(of: zsh, from: "        '\(command)')\n", to: "            ;;\n"))
        let line = block.split(separator: "\n").first { $0.contains("'--\(option)=[") }
        #expect(line?.hasSuffix(":FILE:_files' \\") == true, "zsh: \(line ?? "none")")
        let fish = CatalogScripts.of(.fish).split(separator: "\n")
        let fishLine = fish.first {
            $0.hasPrefix("complete -c gh-users -n '__gh_users_using \(command)' ")
                && $0.contains("-l '\(option)' ")
        }
        #expect(fishLine?.contains(" -r -F") == true, "fish: \(fishLine ?? "none")")
    }

    /// Each command's zsh `_arguments` block names all of that command's options.
    @Test func zshGivesEachCommandItsOptions() throws {
        let script = CatalogScripts.of(.zsh)
        for spec in commands {
            let block = try #require(section(of: script, from: "        '\(spec.name)')\n", to: "            ;;\n"))
            for spelling in spellings(offeredOptions(spec)) {
                #expect(
                    block.contains(spelling + "[") || block.contains(spelling + "=[")
                        || block.contains(spelling + "+["),
                    "zsh: \(spec.name) lacks \(spelling)")
            }
            for option in offeredOptions(spec) where !option.choices.isEmpty {
                #expect(
                    block.contains(":(" + option.choices.joined(separator: " ") + ")'"), "\(spec.name) --\(option.name)"
                )
            }
        }
    }

    @Test func fishGivesEachCommandItsOptions() {
        let script = CatalogScripts.of(.fish).split(separator: "\n")
        for spec in commands {
            // One condition for all of a command's options: fish evaluates a condition once a completion, so a
            // line of its own for each (to hide an option given) made a completion seven times slower.
            let prefix = "complete -c gh-users -n '__gh_users_using \(spec.name)' "
            let lines = script.filter { $0.hasPrefix(prefix) }
            for option in offeredOptions(spec) {
                let matching = lines.filter { $0.contains("-l '\(option.name)' ") }
                #expect(matching.count == 1, "fish: \(spec.name) --\(option.name)")
                if let short = option.short {
                    #expect(matching.first?.contains("-s '\(short)' ") == true)
                }
                if !option.choices.isEmpty {
                    #expect(matching.first?.contains("-x -a '\(option.choices.joined(separator: " "))'") == true)
                }
            }
            #expect(lines.count(where: { $0.contains(" -l '") }) == offeredOptions(spec).count)
        }
    }

    @Test(arguments: CompletionOptions.Shell.allCases)
    func everyCommandNameIsOffered(shell: CompletionOptions.Shell) {
        let script = CatalogScripts.of(shell)
        for spec in commands {
            #expect(script.contains("'\(spec.name)'"), "\(shell): \(spec.name)")
        }
    }

    private func section(of text: String, from start: String, to end: String) -> Substring? {
        guard let lower = text.range(of: start)?.upperBound,
            let upper = text.range(of: end, range: lower..<text.endIndex)?.lowerBound
        else { return nil }
        return text[lower..<upper]
    }
}

/// The catalog's script for each shell, made once for every test that reads it: the debug build takes a tenth
/// of a second for each.
enum CatalogScripts {
    private static let scripts = Dictionary(
        uniqueKeysWithValues: CompletionOptions.Shell.allCases.map {
            ($0, CompletionScripts.script(for: $0, commands: CommandCatalog.specs))
        })

    static func of(_ shell: CompletionOptions.Shell) -> String {
        scripts[shell] ?? ""
    }
}

/// Runs a program to completion with its output in files, so that a large output cannot fill a pipe and hang.
private enum ShellProcess {
    struct Output {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    /// The shell's path, or nil when it is not installed (CI may lack zsh and fish).
    static func find(_ name: String) -> String? {
        ["/usr/bin", "/bin", "/usr/local/bin", "/opt/homebrew/bin"].map { "\($0)/\(name)" }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    static func run(_ executable: String, _ arguments: [String], in directory: URL) async throws -> Output {
        let outURL = FileManager.default.temporaryDirectory.appendingPathComponent("gh-users-out-\(UUID())")
        let errURL = FileManager.default.temporaryDirectory.appendingPathComponent("gh-users-err-\(UUID())")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        defer {
            try? FileManager.default.removeItem(at: outURL)
            try? FileManager.default.removeItem(at: errURL)
        }
        let outHandle = try FileHandle(forWritingTo: outURL)
        let errHandle = try FileHandle(forWritingTo: errURL)
        // posix_spawn, not Foundation's Process: its run() crashed this test process ("Bad pointer dereference",
        // see SpawnedProcess) while these tests start many short shells at once.
        let shell = try SpawnedProcess(
            executable: executable, arguments: arguments,
            // Nothing of the caller's shell setup: the script must stand on its own.
            environment: [
                "PATH": "/usr/bin:/bin:/usr/local/bin:/opt/homebrew/bin", "HOME": directory.path, "LANG": "C.UTF-8",
                "TERM": "dumb",
            ],
            directory: directory.path, stdout: outHandle.fileDescriptor, stderr: errHandle.fileDescriptor)
        // Only a guard against a shell that hangs: fish completing 190 lines took over 30 s while the whole suite
        // ran on two cores (killed, status 9), and 5 s alone.
        DispatchQueue.global().asyncAfter(deadline: .now() + 180) { shell.send(SIGKILL) }
        // Waiting without blocking a thread lets the many short runs of these tests overlap.
        let status: Int32 = await withCheckedContinuation { continuation in
            shell.onExit { continuation.resume(returning: $0) }
        }
        try outHandle.close()
        try errHandle.close()
        return Output(
            status: status,
            stdout: try String(contentsOf: outURL, encoding: .utf8),
            stderr: try String(contentsOf: errURL, encoding: .utf8)
        )
    }
}

/// A scratch folder with the generated scripts, and a working directory holding just a folder and a file for path
/// completion.
private final class CompletionSandbox {
    private let root: URL
    let directory: URL

    /// The catalog's scripts, or those of `commands` when a test adds one of its own.
    init(commands: [CommandSpec]? = nil) throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("gh-users-completion-\(UUID())")
        directory = root.appendingPathComponent("work")
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("cachedir"), withIntermediateDirectories: true)
        try Data("token".utf8).write(to: directory.appendingPathComponent("token.txt"))
        for shell in CompletionOptions.Shell.allCases {
            try (commands.map { CompletionScripts.script(for: shell, commands: $0) } ?? CatalogScripts.of(shell))
                .write(to: script(shell), atomically: true, encoding: .utf8)
        }
    }

    deinit { try? FileManager.default.removeItem(at: root) }

    func script(_ shell: CompletionOptions.Shell) -> URL {
        root.appendingPathComponent("gh-users.\(shell.rawValue)")
    }

    /// Sets COMP_WORDS, COMP_CWORD, COMP_LINE and COMP_POINT as bash would for each line with the cursor at its
    /// end, calls `_gh_users` and returns COMPREPLY, one group a line: one shell serves all the lines, as one
    /// serves a user's. With `splitAtEquals`, `--format=j` is three words, as bash makes it when `=` is in
    /// COMP_WORDBREAKS (the default).
    func bashComplete(_ lines: [String], splitAtEquals: Bool = false) async throws -> [[String]] {
        let output = try await ShellProcess.run(
            "/bin/bash",
            ["--norc", "--noprofile", "-c", CompletionSandbox.bashHarness, "bash", script(.bash).path]
                + [splitAtEquals ? "split" : "whole"] + lines,
            in: directory
        )
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stderr.isEmpty, "\(output.stderr)")
        return CompletionSandbox.groups(output.stdout, count: lines.count)
    }

    func bashComplete(_ line: String, splitAtEquals: Bool = false) async throws -> [String] {
        try await bashComplete([line], splitAtEquals: splitAtEquals)[0]
    }

    static let bashHarness = #"""
        source "$1" || exit 3
        split=$2
        shift 2
        for line in "$@"; do
            read -ra words <<< "$line"
            [[ -z $line || $line == *' ' ]] && words+=('')
            COMP_WORDS=()
            for word in "${words[@]}"; do
                if [[ $split == split && $word == ?*=* ]]; then
                    COMP_WORDS+=("${word%%=*}" '=')
                    word=${word#*=}
                    [[ -n $word ]] && COMP_WORDS+=("$word")
                else
                    COMP_WORDS+=("$word")
                fi
            done
            COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
            COMP_LINE=$line
            COMP_POINT=${#line}
            COMPREPLY=()
            # Called with a user's IFS other than bash's own: the script may not depend on it.
            IFS=$'\n' _gh_users gh-users "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
            if ((${#COMPREPLY[@]})); then printf '%s\n' "${COMPREPLY[@]}"; fi
            echo '<END>'
        done
        """#

    /// What zsh's completion system offers for each line, through a pseudo-terminal as a user at the prompt:
    /// compinit, the script sourced, and `compadd` wrapped to print each match, unquoted from the form it would be
    /// inserted in. One session serves all the lines, because starting one costs a quarter of a second.
    /// With `fromFpath`, the script is installed as docs/INSTALL.md says, as `_gh-users` in a folder of `$fpath`,
    /// rather than sourced.
    func zshComplete(_ lines: [String], zsh: String, fromFpath: Bool = false) async throws -> [[String]] {
        let harness = root.appendingPathComponent("harness.zsh")
        try CompletionSandbox.zshHarness.write(to: harness, atomically: true, encoding: .utf8)
        let functions = root.appendingPathComponent("functions")
        try FileManager.default.createDirectory(at: functions, withIntermediateDirectories: true)
        try Data(contentsOf: script(.zsh)).write(to: functions.appendingPathComponent("_gh-users"))
        let setup = fromFpath ? ["fpath", functions.path] : ["source", script(.zsh).path]
        let output = try await ShellProcess.run(zsh, ["-f", harness.path] + setup + lines, in: directory)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stderr.isEmpty, "\(output.stderr)")
        return CompletionSandbox.groups(output.stdout, count: lines.count)
    }

    func zshComplete(_ line: String, zsh: String) async throws -> [String] {
        try await zshComplete([line], zsh: zsh)[0]
    }

    static let zshHarness = #"""
        zmodload zsh/zpty || exit 3
        zpty shell zsh -f -i
        # No listing: a long one would stop to ask before it is shown, and eat the next line.
        zpty -w shell "PROMPT='' RPROMPT=''; setopt no_beep no_auto_list no_list_ambiguous; LISTMAX=100000"
        # Either the script's folder goes in $fpath, before compinit, or the script is sourced, after it.
        [[ $1 == fpath ]] && zpty -w shell "fpath=(${(q)2} \$fpath)"
        zpty -w shell 'autoload -Uz compinit; compinit -u -D'
        [[ $1 == source ]] && zpty -w shell "source ${(q)2}"
        zpty -w shell 'compadd() {
            if [[ ${@[1,(i)(-|--)]} == *-(O|A|D)\ * ]]; then builtin compadd "$@"; return; fi
            local -a hits; builtin compadd -A hits "$@"
            local hit; for hit in $hits; do print -r -- "<MATCH>$IPREFIX${(Q)hit}"; done
        }'
        # Completion stops early when more input is waiting, so each line waits for the mark its TAB prints.
        zpty -w shell '_harness_complete() { zle complete-word; print -r -- "<COMPLETED$((6*7))>"; }'
        zpty -w shell 'zle -N _harness_complete; bindkey "^I" _harness_complete'
        zpty -w shell 'print READY$((1+1))'
        zpty -r shell ignored '*READY2*' || exit 4
        for request in "${@[3,-1]}"; do
            zpty -w -n shell "$request"$'\t'
            output=''
            while zpty -r shell chunk; do
                output+=$chunk
                [[ $output == *'<COMPLETED42>'* ]] && break
            done
            zpty -w -n shell $'\C-U'
            matches=()
            for line in ${(f)output//$'\r'/}; do
                [[ $line == *'<MATCH>'* ]] && matches+=(${line##*<MATCH>})
            done
            (( $#matches )) && print -rl -- ${(u)matches}
            print -r -- '<END>'
        done
        zpty -d shell
        exit 0
        """#

    /// What `complete -C` answers in fish for each line, with or without the descriptions after a tab.
    func fishComplete(_ lines: [String], fish: String, withDescriptions: Bool = false) async throws -> [[String]] {
        let output = try await ShellProcess.run(
            fish,
            [
                "--no-config", "-c", "source $argv[1]; for line in $argv[2..-1]; complete -C $line; echo '<END>'; end",
                script(.fish).path,
            ] + lines,
            in: directory
        )
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stderr.isEmpty, "\(output.stderr)")
        let groups = CompletionSandbox.groups(output.stdout, count: lines.count)
        return withDescriptions ? groups : groups.map { $0.map { String($0.split(separator: "\t").first ?? "") } }
    }

    func fishComplete(_ line: String, fish: String, withDescriptions: Bool = false) async throws -> [String] {
        try await fishComplete([line], fish: fish, withDescriptions: withDescriptions)[0]
    }

    /// Output lines in groups, each ended by `<END>`; a missing group is empty, and fails the count check.
    private static func groups(_ output: String, count: Int) -> [[String]] {
        var groups: [[String]] = [[]]
        for line in output.split(separator: "\n") {
            if line == "<END>" { groups.append([]) } else { groups[groups.count - 1].append(String(line)) }
        }
        groups.removeLast()
        #expect(groups.count == count, "\(output)")
        return groups + Array(repeating: [], count: max(0, count - groups.count))
    }
}

/// One line typed at the prompt, with the cursor at its end, and the completions the shell must offer.
struct CompletionCase: Sendable, CustomTestStringConvertible {
    let line: String
    let expected: [String]
    var splitAtEquals = false

    var testDescription: String { "'\(line)'" + (splitAtEquals ? " split at '='" : "") }
}

private let formats = ["table", "tsv", "csv", "json", "ndjson"]

/// Long and short spellings of a command's options that start with `prefix`.
private func options(of name: String, startingWith prefix: String = "-") -> [String] {
    guard let spec = everyCommand.first(where: { $0.name == name }) else { return ["no command \(name)"] }
    return spellings(offeredOptions(spec)).filter { $0.hasPrefix(prefix) }.sorted()
}

private func fields(of name: String, startingWith prefix: String = "") -> [String] {
    (commands.first { $0.name == name }?.fields ?? ["no command \(name)"]).filter { $0.hasPrefix(prefix) }
}

/// A subcommand is a word after its command, then a command of its own with its own options: every shell
/// completes it so.
private let subcommandCases: [CompletionCase] = [
    .init(line: "gh-users me ", expected: ["edit"]),
    .init(line: "gh-users me ed", expected: ["edit"]),
    .init(line: "gh-users me edit --bi", expected: ["--bio"]),
    .init(line: "gh-users me edit -", expected: options(of: "me edit")),
    .init(line: "gh-users me -", expected: options(of: "me")),
    .init(line: "gh-users cache clear --c", expected: options(of: "cache clear", startingWith: "--c")),
    // `help me edit` shows the subcommand's help: its word is offered after the command's.
    .init(line: "gh-users help me ", expected: ["edit"]),
    .init(line: "gh-users help cache ", expected: ["info", "clear"]),
    // An option before the command: zsh took `--man` for it, and offered nothing (helper-269).
    .init(line: "gh-users help --man me ", expected: ["edit"]),
    .init(line: "gh-users help --man cache ", expected: ["info", "clear"]),
    .init(line: "gh-users help completion ", expected: []),
]

private let bashCases: [CompletionCase] =
    [
        .init(line: "gh-users ", expected: commands.map(\.name)),
        .init(line: "gh-users li", expected: ["list"]),
        .init(line: "gh-users list --f", expected: options(of: "list", startingWith: "--f")),
        .init(line: "gh-users list --fo", expected: ["--format"]),
        .init(line: "gh-users list -", expected: options(of: "list")),
        .init(line: "gh-users list --format ", expected: formats),
        .init(line: "gh-users list --format j", expected: ["json"]),
        .init(line: "gh-users list --color ", expected: ["auto", "always", "never"]),
        .init(line: "gh-users list --log-level w", expected: ["warning"]),
        .init(line: "gh-users repos octocat --sort ", expected: ["created", "updated", "pushed", "full_name"]),
        .init(line: "gh-users repos octocat --type ", expected: ["owner", "member", "all"]),
        .init(line: "gh-users repos octocat --direction ", expected: ["asc", "desc"]),
        .init(line: "gh-users search octo --sort ", expected: ["followers", "repositories", "joined"]),
        .init(line: "gh-users search octo --order ", expected: ["asc", "desc"]),
        // The other words a permission takes are offered too: REST's and GraphQL's.
        .init(
            line: "gh-users collaborators o/r --permission ",
            expected: ["pull", "triage", "push", "maintain", "admin", "read", "write"]),
        .init(
            line: "gh-users access o --permission ",
            expected: ["read", "triage", "write", "maintain", "admin", "pull", "push"]),
        .init(line: "gh-users cache ", expected: ["info", "clear"]),
        .init(line: "gh-users cache c", expected: ["clear"]),
        .init(line: "gh-users cache info ", expected: []),
        .init(line: "gh-users completion ", expected: ["bash", "zsh", "fish"]),
        .init(line: "gh-users help ", expected: commands.map(\.name) + HelpTopics.names),
        .init(line: "gh-users help li", expected: ["list"]),
        .init(line: "gh-users --", expected: ["--help", "--version"]),
        .init(line: "gh-users list --limit ", expected: []),
        .init(line: "gh-users list --limit -", expected: []),
        .init(line: "gh-users list -L ", expected: []),
        .init(line: "gh-users list --limit 5 --al", expected: ["--all"]),
        .init(line: "gh-users list -- -", expected: []),
        .init(line: "gh-users show -", expected: options(of: "show")),
        .init(line: "gh-users cache --f", expected: options(of: "cache", startingWith: "--f")),
        .init(line: "gh-users list --cache-dir ", expected: ["cachedir"]),
        .init(line: "gh-users list --token-file ", expected: ["cachedir", "token.txt"]),
        .init(line: "gh-users list --token-file t", expected: ["token.txt"]),
        .init(line: "gh-users list --state ", expected: ["cachedir", "token.txt"]),
        .init(line: "gh-users list --state t", expected: ["token.txt"]),
        .init(line: "gh-users list --output ", expected: ["cachedir", "token.txt"]),
        .init(line: "gh-users list --all --state s --output c", expected: ["cachedir"]),
        .init(line: "gh-users followers --changes ", expected: ["cachedir", "token.txt"]),
        .init(line: "gh-users following octocat --changes t", expected: ["token.txt"]),
        .init(line: "gh-users list --state=t", expected: ["token.txt"], splitAtEquals: true),
        .init(line: "gh-users list --format=", expected: formats, splitAtEquals: true),
        .init(line: "gh-users list --format=j", expected: ["json"], splitAtEquals: true),
        .init(line: "gh-users list --format=json --li", expected: ["--limit"], splitAtEquals: true),
        .init(line: "gh-users list --format=j", expected: ["--format=json"]),
        .init(line: "gh-users list --fields=login,i", expected: ["login,id"], splitAtEquals: true),
        .init(
            line: "gh-users show --fields login,n",
            expected: fields(of: "show", startingWith: "n").map { "login," + $0 }),
        .init(
            line: "gh-users show --fields login,id,",
            expected: fields(of: "show").filter { $0 != "login" && $0 != "id" }.map { "login,id," + $0 }),
        .init(
            line: "gh-users list --limit=5 -", expected: options(of: "list") - ["--limit", "-L"], splitAtEquals: true),
    ]
    + versionCases + subcommandCases + givenOptionCases + optionFieldCases

/// `_gh_users` itself, sourced into bash and called as bash's programmable completion calls it.
struct BashCompletionTests {
    /// The table, in one shell per way of splitting words: each line's completions, whatever came before it.
    @Test(arguments: [false, true])
    func completes(splitAtEquals: Bool) async throws {
        let cases = bashCases.filter { $0.splitAtEquals == splitAtEquals }
        #expect(cases.count > 4)
        let offered = try await CompletionSandbox().bashComplete(cases.map(\.line), splitAtEquals: splitAtEquals)
        for (example, offered) in zip(cases, offered) {
            #expect(offered.sorted() == example.expected.sorted(), "\(example.testDescription)")
        }
    }

    /// An option after the cursor counts too, as zsh's `opt_args` has it: `--fields lo| --full` offers a
    /// profile's fields, `--fields ur| --dry-run` the request's.
    @Test(arguments: [
        ("list --fields lo --full", 3, ["login", "location"]), ("list --fields lo", 3, ["login"]),
        ("follow --fields ur --dry-run octocat", 3, ["url"]),
        // After `--` a word is an argument, not an option.
        ("list --fields lo -- --full", 3, ["login"]),
    ])
    func anOptionAfterTheCursorCounts(line: String, cursor: Int, expected: [String]) async throws {
        let sandbox = try CompletionSandbox()
        let script = #"source "$1" && COMP_WORDS=(gh-users $2) && COMP_CWORD=$3 && _gh_users && echo "${COMPREPLY[*]}""#
        let output = try await ShellProcess.run(
            "/bin/bash",
            ["--norc", "--noprofile", "-c", script, "bash", sandbox.script(.bash).path, line, "\(cursor)"],
            in: sandbox.directory)
        #expect(output.stderr.isEmpty, "\(output.stderr)")
        #expect(
            output.stdout.split(separator: " ").map { $0.trimmingCharacters(in: .newlines) }.sorted()
                == expected.sorted())
    }

    @Test func showOffersItsOwnOptionsTheGlobalOnesAndShortForms() async throws {
        let offered = Set(try await CompletionSandbox().bashComplete("gh-users show -"))
        #expect(offered.isSuperset(of: ["--id", "--concurrency", "--help", "-h", "--format", "--json"]))
        #expect(!offered.contains("--limit"))
    }

    /// Every command is offered every option the router accepts for it, and nothing else.
    @Test func everyCommandOffersExactlyItsOptions() async throws {
        let sandbox = try CompletionSandbox()
        try await expectEachOptionAndChoice(duplicatesChecked: true) { try await sandbox.bashComplete($0) }
    }

    @Test func theScriptRegistersTheFunctionForTheCommand() async throws {
        let sandbox = try CompletionSandbox()
        let output = try await ShellProcess.run(
            "/bin/bash",
            [
                "--norc", "--noprofile", "-c", "source \"$1\" && complete -p gh-users", "bash",
                sandbox.script(.bash).path,
            ], in: sandbox.directory)
        #expect(output.stdout == "complete -F _gh_users gh-users\n")
    }
}

/// A command whose texts hold everything that could break out of a quoted string in some shell. The payloads
/// create a file rather than anything worse, so that a quoting bug shows up as that file.
private func hostileSpec(sentinel: URL) -> CommandSpec {
    let touch = "touch \(sentinel.path)"
    let text =
        #"it's "quoted" $(\#(touch)) `\#(touch)` ${HOME} a:b [x] \back\slash %d {a,b} ~ # end"#
        + "\nsecond line\ttab"
    return CommandSpec(
        name: "weird",
        abstract: text,
        usage: "gh-users weird",
        discussion: nil,
        arguments: [("WORD: [x]", text)],
        options: [
            OptionSpec(
                "mode", short: "m", value: "M:[x]", help: text,
                choices: ["it's", "$(\(touch))", "`\(touch)`", "a:b", "[x]", "semi;colon", "%self", "=ls", "~"]),
            OptionSpec("quiet", help: text),
        ],
        examples: []
    )
}

/// Lines whose completions are the same in every shell; bash, whose rules differ at the edges, has its own table.
private let portableCases: [CompletionCase] =
    [
        .init(line: "gh-users ", expected: commands.map(\.name)),
        .init(line: "gh-users li", expected: ["list"]),
        .init(line: "gh-users list --fo", expected: ["--format"]),
        .init(line: "gh-users list --format ", expected: formats),
        .init(line: "gh-users list --format j", expected: ["json"]),
        .init(line: "gh-users repos octocat --sort ", expected: ["created", "updated", "pushed", "full_name"]),
        .init(line: "gh-users cache ", expected: ["info", "clear"]),
        .init(line: "gh-users completion ", expected: ["bash", "zsh", "fish"]),
        .init(line: "gh-users help ", expected: commands.map(\.name) + HelpTopics.names),
        .init(line: "gh-users list --limit ", expected: []),
        .init(line: "gh-users show -", expected: options(of: "show")),
        .init(line: "gh-users list --fields login,i", expected: ["login,id"]),
    ]
    + versionCases + subcommandCases + optionFieldCases

/// Nothing follows --version (the router refuses it), in every shell.
private let versionCases: [CompletionCase] = [
    .init(line: "gh-users --version ", expected: []), .init(line: "gh-users --version -", expected: []),
]

/// Each label of help's option fields names an option of its command, which completion looks for on the line: a
/// label reworded past its option would offer those fields never.
@Test func eachOptionFieldsLabelNamesAnOptionOfItsCommand() {
    let labelled = everyCommand.filter { !$0.optionFields.isEmpty }
    #expect(labelled.count > 10)
    for spec in labelled {
        let options = spec.allOptions.map { "--" + $0.name }
        let named = spec.optionFields.map { CompletionModel.option(inLabel: $0.label) }
        #expect(named.allSatisfy { $0.map(options.contains) == true }, "\(spec.name): \(named)")
        let found = CompletionModel.fieldsWithOptions(spec).filter { named.contains($0.option) }
        #expect(found.count == spec.optionFields.count)
    }
}

/// A field the records have only with an option is offered with it alone: `location` without --full, or
/// `change` without --changes, was offered and then refused (exit 64).
private let optionFieldCases: [CompletionCase] = [
    .init(line: "gh-users list --fields lo", expected: ["login"]),
    .init(line: "gh-users list --full --fields lo", expected: ["login", "location"]),
    .init(line: "gh-users access o --fields ch", expected: []),
    .init(line: "gh-users access o --changes c --fields ch", expected: ["change"]),
    .init(line: "gh-users members o --changes=c --fields ch", expected: ["change"]),
    .init(line: "gh-users followers --changes c --fields log", expected: ["login"]),
    .init(line: "gh-users followers --full --fields lo", expected: ["login", "location"]),
    .init(line: "gh-users follow --fields ur", expected: []),
    // `name` and `email` are an anonymous author's or a profile's: offered, then refused, without either (helper-361).
    .init(line: "gh-users contributors o/r --fields login,n", expected: ["login,node_id"]),
    .init(line: "gh-users contributors o/r --anon --fields login,n", expected: ["login,name", "login,node_id"]),
    // `help --man` takes a command, not a topic: `exit-codes` was offered, then refused (helper-361).
    .init(line: "gh-users help --man ex", expected: []),
    .init(line: "gh-users help ex", expected: ["exit-codes"]),
    .init(line: "gh-users help --man me", expected: ["me", "members"]),
    .init(line: "gh-users follow --dry-run --fields ur", expected: ["url"]),
]

/// bash and zsh do not offer an option given again, in either spelling, unless each of its values counts (as
/// gh's completion does). fish does: hiding it took a condition for each option line, which fish evaluates
/// apart, and made every completion seven times slower.
private let givenOptionCases: [CompletionCase] = [
    .init(line: "gh-users list --format json --f", expected: options(of: "list", startingWith: "--f") - ["--format"]),
    .init(line: "gh-users list -L 5 --l", expected: options(of: "list", startingWith: "--l") - ["--limit"]),
    .init(line: "gh-users list -L5 --l", expected: options(of: "list", startingWith: "--l") - ["--limit"]),
    .init(line: "gh-users list --limit=5 -", expected: options(of: "list") - ["--limit", "-L"]),
    .init(line: "gh-users show --id 1 --i", expected: ["--id"]),
    .init(line: "gh-users access o --repo a --r", expected: options(of: "access", startingWith: "--r")),
]

private func - (options: [String], given: [String]) -> [String] {
    options.filter { !given.contains($0) }
}

/// Each command's options, and each choice of each of them, as the shell itself completes them, all the lines
/// in one session of the shell.
private func expectEachOptionAndChoice(
    duplicatesChecked: Bool = false,
    _ complete: ([String]) async throws -> [[String]]
) async throws {
    let asked = everyCommand.map { spec in
        (spec, offeredOptions(spec).filter { !$0.choices.isEmpty })
    }
    let lines = asked.flatMap { spec, withChoices in
        ["gh-users \(spec.name) -"] + withChoices.map { "gh-users \(spec.name) --\($0.name) " }
    }
    var offered = try await complete(lines)[...]
    #expect(asked.count > 20)
    for (spec, withChoices) in asked {
        let options = offered.popFirst() ?? []
        #expect(Set(options) == spellings(offeredOptions(spec)), "\(spec.name)")
        #expect(!duplicatesChecked || options.count == Set(options).count, "\(spec.name) offers an option twice")
        for option in withChoices {
            #expect(offered.popFirst()?.sorted() == option.choices.sorted(), "\(spec.name) --\(option.name)")
        }
    }
}

struct ZshAndFishCompletionTests {
    @Test(.enabled(if: ShellProcess.find("zsh") != nil, "zsh is not installed: skipped real zsh completion"))
    func zshOffersEachCommandItsOptionsAndChoices() async throws {
        let zsh = try #require(ShellProcess.find("zsh"))
        let sandbox = try CompletionSandbox()
        try await expectEachOptionAndChoice { try await sandbox.zshComplete($0, zsh: zsh) }
    }

    @Test(.enabled(if: ShellProcess.find("fish") != nil, "fish is not installed: skipped real fish completion"))
    func fishOffersEachCommandItsOptionsAndChoices() async throws {
        let fish = try #require(ShellProcess.find("fish"))
        let sandbox = try CompletionSandbox()
        try await expectEachOptionAndChoice { try await sandbox.fishComplete($0, fish: fish) }
    }

    /// One session for all the lines: a zsh session costs a quarter of a second to start.
    @Test(.enabled(if: ShellProcess.find("zsh") != nil, "zsh is not installed: skipped real zsh completion"))
    func zshCompletesTheSameLines() async throws {
        let zsh = try #require(ShellProcess.find("zsh"))
        let cases = portableCases + givenOptionCases
        let offered = try await CompletionSandbox().zshComplete(cases.map(\.line), zsh: zsh)
        for (example, offered) in zip(cases, offered) {
            #expect(offered.sorted() == example.expected.sorted(), "\(example.testDescription)")
        }
    }

    /// Installed in `$fpath`, the file is the body of `_gh-users` and runs at every completion, not only the first.
    @Test(.enabled(if: ShellProcess.find("zsh") != nil, "zsh is not installed: skipped real zsh completion"))
    func zshCompletesFromFpathEveryTime() async throws {
        let zsh = try #require(ShellProcess.find("zsh"))
        let lines = ["gh-users li", "gh-users list --format ", "gh-users cache ", "gh-users li"]
        let offered = try await CompletionSandbox().zshComplete(lines, zsh: zsh, fromFpath: true)
        #expect(offered.map { $0.sorted() } == [["list"], formats.sorted(), ["clear", "info"], ["list"]])
    }

    /// An option given again (the parser keeps the last) completes its values as the first time did; zsh's
    /// `_arguments` takes an option once.
    @Test(.enabled(if: ShellProcess.find("fish") != nil, "fish is not installed: skipped real fish completion"))
    func anOptionGivenAgainCompletesItsValuesInFishAndBash() async throws {
        let fish = try #require(ShellProcess.find("fish"))
        let sandbox = try CompletionSandbox()
        let line = "gh-users list --format json --format "
        #expect(try await sandbox.fishComplete(line, fish: fish).sorted() == formats.sorted())
        #expect(try await sandbox.bashComplete(line).sorted() == formats.sorted())
    }

    @Test(.enabled(if: ShellProcess.find("fish") != nil, "fish is not installed: skipped real fish completion"))
    func fishCompletesTheSameLines() async throws {
        let fish = try #require(ShellProcess.find("fish"))
        let offered = try await CompletionSandbox().fishComplete(portableCases.map(\.line), fish: fish)
        for (example, offered) in zip(portableCases, offered) {
            #expect(offered.sorted() == example.expected.sorted(), "\(example.testDescription)")
        }
    }

    /// Only the gh-users command's own options count: `--full` given to another command of a pipe offered a
    /// profile's fields (`commandline -o` read the whole buffer).
    @Test(.enabled(if: ShellProcess.find("fish") != nil, "fish is not installed: skipped real fish completion"))
    func fishReadsTheOptionsOfItsOwnCommandAlone() async throws {
        let fish = try #require(ShellProcess.find("fish"))
        let offered = try await CompletionSandbox().fishComplete(
            ["echo --full | gh-users list --fields lo", "echo --changes=x; gh-users followers --fields pre"], fish: fish
        )
        #expect(offered == [["login"], []])
    }
}

struct CompletionEscapingTests {
    private final class Hostile {
        let sandbox: CompletionSandbox
        let sentinel: URL
        let spec: CommandSpec

        init() throws {
            sentinel = FileManager.default.temporaryDirectory.appendingPathComponent("gh-users-pwned-\(UUID())")
            spec = hostileSpec(sentinel: sentinel)
            sandbox = try CompletionSandbox(commands: CommandCatalog.specs + [spec])
        }

        var wasExploited: Bool { FileManager.default.fileExists(atPath: sentinel.path) }

        deinit { try? FileManager.default.removeItem(at: sentinel) }
    }

    @Test func bashParsesTheScriptAndCompletesTheTextLiterally() async throws {
        let hostile = try Hostile()
        let script = hostile.sandbox.script(.bash).path
        let syntax = try await ShellProcess.run("/bin/bash", ["-n", script], in: hostile.sandbox.directory)
        #expect(syntax.status == 0, "\(syntax.stderr)")
        #expect(try await hostile.sandbox.bashComplete("gh-users we") == ["weird"])
        #expect(
            try await hostile.sandbox.bashComplete("gh-users weird -").sorted()
                == spellings(offeredOptions(hostile.spec)).sorted())
        let offered = try await hostile.sandbox.bashComplete("gh-users weird --mode ")
        #expect(offered.sorted() == hostile.spec.options[0].choices.sorted())
        #expect(!hostile.wasExploited)
    }

    @Test(.enabled(if: ShellProcess.find("zsh") != nil, "zsh is not installed: skipped the zsh checks"))
    func zshParsesTheScriptAndCompletesTheTextLiterally() async throws {
        let hostile = try Hostile()
        let zsh = try #require(ShellProcess.find("zsh"))
        let script = hostile.sandbox.script(.zsh).path
        let syntax = try await ShellProcess.run(zsh, ["-n", script], in: hostile.sandbox.directory)
        #expect(syntax.status == 0, "\(syntax.stderr)")
        #expect(syntax.stderr.isEmpty, "\(syntax.stderr)")
        #expect(try await hostile.sandbox.zshComplete("gh-users we", zsh: zsh) == ["weird"])
        let offered = try await hostile.sandbox.zshComplete("gh-users weird --mode ", zsh: zsh)
        #expect(offered.sorted() == hostile.spec.options[0].choices.sorted())
        #expect(!hostile.wasExploited)
    }

    @Test(.enabled(if: ShellProcess.find("fish") != nil, "fish is not installed: skipped the fish checks"))
    func fishParsesTheScriptAndCompletesTheTextLiterally() async throws {
        let hostile = try Hostile()
        let fish = try #require(ShellProcess.find("fish"))
        let script = hostile.sandbox.script(.fish).path
        let syntax = try await ShellProcess.run(
            fish, ["--no-config", "--no-execute", script], in: hostile.sandbox.directory)
        #expect(syntax.status == 0, "\(syntax.stderr)")
        let commands = try await hostile.sandbox.fishComplete("gh-users we", fish: fish, withDescriptions: true)
        #expect(commands == ["weird\t" + CompletionQuoting.oneLine(hostile.spec.abstract)])
        let offered = try await hostile.sandbox.fishComplete("gh-users weird --mode ", fish: fish)
        #expect(offered.sorted() == hostile.spec.options[0].choices.sorted())
        #expect(!hostile.wasExploited)
    }
}
