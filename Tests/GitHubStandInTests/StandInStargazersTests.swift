import Domain
import Foundation
import Testing

@testable import Data
@testable import GitHubStandIn

/// Issue 28: stargazers and watchers, listed since July 2026 only to a repository's admins and collaborators, and
/// REST's cap of 400 pages (star-history/star-history#194), which GraphQL's `Repository.stargazers` does not have.
@Suite struct StandInStargazersTests {
    static let star = [("Accept", "application/vnd.github.star+json")]

    /// The answer, as `login`, to gh-users's stargazers query (`GraphQLStargazersQuery`), `first` a page.
    static func ask(
        _ server: StandInServer, _ repository: String, first: Int = 100, after: String? = nil, as login: String
    ) throws -> [String: Any] {
        let query = GraphQLStargazersQuery.text(for: try RepositoryName(validating: repository), after: after)
        let paged = query.replacing("first: \(GraphQLStargazersQuery.pageSize)", with: "first: \(first)")
        return try graphQL(server, paged, token: StandInTokens.token(for: login)).jsonObject()
    }

    static func connection(_ answer: [String: Any]) -> [String: Any]? {
        value(answer, "data", "repository", "stargazers") as? [String: Any]
    }

    /// octocat/Spoon-Knife's stargazers are the population's users, oldest star first; `GET /repos/…` counts them.
    /// Past 40,000 stargazers REST stops: page 400 is the last its links name, 401 GitHub's 422; GraphQL goes on.
    @Test func restListsThePopulationOldestFirstToPageFourHundredAndGraphQLGoesOn() throws {
        let server = try standIn(StandInConfiguration(userCount: 45_000))
        let users = server.population.users.filter { $0.type == "User" }
        let base = "/repos/octocat/Spoon-Knife/stargazers?per_page=100&page="
        let records = try fetch(server, base + "1", headers: Self.star, as: "octocat").jsonArray()
        #expect(records.map { value($0, "user", "login") as? String } == users.prefix(100).map(\.login))
        let starred = records.compactMap { $0["starred_at"] as? String }
        #expect(starred.count == 100 && starred == starred.sorted())
        #expect(try logins(fetch(server, base + "1", as: "octocat")).first == users.first?.login)
        #expect(try fetch(server, "/repos/octocat/Spoon-Knife").jsonObject()["stargazers_count"] as? Int == users.count)
        let before = try fetch(server, base + "399", headers: Self.star, as: "octocat")
        let byID = "/repositories/1297269/stargazers?per_page=100&page=400"  // as GitHub's links name it, and serves
        #expect(linkRelations(before.header("Link"))["last"] == server.baseURL + byID)
        let last = try fetch(server, byID, headers: Self.star, as: "octocat")
        #expect(last.status == 200 && linkRelations(last.header("Link"))["next"] == nil)
        let past = try fetch(server, base + "401", headers: Self.star, as: "octocat")
        #expect(past.status == 422)
        #expect(
            try past.jsonObject()["message"] as? String
                == "In order to keep the API fast for everyone, pagination is limited for this resource. "
                + "Check the rel=last link relation in the Link response header to see how far back you can traverse."
        )
        #expect(users.count > 40_000)
        let after = StandInGraphQLSchema.cursor(39_999)
        let answer = try Self.ask(server, "octocat/Spoon-Knife", first: 2, after: after, as: "octocat")
        let connection = try #require(Self.connection(answer))
        #expect(connection["totalCount"] as? Int == users.count)
        let edges = try #require(connection["edges"] as? [[String: Any]])
        #expect(edges.map { value($0, "node", "login") as? String } == [users[40_000].login, users[40_001].login])
        #expect(value(connection, "pageInfo", "hasNextPage") as? Bool == true)
        #expect(value(connection, "pageInfo", "endCursor") as? String == StandInGraphQLSchema.cursor(40_001))
    }

    /// GraphQL pages by its cursor to the end; a cursor the stand-in did not give is an error about the query.
    /// Anyone without a grant on a repository gets an empty list (REST's 404s are `StandInWorldTests.reads`).
    @Test func graphQLPagesByCursorToTheEndAndListsNoneToSomeoneWithoutAGrant() throws {
        let server = try standIn(StandInConfiguration(userCount: 40))
        let users = server.population.users.filter { $0.type == "User" }
        let pages = try pages(at: "data", "repository", "stargazers") { after in
            try Self.ask(server, "octocat/Spoon-Knife", first: 7, after: after, as: "octocat")
        }
        let edges = pages.flatMap { $0["edges"] as? [[String: Any]] ?? [] }
        #expect(edges.map { value($0, "node", "login") as? String } == users.map(\.login))
        let bad = try Self.ask(server, "octocat/Spoon-Knife", after: "bm90IG91cnM=", as: "octocat")
        #expect(bad["data"] == nil && (bad["errors"] as? [Any])?.count == 1)
        let refused = try Self.connection(Self.ask(server, "octocat/Hello-World", as: "kitsune-fox"))
        #expect(refused?["totalCount"] as? Int == 0 && (refused?["edges"] as? [Any])?.isEmpty == true)
        let allowed = try Self.connection(Self.ask(server, "octocat/Hello-World", as: "octocat"))
        #expect(allowed?["totalCount"] as? Int == 12)
    }
}
