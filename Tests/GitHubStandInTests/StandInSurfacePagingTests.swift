import Foundation
import GitHubStandIn
import Testing

private let paginationLimited =
    #"{"message":"In order to keep the API fast for everyone, pagination is limited for this resource.","documentation_url":"https://docs.github.com/v3/#pagination","status":"422"}"#

private func account(_ server: StandInServer, _ login: String) throws -> StandInUser {
    try #require(server.population.user(login: login))
}

private func prefix(_ server: StandInServer, _ user: StandInUser, _ resource: String, query: String = "per_page=100&")
    -> String
{
    "\(server.baseURL)/user/\(user.id)/\(resource)?\(query)page="
}

@Suite struct StandInSurfacePagingTests {
    @Test func keysPageAcrossThreePagesOfAHundredInTheAccessorsOrder() throws {
        try withStandInServer { server throws in
            let user = try account(server, StandInPopulation.manyKeysLogin)
            let walk = try walkPages(
                server, from: "/users/\(user.login)/keys?per_page=100", linkPrefix: prefix(server, user, "keys"))
            #expect(walk.responses.count == 3)
            let expected = server.population.keys(of: user)
            #expect(expected.count == 260)
            #expect(walk.items.compactMap { $0["id"] as? Int } == expected.map(\.id))
            #expect(walk.items.compactMap { $0["key"] as? String } == expected.map(\.key))
        }
    }

    @Test func defaultPageSizeIsThirtyAndPerPageIsCappedAtAHundred() throws {
        try withStandInServer { server throws in
            let user = try account(server, StandInPopulation.manyKeysLogin)
            let walk = try walkPages(
                server, from: "/users/\(user.login)/keys", linkPrefix: prefix(server, user, "keys", query: ""))
            // 260 keys in pages of 30: eight full pages and one of 20.
            #expect(walk.responses.count == 9)
            #expect(walk.items.count == 260)
            let capped = try fetch(server, "/users/\(user.login)/keys?per_page=1000", headers: tokenHeader)
            #expect(try capped.jsonArray().count == 100)
            #expect(linkRelations(capped.header("Link"))["last"] == prefix(server, user, "keys") + "3")
        }
    }

    @Test func organizationsRunOutOfThePopulationIntoSyntheticOnes() throws {
        try withStandInServer { server throws in
            let user = try account(server, StandInPopulation.manyOrganizationsLogin)
            let walk = try walkPages(
                server, from: "/user/\(user.id)/orgs?per_page=100", linkPrefix: prefix(server, user, "orgs"))
            let expected = server.population.organizations(of: user)
            #expect(expected.count == 160)
            #expect(walk.items.compactMap { $0["login"] as? String } == expected.map(\.login))
            // 250 accounts hold 25 Organizations; all are used before anything is made up.
            let real = expected.compactMap(\.account)
            #expect(real.count == 25 && Set(real.map(\.id)).count == 25)
            #expect(real.allSatisfy { $0.type == "Organization" })
            #expect(expected.prefix(25).allSatisfy { $0.account != nil })
            #expect(Set(expected.map(\.id)).count == 160)
            // A bigger population has enough Organizations of its own.
            let big = StandInPopulation(userCount: 2_000)
            let bigUser = try #require(big.user(login: StandInPopulation.manyOrganizationsLogin))
            #expect(big.organizations(of: bigUser).allSatisfy { $0.account?.type == "Organization" })
        }
    }

    @Test func starsPageInEveryOrderAndMediaType() throws {
        try withStandInServer { server throws in
            let user = try account(server, StandInPopulation.manyStarsLogin)
            let population = server.population
            #expect(population.starred(by: user).count == 370)
            for (query, sort, direction) in [
                ("", StandInStarSort.created, StandInSortDirection.desc),
                ("sort=updated&direction=asc&", .updated, .asc),
                ("sort=created&direction=asc&", .created, .asc),
                ("sort=nonsense&direction=sideways&", .created, .desc),
            ] {
                let walk = try walkPages(
                    server, from: "/users/\(user.login)/starred?\(query)per_page=100",
                    linkPrefix: prefix(server, user, "starred", query: query + "per_page=100&"),
                    items: { try $0.jsonArray() })
                let expected = population.starred(by: user, sort: sort, direction: direction)
                #expect(walk.items.compactMap { $0["id"] as? Int } == expected.map(\.repository.id), "\(query)")
            }
            let stars = population.starred(by: user)
            #expect(Set(stars.map(\.repository.id)).count == 370)
            #expect(zip(stars, stars.dropFirst()).allSatisfy { $0.starredAt >= $1.starredAt })
            let byPush = population.starred(by: user, sort: .updated, direction: .asc)
            #expect(zip(byPush, byPush.dropFirst()).allSatisfy { $0.repository.pushedAt <= $1.repository.pushedAt })
            // The two orders really differ, so the sort parameter is observable.
            #expect(byPush.map(\.repository.id) != stars.reversed().map(\.repository.id))
        }
    }

    @Test func theStarMediaTypeSendsStarTimesAndItsOwnETag() throws {
        try withStandInServer { server throws in
            let user = try account(server, StandInPopulation.manyStarsLogin)
            let target = "/users/\(user.login)/starred?per_page=5"
            let star = [("Accept", "application/vnd.github.star+json")]
            let plain = try fetch(server, target, headers: tokenHeader)
            let wrapped = try fetch(server, target, headers: tokenHeader + star)
            let expected = server.population.starred(by: user).prefix(5)
            let items = try wrapped.jsonArray()
            #expect(items.compactMap { $0["starred_at"] as? String } == expected.map { isoTime($0.starredAt) })
            let plainTag = try #require(plain.header("ETag"))
            let starTag = try #require(wrapped.header("ETag"))
            #expect(plainTag != starTag)
            // Each tag revalidates only its own representation.
            let crossed = try fetch(server, target, headers: tokenHeader + star + [("If-None-Match", plainTag)])
            #expect(crossed.status == 200)
            let same = try fetch(server, target, headers: tokenHeader + star + [("If-None-Match", starTag)])
            #expect(same.status == 304)
            #expect(same.header("Link") == wrapped.header("Link"))
        }
    }

    @Test func eventsStopAtThreeHundredWithGitHubs422AndNoLinkBeyond() throws {
        try withStandInServer { server throws in
            let user = try account(server, StandInPopulation.manyEventsLogin)
            let all = server.population.publicEvents(of: user)
            #expect(all.count == 340)
            let walk = try walkPages(
                server, from: "/users/\(user.login)/events/public?per_page=100",
                linkPrefix: prefix(server, user, "events/public"))
            #expect(walk.responses.count == 3)
            #expect(walk.items.compactMap { $0["id"] as? String } == all.prefix(300).map(\.id))
            let beyond = try fetch(
                server, "/users/\(user.login)/events/public?per_page=100&page=4", headers: tokenHeader)
            #expect(beyond.status == 422)
            #expect(beyond.text == paginationLimited)
            #expect(beyond.header("ETag") == nil && beyond.header("Link") == nil)
        }
    }

    @Test func anOddPageSizeEndsOnAShortPageInsideTheWindow() throws {
        try withStandInServer { server throws in
            let user = try account(server, StandInPopulation.manyEventsLogin)
            // 300 / 7: 42 full pages and page 43 holding events 295...300.
            let last = try fetch(server, "/users/\(user.login)/events/public?per_page=7&page=43", headers: tokenHeader)
            #expect(last.status == 200)
            #expect(try last.jsonArray().count == 6)
            let links = linkRelations(last.header("Link"))
            #expect(links["next"] == nil && links["last"] == nil)
            let first = try fetch(server, "/users/\(user.login)/events/public?per_page=7", headers: tokenHeader)
            #expect(
                linkRelations(first.header("Link"))["last"] == prefix(
                    server, user, "events/public", query: "per_page=7&") + "43")
            let past = try fetch(server, "/users/\(user.login)/events/public?per_page=7&page=44", headers: tokenHeader)
            #expect(past.status == 422 && past.text == paginationLimited)
        }
    }

    @Test func theEventWindowLimitsPagesEvenForAccountsWithFewEvents() throws {
        try withStandInServer { server throws in
            // octocat has two events; page 10 of 30 starts at the 271st and is merely empty, page 11 is refused.
            let empty = try fetch(server, "/users/octocat/events/public?page=10", headers: tokenHeader)
            #expect(empty.status == 200 && empty.text == "[]")
            let refused = try fetch(server, "/users/octocat/events/public?page=11", headers: tokenHeader)
            #expect(refused.status == 422 && refused.text == paginationLimited)
            let huge = try fetch(server, "/users/octocat/events/public?page=99999999999999999", headers: tokenHeader)
            #expect(huge.status == 422)
        }
    }

    @Test func gistsPageNewestFirstAndFilterBySince() throws {
        try withStandInServer { server throws in
            let user = try account(server, StandInPopulation.manyGistsLogin)
            let gists = server.population.gists(of: user)
            #expect(gists.count == 130 && user.profile.publicGists == 130)
            let walk = try walkPages(
                server, from: "/users/\(user.login)/gists?per_page=100", linkPrefix: prefix(server, user, "gists"))
            #expect(walk.items.compactMap { $0["id"] as? String } == gists.map(\.id))
            #expect(zip(gists, gists.dropFirst()).allSatisfy { $0.createdAt > $1.createdAt })
            let cut = gists[40].updatedAt
            let since = isoTime(cut)
            let filtered = try fetch(
                server, "/users/\(user.login)/gists?since=\(since)&per_page=100", headers: tokenHeader)
            #expect(try filtered.jsonArray().compactMap { $0["id"] as? String } == gists.prefix(41).map(\.id))
            #expect(server.population.gists(of: user, since: cut).count == 41)
            // A since that does not parse is ignored rather than emptying the list.
            let ignored = try fetch(server, "/users/\(user.login)/gists?since=yesterday", headers: tokenHeader)
            #expect(try ignored.jsonArray().count == 30)
        }
    }

    @Test func anUnknownLoginIsGitHubs404OnEveryNewRoute() throws {
        try withStandInServer { server throws in
            for (resource, documentation) in [
                ("keys", "https://docs.github.com/rest/users/keys#list-public-keys-for-a-user"),
                (
                    "ssh_signing_keys",
                    "https://docs.github.com/rest/users/ssh-signing-keys#list-ssh-signing-keys-for-a-user"
                ),
                ("gpg_keys", "https://docs.github.com/rest/users/gpg-keys#list-gpg-keys-for-a-user"),
                (
                    "social_accounts",
                    "https://docs.github.com/rest/users/social-accounts#list-social-accounts-for-a-user"
                ),
                ("orgs", "https://docs.github.com/rest/orgs/orgs#list-organizations-for-a-user"),
                ("starred", "https://docs.github.com/rest/activity/starring#list-repositories-starred-by-a-user"),
                ("gists", "https://docs.github.com/rest/gists/gists#list-gists-for-a-user"),
                ("events/public", "https://docs.github.com/rest/activity/events#list-public-events-for-a-user"),
            ] {
                let expected =
                    #"{"message":"Not Found","documentation_url":""# + documentation + #"","status":"404"}"#
                for target in ["/users/no-such-user/\(resource)", "/user/999999999/\(resource)"] {
                    let response = try fetch(server, target, headers: tokenHeader)
                    #expect(response.status == 404 && response.text == expected, "\(target)")
                    #expect(response.header("ETag") == nil, "\(target)")
                }
                // Logins are case-insensitive here as on GitHub.
                #expect(try fetch(server, "/users/OCTOCAT/\(resource)", headers: tokenHeader).status == 200)
            }
        }
    }

    @Test func aNewRouteRevalidatesWithoutSpendingAndKeepsItsLink() throws {
        try withStandInServer { server throws in
            let target = "/users/\(StandInPopulation.manyKeysLogin)/keys?per_page=100&page=2"
            let first = try fetch(server, target, headers: tokenHeader)
            let tag = try #require(first.header("ETag"))
            let remaining = try #require(first.header("x-ratelimit-remaining").flatMap { Int($0) })
            let second = try fetch(server, target, headers: tokenHeader + [("If-None-Match", tag)])
            #expect(second.status == 304 && second.body.isEmpty)
            #expect(second.header("Link") == first.header("Link") && second.header("Link") != nil)
            #expect(second.header("x-ratelimit-remaining") == String(remaining))
            // A different page is a different body, so the old tag no longer matches.
            let other = try fetch(
                server, "/users/\(StandInPopulation.manyKeysLogin)/keys?per_page=100&page=3",
                headers: tokenHeader + [("If-None-Match", tag)])
            #expect(other.status == 200)
        }
    }
}

/// The wire form of a Unix time.
private func isoTime(_ seconds: Int) -> String {
    let formatter = ISO8601DateFormatter()
    formatter.timeZone = TimeZone(identifier: "UTC")
    return formatter.string(from: Date(timeIntervalSince1970: TimeInterval(seconds)))
}
