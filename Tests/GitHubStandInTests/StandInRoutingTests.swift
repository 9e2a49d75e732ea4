import Foundation
import GitHubStandIn
import Testing

@Suite struct StandInRoutingTests {
    @Test func perPageDefaultsToThirtyAndIsCappedAtOneHundred() throws {
        let server = try standIn(StandInConfiguration(userCount: 500))
        let defaulted = try fetch(server, "/users")
        #expect(try defaulted.jsonArray().count == 30)
        let thirtieth = server.population.users[29].id
        // Without per_page in the request, GitHub's next link has none either.
        #expect(linkRelations(defaulted.header("Link"))["next"] == "\(server.baseURL)/users?since=\(thirtieth)")
        let capped = try fetch(server, "/users?per_page=500")
        #expect(try capped.jsonArray().count == 100)
        #expect(linkRelations(capped.header("Link"))["next"]?.contains("per_page=100&") == true)
        #expect(try fetch(server, "/users?per_page=abc").jsonArray().count == 30)
        #expect(try fetch(server, "/users?per_page=0").jsonArray().count == 30)
        let nonNumericSince = try fetch(server, "/users?since=abc&per_page=2").jsonArray()
        #expect(nonNumericSince.compactMap { $0["login"] as? String } == ["octocat", "Yamada-Taro"])
        let afterGap = try fetch(server, "/users?since=6&per_page=1").jsonArray()
        #expect(afterGap.first?["id"] as? Int == 8)
    }

    @Test func loginLookupIgnoresCaseAndDecodesThePath() throws {
        let server = try standIn()
        let mixed = try fetch(server, "/users/OctoCat")
        #expect(mixed.status == 200)
        #expect(try mixed.jsonObject()["login"] as? String == "octocat")
        for target in ["/users/dependabot%5Bbot%5D", "/users/DEPENDABOT%5bBOT%5d", "/users/dependabot[bot]"] {
            let bot = try fetch(server, target)
            #expect(bot.status == 200, "\(target)")
            #expect(try bot.jsonObject()["type"] as? String == "Bot")
        }
        let encodedLetters = try fetch(server, "/users/%6Fctocat")
        #expect(encodedLetters.status == 200)
    }

    @Test func unknownLoginsAndRoutesGetGitHubsNotFoundBodies() throws {
        let server = try standIn()
        let missing = try fetch(server, "/users/no-such-user")
        #expect(missing.status == 404)
        #expect(missing.text == userNotFound)
        #expect(missing.header("Content-Type") == "application/json; charset=utf-8")
        #expect(missing.header("ETag") == nil)
        for target in [
            // Neighbours of served paths: the caller's own keys, private events, received events.
            "/", "/user/keys", "/users/octocat/received_events", "/users/octocat/repos/extra", "/user/abc",
            "/user/1/events", "/search/repositories", "/rate_limit/extra",
        ] {
            let response = try fetch(server, target)
            #expect(response.status == 404 && response.text == routeNotFound, "\(target)")
        }
    }
}
