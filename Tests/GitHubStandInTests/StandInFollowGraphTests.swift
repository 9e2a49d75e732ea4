import Foundation
import Testing

@testable import GitHubStandIn

/// The follow graph without HTTP: what writes leave in both lists and in the profile counts, checked against a
/// plain array model.
@Suite struct StandInFollowGraphTests {
    /// Unfollows of base members from the start, middle and end, outsiders, repeats, re-follows (newest first) and
    /// following oneself (no change): the list is the model's, and both sides' counts (the owner's 1,234, in a
    /// population with room for 299) move with it.
    @Test func pagesOfEditedListsMatchAPlainModelAfterEveryWrite() throws {
        let graph = StandInFollowGraph(population: StandInPopulation(userCount: 300))
        let base = StandInFollowGraph(population: graph.population)
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
            let moved = graph.following(of: follower).count - base.following(of: follower).count
            #expect(graph.counts(of: follower).following == base.counts(of: follower).following + moved)
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
