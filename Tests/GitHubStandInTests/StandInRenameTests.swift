import GitHubStandIn
import Testing

/// `StandInFollowGraph.rename(_:to:)`: the follow lists show an account under its new login, with its id and
/// place kept, whether or not a write has touched the list.
struct StandInRenameTests {
    @Test func aRenamedAccountKeepsItsIdAndPlaceInEveryList() throws {
        let graph = StandInFollowGraph(population: StandInPopulation(userCount: 300))
        let account = try #require(graph.population.users.first { graph.followers(of: $0).count >= 3 })
        let before = graph.followers(of: account)
        let renamed = before[1]
        graph.rename(renamed, to: "renamed-since")
        let after = graph.followers(of: account)
        #expect(after.map(\.id) == before.map(\.id))
        #expect(
            after.map(\.login) == before.map(\.login).enumerated().map { $0.offset == 1 ? "renamed-since" : $0.element }
        )
        // A list with writes in it (the edited path) shows the new login too.
        let newcomer = try #require(
            graph.population.users.first { $0.type == "User" && $0 != account && !graph.follows($0, account) })
        graph.follow(newcomer, account)
        #expect(graph.followers(of: account).dropFirst().map(\.login) == after.map(\.login))
        // Only the lists: the population still knows the account by its old login.
        #expect(graph.population.user(login: renamed.login)?.id == renamed.id)
    }
}
