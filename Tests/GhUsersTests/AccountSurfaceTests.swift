import AtomicCore
import Domain
import Foundation
import TestSupport
import Testing

@testable import gh_users

private func record(_ json: String) -> Record {
    let bytes = Array(json.utf8)
    return Record(id: Int64(JSONTextProbe.id(bytes)), raw: RawJSON(bytes: bytes))
}

/// Reads `id` the way Data's decoder does, for scripted records.
private enum JSONTextProbe {
    static func id(_ bytes: [UInt8]) -> String {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let range = text.range(of: #""id":(\d+)"#, options: .regularExpression) else { return "" }
        return String(text[range].dropFirst(5))
    }
}

private func run(_ arguments: [String], _ env: AppEnvironment) async -> Int32 {
    await GhUsersApp(environment: env).run(arguments)
}

struct AccountSurfaceTests {
    private let validKey = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIFeg1HYPEm/rxYUARAheqzSzOKbYarlA9daYY0MPW4L2 test"

    @Test func keysShowTheirFingerprintAndAMalformedKeyShowsAQuestionMark() async {
        let github = FakeGitHub()
        github.script(
            "/users/octocat/keys?per_page=30",
            .success(
                Page(
                    items: [record(#"{"id":1,"key":"\#(validKey)"}"#), record(#"{"id":2,"key":"ssh-rsa AAA..."}"#)],
                    next: nil)))
        let (env, out, err) = AppEnvironment.test(github: github, stdoutTTY: true, width: 120)
        #expect(await run(["keys", "octocat", "--color", "never"], env) == 0)
        let lines = out.text.split(separator: "\n").map(String.init)
        #expect(lines[0].hasPrefix("ID  TYPE         FINGERPRINT"))
        #expect(lines[1].contains("ssh-ed25519  SHA256:M0zVlkNU/CNb/xsa/kHw6MgsZ3pJGdOWag4a/Yoe/OI"))
        #expect(lines[2].contains("ssh-rsa      ?"))
        #expect(err.text.isEmpty)
    }

    @Test func keysInDataFormatsAreGitHubsBytes() async {
        let github = FakeGitHub()
        let raw = #"{"id":1,"key":"\#(validKey)","created_at":"2020-01-01T00:00:00Z"}"#
        github.script("/users/octocat/keys?per_page=30", .success(Page(items: [record(raw)], next: nil)))
        let (env, out, _) = AppEnvironment.test(github: github)
        #expect(await run(["keys", "octocat", "--format", "ndjson"], env) == 0)
        #expect(out.text == raw + "\n")
    }

    @Test func meWithoutATokenIsExitFourAndSendsNothing() async {
        let github = FakeGitHub()
        let (env, out, err) = AppEnvironment.test(github: github)
        #expect(await run(["me"], env) == 4)
        #expect(out.text.isEmpty)
        #expect(err.text.hasPrefix("gh-users: me needs a token"))
        #expect(github.calls.isEmpty)
    }

    @Test func meOnATerminalShowsTheTokensScopes() async {
        let github = FakeGitHub()
        github.script(
            "/user", .success(AuthenticatedUser(user: makeUser(1, "octocat"), scopes: ["read:user", "repo"])))
        let (env, out, _) = AppEnvironment.test(github: github, stdoutTTY: true, environment: ["GH_TOKEN": "t"])
        #expect(await run(["me", "--color", "never"], env) == 0)
        #expect(out.text.contains("Scopes  read:user, repo"))
        let (piped, json, _) = AppEnvironment.test(github: github, environment: ["GH_TOKEN": "t"])
        #expect(await run(["me", "--json"], piped) == 0)
        #expect(json.text == "{\n  \"login\": \"octocat\",\n  \"id\": 1\n}\n")
    }

    @Test(arguments: [(["--all"], true), (["--limit", "500"], true), (["--limit", "300"], false)])
    func eventsStopAtGitHubsThreeHundredAndSaySo(arguments: [String], notes: Bool) async {
        let github = FakeGitHub()
        for page in 0..<3 {
            let items = (1...100).map { record(#"{"id":"\#(page * 100 + $0)","type":"PushEvent"}"#) }
            let next = page < 2 ? PageCursor(url: "e\(page + 2)") : nil
            if page == 0 {
                github.script("/users/octocat/events/public?per_page=100", .success(Page(items: items, next: next)))
            } else {
                github.scriptPage("e\(page + 1)", .success(Page(items: items, next: next)))
            }
        }
        let (env, out, err) = AppEnvironment.test(github: github)
        #expect(await run(["events", "octocat", "--format", "ndjson"] + arguments, env) == 0)
        #expect(out.text.split(separator: "\n").count == 300)
        #expect(github.calls.count == 3)
        #expect(err.text.contains("only the 300 most recent public events") == notes)
    }

    @Test func starredAsksForStarJSONAndSortsAsAsked() async {
        let github = FakeGitHub()
        github.script(
            "/users/octocat/starred?sort=updated&direction=asc&per_page=30",
            .success(
                Page(
                    items: [record(#"{"starred_at":"2011-01-16T19:06:43Z","repo":{"id":7,"full_name":"o/r"}}"#)],
                    next: nil)))
        let (env, out, _) = AppEnvironment.test(github: github)
        #expect(await run(["starred", "octocat", "--sort", "updated", "--direction", "asc"], env) == 0)
        #expect(out.text.hasPrefix("o/r\t2011-01-16T19:06:43Z\t"))
        #expect(ListStarredCommand.declaration.spec.name == "starred")
    }
}
