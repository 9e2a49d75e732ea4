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
            err.hasPrefix("gh-users: GET /users/octocat is in the cache, but its copy is damaged (cut short, or "),
            "\(err)")
        // A missing entry is still said to be missing.
        let missing = await run(["show", "mona", "--offline"])
        #expect(missing.1.hasPrefix("gh-users: GET /users/mona is not in the cache"), "\(missing.1)")
    }
}
