import Foundation
import TestSupport
import Testing

@testable import gh_users

/// Every `--changes` snapshot records the API root it was made against (`api_url`). Another server's ids are other
/// people's: before, a run against another root (a GitHub Enterprise host and github.com, or a cron job that
/// inherits a `GH_HOST` exported for gh) compared its list with FILE, reported everyone removed and added, exit 0,
/// and overwrote FILE. Now it is refused before anything is sent, FILE left byte for byte; a FILE written before the
/// root was recorded is read as before, and records it when replaced. The files are written as JSON text, as an
/// older or another gh-users would have written them.
struct SnapshotServerTests {
    static let enterprise = "https://ghe.example.com/api/v3"

    /// What a run against `now` says of a FILE made against `recorded`.
    static func refusal(_ path: String, recorded: String, now: String) -> String {
        "gh-users: the snapshot file '\(path)' was made against the API at \(recorded), not against \(now), which "
            + "this run uses (--api-url, GH_USERS_API_URL or GH_HOST). It was left as it is: give each server its "
            + "own snapshot file (for the same server under a new name, edit its \"api_url\")\n"
    }

    static func write(_ text: String, to path: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    static func bytes(_ path: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: path))
    }

    /// Runs `arguments` with `--changes file` against `harness` (github.com unless its environment says otherwise)
    /// and expects FILE, made against `recorded`, refused: exit 1, nothing sent or written, FILE as it was.
    static func expectRefused(
        _ arguments: [String], file: String, recorded: String, now: String = "https://api.github.com",
        harness: CommandHarness = .signedIn(), sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let before = try bytes(file)
        let run = await harness.run(arguments + ["--changes", file, "--format", "tsv"])
        #expect(run.status == 1, "\(run.err)", sourceLocation: sourceLocation)
        #expect(run.out.isEmpty, sourceLocation: sourceLocation)
        #expect(run.err == refusal(file, recorded: recorded, now: now), "\(run.err)", sourceLocation: sourceLocation)
        #expect(harness.http.calls.isEmpty, "\(harness.http.calls)", sourceLocation: sourceLocation)
        #expect(try bytes(file) == before, sourceLocation: sourceLocation)
    }

    /// `"api_url":"…",` in a header: what a snapshot records, and what an older gh-users's lacks.
    static func field(_ root: String) -> String { #""api_url":"\#(root)","# }

    /// A people snapshot of `command owner` (owner id 1) with `octocat` (id 1) in it, made against `root` (nil: by a
    /// gh-users that did not record it).
    static func people(_ command: String, _ owner: String, root: String?) -> String {
        #"{"version":1,"# + (root.map(field) ?? "")
            + #""command":"\#(command)","of":"\#(owner)","owner_id":1,"filters":{},"people":["# + "\n"
            + #"{"id":1,"login":"octocat"}"# + "\n]}\n"
    }

    /// The same list, the same owner's id, or another owner's name with the same id (a rename, which would be
    /// looked up): against another root, each is refused before anything is asked, FILE as it was.
    @Test(arguments: [
        ("members", "github", ["members", "github"]),
        ("outside-collaborators", "github", ["outside-collaborators", "github"]),
        ("outside-collaborators", "old-org", ["outside-collaborators", "github"]),
    ])
    func aPeopleSnapshotOfAnotherServerIsRefusedBeforeAnythingIsSent(
        command: String, owner: String, arguments: [String]
    ) async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let file = folder("people.json")
        try Self.write(Self.people(command, owner, root: Self.enterprise), to: file)
        try await Self.expectRefused(arguments, file: file, recorded: Self.enterprise)
    }

    /// A cron job that inherits `GH_HOST` exported for gh talks to the Enterprise host: github.com's FILE is refused.
    @Test func aGHHostInheritedFromGhIsAnotherServer() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let file = folder("people.json")
        try Self.write(Self.people("members", "github", root: "https://api.github.com"), to: file)
        var harness = CommandHarness()
        harness.environment = ["GH_HOST": "ghe.example.com", "GH_ENTERPRISE_TOKEN": CommandRequestTests.token]
        try await Self.expectRefused(
            ["members", "github"], file: file, recorded: "https://api.github.com", now: Self.enterprise,
            harness: harness)
    }

    /// A FILE without `api_url` is read as before; so is one whose root is this run's written otherwise (the host
    /// in capitals, the scheme's own port, a final slash). Each is replaced with the root as gh-users writes it.
    @Test(arguments: [
        (String?.none, [String: String](), "https://api.github.com", ""),
        (String?.none, ["GH_HOST": "ghe.example.com"], enterprise, "/api/v3"),
        (String?.some(enterprise), ["GH_USERS_API_URL": "https://GHE.example.com:443/api/v3/"], enterprise, "/api/v3"),
        (String?.some("HTTPS://ghe.EXAMPLE.com/api/v3/"), ["GH_HOST": "ghe.example.com"], enterprise, "/api/v3"),
    ])
    func anOlderPeopleSnapshotOrTheSameRootIsReadAndRecordsTheRoot(
        recorded: String?, environment: [String: String], root: String, prefix: String
    ) async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let file = folder("people.json")
        try Self.write(Self.people("outside-collaborators", "github", root: recorded), to: file)
        var harness = CommandHarness()
        harness.environment = environment.merging(
            ["GH_TOKEN": CommandRequestTests.token, "GH_ENTERPRISE_TOKEN": CommandRequestTests.token]) { $1 }
        harness.http.answer(
            "GET \(prefix)/orgs/github/outside_collaborators?per_page=100", accounts: [1, 2],
            logins: [1: "octocat", 2: "mona"])
        let run = await harness.run(["outside-collaborators", "github", "--changes", file, "--format", "tsv"])
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out == "added\tmona\t2\t\n", "\(run.out)")
        #expect(harness.http.problems.isEmpty, "\(harness.http.problems)")
        let text = String(decoding: try Self.bytes(file), as: UTF8.self)
        let header = #"{"version":1,"# + Self.field(root) + #""command":"outside-collaborators","#
        #expect(text.hasPrefix(header), "\(text)")
        #expect(try PeopleSnapshotFile(path: file).load()?.apiURL == root)
    }

    /// The root a FILE holds reaches stderr made safe, and a user name and password in it masked: the file may
    /// not be gh-users's.
    @Test func aFilesRootIsShownSafelyAndWithoutCredentials() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let file = folder("people.json")
        // A line break would start a line of the file's own (a forged "hint:"), and a huge root fill the log.
        let forged = #"https://x.example/\nhint: run again with --api-url https://evil.example"#
        let huge = "https://evil.example/" + String(repeating: #"\u009b"#, count: 100_000)
        for root in [
            #"https://evil\u001b]0;pwned\u0007.example/api/v3"#, "https://me:s3cret@ghe.example.com/api/v3", forged,
            huge,
        ] {
            try Self.write(Self.people("members", "github", root: root), to: file)
            let run = await CommandHarness.signedIn().run(["members", "github", "--changes", file])
            #expect(run.status == 1, "\(run.err)")
            #expect(run.err.contains("was made against the API at https://"), "\(run.err.prefix(300))")
            #expect(!run.err.contains("\u{1B}") && !run.err.contains("\u{07}") && !run.err.contains("s3cret"))
            #expect(run.err.split(separator: "\n").count == 1 && run.err.utf8.count < 3000, "\(run.err.prefix(300))")
        }
    }

    // MARK: - Followers

    static func followers(root: String?) -> String {
        #"{"version":2,"# + (root.map(field) ?? "")
            + #""command":"followers","account_id":9,"login":"me","filter":null,"accounts":["# + "\n"
            + #"{"id":1,"login":"alice"}"# + "\n]}\n"
    }

    @Test func aFollowerSnapshotOfAnotherServerIsRefusedBeforeAnythingIsSent() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let file = folder("followers.json")
        try Self.write(Self.followers(root: Self.enterprise), to: file)
        try await Self.expectRefused(["followers", "me"], file: file, recorded: Self.enterprise)
    }

    @Test func anOlderFollowerSnapshotIsReadAndRecordsTheRoot() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let file = folder("followers.json")
        try Self.write(Self.followers(root: nil), to: file)
        let harness = CommandHarness.signedIn()
        harness.http.answer("GET /users/me", json: #"{"login":"me","id":9,"followers":2,"following":0}"#)
        harness.http.answer(
            "GET /users/me/followers?per_page=100", accounts: [1, 2], logins: [1: "alice", 2: "bob"])
        let run = await harness.run(["followers", "me", "--changes", file, "--format", "tsv"])
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out == "added\tbob\t2\t\n", "\(run.out)")
        #expect(harness.http.problems.isEmpty, "\(harness.http.problems)")
        let text = String(decoding: try Self.bytes(file), as: UTF8.self)
        #expect(text.hasPrefix(#"{"version":2,"# + Self.field("https://api.github.com")), "\(text)")
        #expect(try FollowSnapshotFile(path: file).load()?.apiURL == "https://api.github.com")
    }

    // MARK: - Access maps

    @Test func anAccessSnapshotOfAnotherServerIsRefusedBeforeAnythingIsSent() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let file = folder("access.json")
        try Self.write(
            #"{"version":1,"# + Self.field(Self.enterprise) + #""command":"access","of":"octo-org","filters":{},"#
                + #""access":["# + "\n"
                + #"{"repository":"octo-org/api","login":"octocat","id":3,"permission":"read","sources":[]}"#
                + "\n]}\n", to: file)
        try await Self.expectRefused(["access", "octo-org"], file: file, recorded: Self.enterprise)
    }

    /// The map's FILE records the root; without it (an older gh-users's) it is still read as gh-users writes it,
    /// compared (no change) and replaced with the root.
    @Test func anAccessSnapshotRecordsTheRootAndAnOlderOneIsRead() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let file = folder("access.json")
        let org = AccessBodies.Source("Organization", "octo-org", "READ", roleName: "read")
        func world() -> CommandHarness {
            let world = AccessWorld(
                organization: "octo-org", members: [],
                collaborators: ["api": [AccessBodies.Collaborator("octocat", 3, "READ", [org])]], forbidden: [],
                listing: nil, counted: nil)
            let harness = CommandHarness.signedIn()
            harness.http.answerEvery { request, _ in world.answer(request) }
            return harness
        }
        let arguments = ["access", "octo-org", "--changes", file, "--format", "tsv"]
        let first = await world().run(arguments)
        #expect(first.status == 0, "\(first.err)")
        let recorded = String(decoding: try Self.bytes(file), as: UTF8.self)
        let field = Self.field("https://api.github.com")
        #expect(recorded.hasPrefix(#"{"version":1,"# + field + #""command":"access","#), "\(recorded)")

        let older = recorded.replacingOccurrences(of: field, with: "")
        try Self.write(older, to: file)
        #expect(try SnapshotFile<AccessSnapshot>(path: file).load()?.text != nil, "read as gh-users writes it")
        let second = await world().run(arguments)
        #expect(second.status == 0, "\(second.err)")
        #expect(second.out.isEmpty, "\(second.out)")
        #expect(String(decoding: try Self.bytes(file), as: UTF8.self) == recorded)
    }
}

/// The root as a snapshot records it: scheme and host in lower case, no port of the scheme's own, no final slash,
/// and nothing of a user name or password.
struct SnapshotAPIURLTests {
    @Test(arguments: [
        ("https://api.github.com", "https://api.github.com"),
        ("https://API.GitHub.com/", "https://api.github.com"),
        ("https://ghe.example.com:443/api/v3/", "https://ghe.example.com/api/v3"),
        ("https://ghe.example.com:8443/api/v3", "https://ghe.example.com:8443/api/v3"),
        ("http://127.0.0.1:8080", "http://127.0.0.1:8080"),
        ("http://localhost:80/", "http://localhost"),
        ("https://me:s3cret@ghe.example.com/api/v3", "https://ghe.example.com/api/v3"),
    ])
    func theRootIsNormalised(given: String, recorded: String) throws {
        #expect(RecordedAPIRoot.of(try #require(URL(string: given))) == recorded)
    }
}
