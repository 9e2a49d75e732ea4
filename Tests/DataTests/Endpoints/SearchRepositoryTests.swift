import Foundation
import Networking
import TestSupport
import Testing

@testable import Data
@testable import Domain

struct SearchRepositoryTests {
    @Test func decodesTheEnvelopeAndKeepsEachItemsBytesWithItsScore() async throws {
        let stub = StubTransport()
        stub.stub(
            "https://api.github.com/search/users?q=followers%3A%3E100+type%3Aorg+location%3A%22San+Francisco%22&sort=followers&order=asc&per_page=30",
            body: try fixture("search-users.json")
        )
        let query = try UserSearchQuery(
            text: #"followers:>100 type:org location:"San Francisco""#, sort: .followers, order: .asc)
        let page = try await GitHubRepository(client: client(stub)).firstPage(
            GitHubEndpoints.searchUsers(query), perPage: 30)
        #expect(page.totalCount == 12)
        #expect(!page.incompleteResults)
        #expect(page.items.map(\.login) == ["mojombo"])
        let first = try #require(page.items.first)
        let raw = try #require(try JSONSerialization.jsonObject(with: Data(first.raw.bytes)) as? [String: Any])
        #expect(raw["score"] as? Int == 1)
        #expect(stub.unusedStubs.isEmpty)
    }

    @Test(arguments: [
        #"{"total_count":1}"#, #"{"total_count":1,"items":{}}"#, "[]", #"{"total_count":1,"items":[{"id":1}]}"#,
    ])
    func refusesBrokenEnvelopes(body: String) async throws {
        let stub = StubTransport()
        stub.stub("https://api.github.com/search/users?q=x&per_page=30", body: body)
        await #expect(throws: DomainError.self) {
            try await GitHubRepository(client: client(stub)).firstPage(
                GitHubEndpoints.searchUsers(try UserSearchQuery(text: "x")), perPage: 30)
        }
    }

    @Test(arguments: ["", "   ", "\n\t"])
    func anEmptyQueryIsRefusedBeforeAnyRequest(text: String) {
        #expect(throws: DomainError.self) { try UserSearchQuery(text: text) }
    }

    @Test(arguments: [
        ("mona", "mona"), ("a b", "a+b"), ("followers:>100", "followers%3A%3E100"),
        ("c++ & co=1#x", "c%2B%2B+%26+co%3D1%23x"),
        ("Zürich", "Z%C3%BCrich"),
    ])
    func encodesQueryValues(raw: String, encoded: String) {
        #expect(URLEncoding.queryValue(raw) == encoded)
    }
}
