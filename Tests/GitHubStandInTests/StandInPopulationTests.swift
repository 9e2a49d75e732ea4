import Foundation
import JSONBytes
import Testing

@testable import GitHubStandIn

/// GitHub's `users-get-authenticated.private-user.json` (`private-user` in github/rest-api-description, MIT License,
/// Copyright (c) 2020 GitHub), plus the `user_view_type` GitHub's real answers carry between `type` and
/// `site_admin`. Its keys up to `updated_at` are the `public-user-default-response` example, and up to
/// `site_admin` the `simple-user` one: octocat's three forms must be these bytes, in this order.
private let octocatPrivateUserExample = """
    {"login": "octocat", "id": 1, "node_id": "MDQ6VXNlcjE=",
     "avatar_url": "https://github.com/images/error/octocat_happy.gif", "gravatar_id": "",
     "url": "https://api.github.com/users/octocat", "html_url": "https://github.com/octocat",
     "followers_url": "https://api.github.com/users/octocat/followers",
     "following_url": "https://api.github.com/users/octocat/following{/other_user}",
     "gists_url": "https://api.github.com/users/octocat/gists{/gist_id}",
     "starred_url": "https://api.github.com/users/octocat/starred{/owner}{/repo}",
     "subscriptions_url": "https://api.github.com/users/octocat/subscriptions",
     "organizations_url": "https://api.github.com/users/octocat/orgs",
     "repos_url": "https://api.github.com/users/octocat/repos",
     "events_url": "https://api.github.com/users/octocat/events{/privacy}",
     "received_events_url": "https://api.github.com/users/octocat/received_events",
     "type": "User", "user_view_type": "public", "site_admin": false, "name": "monalisa octocat",
     "company": "GitHub", "blog": "https://github.com/blog", "location": "San Francisco",
     "email": "octocat@github.com", "hireable": false, "bio": "There once was...",
     "twitter_username": "monatheoctocat", "public_repos": 2, "public_gists": 1, "followers": 20, "following": 0,
     "created_at": "2008-01-14T04:33:35Z", "updated_at": "2008-01-14T04:33:35Z", "private_gists": 81,
     "total_private_repos": 100, "owned_private_repos": 100, "disk_usage": 10000, "collaborators": 8,
     "two_factor_authentication": true,
     "plan": {"name": "Medium", "space": 400, "private_repos": 20, "collaborators": 0}}
    """

private func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

@Suite struct StandInPopulationTests {
    @Test func octocatsThreeFormsAreGitHubsExamplesByteForByte() throws {
        var example: [UInt8] = []
        JSONText.compact(Array(octocatPrivateUserExample.utf8), into: &example)
        let full = text(example)
        let octocat = StandInPopulation(userCount: 10).users[0]
        #expect(text(octocat.userJSONBytes(privateKeys: true)) == full)
        let publicEnd = try #require(full.range(of: ",\"private_gists\""))
        #expect(text(octocat.userJSONBytes()) == full[..<publicEnd.lowerBound] + "}")
        let simpleEnd = try #require(full.range(of: "\"site_admin\":false"))
        var simple = JSONByteWriter()
        octocat.writeSimpleUser(into: &simple)
        #expect(text(simple.bytes) == full[..<simpleEnd.upperBound] + "}")
        let server = try standIn()
        #expect(try fetch(server, "/user", headers: [("Authorization", "Bearer gho_octocat")]).text == full)
    }

    /// Benchmarks, fixtures and end-to-end tests name accounts by ordinal, id and login, so these are pinned.
    @Test func theAccountsArePredictableFromTheirOrdinal() throws {
        let population = StandInPopulation(userCount: 20_000)
        #expect(population == StandInPopulation(userCount: 20_000))
        #expect(Array(StandInPopulation(userCount: 100).users) == Array(population.users.prefix(100)))
        #expect(Set(population.users.map { $0.login.lowercased() }).count == 20_000)
        for user in population.users {
            #expect(user.id == user.ordinal + 2 * ((user.ordinal - 1) / 5))
            #expect(user.type == (user.ordinal % 10 == 7 ? "Organization" : user.ordinal == 3 ? "Bot" : "User"))
            #expect(population.user(id: user.id) == user && population.user(login: user.login.uppercased()) == user)
            #expect(user.profile.updatedAt >= user.createdAt)
        }
        #expect(population.user(id: 6) == nil && population.user(login: "nobody-here") == nil)
        #expect(population.users.filter(\.siteAdmin).map(\.login) == ["Yamada-Taro"])
        #expect(population.users[99].login == "nimble-heron-100" && population.users[99].id == 138)
        #expect(population.users[100...102].map(\.login) == ["Proud-Heron-101", "quietheron102", "RapidHeron103"])
        #expect(population.users[106].login == "Heron-Labs-107")
        let bot = population.users[2]
        #expect(bot.loginPathComponent == "dependabot%5Bbot%5D" && bot.htmlURL == "https://github.com/apps/dependabot")
        #expect(bot.nodeID == "MDM6Qm90Mw==")  // base64("03:Bot3")
    }

    /// Every hand-written account's strings reach a JSON client exactly, control characters escaped.
    @Test func specialAccountsSurviveEscapingIntact() throws {
        let population = StandInPopulation(userCount: 100)
        for (ordinal, special) in StandInSpecialAccounts.byOrdinal {
            let bytes = population.users[ordinal - 1].userJSONBytes()
            #expect(!bytes.contains { $0 < 0x20 }, "\(special.login) has an unescaped control byte")
            let parsed = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
            #expect(parsed["login"] as? String == special.login)
            #expect(parsed["name"] as? String == special.name, "\(special.login)")
            #expect(parsed["bio"] as? String == special.bio, "\(special.login)")
        }
        #expect(text(population.users[14].userJSONBytes()).contains(#""bio":"before\u0000after""#))
        #expect(text(population.users[20].userJSONBytes()).contains(#"para\u2028line\u2029end"#))
    }

    /// Every list is as long as its profile's count, capped by the population, never holds the account itself
    /// or anyone twice; the two sides are different lists.
    @Test(arguments: [2, 3, 97, 200, 1_000])
    func everyListHasTheProfileCountNoDuplicatesAndNeverTheAccountItself(userCount: Int) {
        let graph = StandInFollowGraph(population: StandInPopulation(userCount: userCount))
        for user in graph.population.users {
            let profile = user.profile
            for (list, count) in [
                (graph.followers(of: user), profile.followers), (graph.following(of: user), profile.following),
            ] {
                #expect(list.count == min(count, userCount - 1), "\(user.login) @\(userCount)")
                #expect(Set(list.map(\.id)).count == list.count && !list.contains(user), "\(user.login) @\(userCount)")
            }
        }
        let yamada = graph.population.users[1]
        #expect(userCount < 97 || graph.followers(of: yamada).prefix(5) != graph.following(of: yamada).prefix(5))
    }
}
