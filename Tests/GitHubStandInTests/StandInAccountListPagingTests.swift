import Foundation
import GitHubStandIn
import Testing

private func account(_ server: StandInServer, _ login: String) throws -> StandInUser {
    try #require(server.population.user(login: login))
}

private func prefix(_ server: StandInServer, _ user: StandInUser, _ resource: String, query: String = "per_page=100&")
    -> String
{
    "\(server.baseURL)/user/\(user.id)/\(resource)?\(query)page="
}

@Suite struct StandInAccountListPagingTests {
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
}

/// The wire form of a Unix time.
private func isoTime(_ seconds: Int) -> String {
    let formatter = ISO8601DateFormatter()
    formatter.timeZone = TimeZone(identifier: "UTC")
    return formatter.string(from: Date(timeIntervalSince1970: TimeInterval(seconds)))
}
