import Foundation
import GitHubStandIn
import Testing

@Suite struct StandInFollowTests {
    @Test func octocatHasItsFixtureCounts() throws {
        let population = StandInPopulation(userCount: 1_000)
        let followers = population.followers(ofUserID: 1)
        #expect(followers.count == 20)
        #expect(Set(followers.map(\.id)).count == 20)
        #expect(!followers.contains { $0.id == 1 })
        #expect(population.following(ofUserID: 1).isEmpty)
    }

    @Test func yamadaTaroHasMoreThanTwoHundredFiftyFollowersCappedByThePopulation() {
        #expect(StandInPopulation(userCount: 1_000).followers(ofUserID: 2).count == 999)
        #expect(StandInPopulation(userCount: 3_000).followers(ofUserID: 2).count == 1_234)
        #expect(StandInPopulation(userCount: 3_000).following(ofUserID: 2).count == 56)
        #expect(StandInPopulation(userCount: 10).followers(ofUserID: 1).count == 9)
        #expect(StandInPopulation(userCount: 1).followers(ofUserID: 1).isEmpty)
        #expect(StandInPopulation(userCount: 1_000).followers(ofUserID: 3).isEmpty)
    }

    @Test func everyListHasTheProfileCountNoDuplicatesAndNeverTheAccountItself() {
        for userCount in [2, 3, 97, 200] {
            let population = StandInPopulation(userCount: userCount)
            for user in population.users {
                let profile = user.profile
                let followers = population.followers(ofUserID: user.id)
                let following = population.following(ofUserID: user.id)
                #expect(followers.count == min(profile.followers, userCount - 1), "\(user.login) @\(userCount)")
                #expect(following.count == min(profile.following, userCount - 1), "\(user.login) @\(userCount)")
                for list in [followers, following] {
                    #expect(Set(list.map(\.id)).count == list.count, "duplicates for \(user.login) @\(userCount)")
                    #expect(!list.contains(user), "\(user.login) relates to itself @\(userCount)")
                }
            }
        }
        // The two directions are different lists, not the same one twice.
        let population = StandInPopulation(userCount: 200)
        #expect(population.followers(ofUserID: 2).prefix(5) != population.following(ofUserID: 2).prefix(5))
    }

    @Test func pagingFollowersVisitsEveryAccountOnceUnderTheNumericIdPath() throws {
        try withStandInServer(StandInConfiguration(userCount: 1_000)) { server throws in
            let walk = try walkPages(
                server, from: "/users/yamada-taro/followers?per_page=100",
                linkPrefix: "\(server.baseURL)/user/2/followers?per_page=100&page=")
            #expect(walk.responses.count == 10)
            let ids = walk.items.compactMap { $0["id"] as? Int }
            #expect(ids.count == 999 && Set(ids).count == 999)
            #expect(ids == server.population.followers(ofUserID: 2).map(\.id))
            #expect(!ids.contains(2))
            // Same simple-user objects as GET /users.
            let expected = try JSONSerialization.jsonObject(
                with: Data(try #require(server.population.user(id: ids[0])).simpleUserJSON().utf8))
            #expect(NSDictionary(dictionary: walk.items[0]) == expected as? NSDictionary)
        }
    }

    @Test func pagingFollowingWithDefaultPageSize() throws {
        try withStandInServer(StandInConfiguration(userCount: 1_000)) { server throws in
            let expected = server.population.following(ofUserID: 2).map(\.id)
            #expect(expected.count == 56)
            let walk = try walkPages(
                server, from: "/user/2/following", linkPrefix: "\(server.baseURL)/user/2/following?page=")
            #expect(walk.responses.count == 2)
            #expect(walk.items.compactMap { $0["id"] as? Int } == expected)
            let byLogin = try fetch(server, "/users/YAMADA-TARO/following?page=2", headers: tokenHeader)
            let byID = try fetch(server, "/user/2/following?page=2", headers: tokenHeader)
            #expect(byLogin.body == byID.body && byLogin.header("Link") == byID.header("Link"))
        }
    }

    @Test func shortAndEmptyListsHaveNoLink() throws {
        try withStandInServer(StandInConfiguration(userCount: 100)) { server throws in
            let followers = try fetch(server, "/users/octocat/followers", headers: tokenHeader)
            #expect(followers.status == 200 && followers.header("Link") == nil)
            #expect(try followers.jsonArray().count == 20)
            let following = try fetch(server, "/users/octocat/following", headers: tokenHeader)
            #expect(following.status == 200 && following.text == "[]" && following.header("Link") == nil)
            let bot = try fetch(server, "/users/dependabot%5Bbot%5D/followers", headers: tokenHeader)
            #expect(bot.status == 200 && bot.text == "[]")
        }
    }

    @Test func unknownAccountsGet404() throws {
        try withStandInServer(StandInConfiguration(userCount: 100)) { server throws in
            let followersBody =
                #"{"message":"Not Found","documentation_url":"https://docs.github.com/rest/users/followers#list-followers-of-a-user","status":"404"}"#
            let followingBody =
                #"{"message":"Not Found","documentation_url":"https://docs.github.com/rest/users/followers#list-the-people-a-user-follows","status":"404"}"#
            for (target, body) in [
                ("/users/no-such-user/followers", followersBody), ("/user/99999/followers", followersBody),
                ("/users/no-such-user/following", followingBody), ("/user/6/following", followingBody),
            ] {
                let response = try fetch(server, target, headers: tokenHeader)
                #expect(response.status == 404 && response.text == body, "\(target)")
            }
        }
    }
}
