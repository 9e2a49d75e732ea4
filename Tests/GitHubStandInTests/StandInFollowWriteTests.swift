import Foundation
import GitHubStandIn
import Testing

private let followersOfUserDocs = "https://docs.github.com/rest/users/followers#list-followers-of-a-user"
private let myFollowersDocs = "https://docs.github.com/rest/users/followers#list-followers-of-the-authenticated-user"
private let myFollowingDocs =
    "https://docs.github.com/rest/users/followers#list-the-people-the-authenticated-user-follows"
private let checkDocs = "https://docs.github.com/rest/users/followers#check-if-a-user-follows-another-user"
private let myCheckDocs =
    "https://docs.github.com/rest/users/followers#check-if-a-person-is-followed-by-the-authenticated-user"
private let followDocs = "https://docs.github.com/rest/users/followers#follow-a-user"
private let unfollowDocs = "https://docs.github.com/rest/users/followers#unfollow-a-user"

private func bearer(_ token: String) -> [(String, String)] {
    [("Authorization", "Bearer \(token)")]
}

private func errorBody(_ status: Int, _ message: String, _ documentation: String) -> String {
    #"{"message":"\#(message)","documentation_url":"\#(documentation)","status":"\#(status)"}"#
}

private func logins(_ response: RawHTTPResponse) throws -> [String] {
    try response.jsonArray().compactMap { $0["login"] as? String }
}

/// An account with no edge to or from `account` on either side of the base graph, so a follow changes both lists.
private func stranger(to account: StandInUser, in population: StandInPopulation) throws -> StandInUser {
    try #require(
        population.users.first { other in
            other != account && other.type == "User" && !population.follows(account, other)
                && !population.follows(other, account) && !population.followers(of: other).contains(account)
                && !population.followers(of: account).contains(other)
        })
}

@Suite struct StandInFollowWriteTests {
    @Test func theTokensOwnListsAreItsAccountsListsWithTheirOwnLink() throws {
        try withStandInServer { server throws in
            let yamada = try #require(server.population.user(login: "Yamada-Taro"))
            let token = StandInTokens.token(for: yamada.login)
            let mine = try fetch(server, "/user/following", headers: bearer(token))
            let theirs = try fetch(server, "/users/Yamada-Taro/following", headers: bearer(token))
            #expect(mine.status == 200 && mine.body == theirs.body)
            #expect(mine.header("Link")?.contains("<\(server.baseURL)/user/following?page=2>; rel=\"next\"") == true)
            let following = try walkPages(
                server, from: "/user/following", linkPrefix: "\(server.baseURL)/user/following?page=", token: token)
            #expect(following.items.compactMap { $0["id"] as? Int } == server.following(of: yamada).map(\.id))
            #expect(following.items.count == 56)
            let followers = try walkPages(
                server, from: "/user/followers?per_page=100",
                linkPrefix: "\(server.baseURL)/user/followers?per_page=100&page=", token: token)
            #expect(followers.items.compactMap { $0["id"] as? Int } == server.followers(of: yamada).map(\.id))
            #expect(followers.items.count == 249)
            // Same simple-user objects as every other list.
            let first = try #require(server.followers(of: yamada).first)
            #expect(
                NSDictionary(dictionary: followers.items[0])
                    == (try JSONSerialization.jsonObject(with: Data(first.simpleUserJSON().utf8)) as? NSDictionary))
            let head = try RawHTTPConnection(port: server.port).request(
                "HEAD", "/user/followers", headers: bearer(token))
            #expect(head.status == 200 && head.body.isEmpty && head.header("ETag") != nil)
        }
    }

    @Test func theTokensOwnListsNeedAToken() throws {
        try withStandInServer { server throws in
            for (target, documentation) in [("/user/followers", myFollowersDocs), ("/user/following", myFollowingDocs)]
            {
                let response = try fetch(server, target)
                #expect(response.status == 401, "\(target)")
                #expect(response.text == errorBody(401, "Requires authentication", documentation), "\(target)")
                #expect(response.header("ETag") == nil)
            }
        }
    }

    @Test func theTwoSidedAccountPagesThousandsOnEachSideWithTheKnownOverlap() throws {
        let configuration = StandInConfiguration(userCount: StandInPopulation.manyFollowsMinimumUserCount)
        try withStandInServer(configuration) { server throws in
            let token = StandInTokens.token(for: StandInPopulation.manyFollowsLogin)
            let profile = try fetch(server, "/user", headers: bearer(token)).jsonObject()
            #expect(profile["login"] as? String == StandInPopulation.manyFollowsLogin)
            #expect(profile["followers"] as? Int == 3_000 && profile["following"] as? Int == 2_500)
            let followers = try walkPages(
                server, from: "/user/followers?per_page=100",
                linkPrefix: "\(server.baseURL)/user/followers?per_page=100&page=", token: token)
            let following = try walkPages(
                server, from: "/user/following?per_page=100",
                linkPrefix: "\(server.baseURL)/user/following?per_page=100&page=", token: token)
            #expect(followers.responses.count == 30 && following.responses.count == 25)
            let followerIDs = followers.items.compactMap { $0["id"] as? Int }
            let followingIDs = following.items.compactMap { $0["id"] as? Int }
            let account = try #require(server.population.user(login: StandInPopulation.manyFollowsLogin))
            #expect(followerIDs == server.followers(of: account).map(\.id))
            #expect(followingIDs == server.following(of: account).map(\.id))
            #expect(Set(followerIDs).intersection(followingIDs).count == StandInPopulation.manyFollowsOverlap)
        }
    }

    @Test func theChecksAnswer204ForAFollowAnd404OtherwiseWithGitHubsBody() throws {
        try withStandInServer { server throws in
            let population = server.population
            let yamada = try #require(population.user(login: "Yamada-Taro"))
            let followed = try #require(population.following(of: yamada).first)
            let notFollowed = try #require(
                population.users.first { $0 != yamada && !population.follows(yamada, $0) })
            let token = bearer(StandInTokens.token(for: yamada.login))

            let yes = try fetch(server, "/users/yamada-taro/following/\(followed.login.uppercased())")
            #expect(yes.status == 204 && yes.body.isEmpty && yes.header("ETag") == nil)
            #expect(yes.header("Content-Length") == nil)
            let mine = try fetch(server, "/user/following/\(followed.login)", headers: token)
            #expect(mine.status == 204 && mine.body.isEmpty)

            let notFound = errorBody(404, "Not Found", checkDocs)
            for target in [
                "/users/Yamada-Taro/following/\(notFollowed.login)", "/users/no-such-user/following/octocat",
                "/users/Yamada-Taro/following/no-such-user", "/users/octocat/following/Yamada-Taro",
            ] {
                let response = try fetch(server, target, headers: tokenHeader)
                #expect(response.status == 404 && response.text == notFound, "\(target)")
            }
            for target in ["/user/following/\(notFollowed.login)", "/user/following/no-such-user"] {
                let response = try fetch(server, target, headers: token)
                #expect(response.status == 404 && response.text == errorBody(404, "Not Found", myCheckDocs))
            }
            let anonymous = try fetch(server, "/user/following/\(followed.login)")
            #expect(anonymous.status == 401)
            #expect(anonymous.text == errorBody(401, "Requires authentication", myCheckDocs))
        }
    }

    /// The whole point of the graph: one PUT, and every read (both lists, both checks, three profiles) sees it,
    /// with new ETags, so a client revalidating what it cached before gets the new body.
    @Test func aFollowIsSeenByEveryReadAndChangesTheirETags() throws {
        try withStandInServer { server throws in
            let octocat = try #require(server.population.user(login: "octocat"))
            let other = try stranger(to: octocat, in: server.population)
            let token = bearer(StandInTokens.token(for: "octocat"))
            let reads = [
                "/users/octocat/following", "/user/following", "/users/\(other.login)/followers?per_page=100",
                "/users/octocat", "/users/\(other.login)", "/user",
            ]
            var before: [String: RawHTTPResponse] = [:]
            for target in reads {
                before[target] = try fetch(server, target, headers: token)
                #expect(before[target]?.status == 200 && before[target]?.header("ETag") != nil, "\(target)")
            }
            #expect(before["/users/octocat/following"]?.text == "[]")
            #expect(try fetch(server, "/users/octocat/following/\(other.login)").status == 404)
            let otherFollowers = try #require(before["/users/\(other.login)"]).jsonObject()["followers"] as? Int

            let put = try fetch(server, "/user/following/\(other.login)", method: "PUT", headers: token)
            #expect(put.status == 204 && put.body.isEmpty && put.header("ETag") == nil)
            #expect(put.header("X-Accepted-OAuth-Scopes") == "user, user:follow")
            #expect(put.header("X-OAuth-Scopes") == "repo, user")

            for target in reads {
                let old = try #require(before[target]?.header("ETag"))
                let revalidated = try fetch(server, target, headers: token + [("If-None-Match", old)])
                #expect(revalidated.status == 200, "\(target) still matched its old ETag")
                #expect(revalidated.header("ETag") != old && revalidated.body != before[target]?.body, "\(target)")
                // And the new tag is stable: the next revalidation is a 304.
                let again = try fetch(
                    server, target, headers: token + [("If-None-Match", revalidated.header("ETag") ?? "")])
                #expect(again.status == 304, "\(target)")
            }
            #expect(try logins(fetch(server, "/users/octocat/following", headers: token)) == [other.login])
            #expect(try logins(fetch(server, "/user/following", headers: token)) == [other.login])
            let followers = try logins(fetch(server, "/users/\(other.login)/followers?per_page=100", headers: token))
            #expect(followers.first == "octocat" && followers.count == (otherFollowers ?? 0) + 1)
            #expect(try fetch(server, "/users/octocat/following/\(other.login)").status == 204)
            #expect(try fetch(server, "/user/following/\(other.login)", headers: token).status == 204)
            #expect(try fetch(server, "/users/octocat", headers: token).jsonObject()["following"] as? Int == 1)
            #expect(try fetch(server, "/user", headers: token).jsonObject()["following"] as? Int == 1)
            let otherProfile = try fetch(server, "/users/\(other.login)", headers: token).jsonObject()
            #expect(otherProfile["followers"] as? Int == (otherFollowers ?? 0) + 1)
            #expect(server.follows(octocat, other) && server.following(of: octocat) == [other])
            #expect(server.followers(of: other).first == octocat)
        }
    }

    @Test func anUnfollowIsSeenByEveryReadAndChangesTheirETags() throws {
        try withStandInServer { server throws in
            let population = server.population
            let yamada = try #require(population.user(login: "Yamada-Taro"))
            // An account Yamada-Taro follows that also lists Yamada-Taro on the first page of its followers: both
            // sides lose it.
            let followed = try #require(
                population.following(of: yamada).dropFirst(5).first {
                    population.followers(of: $0).prefix(100).contains(yamada)
                })
            let token = bearer(StandInTokens.token(for: yamada.login))
            let myFollowing = "/user/following?per_page=100"
            let theirFollowers = "/users/\(followed.login)/followers?per_page=100"
            let beforeFollowing = try fetch(server, myFollowing, headers: token)
            let beforeFollowers = try fetch(server, theirFollowers, headers: token)
            #expect(try logins(beforeFollowing).contains(followed.login))
            #expect(try logins(beforeFollowers).contains(yamada.login))
            let followedCount = try fetch(server, "/users/\(followed.login)", headers: token).jsonObject()["followers"]

            let delete = try fetch(server, "/user/following/\(followed.login)", method: "DELETE", headers: token)
            #expect(delete.status == 204 && delete.body.isEmpty)

            for (target, before) in [(myFollowing, beforeFollowing), (theirFollowers, beforeFollowers)] {
                let response = try fetch(
                    server, target, headers: token + [("If-None-Match", before.header("ETag") ?? "")])
                #expect(response.status == 200 && response.header("ETag") != before.header("ETag"), "\(target)")
            }
            #expect(try !logins(fetch(server, myFollowing, headers: token)).contains(followed.login))
            #expect(try !logins(fetch(server, theirFollowers, headers: token)).contains(yamada.login))
            #expect(try fetch(server, "/users/Yamada-Taro/following/\(followed.login)").status == 404)
            #expect(try fetch(server, "/user/following/\(followed.login)", headers: token).status == 404)
            #expect(try fetch(server, "/user", headers: token).jsonObject()["following"] as? Int == 55)
            let followedNow = try fetch(server, "/users/\(followed.login)", headers: token).jsonObject()["followers"]
            #expect(followedNow as? Int == (followedCount as? Int ?? 0) - 1)
            #expect(!server.follows(yamada, followed) && !server.followers(of: followed).contains(yamada))

            // Following again brings it back as the newest, on both sides.
            #expect(try fetch(server, "/user/following/\(followed.login)", method: "PUT", headers: token).status == 204)
            #expect(try logins(fetch(server, myFollowing, headers: token)).first == followed.login)
            #expect(try logins(fetch(server, theirFollowers, headers: token)).first == yamada.login)
            #expect(try fetch(server, "/user", headers: token).jsonObject()["following"] as? Int == 56)
        }
    }

    @Test func followAndUnfollowAreIdempotentAndFollowingOneselfChangesNothing() throws {
        try withStandInServer { server throws in
            let octocat = try #require(server.population.user(login: "octocat"))
            let other = try stranger(to: octocat, in: server.population)
            let token = bearer(StandInTokens.token(for: "octocat"))
            func counts() throws -> (Int?, Int?) {
                let mine = try fetch(server, "/user", headers: token).jsonObject()
                let theirs = try fetch(server, "/users/\(other.login)", headers: token).jsonObject()
                return (mine["following"] as? Int, theirs["followers"] as? Int)
            }
            let (following, followers) = try counts()
            for _ in 0..<2 {
                let put = try fetch(server, "/user/following/\(other.login)", method: "PUT", headers: token)
                #expect(put.status == 204)
                #expect(try counts() == (following.map { $0 + 1 }, followers.map { $0 + 1 }))
            }
            #expect(server.following(of: octocat) == [other])
            // The second unfollow is of someone not followed: 204 too, and no change.
            for _ in 0..<2 {
                let delete = try fetch(server, "/user/following/\(other.login)", method: "DELETE", headers: token)
                #expect(delete.status == 204)
                #expect(try counts() == (following, followers))
            }
            let me = try fetch(server, "/user/following/OctoCat", method: "PUT", headers: token)
            #expect(me.status == 204)
            #expect(try fetch(server, "/users/octocat/following/octocat").status == 404)
            #expect(try fetch(server, "/user", headers: token).jsonObject()["followers"] as? Int == 20)
            #expect(server.following(of: octocat).isEmpty && !server.followers(of: octocat).contains(octocat))
        }
    }

    @Test func writesNeedATokenWithUserFollowAndSomeTokensGet404Instead() throws {
        try withStandInServer { server throws in
            let octocat = try #require(server.population.user(login: "octocat"))
            let other = try stranger(to: octocat, in: server.population)
            let followersBefore = server.followers(of: other)
            for (method, documentation) in [("PUT", followDocs), ("DELETE", unfollowDocs)] {
                let target = "/user/following/\(other.login)"
                let anonymous = try fetch(server, target, method: method)
                #expect(anonymous.status == 401, "\(method)")
                #expect(anonymous.text == errorBody(401, "Requires authentication", documentation), "\(method)")
                let forbidden = errorBody(403, "Resource not accessible by personal access token", documentation)
                let hidden = errorBody(404, "Not Found", documentation)
                for (token, status, body, scopes) in [
                    ("gho_octocat_readonly", 403, forbidden, "read:user"), ("gho_octocat_noscope", 403, forbidden, ""),
                    ("gho_octocat_hide404", 404, hidden, "read:user"), ("gho_octocat_noscope_hide404", 404, hidden, ""),
                ] {
                    let response = try fetch(server, target, method: method, headers: bearer(token))
                    #expect(response.status == status && response.text == body, "\(method) \(token)")
                    #expect(response.header("X-OAuth-Scopes") == scopes, "\(method) \(token)")
                    #expect(response.header("X-Accepted-OAuth-Scopes") == "user, user:follow", "\(method) \(token)")
                }
                // The scope is checked before the target is looked up, so a missing scope never leaks existence.
                let unknownReadOnly = try fetch(
                    server, "/user/following/no-such-user", method: method, headers: bearer("gho_octocat_readonly"))
                #expect(unknownReadOnly.status == 403 && unknownReadOnly.text == forbidden)
                let unknown = try fetch(
                    server, "/user/following/no-such-user", method: method, headers: bearer("gho_octocat"))
                #expect(unknown.status == 404 && unknown.text == hidden)
            }
            #expect(server.following(of: octocat).isEmpty && server.followers(of: other) == followersBefore)
            // The same tokens still read: read:user even sees the private profile.
            let readOnly = try fetch(server, "/user", headers: bearer("gho_octocat_readonly"))
            #expect(readOnly.status == 200 && readOnly.text.contains("\"private_gists\":"))
            #expect(StandInTokens.scopes(forToken: "gho_octocat_ReadOnly") == ["read:user"])
            #expect(StandInTokens.scopes(forToken: "gho_octocat_HIDE404") == ["read:user"])
            #expect(StandInTokens.scopes(forToken: "gho_octocat_noscope_hide404") == [])
            // And user:follow alone is enough (the rule, since no marker makes such a token).
            #expect(StandInTokens.canFollow(["user:follow"]) && StandInTokens.canFollow(["user"]))
            #expect(!StandInTokens.canFollow(["read:user"]) && !StandInTokens.canFollow([]))
        }
    }

    @Test func aTokenTheServerRejectsChangesNothing() throws {
        try withStandInServer(StandInConfiguration(userCount: 250, validTokens: ["gho_octocat"])) { server throws in
            let response = try fetch(server, "/user/following/Yamada-Taro", method: "PUT", headers: bearer("gho_x"))
            #expect(response.status == 401 && response.text.contains("Bad credentials"))
            let x = try #require(server.population.user(login: "x"))
            #expect(server.following(of: x) == server.population.following(of: x))
        }
    }

    /// A page whose items stay the same but whose list lost its second page must not revalidate to a 304, or a
    /// client would keep following a `next` link to a page that no longer exists.
    @Test func aPageWhoseItemsStayButWhosePageCountChangesGetsANewETag() throws {
        try withStandInServer { server throws in
            let octocat = try #require(server.population.user(login: "octocat"))
            let last = try #require(server.followers(of: octocat).last)
            #expect(server.followers(of: octocat).count == 20)
            let target = "/users/octocat/followers?per_page=19"
            let before = try fetch(server, target, headers: tokenHeader)
            #expect(before.header("Link")?.contains("rel=\"last\"") == true)
            let delete = try fetch(
                server, "/user/following/octocat", method: "DELETE",
                headers: bearer(StandInTokens.token(for: last.login)))
            #expect(delete.status == 204)
            let after = try fetch(
                server, target, headers: tokenHeader + [("If-None-Match", before.header("ETag") ?? "")])
            #expect(after.status == 200 && after.body == before.body && after.header("Link") == nil)
            #expect(after.header("ETag") != before.header("ETag"))
        }
    }

    @Test func recordedRequestsCarryTheirMethodAndWhenTheyArrived() throws {
        try withStandInServer { server throws in
            let token = bearer(StandInTokens.token(for: "octocat"))
            let start = ContinuousClock.now
            _ = try fetch(server, "/user/following/Yamada-Taro", method: "PUT", headers: token)
            let afterFirst = ContinuousClock.now
            Thread.sleep(forTimeInterval: 0.3)
            _ = try fetch(server, "/user/following/Yamada-Taro", method: "DELETE", headers: token)
            _ = try fetch(server, "/user/following", headers: token)
            let requests = server.requests
            #expect(requests.map(\.method) == ["PUT", "DELETE", "GET"])
            #expect(requests[0].receivedAt >= start && requests[0].receivedAt <= afterFirst)
            #expect(requests[1].receivedAt - requests[0].receivedAt >= .milliseconds(300))
            #expect(requests[2].receivedAt >= requests[1].receivedAt)
        }
        // Stamped on arrival, before the configured latency delays the answer.
        try withStandInServer(StandInConfiguration(userCount: 50, latencyMilliseconds: 1_500)) { server throws in
            let start = ContinuousClock.now
            _ = try fetch(server, "/users/octocat", headers: tokenHeader)
            let end = ContinuousClock.now
            let arrived = try #require(server.requests.first?.receivedAt)
            #expect(arrived - start < .milliseconds(1_000) && end - arrived >= .milliseconds(1_500))
        }
    }

    /// The runner prints the table's rows; checked on the built binary when the build made one.
    @Test(.enabled(if: standInBinary != nil)) func theRunnersHelpPrintsTheNewRoutes() throws {
        let binary: URL = try #require(standInBinary)
        let process = Process()
        process.executableURL = binary
        process.arguments = ["--help"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        for line in StandInServer.servedRoutes {
            #expect(text.contains("\n  \(line)\n"), "\(line)")
        }
        #expect(
            text.contains("readonly") && text.contains("hide404") && text.contains(StandInPopulation.manyFollowsLogin))
    }
}

/// The `github-standin` built beside the test bundle, if any.
private let standInBinary: URL? = {
    let candidate = Bundle.main.bundleURL.appendingPathComponent("github-standin")
    if FileManager.default.isExecutableFile(atPath: candidate.path) {
        return candidate
    }
    var directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    while directory.path != "/" {
        let built = directory.appendingPathComponent(".build/debug/github-standin")
        if FileManager.default.isExecutableFile(atPath: built.path) {
            return built
        }
        directory = directory.deletingLastPathComponent()
    }
    return nil
}()
