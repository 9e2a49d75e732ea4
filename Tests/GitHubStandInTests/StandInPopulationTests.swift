import Foundation
import JSONBytes
import TestSupport
import Testing

@testable import GitHubStandIn

private func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

@Suite struct StandInPopulationTests {
    /// GitHub's `users-get-authenticated.private-user.json` (`Bodies/users-get-authenticated.json`, the example's
    /// bytes as github/rest-api-description has them: see Bodies/NOTICE.md), plus the `user_view_type` GitHub's
    /// real answers carry between `type` and `site_admin`. Its keys up to `updated_at` are the
    /// `public-user-default-response` example, and up to `site_admin` the `simple-user` one: octocat's three forms
    /// must be these bytes, in this order.
    @Test func octocatsThreeFormsAreGitHubsExamplesByteForByte() throws {
        let example = JSONTokens.compact(documented("users-get-authenticated"))
        let full = example.replacing(#""type":"User","#, with: #""type":"User","user_view_type":"public","#)
        let octocat = StandInPopulation(userCount: 10).users[0]
        #expect(text(octocat.userJSONBytes(privateKeys: true)) == full)
        let publicEnd = try #require(full.range(of: ",\"private_gists\""))
        #expect(text(octocat.userJSONBytes()) == full[..<publicEnd.lowerBound] + "}")
        let simpleEnd = try #require(full.range(of: "\"site_admin\":false"))
        var simple = JSONByteWriter()
        octocat.writeSimpleUser(into: &simple)
        #expect(text(simple.bytes) == full[..<simpleEnd.upperBound] + "}")
        #expect(try fetch(standIn(), "/user", as: "octocat").text == full)
    }

    /// Benchmarks, fixtures and end-to-end tests name accounts by ordinal, id and login, so these are pinned. Every
    /// hand-written account's strings reach a JSON client exactly, control characters escaped.
    @Test func theAccountsArePredictableFromTheirOrdinalAndTheHandWrittenOnesIntact() throws {
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
