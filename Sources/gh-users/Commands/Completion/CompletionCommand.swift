/// `gh-users completion bash|zsh|fish`.
struct CompletionOptions: Sendable, Equatable {
    enum Shell: String, Sendable, CaseIterable {
        case bash
        case zsh
        case fish
    }

    var shell: Shell
}

/// Prints a shell completion script generated from the command catalog.
enum CompletionCommand {
    static let spec = CommandSpec(
        name: "completion",
        abstract: "Print a shell completion script.",
        usage: "gh-users completion bash|zsh|fish",
        discussion: """
            The script completes commands and subcommands (me edit, cache info), options, their values
            (formats, sort keys, fields, files and directories), the shells completion takes, and the
            commands and topics help takes. It is generated from the same specs the parser reads, so
            regenerate it after an upgrade. Install it once:

              bash:
                mkdir -p ~/.local/share/bash-completion/completions
                gh-users completion bash \\
                  > ~/.local/share/bash-completion/completions/gh-users
                (or add 'source <(gh-users completion bash)' to ~/.bashrc)
              zsh:
                mkdir -p ~/.zfunc && gh-users completion zsh > ~/.zfunc/_gh-users
                then add 'fpath=(~/.zfunc $fpath)' to ~/.zshrc before compinit, and
                start a new shell (${fpath[1]} is often a root-owned folder)
              fish:
                mkdir -p ~/.config/fish/completions
                gh-users completion fish > ~/.config/fish/completions/gh-users.fish
            """,
        arguments: [("SHELL", "bash, zsh or fish.")],
        options: [],
        examples: [
            (
                "gh-users completion bash > ~/.local/share/bash-completion/completions/gh-users",
                "bash, loaded on demand by bash-completion."
            ),
            (
                "gh-users completion zsh > ~/.zfunc/_gh-users",
                "zsh, with fpath=(~/.zfunc $fpath) in ~/.zshrc before compinit."
            ),
            ("gh-users completion fish > ~/.config/fish/completions/gh-users.fish", "fish, picked up at once."),
        ],
        words: CompletionOptions.Shell.allCases.map(\.rawValue)
    )
}

extension CompletionOptions: LocalCommand {
    static var spec: CommandSpec { CompletionCommand.spec }

    init(_ parsed: ParsedArguments, spec: CommandSpec) throws(UsageError) {
        shell = try WordArgument.parse(
            parsed, spec: spec, missing: "completion needs a shell", unknown: "shell",
            extraHint: "completion takes one shell")
    }

    /// The script for the shell, generated from every command's spec.
    func run(_ context: LocalContext) async -> CommandOutcome {
        do {
            try context.command.io.writeOut(CompletionScripts.script(for: shell, commands: CommandCatalog.specs))
        } catch {
            return .writeFailed(error, io: context.command.io)
        }
        return .success
    }
}
