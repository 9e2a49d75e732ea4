import Foundation
import TestSupport
import Testing

@testable import gh_users

/// `--offline` over an entry that is there but does not read says it is damaged, not that it was never cached.
struct OfflineDamagedEntryTests {
    @Test func aDamagedEntryIsSaidToBeDamaged() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let github = StubTransport()
        github.answer("GET /users/octocat", headers: [("ETag", #"W/"1""#)], json: #"{"login":"octocat","id":1}"#)
        func run(_ arguments: [String]) async -> (Int32, String) {
            let (env, _, err) = AppEnvironment.test(
                http: github, environment: ["GH_TOKEN": "t", "XDG_CACHE_HOME": folder("cache")])
            return (await GhUsersApp(environment: env).run(arguments), err.text)
        }
        #expect(await run(["show", "octocat"]).0 == 0)
        let store = folder("cache") + "/gh-users/gh-users-responses"
        let name = try #require(
            try FileManager.default.contentsOfDirectory(atPath: store).first { $0.hasSuffix(".entry") })
        let file = URL(fileURLWithPath: store + "/" + name)
        var bytes = [UInt8](try Data(contentsOf: file))
        bytes[bytes.count - 2] ^= 0x01
        try Data(bytes).write(to: file)
        let (status, err) = await run(["show", "octocat", "--offline"])
        #expect(status == 1)
        #expect(
            err.hasPrefix("gh-users: GET /users/octocat is in the cache, but its copy is damaged (cut short, "),
            "\(err)")
        // A missing entry is still said to be missing.
        let missing = await run(["show", "mona", "--offline"])
        #expect(missing.1.hasPrefix("gh-users: GET /users/mona is not in the cache"), "\(missing.1)")
    }

    /// An entry larger than this run's cache would write (a body over GH_USERS_MAX_RESPONSE_BYTES, as a run with
    /// a higher cap stored it) is not read: damaged under --offline, fetched again without validators otherwise.
    @Test func anEntryOverTheBodyCapIsDamaged() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let github = StubTransport()
        let large = #"{"login":"octocat","id":1,"bio":""# + String(repeating: "x", count: 100_000) + #""}"#
        github.answer("GET /users/octocat", headers: [("ETag", #"W/"1""#)], json: large)
        github.answer("GET /users/octocat", headers: [("ETag", #"W/"2""#)], json: #"{"login":"octocat","id":1}"#)
        func run(_ arguments: [String], cap: String? = nil) async -> (Int32, String) {
            var environment = ["GH_TOKEN": "t", "XDG_CACHE_HOME": folder("cache")]
            environment["GH_USERS_MAX_RESPONSE_BYTES"] = cap
            let (env, _, err) = AppEnvironment.test(http: github, environment: environment)
            return (await GhUsersApp(environment: env).run(arguments), err.text)
        }
        #expect(await run(["show", "octocat"]).0 == 0)
        let (status, err) = await run(["show", "octocat", "--offline"], cap: "10K")
        #expect(status == 1)
        #expect(err.contains("its copy is damaged"), "\(err)")
        #expect(err.contains("GH_USERS_MAX_RESPONSE_BYTES"), "\(err)")
        #expect(await run(["show", "octocat"], cap: "10K").0 == 0)
        #expect(github.received.count == 2)
        #expect(github.received.last?.headers["If-None-Match"] == nil)
    }
}
