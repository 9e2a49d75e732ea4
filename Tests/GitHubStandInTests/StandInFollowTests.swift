import Foundation
import Testing

@testable import GitHubStandIn

private let writeDocs = [
    "PUT": "https://docs.github.com/rest/users/followers#follow-a-user",
    "DELETE": "https://docs.github.com/rest/users/followers#unfollow-a-user",
]

/// Following: the graph itself, without HTTP, checked against a plain array model; and the routes that read and
/// write it.
@Suite struct StandInFollowTests {
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
            graph.change(.following, follower, owner, adding: follow)
            if !follow {
                model.removeAll { $0 == follower }
            } else if follower != owner, !model.contains(follower) {
                model.insert(follower, at: 0)
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
                graph.change(.following, follower, target, adding: true)
                _ = graph.followers(of: target)
            }
        }
        #expect(Set(graph.followers(of: target).map(\.id)).count == 420 && graph.counts(of: target).followers == 420)
        #expect(followers.allSatisfy { graph.follows($0, target) })
    }

    /// GitHub's own `Link` URLs: `/user/following` for the token's list, `/user/{id}/followers` for a named one.
    /// Behind a proxy (`--base-url`: `Scripts/bench --network` puts nginx in front) they name the proxy.
    @Test(arguments: [nil, "https://api.bench.test"])
    func theTokensOwnListsAreItsAccountsListsWithTheirOwnLink(publicBaseURL: String?) throws {
        var configuration = StandInConfiguration(userCount: 250)
        configuration.publicBaseURL = publicBaseURL
        let server = try standIn(configuration)
        let base = publicBaseURL ?? server.baseURL
        let token = bearer(StandInTokens.token(for: "Yamada-Taro"))
        let mine = try fetch(server, "/user/following", headers: token)
        let theirs = try fetch(server, "/users/Yamada-Taro/following", headers: token)
        #expect(mine.status == 200 && mine.body == theirs.body)
        #expect(linkRelations(mine.header("Link"))["next"] == "\(base)/user/following?page=2")
        #expect(linkRelations(theirs.header("Link"))["next"] == "\(base)/user/2/following?page=2")
        let followers = try fetch(server, "/user/followers?per_page=100&page=3", headers: token)
        let yamada = try #require(server.population.user(login: "Yamada-Taro"))
        #expect(try logins(followers) == server.followGraph.followers(of: yamada)[200...].map(\.login))
    }

    /// The whole point of the graph: one PUT, and every read (both lists, the check, three profiles) sees it, with
    /// new ETags, so a client revalidating what it cached before gets the new body. A second PUT is 204 too. An
    /// unfollow that leaves a page's items but takes its list's second page changes the page's ETag too, or a client
    /// would keep following a `next` link to a page that no longer exists.
    @Test func aWriteIsSeenByEveryReadAndChangesTheirETags() throws {
        let server = try standIn()
        let octocat = try #require(server.population.user(login: "octocat"))
        let other = try #require(
            server.population.users.first {
                $0.type == "User" && $0 != octocat && !server.followGraph.follows(octocat, $0)
                    && !server.followGraph.followers(of: $0).contains(octocat)
            })
        let token = bearer(StandInTokens.token(for: "octocat"))
        let reads = [
            "/users/octocat/following", "/user/following", "/users/\(other.login)/followers?per_page=100",
            "/users/octocat", "/users/\(other.login)", "/user",
        ]
        let before = try reads.map { try fetch(server, $0, headers: token) }
        let otherFollowers = try #require(try before[4].jsonObject()["followers"] as? Int)
        #expect(try fetch(server, "/users/octocat/following/\(other.login)").status == 404)
        for _ in 0..<2 {
            let put = try fetch(server, "/user/following/\(other.login)", method: "PUT", headers: token)
            #expect(
                put.status == 204 && put.body.isEmpty
                    && put.header("X-Accepted-OAuth-Scopes") == "user, user:follow")
        }
        let after = try zip(reads, before).map { target, old in
            let revalidated = try fetch(server, target, headers: token + [("If-None-Match", old.header("ETag") ?? "")])
            #expect(revalidated.status == 200 && revalidated.header("ETag") != old.header("ETag"), "\(target)")
            return revalidated
        }
        #expect(try logins(after[0]) == [other.login] && logins(after[1]) == [other.login])
        let followers = try logins(after[2])
        #expect(followers.first == "octocat" && followers.count == otherFollowers + 1)
        #expect(try fetch(server, "/users/octocat/following/\(other.login)").status == 204)
        #expect(try after[3].jsonObject()["following"] as? Int == 1 && after[5].jsonObject()["following"] as? Int == 1)
        #expect(try after[4].jsonObject()["followers"] as? Int == otherFollowers + 1)
        let last = try #require(server.followGraph.followers(of: octocat).last)
        #expect(server.followGraph.followers(of: octocat).count == 20)
        let page = "/users/octocat/followers?per_page=19"
        let twoPages = try fetch(server, page, headers: tokenHeader)
        #expect(twoPages.header("Link")?.contains("rel=\"last\"") == true)
        #expect(try fetch(server, "/user/following/octocat", method: "DELETE", as: last.login).status == 204)
        let onePage = try fetch(
            server, page, headers: tokenHeader + [("If-None-Match", twoPages.header("ETag") ?? "")])
        #expect(onePage.status == 200 && onePage.body == twoPages.body && onePage.header("Link") == nil)
        #expect(onePage.header("ETag") != twoPages.header("ETag"))
    }

    /// A token without `user:follow` is refused before the target is looked at, so a missing scope never leaks
    /// whether an account exists; a `hide404` token is refused with a 404 instead of a 403.
    @Test(arguments: [
        ("gho_octocat_readonly", "Yamada-Taro", 403), ("gho_octocat_noscope", "no-such-user", 403),
        ("gho_octocat_hide404", "Yamada-Taro", 404), ("gho_octocat", "no-such-user", 404),
    ])
    func writesNeedATokenWithUserFollow(token: String, target: String, status: Int) throws {
        let server = try standIn()
        for method in ["PUT", "DELETE"] {
            let response = try fetch(server, "/user/following/\(target)", method: method, headers: bearer(token))
            let message = status == 403 ? "Resource not accessible by personal access token" : "Not Found"
            let documentation = writeDocs[method] ?? ""
            #expect(response.status == status, "\(method)")
            #expect(
                response.text
                    == #"{"message":"\#(message)","documentation_url":"\#(documentation)","status":"\#(status)"}"#)
        }
        #expect(try fetch(server, "/user", headers: bearer("gho_octocat")).jsonObject()["following"] as? Int == 0)
    }
}
