import AtomicCore
import Foundation
import TestSupport
import Testing

@testable import gh_users

/// A token typed among the arguments, where a login or a value goes, is refused before anything is sent, and never
/// written back: before, `show ghp_…` (40 characters) was refused as a login with the token in the message, and
/// `list --token=gho_…` was told "did you mean --token-file?", which reads the token as a path (helper-341's M1).
struct TokenArgumentTests {
    static let classic = "ghp_" + String(repeating: "A1b2C3d4", count: 4) + "Zz90"
    static let fineGrained = "github_pat_11" + String(repeating: "Ab3_", count: 20)

    @Test(arguments: [
        ["show", classic],
        ["show", "octocat", classic, "--json"],
        ["followers", "octocat", "--token=" + classic],
        ["list", "--token-file", fineGrained],
        [classic],
        ["members", fineGrained],
    ])
    func aTokenAmongTheArgumentsIsRefusedUnshownAndUnsent(arguments: [String]) async {
        let github = StubTransport()
        let (env, out, err) = AppEnvironment.test(http: github)
        #expect(await GhUsersApp(environment: env).run(arguments) == 64)
        #expect(out.text.isEmpty)
        let position = arguments.firstIndex { $0.contains(Self.classic) || $0.contains(Self.fineGrained) }! + 1
        #expect(
            err.text.hasPrefix(
                "Error: argument \(position) looks like a GitHub token, so it is neither shown nor sent"),
            "\(err.text)")
        #expect(!err.text.contains("A1b2C3d4") && !err.text.contains("Ab3_Ab3_"), "\(err.text)")
        #expect(github.calls.isEmpty)
    }

    /// What only begins like one is no token: a login with a short code (`ghp_acme`), a search for the prefix.
    @Test(arguments: [
        "ghp_acme", "gho_" + String(repeating: "x", count: 29), "ghp-" + String(repeating: "x", count: 36),
    ])
    func whatOnlyBeginsLikeATokenIsTakenAsGiven(word: String) {
        #expect(!CommandRouter.holdsToken(word))
        #expect(!CommandRouter.holdsToken("--bio=" + word))
        #expect(CommandRouter.holdsToken("--bio=" + Self.classic))
    }
}
