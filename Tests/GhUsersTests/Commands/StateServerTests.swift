import Foundation
import TestSupport
import Testing

@testable import gh_users

/// Every `--state` records the API root its crawl reads (`api_url`), as `--changes` snapshots do
/// (`SnapshotServerTests`). Before, a crawl begun against one server (`GH_HOST=ghe.example.com`) and resumed
/// against another (a cron job without the `GH_HOST`) appended the other server's records to the same output as if
/// they went on with the first's. Now the rerun is refused before anything is sent or written, the state and the
/// output left byte for byte; a state written before the root was recorded goes on as before, and records it.
struct StateServerTests {
    static let enterprise = "https://ghe.example.com/api/v3"
    static let github = "https://api.github.com"

    /// A harness that talks to the Enterprise host through `GH_HOST`, as gh exports it.
    static func enterpriseHarness() -> CommandHarness {
        var harness = CommandHarness()
        harness.environment = ["GH_HOST": "ghe.example.com", "GH_ENTERPRISE_TOKEN": CommandRequestTests.token]
        return harness
    }

    /// What a run against `now` says of a state made against `recorded`, and how to go on.
    static func refusal(_ path: String, recorded: String, now: String, remedy: String) -> String {
        "gh-users: the state file '\(path)' was made against the API at \(recorded), not against \(now), which "
            + "this run uses (--api-url, GH_USERS_API_URL or GH_HOST). \(remedy)\n"
    }

    static let crawlRemedy =
        "Nothing was changed: resume the crawl with the --api-url or GH_HOST it was made with, or start another "
        + "crawl with another state file and output"

    static func text(_ path: String) throws -> String {
        String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
    }

    static func write(_ text: String, to path: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    /// `"api_url":"…",` as a state records it after its version.
    static func field(_ root: String) -> String { #""api_url":"\#(root)","# }

    // MARK: - list --state

    /// A crawl of the Enterprise host's first two accounts, to `--output` or stdout: its state records the root.
    static func enterpriseCrawl(state: String, output: String?) async throws -> String {
        let harness = enterpriseHarness()
        harness.http.answer("GET /api/v3/users?since=0&per_page=2", accounts: [1, 2])
        let run = await harness.run(
            ["list", "--limit", "2", "--state", state] + (output.map { ["--output", $0] } ?? []))
        #expect(run.status == 0, "\(run.err)")
        #expect(harness.http.problems.isEmpty, "\(harness.http.problems)")
        let recorded = try text(state)
        #expect(recorded.hasPrefix(#"{"version":1,"# + field(enterprise) + #""since":2,"#), "\(recorded)")
        return run.out
    }

    /// The crawl resumed without `GH_HOST` (github.com) is refused before anything is sent, to a file or to stdout,
    /// and even for a shard done there (`--until`): the state and the output as they were.
    @Test(arguments: [(true, [String]()), (false, []), (true, ["--until", "2"])])
    func aCrawlOfOneServerIsRefusedOnAnother(toFile: Bool, extra: [String]) async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let (state, output) = (folder("s"), toFile ? folder("o.tsv") : nil)
        _ = try await Self.enterpriseCrawl(state: state, output: output)
        let before = try Self.text(state)
        let written = try output.map(Self.text)

        let harness = CommandHarness.signedIn()
        let run = await harness.run(
            ["list", "--limit", "2", "--state", state] + (output.map { ["--output", $0] } ?? []) + extra)
        #expect(run.status == 1, "\(run.err)")
        #expect(run.out.isEmpty, "\(run.out)")
        #expect(
            run.err
                == Self.refusal(state, recorded: Self.enterprise, now: Self.github, remedy: Self.crawlRemedy),
            "\(run.err)")
        #expect(harness.http.calls.isEmpty, "\(harness.http.calls)")
        #expect(try Self.text(state) == before)
        #expect(try output.map(Self.text) == written)
    }

    /// A state without `api_url` (an older gh-users's) resumes on either server as before, and records the root
    /// it went on against.
    @Test(arguments: [false, true])
    func anOlderCrawlStateResumesAndRecordsTheRoot(onEnterprise: Bool) async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let (state, output) = (folder("s"), folder("o.tsv"))
        let root = onEnterprise ? Self.enterprise : Self.github
        let prefix = onEnterprise ? "/api/v3" : ""
        let first = onEnterprise ? Self.enterpriseHarness() : CommandHarness.signedIn()
        first.http.answer("GET \(prefix)/users?since=0&per_page=2", accounts: [1, 2])
        let arguments = ["list", "--limit", "2", "--state", state, "--output", output]
        #expect(await first.run(arguments).status == 0)
        let older = try Self.text(state).replacingOccurrences(of: Self.field(root), with: "")
        #expect(!older.contains("api_url"))
        try Self.write(older, to: state)
        let written = try Self.text(output)

        let second = onEnterprise ? Self.enterpriseHarness() : CommandHarness.signedIn()
        second.http.answer("GET \(prefix)/users?since=2&per_page=2", accounts: [3, 4])
        let run = await second.run(arguments)
        #expect(run.status == 0, "\(run.err)")
        #expect(second.http.problems.isEmpty, "\(second.http.problems)")
        let appended = try Self.text(output)
        #expect(appended.hasPrefix(written) && appended.contains("user3") && appended.contains("user4"))
        let recorded = try Self.text(state)
        #expect(recorded.hasPrefix(#"{"version":1,"# + Self.field(root) + #""since":4,"#), "\(recorded)")
        #expect(try CrawlStateFile(path: state).load()?.apiURL == root)
    }

    // MARK: - access --state

    /// A state of `access octo-org` after `octo-org/r00`, made against `root` (nil: by a gh-users that did not
    /// record it).
    static func accessState(root: String?, complete: Bool = false) -> String {
        #"{"version":1,"# + (root.map(field) ?? "")
            + #""command":"access","of":"octo-org","filters":{},"format":"tsv","after":"octo-org/r00","#
            + #""repositories":1,"records":1,"unreadable":[],"missing":[],"complete":\#(complete)}"# + "\n"
    }

    /// Three repositories, `r00`…`r02`, each with one collaborator through the base permission.
    static func accessWorld() -> CommandHarness {
        let world = AccessStateTests.world(repositories: 3)
        let harness = CommandHarness.signedIn()
        harness.http.answerEvery { request, _ in world.answer(request) }
        return harness
    }

    /// A map begun on the Enterprise host is refused on github.com before anything is sent, whether it has more
    /// to read or was read to its end: the state as it was, nothing written to stdout.
    @Test(arguments: [false, true])
    func anAccessMapOfOneServerIsRefusedOnAnother(complete: Bool) async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let state = folder("access.state")
        try Self.write(Self.accessState(root: Self.enterprise, complete: complete), to: state)
        let before = try Self.text(state)
        let harness = CommandHarness.signedIn()
        let run = await harness.run(["access", "octo-org", "--state", state])
        #expect(run.status == 1, "\(run.err)")
        #expect(run.out.isEmpty, "\(run.out)")
        let remedy =
            "It was left as it is: resume the map with the --api-url or GH_HOST it was made with, or give this run "
            + "another state file and output"
        #expect(
            run.err == Self.refusal(state, recorded: Self.enterprise, now: Self.github, remedy: remedy), "\(run.err)")
        #expect(harness.http.calls.isEmpty, "\(harness.http.calls)")
        #expect(try Self.text(state) == before)
    }

    /// A state without `api_url` (or `viewer_id`) goes on after its last repository as before, and records the
    /// root and the token's account.
    @Test func anOlderAccessStateResumesAndRecordsTheRoot() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let state = folder("access.state")
        try Self.write(Self.accessState(root: nil), to: state)
        let harness = Self.accessWorld()
        let run = await harness.run(["access", "octo-org", "--state", state])
        #expect(run.status == 0, "\(run.err)")
        #expect(!run.out.contains("r00") && run.out.contains("octo-org/r01") && run.out.contains("octo-org/r02"))
        let recorded = try Self.text(state)
        #expect(
            recorded.hasPrefix(#"{"version":1,"# + Self.field(Self.github) + #""viewer_id":1,"command":"access","#),
            "\(recorded)")
        #expect(recorded.contains(#""complete":true"#), "\(recorded)")
    }
}
