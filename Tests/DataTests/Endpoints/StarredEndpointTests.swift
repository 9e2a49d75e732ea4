import Foundation
import Networking
import TestSupport
import Testing

@testable import Data
@testable import Domain

/// Stars are asked for with GitHub's star media type, so each carries when it was starred.
struct StarredEndpointTests {
    @Test func starsAreAskedForAsStarJSON() async throws {
        let stub = StubTransport()
        let url = "https://api.github.com/users/octocat/starred?per_page=30"
        stub.stub(url, headers: [("ETag", #""s1""#)], body: #"[{"starred_at":"2011-01-16T19:06:43Z","repo":{"id":1}}]"#)
        let login = try Login(validating: "octocat")
        let page = try await GitHubRepository(client: client(stub)).firstPage(
            GitHubEndpoints.records(.starred, of: login), perPage: 30)
        #expect(page.items.count == 1)
        let request = try #require(stub.received.first)
        #expect(request.headers["Accept"] == "application/vnd.github.star+json")
    }
}
