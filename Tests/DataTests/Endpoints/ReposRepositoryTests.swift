import Foundation
import Networking
import TestSupport
import Testing

@testable import Data
@testable import Domain

struct ReposRepositoryTests {
    @Test func decodesGitHubsDocumentedListAndSendsOnlyChosenParameters() async throws {
        let stub = StubTransport()
        stub.stub(
            "https://api.github.com/users/octocat/repos?sort=pushed&direction=asc&per_page=5",
            headers: [
                (
                    "Link",
                    #"<https://api.github.com/user/1/repos?sort=pushed&direction=asc&per_page=5&page=2>; rel="next""#
                )
            ],
            body: try fixture("repos-list-for-user.json")
        )
        let page = try await GitHubRepository(client: client(stub)).firstPage(
            GitHubEndpoints.repos(
                of: try Login(validating: "octocat"), query: RepoQuery(sort: .pushed, direction: .asc)),
            perPage: 5
        )
        let repo = try #require(page.items.first)
        #expect(repo.fullName == "octocat/Hello-World")
        #expect(repo.stargazers == 80)
        #expect(repo.forks == 9)
        #expect(repo.fork == false)
        #expect(repo.language == nil)
        #expect(page.next?.url == "https://api.github.com/user/1/repos?sort=pushed&direction=asc&per_page=5&page=2")
        let raw = try #require(try JSONSerialization.jsonObject(with: Data(repo.raw.bytes)) as? [String: Any])
        #expect(raw["owner"] is [String: Any])
        #expect(stub.unusedStubs.isEmpty)
    }

    @Test func followsTheCursorExactly() async throws {
        let stub = StubTransport()
        stub.stub("https://api.github.com/user/1/repos?page=2", body: "[]")
        let page = try await GitHubRepository(client: client(stub)).page(
            GitHubEndpoints.repos(of: try Login(validating: "octocat"), query: RepoQuery()),
            at: PageCursor(url: "https://api.github.com/user/1/repos?page=2")
        )
        #expect(page.items.isEmpty)
        #expect(page.next == nil)
    }
}
