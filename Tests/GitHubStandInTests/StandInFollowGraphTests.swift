import Foundation
import Testing

@testable import GitHubStandIn

/// The follow graph without HTTP: what writes leave in both lists and in the profile counts, checked against a
/// plain array model.
@Suite struct StandInFollowGraphTests {
    @Test func aFollowPutsEachAccountAtTheFrontOfTheOtherOnesListAndMovesBothCounts() throws {
        let graph = StandInFollowGraph(population: StandInPopulation(userCount: 250))
        let (base, octocat) = (StandInFollowGraph(population: graph.population), graph.population.users[0])
        // Someone with no edge to or from octocat on either side of the base graph.
        let other = try #require(
            graph.population.users.dropFirst().first {
                !graph.followers(of: octocat).contains($0) && !graph.follows($0, octocat)
                    && !graph.followers(of: $0).contains(octocat)
            })
        let before = graph.counts(of: other)
        #expect(graph.counts(of: octocat) == (20, 0) && !graph.follows(octocat, other))

        #expect(graph.follow(octocat, other))
        #expect(graph.following(of: octocat) == [other] && graph.follows(octocat, other))
        #expect(graph.followers(of: other) == [octocat] + base.followers(of: other))
        #expect(
            graph.counts(of: octocat) == (20, 1) && graph.counts(of: other) == (before.followers + 1, before.following))
        // Idempotent, and following oneself is no change.
        #expect(!graph.follow(octocat, other) && !graph.follow(octocat, octocat))
        #expect(graph.counts(of: octocat) == (20, 1))

        #expect(graph.unfollow(octocat, other) && !graph.unfollow(octocat, other))
        #expect(graph.following(of: octocat).isEmpty && graph.followers(of: other) == base.followers(of: other))
        #expect(graph.counts(of: octocat) == (20, 0) && graph.counts(of: other) == before)
    }

    /// Unfollows of base members from the start, middle and end, outsiders, repeats and re-follows: the list is
    /// the model's, and the profile's count (1,234, in a population with room for 299) moves with it.
    @Test func pagesOfEditedListsMatchAPlainModelAfterEveryWrite() throws {
        let graph = StandInFollowGraph(population: StandInPopulation(userCount: 300))
        let owner = graph.population.users[1]
        var model = graph.followers(of: owner)
        let script =
            [0, 1, 150, 298, 297, 42, 0, 150].map { (false, model[$0]) } + [150, 298, 5].map { (true, model[$0]) }
            + [10, 11, 298, 13].map { (false, model[$0]) } + [(true, owner)]
        for (follow, follower) in script {
            if follow {
                graph.follow(follower, owner)
                if follower != owner, !model.contains(follower) { model.insert(follower, at: 0) }
            } else {
                graph.unfollow(follower, owner)
                model.removeAll { $0 == follower }
            }
            #expect(graph.followers(of: owner) == model, "after \(follow ? "follow" : "unfollow") by \(follower.login)")
            #expect(graph.counts(of: owner).followers == 1_234 + model.count - 299)
            #expect(graph.follows(follower, owner) == model.contains(follower), "\(follower.login)")
        }
    }

    @Test func writesFromManyThreadsAtOnceAreAllKept() throws {
        let graph = StandInFollowGraph(population: StandInPopulation(userCount: 1_000))
        let target = graph.population.users[0]
        let followers = Array(
            graph.population.users.filter {
                $0 != target && !graph.followers(of: target).contains($0) && !graph.follows($0, target)
            }.prefix(400))
        #expect(followers.count == 400)
        DispatchQueue.concurrentPerform(iterations: 8) { lane in
            for follower in followers[(lane * 50)..<((lane + 1) * 50)] {
                graph.follow(follower, target)
                _ = graph.followers(of: target)
            }
        }
        #expect(Set(graph.followers(of: target).map(\.id)).count == 420 && graph.counts(of: target).followers == 420)
        #expect(followers.allSatisfy { graph.follows($0, target) })
    }
}
