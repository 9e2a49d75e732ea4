import AtomicCore
import Domain
import Foundation
import TestSupport
import Testing

@testable import gh_users

private func run(_ arguments: [String], _ env: AppEnvironment) async -> Int32 {
    await GhUsersApp(environment: env).run(arguments)
}

/// `starred LOGIN`: the star media type and the sort options.
struct StarredCommandTests {
    @Test func starredAsksForStarJSONAndSortsAsAsked() async {
        let github = StubTransport()
        github.answer(
            "GET /users/octocat/starred?sort=updated&direction=asc&per_page=30",
            json: #"[{"starred_at":"2011-01-16T19:06:43Z","repo":{"id":7,"full_name":"o/r"}}]"#)
        let (env, out, _) = AppEnvironment.test(http: github)
        #expect(await run(["starred", "octocat", "--sort", "updated", "--direction", "asc"], env) == 0)
        #expect(out.text.hasPrefix("o/r\t2011-01-16T19:06:43Z\t"))
        #expect(ListStarredCommand.declaration.spec.name == "starred")
    }
}
