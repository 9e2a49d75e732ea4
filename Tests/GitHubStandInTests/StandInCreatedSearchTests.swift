import Foundation
import GitHubStandIn
import Testing

/// Search's `created:` qualifier, and the accounts created in one second.
@Suite struct StandInCreatedSearchTests {
    /// 2015-01-01T00:00:00Z and 2015-07-01T00:00:00Z.
    private let newYear2015 = 1_420_070_400
    private let july2015 = 1_435_708_800
    private let far = StandInCreatedRange.unbounded

    @Test func everyFormOfDatesAndDateTimes() {
        let day = newYear2015...(newYear2015 + 86_399)
        #expect(StandInCreatedRange.parse("2015-01-01") == day)
        #expect(StandInCreatedRange.parse(">2015-01-01") == (day.upperBound + 1)...far)
        #expect(StandInCreatedRange.parse(">=2015-01-01") == day.lowerBound...far)
        #expect(StandInCreatedRange.parse("<2015-01-01") == -far...(day.lowerBound - 1))
        #expect(StandInCreatedRange.parse("<=2015-01-01") == -far...day.upperBound)
        #expect(StandInCreatedRange.parse("2015-01-01..2015-06-30") == newYear2015...(july2015 - 1))
        #expect(StandInCreatedRange.parse("2015-01-01..*") == newYear2015...far)
        #expect(StandInCreatedRange.parse("*..2015-06-30") == -far...(july2015 - 1))
        let ten = newYear2015 + 10 * 3_600
        #expect(StandInCreatedRange.parse("2015-01-01T10:00:00Z..2015-01-01T10:59:59Z") == ten...(ten + 3_599))
        #expect(StandInCreatedRange.parse("2015-01-01T10:00:00Z") == ten...ten)
        #expect(StandInCreatedRange.parse("2015-01-01T10:00:00") == ten...ten)
        #expect(StandInCreatedRange.parse("2015-01-01T12:00:00+02:00") == ten...ten)
        #expect(StandInCreatedRange.parse("2015-01-01T07:30:00-02:30") == ten...ten)
        #expect(StandInCreatedRange.parse(">2015-01-01T10:00:00Z") == (ten + 1)...far)
        #expect(StandInCreatedRange.parse("<2015-01-01T10:00:00Z") == -far...(ten - 1))
        #expect(StandInCreatedRange.parse("2015-01-01..2015-01-01T00:59:59Z") == newYear2015...(newYear2015 + 3_599))
    }

    @Test(arguments: [
        "", "yesterday", "2015-13-01", "2015-02-30", "2015-1-1", "2015-06-30..2015-01-01", "2015-01-01T25:00:00Z",
        "2015-01-01T10:00:00+2:00", "2015-01-01T10:00:00++2:00", ">", "..", "2015-01-01...2015-01-02",
    ])
    func unparsableValuesAreNil(_ text: String) {
        #expect(StandInCreatedRange.parse(text) == nil)
    }

    @Test func searchFiltersByCreationTimeAndIgnoresWhatItCannotRead() {
        let population = StandInPopulation(userCount: 3_000)
        func ids(_ query: String) -> [Int] { population.searchUsers(query: query).map(\.id) }
        // 2008-02-01 to 2008-02-29, inclusive.
        let february = 1_201_824_000...(1_204_329_600 - 1)
        let expected = population.users.filter { $0.type == "User" && february.contains($0.createdAt) }.map(\.id)
        #expect(expected.count > 500 && expected.count < 1_000)
        #expect(ids("type:user created:2008-02-01..2008-02-29") == expected)
        #expect(ids("type:user created:>=2008-02-01 created:<2008-03-01") == expected)
        #expect(ids("type:user created:2008-02-01T00:00:00Z..2008-02-29T23:59:59Z") == expected)
        #expect(ids("type:user created:bogus") == ids("type:user"))
        #expect(ids("created:<2008-01-14").isEmpty)
    }

    @Test func sameSecondAccountsShareTheirCreatedAtAcrossProfilesAndSearch() throws {
        let configuration = StandInConfiguration(userCount: 1_500, sameSecondAccounts: 1_100)
        let server = try standIn(configuration)
        let first = StandInPopulation.sameSecondFirstOrdinal
        let crowd = server.population.users[(first - 1)..<(first - 1 + 1_100)]
        #expect(Set(crowd.map(\.createdAt)).count == 1)
        #expect(server.population.users[first - 2].createdAt != crowd.first?.createdAt)
        let profile = try fetch(server, "/users/\(try #require(crowd.last?.login))").jsonObject()
        let createdAt = try #require(profile["created_at"] as? String)
        #expect(try #require(profile["updated_at"] as? String) >= createdAt)
        let search = try fetch(server, "/search/users?q=created:\(createdAt)&per_page=1").jsonObject()
        #expect(search["total_count"] as? Int == 1_100)
        // Without the knob, the same population has no crowd.
        let plain = StandInPopulation(userCount: 1_500)
        #expect(plain.users.filter { $0.createdAt == crowd.first?.createdAt }.count <= 1)
    }
}
