import Foundation
import GitHubStandIn
import Testing

private let searchMissingQuery =
    #"{"message":"Validation Failed","errors":[{"resource":"Search","field":"q","code":"missing"}],"documentation_url":"https://docs.github.com/v3/search","status":"422"}"#
private let searchWindowExceeded =
    #"{"message":"Only the first 1000 search results are available","documentation_url":"https://docs.github.com/v3/search/","status":"422"}"#

/// Keys of a search item: the simple-user object plus `score`, as in GitHub's `user-search-result-item` example.
private let searchItemKeys: Set<String> = [
    "login", "id", "node_id", "avatar_url", "gravatar_id", "url", "html_url", "followers_url", "following_url",
    "gists_url", "starred_url", "subscriptions_url", "organizations_url", "repos_url", "events_url",
    "received_events_url", "type", "user_view_type", "site_admin", "score",
]

private func searchItems(_ response: RawHTTPResponse) throws -> [[String: Any]] {
    try #require(response.jsonObject()["items"] as? [[String: Any]])
}

@Suite struct StandInSearchTests {
    private let population = StandInPopulation(userCount: 3_000)

    private func ids(_ query: String, sort: StandInUserSearchSort? = nil, ascending: Bool = false) -> [Int] {
        population.searchUsers(query: query, sort: sort, ascending: ascending).map(\.id)
    }

    private func expectedIDs(_ predicate: (StandInUser, StandInUserProfile) -> Bool) -> [Int] {
        population.users.filter { predicate($0, $0.profile) }.map(\.id)
    }

    @Test func typeQualifiersSplitUsersFromOrganizations() {
        #expect(ids("type:org") == expectedIDs { user, _ in user.type == "Organization" })
        #expect(ids("type:org").count == 300)
        #expect(ids("type:user") == expectedIDs { user, _ in user.type == "User" })
        #expect(ids("type:user").count == 2_699)
        #expect(ids("TYPE:USER").count == 2_699)
        #expect(ids("type:bogus").isEmpty)
    }

    @Test func numericQualifiersUseEveryRangeForm() {
        #expect(ids("followers:>5000") == expectedIDs { _, profile in profile.followers > 5_000 })
        #expect(ids("followers:>=5000") == expectedIDs { _, profile in profile.followers >= 5_000 })
        #expect(ids("followers:<20") == expectedIDs { _, profile in profile.followers < 20 })
        #expect(ids("followers:<=20") == expectedIDs { _, profile in profile.followers <= 20 })
        #expect(ids("followers:20") == expectedIDs { _, profile in profile.followers == 20 })
        #expect(ids("followers:100..200") == expectedIDs { _, profile in (100...200).contains(profile.followers) })
        #expect(ids("followers:9000..*") == expectedIDs { _, profile in profile.followers >= 9_000 })
        #expect(ids("repos:*..3") == expectedIDs { _, profile in profile.publicRepos <= 3 })
        #expect(ids("repos:>250") == [9])
        #expect(
            ids("type:org followers:>=5000 repos:10..100")
                == expectedIDs { user, profile in
                    user.type == "Organization" && profile.followers >= 5_000
                        && (10...100).contains(profile.publicRepos)
                })
        #expect(!ids("followers:>5000").isEmpty && ids("followers:>5000").count < 3_000)
    }

    @Test func locationAndFreeTextMatchCaseInsensitiveSubstrings() {
        #expect(ids(#"location:"San Francisco""#) == [1])
        #expect(
            ids("location:san") == expectedIDs { _, profile in profile.location?.lowercased().contains("san") == true })
        #expect(ids("location:LIMA").count > 50)
        #expect(
            ids("OTTER")
                == expectedIDs { user, profile in
                    user.login.lowercased().contains("otter") || profile.name?.lowercased().contains("otter") == true
                })
        #expect(ids("octocat") == [1])
        #expect(ids("山田") == [2])
        #expect(
            ids("labs in:name") == expectedIDs { _, profile in profile.name?.lowercased().contains("labs") == true })
        #expect(ids("labs in:login") == expectedIDs { user, _ in user.login.lowercased().contains("labs") })
        #expect(ids("labs in:login") != ids("labs in:name"))
        #expect(ids("github.com in:email") == [1])
        // Quotes group words into one phrase, which must appear as such.
        #expect(
            ids(#""happy otter""#)
                == expectedIDs { _, profile in
                    profile.name?.lowercased().contains("happy otter") == true
                })
        #expect(!ids(#""happy otter""#).isEmpty)
        #expect(ids("otter labs type:org").allSatisfy { population.user(id: $0)?.type == "Organization" })
    }

    @Test func unknownAndLanguageQualifiersAreIgnored() {
        let organizations = ids("type:org")
        #expect(ids("type:org language:swift") == organizations)
        #expect(ids("type:org sponsorable:true") == organizations)
        #expect(ids("type:org followers:lots") == organizations)
    }

    @Test func sortsOrderByTheKeyWithIdTieBreaks() throws {
        #expect(ids("type:user") == ids("type:user").sorted())
        for (sort, ascending) in [
            (StandInUserSearchSort.followers, false), (.followers, true), (.repositories, false), (.joined, true),
            (.joined, false),
        ] {
            let users = population.searchUsers(query: "type:user", sort: sort, ascending: ascending)
            #expect(users.count == 2_699)
            let keys = users.map { user -> Int in
                let profile = user.profile
                switch sort {
                case .followers: return profile.followers
                case .repositories: return profile.publicRepos
                case .joined: return profile.createdAt
                }
            }
            for index in keys.indices.dropFirst() {
                let (previous, current) = (keys[index - 1], keys[index])
                #expect(ascending ? previous <= current : previous >= current, "\(sort) at \(index)")
                if previous == current {
                    #expect(users[index - 1].id < users[index].id)
                }
            }
        }
    }

    @Test func pagingASearchVisitsEveryMatchOnce() throws {
        try withStandInServer(StandInConfiguration(userCount: 3_000)) { server throws in
            let walk = try walkPages(
                server, from: "/search/users?q=type%3Aorg&per_page=100",
                linkPrefix: "\(server.baseURL)/search/users?q=type%3Aorg&per_page=100&page=", items: searchItems)
            #expect(walk.responses.count == 3)
            let ids = walk.items.compactMap { $0["id"] as? Int }
            #expect(ids == server.population.searchUsers(query: "type:org").map(\.id))
            #expect(Set(ids).count == 300)
            for response in walk.responses {
                let body = try response.jsonObject()
                #expect(body["total_count"] as? Int == 300)
                #expect(body["incomplete_results"] as? Bool == false)
                #expect(response.header("x-ratelimit-resource") == "search")
            }
            for item in walk.items {
                #expect(Set(item.keys) == searchItemKeys)
                #expect(item["score"] as? Double == 1.0)
            }
        }
    }

    @Test func linksCarryTheClientsParametersWithQReencoded() throws {
        try withStandInServer(StandInConfiguration(userCount: 3_000)) { server throws in
            let target = "/search/users?q=brave+type:user&sort=followers&order=asc&per_page=5&page=2"
            let response = try fetch(server, target, headers: tokenHeader)
            let total = try #require(try response.jsonObject()["total_count"] as? Int)
            let lastPage = (total + 4) / 5
            #expect(lastPage > 3)
            let prefix = "\(server.baseURL)/search/users?q=brave+type%3Auser&sort=followers&order=asc&per_page=5&page="
            #expect(
                linkRelations(response.header("Link")) == [
                    "prev": prefix + "1", "next": prefix + "3", "last": prefix + "\(lastPage)", "first": prefix + "1",
                ])
            let expected = server.population.searchUsers(query: "brave type:user", sort: .followers, ascending: true)
            #expect(try searchItems(response).compactMap { $0["id"] as? Int } == expected[5..<10].map(\.id))
            // The search stays on one page: no Link at all.
            let single = try fetch(server, "/search/users?q=octocat", headers: tokenHeader)
            #expect(single.header("Link") == nil)
            #expect(try searchItems(single).compactMap { $0["login"] as? String } == ["octocat"])
        }
    }

    @Test func onlyTheFirstThousandResultsAreServed() throws {
        try withStandInServer(StandInConfiguration(userCount: 3_000)) { server throws in
            let matches = server.population.searchUsers(query: "type:user").map(\.id)
            #expect(matches.count == 2_699)
            let prefix = "\(server.baseURL)/search/users?q=type%3Auser&per_page=100&page="
            let first = try fetch(server, "/search/users?q=type%3Auser&per_page=100", headers: tokenHeader)
            #expect(try first.jsonObject()["total_count"] as? Int == 2_699)
            #expect(linkRelations(first.header("Link")) == ["next": prefix + "2", "last": prefix + "10"])
            let tenth = try fetch(server, "/search/users?q=type%3Auser&per_page=100&page=10", headers: tokenHeader)
            #expect(tenth.status == 200)
            #expect(try searchItems(tenth).compactMap { $0["id"] as? Int } == Array(matches[900..<1_000]))
            #expect(linkRelations(tenth.header("Link")) == ["prev": prefix + "9", "first": prefix + "1"])
            let eleventh = try fetch(server, "/search/users?q=type%3Auser&per_page=100&page=11", headers: tokenHeader)
            #expect(eleventh.status == 422 && eleventh.text == searchWindowExceeded)
            #expect(eleventh.header("Link") == nil)
            // A page straddling the window is cut at result 1,000.
            let straddling = try fetch(server, "/search/users?q=type%3Auser&page=34", headers: tokenHeader)
            #expect(try searchItems(straddling).compactMap { $0["id"] as? Int } == Array(matches[990..<1_000]))
            #expect(linkRelations(straddling.header("Link"))["next"] == nil)
            let defaultFirst = try fetch(server, "/search/users?q=type%3Auser", headers: tokenHeader)
            #expect(
                linkRelations(defaultFirst.header("Link"))["last"]
                    == "\(server.baseURL)/search/users?q=type%3Auser&page=34")
            let farBeyond = try fetch(
                server, "/search/users?q=type%3Auser&page=99999999999999999", headers: tokenHeader)
            #expect(farBeyond.status == 422 && farBeyond.text == searchWindowExceeded)
        }
    }

    @Test func missingOrBlankQueriesAreValidationFailures() throws {
        try withStandInServer(StandInConfiguration(userCount: 100)) { server throws in
            for target in ["/search/users", "/search/users?q=", "/search/users?q=+++", "/search/users?per_page=5"] {
                let response = try fetch(server, target, headers: tokenHeader)
                #expect(response.status == 422 && response.text == searchMissingQuery, "\(target)")
                #expect(response.header("x-ratelimit-resource") == "search")
            }
            let nothing = try fetch(server, "/search/users?q=zzzzzz", headers: tokenHeader)
            #expect(nothing.status == 200)
            #expect(nothing.text == #"{"total_count":0,"incomplete_results":false,"items":[]}"#)
            #expect(nothing.header("Link") == nil)
        }
    }
}
