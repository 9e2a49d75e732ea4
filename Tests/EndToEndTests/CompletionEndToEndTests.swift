import Foundation
import Testing

/// `gh-users completion SHELL` through the built binary: the script it prints, sourced into a real shell. Each
/// shell's script, the usage errors and the help are `CompletionCommandTests`'.
struct CompletionEndToEndTests {
    private static let commandNames = [
        "list", "show", "repos", "followers", "following", "search", "rate-limit", "cache", "help", "completion",
    ]

    /// Sources what the binary prints and calls `_gh_users` as bash's programmable completion would, with the
    /// cursor at the end of `$LINE`.
    private func bashComplete(_ line: String) async throws -> [String] {
        let result = try await BinaryRunner.shell(
            #"""
            "$GH_USERS" completion bash > completion.bash || exit 9
            source completion.bash || exit 8
            read -ra COMP_WORDS <<< "$LINE"
            [[ $LINE == *' ' ]] && COMP_WORDS+=('')
            COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
            COMP_LINE=$LINE
            COMP_POINT=${#LINE}
            COMPREPLY=()
            _gh_users gh-users "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
            if ((${#COMPREPLY[@]})); then printf '%s\n' "${COMPREPLY[@]}"; fi
            """#,
            environment: ["LINE": line]
        )
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty, "\(result.stderr)")
        return result.stdout.split(separator: "\n").map(String.init).sorted()
    }

    @Test(arguments: [
        ("gh-users li", ["list"]),
        ("gh-users list --fo", ["--format"]),
        ("gh-users list --format ", ["csv", "json", "ndjson", "table", "tsv"]),
        ("gh-users list --format j", ["json"]),
        ("gh-users repos octocat --sort ", ["created", "full_name", "pushed", "updated"]),
        ("gh-users cache ", ["clear", "info"]),
        ("gh-users completion ", ["bash", "fish", "zsh"]),
        ("gh-users --json li", ["list"]),
        ("gh-users list --limit ", []),
    ])
    func bashCompletes(line: String, expected: [String]) async throws {
        #expect(try await bashComplete(line) == expected.sorted())
    }

    @Test func bashOffersEveryCommandAndHelpTakesThemToo() async throws {
        // The commands as the binary's own help lists them.
        let help = try await BinaryRunner.run(["--help"]).stdout
        // Every section whose heading ends in COMMANDS.
        let listed = help.components(separatedBy: "\n\n")
            .filter { $0.split(separator: "\n").first?.hasSuffix("COMMANDS") == true }
            .flatMap { $0.split(separator: "\n").dropFirst() }
            .filter { $0.hasPrefix("  ") && !$0.hasPrefix("   ") }
            .compactMap { $0.split(separator: " ").first.map(String.init) }
        #expect(Set(Self.commandNames).isSubset(of: listed))
        let commands = try await bashComplete("gh-users ")
        #expect(commands == listed.sorted())
        #expect(Set(try await bashComplete("gh-users help ")).isSuperset(of: listed))
    }

    @Test func bashOffersShowItsOwnAndTheGlobalOptions() async throws {
        let options = Set(try await bashComplete("gh-users show -"))
        #expect(options.isSuperset(of: ["--id", "--concurrency", "--help", "-h", "--format", "--json"]))
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/fish"), "fish is not installed"))
    func fishCompletesFromTheBinarysScript() async throws {
        let result = try await BinaryRunner.shell(
            #"""
            "$GH_USERS" completion fish > completion.fish || exit 9
            /usr/bin/fish --no-config -c 'source completion.fish; complete -C "gh-users list --format "'
            """#
        )
        #expect(result.status == 0, "\(result.stderr)")
        let offered = result.stdout.split(separator: "\n").map { String($0.split(separator: "\t").first ?? "") }
        #expect(offered.sorted() == ["csv", "json", "ndjson", "table", "tsv"])
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/zsh"), "zsh is not installed"))
    func zshAcceptsTheBinarysScript() async throws {
        let result = try await BinaryRunner.shell(
            #""$GH_USERS" completion zsh > _gh-users && /usr/bin/zsh -n _gh-users"#)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty, "\(result.stderr)")
    }
}
