import Foundation
import Testing

@testable import GitHubStandIn

/// The follow graph without HTTP: the base graph's membership arithmetic, the two-sided account, and the edits
/// writes leave, checked against a plain array model of each list.
@Suite struct StandInFollowGraphTests {
    /// `follows` answers by modular arithmetic instead of scanning; a wrong inverse or offset shows up here.
    @Test func baseMembershipAgreesWithTheListsForEveryPair() throws {
        for userCount in [1, 2, 3, 10, 97, 200] {
            let population = StandInPopulation(userCount: userCount)
            for follower in population.users {
                let following = Set(population.following(of: follower).map(\.id))
                for followed in population.users {
                    #expect(
                        population.follows(follower, followed) == following.contains(followed.id),
                        "\(follower.login) → \(followed.login) @\(userCount)")
                }
            }
        }
        // The existing id-based accessors and the new user-based ones are the same lists.
        let population = StandInPopulation(userCount: 1_000)
        let yamada = try #require(population.user(login: "Yamada-Taro"))
        #expect(population.followers(of: yamada) == population.followers(ofUserID: yamada.id))
        #expect(population.following(of: yamada) == population.following(ofUserID: yamada.id))
    }

    @Test func aFollowPutsEachAccountAtTheFrontOfTheOtherOnesListAndMovesBothCounts() throws {
        let graph = StandInFollowGraph(population: StandInPopulation(userCount: 250))
        let population = graph.population
        let octocat = try #require(population.user(login: "octocat"))
        // Someone who neither follows octocat nor is followed by it, on either side of the base graph.
        let other = try #require(
            population.users.first {
                $0 != octocat && !population.followers(of: octocat).contains($0)
                    && !population.following(of: $0).contains(octocat)
                    && !population.followers(of: $0).contains(octocat)
            })
        let before = (octocat: graph.profileCounts(of: octocat), other: graph.profileCounts(of: other))
        #expect(before.octocat == StandInFollowCounts(followers: 20, following: 0))
        #expect(!graph.follows(octocat, other))

        #expect(graph.follow(octocat, other))
        #expect(graph.following(of: octocat) == [other])
        #expect(graph.followers(of: other).first == octocat)
        #expect(graph.followers(of: other).count == population.followers(of: other).count + 1)
        #expect(graph.follows(octocat, other) && graph.follows("OCTOCAT", other.login.uppercased()))
        #expect(graph.profileCounts(of: octocat) == StandInFollowCounts(followers: 20, following: 1))
        #expect(graph.profileCounts(of: other).followers == before.other.followers + 1)
        #expect(graph.profileCounts(of: other).following == before.other.following)
        // The base graph itself is untouched: it is what every other server starts from.
        #expect(population.following(of: octocat).isEmpty)

        // Idempotent, and following oneself is no change.
        #expect(!graph.follow(octocat, other))
        #expect(!graph.follow(octocat, octocat))
        #expect(graph.profileCounts(of: octocat) == StandInFollowCounts(followers: 20, following: 1))

        #expect(graph.unfollow(octocat, other))
        #expect(!graph.unfollow(octocat, other))
        #expect(graph.following(of: octocat).isEmpty && graph.followers(of: other) == population.followers(of: other))
        #expect(graph.profileCounts(of: octocat) == before.octocat && graph.profileCounts(of: other) == before.other)
        #expect(!graph.follows(octocat, other))
    }

    /// Unfollows of base edges, follows, re-follows, in any order: every page of both lists must be the model's,
    /// which only a correct skip over removed base members gives.
    @Test func pagesOfEditedListsMatchAPlainModelAfterEveryWrite() throws {
        let graph = StandInFollowGraph(population: StandInPopulation(userCount: 300))
        let population = graph.population
        let owner = try #require(population.user(login: "Yamada-Taro"))
        var model = population.followers(of: owner)
        #expect(model.count == 299)
        // A fixed, varied script: base members from the start, middle and end, outsiders, repeats.
        let baseIDs = model.map(\.id)
        var script: [(follow: Bool, id: Int)] = []
        for position in [0, 1, 150, 298, 297, 42, 0, 150] {
            script.append((false, baseIDs[position]))
        }
        for position in [150, 298, 5] {
            script.append((true, baseIDs[position]))
        }
        for position in [10, 11, 12, 298, 150, 13] {
            script.append((false, baseIDs[position]))
        }
        script.append((true, owner.id))
        for (follow, id) in script {
            let follower = try #require(population.user(id: id))
            if follow {
                graph.follow(follower, owner)
                if follower != owner, !model.contains(follower) {
                    model.insert(follower, at: 0)
                }
            } else {
                graph.unfollow(follower, owner)
                model.removeAll { $0 == follower }
            }
            let served = graph.followers(of: owner)
            #expect(served == model, "after \(follow ? "follow" : "unfollow") by \(follower.login)")
            // The profile claims 1,234 in a population with room for 299: it moves with the list from there.
            #expect(graph.profileCounts(of: owner).followers == 1_234 + model.count - 299)
            // Pages start in the middle of the edited list, past removed base members.
            let list = graph.list(.followers, of: owner)
            #expect(list.count == model.count)
            for size in [7, 30, 100] {
                for start in stride(from: 0, through: model.count, by: size) {
                    let end = min(start + size, model.count)
                    #expect(list.members(in: start..<(start + size)) == Array(model[start..<end]), "\(start)+\(size)")
                }
            }
        }
        // Both sides moved together: whoever the script touched follows Yamada-Taro exactly when it is listed.
        for id in Set(script.map(\.id)) where id != owner.id {
            let member = try #require(population.user(id: id))
            #expect(graph.follows(member, owner) == model.contains(member), "\(member.login)")
        }
    }

    @Test func writesFromManyThreadsAtOnceAreAllKept() throws {
        let graph = StandInFollowGraph(population: StandInPopulation(userCount: 1_000))
        let population = graph.population
        let target = try #require(population.user(login: "octocat"))
        let newcomers = population.users.filter {
            $0 != target && !population.followers(of: target).contains($0) && !population.follows($0, target)
        }.prefix(400)
        #expect(newcomers.count == 400)
        let followers = Array(newcomers)
        DispatchQueue.concurrentPerform(iterations: 8) { lane in
            for follower in followers[(lane * 50)..<((lane + 1) * 50)] {
                graph.follow(follower, target)
                _ = graph.followers(of: target)
            }
        }
        #expect(graph.followers(of: target).count == 20 + 400)
        #expect(Set(graph.followers(of: target).map(\.id)).count == 420)
        #expect(graph.profileCounts(of: target).followers == 420)
        #expect(followers.allSatisfy { graph.follows($0, target) })
    }
}
