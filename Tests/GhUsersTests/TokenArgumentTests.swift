import AtomicCore
import Domain
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
        // Inside a longer word, onto a short option, in a query (helper-342's R3: each was echoed, or sent).
        ["show", "@" + classic], ["show", "https://github.com/" + classic], ["show", "GH_TOKEN=" + classic],
        ["list", "-L" + classic], ["search", "foo:" + classic],
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

    /// A token given where a login goes on stdin, or 40 hexadecimal digits (an older token's form) as a login, is
    /// refused without being written back; a shorter one was sent as `GET /users/ghp_…` (helper-342's R3).
    @Test func aTokenWhereALoginGoesIsNeverShownNorSent() {
        #expect(!Login.isValid(String(Self.classic.prefix(34))))
        let hex = String(repeating: "0123456789abcdef", count: 3).prefix(40)
        for text in [String(Self.classic.prefix(34)), String(hex)] {
            #expect {
                _ = try Login(validating: text)
            } throws: { error in
                guard case DomainError.invalidInput(let message) = error else { return false }
                return message.hasPrefix("invalid login (it looks like a GitHub token, so it is not shown)")
                    && !message.contains("A1b2") && !message.contains("0123")
            }
        }
    }

    /// What only begins like one is no token: a login with a short code (`ghp_acme`), a search for the prefix.
    @Test(arguments: [
        "ghp_acme", "gho_" + String(repeating: "x", count: 29), "ghp-" + String(repeating: "x", count: 36),
    ])
    func whatOnlyBeginsLikeATokenIsTakenAsGiven(word: String) {
        #expect(!Login.holdsToken(word))
        #expect(!Login.holdsToken("--bio=" + word))
        #expect(Login.holdsToken("--bio=" + Self.classic))
    }
}
