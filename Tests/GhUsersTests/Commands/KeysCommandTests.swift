import AtomicCore
import Domain
import Foundation
import TestSupport
import Testing

@testable import gh_users

private func run(_ arguments: [String], _ env: AppEnvironment) async -> Int32 {
    await GhUsersApp(environment: env).run(arguments)
}

/// `keys LOGIN`: fingerprints in the table, and GitHub's bytes in the data formats. Paging by the Link header is
/// `CommandErrorTests`'.
struct KeysCommandTests {
    private let validKey = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIFeg1HYPEm/rxYUARAheqzSzOKbYarlA9daYY0MPW4L2 test"

    @Test func keysShowTheirFingerprintAndAMalformedKeyShowsAQuestionMark() async {
        let github = StubTransport()
        github.answer(
            "GET /users/octocat/keys?per_page=30",
            json: #"[{"id":1,"key":"\#(validKey)"},{"id":2,"key":"ssh-rsa AAA..."}]"#)
        let (env, out, err) = AppEnvironment.test(http: github, stdoutTTY: true, width: 120)
        #expect(await run(["keys", "octocat", "--color", "never"], env) == 0)
        let lines = out.text.split(separator: "\n").map(String.init)
        #expect(lines[0].hasPrefix("ID  TYPE         FINGERPRINT"))
        #expect(lines[1].contains("ssh-ed25519  SHA256:M0zVlkNU/CNb/xsa/kHw6MgsZ3pJGdOWag4a/Yoe/OI"))
        #expect(lines[2].contains("ssh-rsa      ?"))
        #expect(err.text.isEmpty)
    }

    /// Through the real client: GitHub's own example key is no key (`ssh-rsa AAA...`), so its fingerprint is `?`.
    @Test func aTableAsAskedForShowsAQuestionMarkForAKeyThatIsNone() async {
        let harness = CommandHarness()
        harness.expect("GET /users/octocat/keys?per_page=30", body: "users-list-public-keys-for-user")
        let run = await harness.run(["keys", "octocat", "--format", "table"])
        #expect(run.status == 0, "\(run.err)")
        let rows = run.out.split(separator: "\n")
        #expect(rows.first?.hasPrefix("ID  TYPE") == true, "\(run.out)")
        #expect(
            rows.dropFirst().map { $0.split(separator: " ") } == [["1", "ssh-rsa", "?", "ssh-rsa", "AAA..."]],
            "\(run.out)")
    }

    /// The `?` a table shows where a key does not decode is no value: tsv and csv leave the cell empty, JSON
    /// writes null (before, they wrote `?`, which a script took for a fingerprint and a type).
    @Test(arguments: [
        ("csv", "id,type,fingerprint\r\n1,ssh-ed25519,SHA256:M0zVlkNU/CNb/xsa/kHw6MgsZ3pJGdOWag4a/Yoe/OI\r\n2,,\r\n"),
        ("tsv", "1\tssh-ed25519\tSHA256:M0zVlkNU/CNb/xsa/kHw6MgsZ3pJGdOWag4a/Yoe/OI\n2\t\t\n"),
        (
            "ndjson",
            #"{"id":1,"type":"ssh-ed25519","fingerprint":"SHA256:M0zVlkNU/CNb/xsa/kHw6MgsZ3pJGdOWag4a/Yoe/OI"}"#
                + "\n" + #"{"id":2,"type":null,"fingerprint":null}"# + "\n"
        ),
    ])
    func aKeyThatDoesNotDecodeHasNoFingerprintInDataFormats(format: String, expected: String) async {
        let github = StubTransport()
        github.answer(
            "GET /users/octocat/keys?per_page=30", json: #"[{"id":1,"key":"\#(validKey)"},{"id":2,"key":"garbage"}]"#)
        let (env, out, _) = AppEnvironment.test(http: github)
        #expect(await run(["keys", "octocat", "--format", format, "--fields", "id,type,fingerprint"], env) == 0)
        #expect(out.text == expected)
    }

    /// Keys of a shape the columns cannot read (`[{}]`, a proxy's rewrite) stop the list as every other list's do:
    /// before, the unknown type and fingerprint (`?`) passed for values, and tsv wrote a row of tabs, exit 0.
    @Test(arguments: ["keys", "signing-keys"])
    func keysOfAnotherShapeStopTheListInsteadOfBlankRows(command: String) async {
        let github = StubTransport()
        let path = command == "keys" ? "keys" : "ssh_signing_keys"
        github.answer("GET /users/octocat/\(path)?per_page=30", json: "[{},{}]")
        let (env, out, err) = AppEnvironment.test(http: github)
        #expect(await run([command, "octocat", "--format", "tsv"], env) == 1)
        #expect(out.text.isEmpty, "\(out.text)")
        #expect(err.text.contains("have none of the keys this output reads"), "\(err.text)")
    }

    @Test func keysInDataFormatsAreGitHubsBytes() async {
        let github = StubTransport()
        let raw = #"{"id":1,"key":"\#(validKey)","created_at":"2020-01-01T00:00:00Z"}"#
        github.answer("GET /users/octocat/keys?per_page=30", json: "[" + raw + "]")
        let (env, out, _) = AppEnvironment.test(http: github)
        #expect(await run(["keys", "octocat", "--format", "ndjson"], env) == 0)
        #expect(out.text == raw + "\n")
    }

    /// A key's fields are all plain values, the two gh-users computes (`fingerprint`, `type`) and GitHub's, so a
    /// path into one is exit 64 before anything is sent. Before: the request, then a warning, and exit 1 when every
    /// column was one (helper-332).
    @Test func aPathIntoAKeysFieldIsRefusedBeforeAnythingIsSent() async {
        for fields in ["fingerprint.x,key.x", "id,type.x"] {
            let github = StubTransport()
            let (env, out, err) = AppEnvironment.test(http: github)
            #expect(await run(["keys", "octocat", "--format", "tsv", "--fields", fields], env) == 64)
            #expect(out.text.isEmpty)
            #expect(err.text.contains("is a plain value or a list, which a path cannot go into"), "\(err.text)")
            #expect(github.received.isEmpty)
        }
    }

    /// A GPG key's `can_sign` is yes or no in a table only where GitHub said true or false: a null is blank.
    @Test func aGPGKeyWhoseCanSignIsNullShowsNeitherYesNorNo() async {
        let github = StubTransport()
        github.answer(
            "GET /users/octocat/gpg_keys?per_page=30",
            json: #"[{"key_id":"A1","emails":[],"can_sign":null,"expires_at":null},"#
                + #"{"key_id":"B2","emails":[],"can_sign":false,"expires_at":null},"#
                + #"{"key_id":"C3","emails":[],"can_sign":true,"expires_at":null}]"#)
        let (env, out, _) = AppEnvironment.test(http: github, stdoutTTY: true, width: 120)
        #expect(await run(["gpg-keys", "octocat", "--color", "never"], env) == 0)
        let signs = out.text.split(separator: "\n").dropFirst().map { row in
            row.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first.map(String.init) ?? ""
        }
        // A blank cell leaves the next one, EXPIRES, second on its row.
        #expect(signs == ["never", "no", "yes"], "\(out.text)")
    }

    /// An expiry is the one time that is normally to come: the table says when ("in 2 years"), where it said
    /// "in the future" for every key not yet expired. Now is 2027-01-15T08:00:00Z.
    /// Only GitHub's null is "never": a missing or empty `expires_at` said "never" too, a value GitHub did not
    /// send (helper-296).
    @Test func aGPGKeyNeverExpiresOnlyWhereGitHubSaysNull() async {
        let github = StubTransport()
        github.answer(
            "GET /users/octocat/gpg_keys?per_page=30",
            json: #"[{"key_id":"A1","can_sign":true,"expires_at":null},{"key_id":"B2","can_sign":true},"#
                + #"{"key_id":"C3","can_sign":true,"expires_at":""}]"#)
        let (env, out, _) = AppEnvironment.test(http: github, stdoutTTY: true, width: 120)
        #expect(await run(["gpg-keys", "octocat", "--color", "never"], env) == 0)
        // KEY ID, EMAILS (blank), CAN SIGN, EXPIRES.
        let cells = out.text.split(separator: "\n").dropFirst().map { $0.split(separator: " ").dropFirst(2).first }
        #expect(cells == ["never", nil, nil], "\(out.text)")
    }

    /// A key type is a word that names one: any text of two words showed its first (`not a key` as `not`, and a
    /// line separator split `a\u{2028}b…` into `a`; helper-296).
    @Test func aTextThatNamesNoKeyTypeHasNone() async {
        let github = StubTransport()
        github.answer(
            "GET /users/octocat/keys?per_page=30",
            json: #"[{"id":1,"key":"not a key"},{"id":2,"key":"a\u2028b c"},"#
                + #"{"id":3,"key":"sk-ssh-ed25519@openssh.com AAAA"}]"#)
        let (env, out, _) = AppEnvironment.test(http: github)
        #expect(await run(["keys", "octocat", "--format", "tsv", "--fields", "id,type"], env) == 0)
        #expect(out.text == "1\t\n2\t\n3\tsk-ssh-ed25519@openssh.com\n", "\(out.text)")
    }

    /// One already expired says so (helper-313: "10 years ago" alone read like the key's age).
    @Test func aGPGKeyThatExpiresLaterSaysWhen() async {
        let github = StubTransport()
        github.answer(
            "GET /users/octocat/gpg_keys?per_page=30",
            json: #"[{"key_id":"A1","emails":[],"expires_at":"2030-01-01T00:00:00.000Z"},"#
                + #"{"key_id":"B2","emails":[],"expires_at":"2027-01-12T08:00:00Z"}]"#)
        let (env, out, _) = AppEnvironment.test(http: github, stdoutTTY: true, width: 120)
        #expect(await run(["gpg-keys", "octocat", "--color", "never"], env) == 0)
        let rows = out.text.split(separator: "\n").dropFirst()
        #expect(rows.first?.contains("in 2 years") == true, "\(out.text)")
        #expect(rows.last?.contains("expired 3 days ago") == true, "\(out.text)")
        #expect(rows.first?.contains("expired") == false, "\(out.text)")
        #expect(!out.text.contains("future"))
    }

    /// A gist's file names in a table are the names: escapes resolved, in GitHub's order (it wrote `a\"b.txt` as
    /// its JSON text, and sorted the names).
    @Test func aGistsFilesAreTheirNamesInGitHubsOrder() async {
        let github = StubTransport()
        github.answer(
            "GET /users/octocat/gists?per_page=30",
            json: #"[{"id":"1","files":{"z.md":{},"a\"b.txt":{},"caf\u00e9.txt":{}},"public":true}]"#)
        let (env, out, _) = AppEnvironment.test(http: github, stdoutTTY: true, width: 120)
        #expect(await run(["gists", "octocat", "--color", "never"], env) == 0)
        #expect(out.text.contains(#"z.md, a"b.txt, café.txt"#), "\(out.text)")
    }
}
