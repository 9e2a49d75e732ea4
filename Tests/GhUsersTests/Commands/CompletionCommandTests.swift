import Foundation
import Testing

@testable import gh_users

/// `completion SHELL`: each shell's script, its usage errors, and the help that says where to put it. What a
/// real shell makes of the script is `CompletionEndToEndTests`'.
struct CompletionCommandTests {
    @Test(arguments: [
        ("bash", "complete -F _gh_users gh-users"), ("zsh", "#compdef gh-users"), ("fish", "complete -c gh-users"),
    ])
    func eachShellGetsItsScript(shell: String, marker: String) async {
        let run = await CommandHarness().run(["completion", shell])
        #expect(run.status == 0, "\(run.err)")
        #expect(run.err.isEmpty)
        #expect(run.out.contains(marker))
    }

    @Test(arguments: [
        ([String](), "completion needs a shell: bash, zsh or fish"),
        (["zhs"], "Did you mean 'zsh'?"),
        (["bash", "fish"], "unexpected argument 'fish'"),
    ])
    func usageErrorsExitWith64(arguments: [String], message: String) async {
        await expectUsageError(["completion"] + arguments, saying: message)
    }

    @Test func helpSaysHowToInstallIt() async {
        let run = await CommandHarness().run(["help", "completion"])
        #expect(run.status == 0)
        #expect(
            run.out.contains("gh-users completion bash > \\\n      ~/.local/share/bash-completion/completions/gh-users")
        )
        // A folder the user can write to, as INSTALL.md says (${fpath[1]} is often root's: a review's find).
        #expect(run.out.contains("mkdir -p ~/.zfunc && gh-users completion zsh > ~/.zfunc/_gh-users"))
        #expect(run.out.contains("fpath=(~/.zfunc $fpath)") && !run.out.contains("${fpath[1]}/_gh-users"))
        #expect(run.out.contains("gh-users completion fish > ~/.config/fish/completions/gh-users.fish"))
    }
}
