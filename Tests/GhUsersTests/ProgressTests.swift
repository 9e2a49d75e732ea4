import AtomicCore
import Domain
import Foundation
import TestSupport
import Testing

@testable import gh_users

struct ProgressTests {
    private func repository() -> FakeGitHub {
        let users = FakeGitHub()
        users.script(
            "/users?since=0&per_page=2",
            Result<Page<User>, DomainError>.success(
                Page(items: [makeUser(1), makeUser(2)], next: PageCursor(url: "p2"))))
        users.scriptPage("p2", .success(Page(items: [makeUser(3), makeUser(4)], next: PageCursor(url: "p3"))))
        users.scriptPage("p3", .success(Page(items: [makeUser(5)], next: nil)))
        return users
    }

    @Test func aMultiPageListingShowsProgressOnATerminalAndErasesIt() async {
        let (io, out, err) = IOStreams.test(stderrTTY: true)
        var (env, _, _) = AppEnvironment.test(github: repository())
        env.io = io
        #expect(await GhUsersApp(environment: env).run(["list", "--all", "--per-page", "2"]) == 0)
        #expect(out.text.split(separator: "\n").count == 5)
        #expect(err.text.contains("Fetched 1 page · 2 accounts"))
        #expect(err.text.contains("Fetched 2 pages · 4 accounts"))
        #expect(err.text.hasSuffix("\r\u{1B}[2K"))
        #expect(!out.text.contains("Fetched"))
    }

    @Test func offATerminalThereIsNoProgress() async {
        let (env, _, err) = AppEnvironment.test(github: repository())
        #expect(await GhUsersApp(environment: env).run(["list", "--all", "--per-page", "2"]) == 0)
        #expect(err.text.isEmpty)
    }

    @Test func aSinglePageShowsNone() async {
        let users = FakeGitHub()
        users.script("/users?since=0&per_page=30", .success(Page(items: [makeUser(1)], next: nil)))
        let (io, _, err) = IOStreams.test(stderrTTY: true)
        var (env, _, _) = AppEnvironment.test(github: users)
        env.io = io
        #expect(await GhUsersApp(environment: env).run(["list"]) == 0)
        #expect(err.text.isEmpty)
    }
}
