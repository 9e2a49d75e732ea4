import Foundation
import TestSupport
import Testing

@testable import gh_users

/// A body that is JSON but not what GitHub documents is refused naming what was wrong, exit 1, nothing on stdout.
struct MalformedItemsCommandTests {
    private func run(_ arguments: [String], request: String, body: String) async -> CommandHarness.Outcome {
        let harness = CommandHarness()
        harness.http.register(RequestMatcher(request), status: 200, headers: [], body: Data(body.utf8))
        return await harness.run(arguments)
    }

    /// Account lists already refuse these; a list of records (keys, orgs, gists…) printed them as empty rows.
    @Test(arguments: [
        ("null", "null"), ("7", "a number"), ("[]", "an array"), (#""key""#, "a string"), ("true", "a boolean"),
    ])
    func aRecordThatIsNotAnObjectIsRefused(item: String, kind: String) async {
        for format in ["tsv", "json"] {
            let run = await run(
                ["keys", "octocat", "--format", format], request: "GET /users/octocat/keys?per_page=30",
                body: #"[{"id":1,"key":"ssh-ed25519 AAAA"},"# + item + "]")
            #expect(run.status == 1)
            #expect(run.out.isEmpty)
            #expect(run.err.contains("item 2 is \(kind), not an object"), "\(run.err)")
        }
    }

    /// GitHub's documented profile (Bodies/users-get-by-username.json) with a count that is not whole.
    @Test func aCountThatIsNotWholeNamesItsKey() async {
        let documented = String(decoding: Bodies.named("users-get-by-username"), as: UTF8.self)
        let body = documented.replacingOccurrences(of: #""followers": 20,"#, with: #""followers": 1.5,"#)
        #expect(body != documented)
        let run = await run(["show", "octocat"], request: "GET /users/octocat", body: body)
        #expect(run.status == 1)
        #expect(run.err.contains("followers is 1.5, not a whole number"), "\(run.err)")
        #expect(!run.err.contains("not valid JSON"))
    }
}
