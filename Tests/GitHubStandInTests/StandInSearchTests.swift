import Foundation
import GitHubStandIn
import Testing

private let searchWindowExceeded =
    #"{"message":"Only the first 1000 search results are available","documentation_url":"https://docs.github.com/v3/search/","status":"422"}"#

private func searchItems(_ response: RawHTTPResponse) throws -> [[String: Any]] {
    try #require(response.jsonObject()["items"] as? [[String: Any]])
}

/// Search: its qualifiers (`created:` among them), sorts, window and refusals.
@Suite struct StandInSearchTests {
    private static let population = StandInPopulation(userCount: 3_000)
    /// 2008-02-01 to 2008-02-29, inclusive: the Users created then.
    private static let february: @Sendable (StandInUser, StandInUserProfile) -> Bool = { user, _ in
        user.type == "User" && (1_201_824_000...(1_204_329_600 - 1)).contains(user.createdAt)
    }

    /// Each qualifier and range form, and the same predicate written over the profiles. Unknown qualifiers and
    /// unparsable values are ignored; an unknown type, or a time before anyone was created, matches nothing.
    private static let cases: [String: @Sendable (StandInUser, StandInUserProfile) -> Bool] = [
        "type:org": { user, _ in user.type == "Organization" },
        "TYPE:USER": { user, _ in user.type == "User" },
        "type:bogus": { _, _ in false },
        "type:org language:swift sponsorable:true followers:lots": { user, _ in user.type == "Organization" },
        "followers:>5000": { _, profile in profile.followers > 5_000 },
        "followers:<20": { _, profile in profile.followers < 20 },
        "followers:20": { _, profile in profile.followers == 20 },
        "followers:100..200": { _, profile in (100...200).contains(profile.followers) },
        "repos:*..3": { _, profile in profile.publicRepos <= 3 },
        "type:org followers:>=5000 repos:10..100": { user, profile in
            user.type == "Organization" && profile.followers >= 5_000 && (10...100).contains(profile.publicRepos)
        },
        #"location:"San Francisco""#: { _, profile in profile.location?.lowercased().contains("san francisco") == true
        },
        "location:LIMA": { _, profile in profile.location?.lowercased().contains("lima") == true },
        "OTTER": { user, profile in
            user.login.lowercased().contains("otter") || profile.name?.lowercased().contains("otter") == true
        },
        #""happy otter""#: { _, profile in profile.name?.lowercased().contains("happy otter") == true },
        "type:user created:2008-02-01..2008-02-29": february,
        "type:user created:>=2008-02-01 created:<2008-03-01": february,
        "type:user created:2008-02-01T00:00:00Z..2008-02-29T23:59:59Z": february,
        "type:user created:bogus": { user, _ in user.type == "User" },
        "created:<2008-01-14": { _, _ in false },
    ]

    @Test(arguments: cases.keys.sorted())
    func qualifiersAndFreeTextMatchWhatTheProfilesSay(query: String) throws {
        let predicate = try #require(Self.cases[query])
        let expected = Self.population.users.filter { predicate($0, $0.profile) }.map(\.id)
        #expect(Self.population.searchUsers(query: query).map(\.id) == expected)
        #expect(expected.isEmpty == ["type:bogus", "created:<2008-01-14"].contains(query))
    }

    @Test func sortsOrderByTheKeyWithIdTieBreaks() throws {
        for (sort, ascending) in [
            (StandInUserSearchSort.followers, false), (.followers, true), (.repositories, false), (.joined, true),
            (.joined, false),
        ] {
            let users = Self.population.searchUsers(query: "type:user", sort: sort, ascending: ascending)
            #expect(users.count == 2_699)
            let keys = users.map { user -> Int in
                [.followers: user.profile.followers, .repositories: user.profile.publicRepos][sort] ?? user.createdAt
            }
            for index in keys.indices.dropFirst() {
                let (previous, current) = (keys[index - 1], keys[index])
                #expect(ascending ? previous <= current : previous >= current, "\(sort) at \(index)")
                #expect(previous != current || users[index - 1].id < users[index].id)
            }
        }
    }

    /// Pages of a search stop at result 1,000; a query that matches no one is one empty page (a missing or blank one
    /// is `StandInRouteTableTests.refusals`).
    @Test func onlyTheFirstThousandResultsAreServedAndNoMatchIsOneEmptyPage() throws {
        let server = try standIn(StandInConfiguration(userCount: 3_000))
        let matches = server.population.searchUsers(query: "type:user").map(\.id)
        let search = "/search/users?q=type%3Auser"
        let hundreds = search + "&per_page=100"
        // Ten pages of a hundred, each linked to the next, the last (page 10) naming no next and no last.
        let pages = try walkPages(server, from: hundreds, linkPrefix: server.baseURL + hundreds + "&page=")
        #expect(try pages.first?.jsonObject()["total_count"] as? Int == 2_699)
        #expect(try pages.flatMap { try searchItems($0) }.compactMap { $0["id"] as? Int } == Array(matches[..<1_000]))
        for target in [hundreds + "&page=11", search + "&page=99999999999999999"] {
            let refused = try fetch(server, target, headers: tokenHeader)
            #expect(refused.status == 422 && refused.text == searchWindowExceeded, "\(target)")
            #expect(refused.header("Link") == nil, "\(target)")
        }
        // A page straddling the window is cut at result 1,000.
        let straddling = try fetch(server, search + "&page=34", headers: tokenHeader)
        #expect(try searchItems(straddling).compactMap { $0["id"] as? Int } == Array(matches[990..<1_000]))
        #expect(linkRelations(straddling.header("Link"))["next"] == nil)
        let defaultFirst = try fetch(server, search, headers: tokenHeader)
        #expect(linkRelations(defaultFirst.header("Link"))["last"] == server.baseURL + search + "&page=34")
        let nothing = try walkPages(server, from: "/search/users?q=zzzzzz", linkPrefix: "")
        #expect(nothing.map(\.text) == [#"{"total_count":0,"incomplete_results":false,"items":[]}"#])
    }

    /// `created:`: 2015-01-01T00:00:00Z, 10:00 that day, and 2015-07-01T00:00:00Z.
    private static let (newYear, ten, july) = (1_420_070_400, 1_420_070_400 + 36_000, 1_435_708_800)
    private static let far = StandInCreatedRange.unbounded

    /// Every form of dates and date-times, each value's range; nil for what cannot be read.
    static let createdRanges: [(String, ClosedRange<Int>?)] =
        [
            ("2015-01-01", newYear...(newYear + 86_399)), (">2015-01-01", (newYear + 86_400)...far),
            (">=2015-01-01", newYear...far), ("<2015-01-01", -far...(newYear - 1)),
            ("<=2015-01-01", -far...(newYear + 86_399)), ("2015-01-01..2015-06-30", newYear...(july - 1)),
            ("2015-01-01..*", newYear...far), ("*..2015-06-30", -far...(july - 1)),
            ("2015-01-01T10:00:00Z..2015-01-01T10:59:59Z", ten...(ten + 3_599)), ("2015-01-01T10:00:00Z", ten...ten),
            ("2015-01-01T10:00:00", ten...ten), ("2015-01-01T12:00:00+02:00", ten...ten),
            ("2015-01-01T07:30:00-02:30", ten...ten), (">2015-01-01T10:00:00Z", (ten + 1)...far),
            ("<2015-01-01T10:00:00Z", -far...(ten - 1)),
            ("2015-01-01..2015-01-01T00:59:59Z", newYear...(newYear + 3_599)),
        ]
        + [
            "", "yesterday", "2015-13-01", "2015-02-30", "2015-1-1", "2015-06-30..2015-01-01", "2015-01-01T25:00:00Z",
            "2015-01-01T10:00:00+2:00", "2015-01-01T10:00:00++2:00", ">", "..", "2015-01-01...2015-01-02",
        ].map { ($0, nil) }

    @Test(arguments: createdRanges)
    func everyFormOfDatesAndDateTimesIsItsRange(_ text: String, range: ClosedRange<Int>?) {
        #expect(StandInCreatedRange.parse(text) == range)
    }
}
