import Foundation
import TestSupport
import Testing

@testable import gh_users

/// `--changes` records GitHub's list as it is now: it never answers from the cache where the network cannot be
/// reached (a cached page joined to live ones reports phantom changes), and is never run under `--offline`.
struct ChangesFromCacheTests {
    private static let profile = "/users/octocat"
    private static let list = "/users/octocat/followers?per_page=100"

    /// `octocat`'s followers in two pages, each with an `ETag` so the cache keeps it; page 2 is lost (the
    /// connection, on its one attempt) when `lostPageTwo`.
    private func github(_ pages: [[Int64]], lostPageTwo: Bool = false) -> StubTransport {
        let github = StubTransport()
        let count = pages.map(\.count).reduce(0, +)
        github.answer(
            "GET " + Self.profile, headers: [("ETag", #"W/"p""#)],
            json: #"{"login":"octocat","id":583231,"followers":\#(count),"following":0}"#)
        let second = Self.list + "&page=2"
        github.answer(
            "GET " + Self.list, headers: [("ETag", "W/\"\(pages[0])\""), StubTransport.link(next: second)],
            json: accounts(pages[0]))
        if lostPageTwo {
            github.fail(StubTransport.apiRoot + second, with: .connectionLost)
        } else {
            github.answer("GET " + second, headers: [("ETag", "W/\"\(pages[1])\"")], json: accounts(pages[1]))
        }
        return github
    }

    private func run(_ github: StubTransport, _ arguments: [String], cache: String) async -> (Int32, String, String) {
        let (env, out, err) = AppEnvironment.test(
            http: github, environment: ["GH_TOKEN": "t", "XDG_CACHE_HOME": cache])
        let status = await GhUsersApp(environment: env).run(arguments + ["--retries", "0"])
        return (status, out.text, err.text)
    }

    /// Follower 4 arrived, pushing 2 to page 2, which cannot be reached: its cached copy (3 alone) joined to the
    /// live page 1 (4, 1) would report 2 removed and record it. Before: exit 0, "removed 2", FILE replaced. Then
    /// the copy was read and refused after the whole list: a warning a page, and the refusal. Now the network's
    /// failure is the run's: no copy is read, and nothing is compared or recorded. Under `--no-cache` the error
    /// advised `--offline`, which `--changes` refuses: no longer.
    @Test(arguments: [[], ["--no-cache"]])
    func aPageTheNetworkCannotReachFailsTheRunThoughTheCacheHoldsIt(cacheOptions: [String]) async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let arguments = ["followers", "octocat", "--changes", folder("f.json"), "--format", "tsv"]
        let first = await run(github([[1, 2], [3]]), arguments, cache: folder("cache"))
        #expect(first.0 == 0, "\(first.2)")
        let before = try Data(contentsOf: URL(fileURLWithPath: folder("f.json")))
        let (status, out, err) = await run(
            github([[4, 1], [2, 3]], lostPageTwo: true), arguments + cacheOptions, cache: folder("cache"))
        #expect(status == 1)
        #expect(out.isEmpty)
        #expect(err.hasPrefix("gh-users: network error: "), "\(err)")
        #expect(!err.contains("using the copy"), "\(err)")
        #expect(!err.contains("--offline"), "\(err)")
        #expect(err.hasSuffix("gh-users: the snapshot file '\(folder("f.json"))' was left as it was.\n"), "\(err)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder("f.json"))) == before)
    }

    @Test(arguments: [
        ["followers", "octocat"], ["following"], ["members", "my-org"], ["stargazers", "octo/repo"],
        ["access", "my-org"],
    ])
    func offlineChangesIsAUsageError(command: [String]) async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let github = StubTransport()
        let (status, _, err) = await run(
            github, command + ["--offline", "--changes", folder("f.json")], cache: folder("cache"))
        #expect(status == 64)
        #expect(
            err.contains("--changes compares GitHub's list as it is now, which --offline cannot ask"), "\(err)")
        #expect(github.received.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: folder("f.json")))
    }
}
