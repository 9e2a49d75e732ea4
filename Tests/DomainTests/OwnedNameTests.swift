import Domain
import Testing

/// `OWNER/REPO` and `ORG/TEAM`, checked before anything is sent (issue 28): what is taken, what GitHub's clone
/// forms are turned into, and what is refused with the form to use.
struct OwnedNameTests {
    @Test(arguments: [
        ("octocat/Hello-World", "octocat/Hello-World"),
        ("octocat/hello.world_2", "octocat/hello.world_2"),
        ("octocat/Hello-World.git", "octocat/Hello-World"),
        ("https://github.com/octocat/Hello-World", "octocat/Hello-World"),
        ("github.com/octocat/Hello-World/", "octocat/Hello-World"),
        ("octocat/.github", "octocat/.github"),
        // `.git` alone is a name, not a suffix to take off (helper-339's M7-10: it became "" and a usage error).
        ("octocat/.git", "octocat/.git"),
        ("octocat/a.git", "octocat/a"),
    ])
    func aRepositoryIsTakenAsGitHubNamesIt(text: String, name: String) throws {
        #expect(try RepositoryName(validating: text).description == name)
    }

    @Test(arguments: [
        ("octocat", "give it as OWNER/REPO"),
        ("octocat/Hello/World", "give it as OWNER/REPO"),
        ("/Hello-World", "give it as OWNER/REPO"),
        ("-octocat/Hello-World", "give it as OWNER/REPO"),
        ("octocat/", "give it as OWNER/REPO"),
        ("octocat/..", "a repository name has 1 to 100"),
        ("octocat/hello world", "a repository name has 1 to 100"),
        ("octocat/" + String(repeating: "a", count: 101), "a repository name has 1 to 100"),
        ("octocat/a%2Fb", "a repository name has 1 to 100"),
    ])
    func aBadRepositorySaysWhatIsWrong(text: String, rule: String) {
        #expect {
            _ = try RepositoryName(validating: text)
        } throws: { error in
            guard case DomainError.invalidInput(let message) = error else { return false }
            return message.contains(rule)
        }
    }

    @Test func aControlCharacterIsNeverPrinted() {
        #expect {
            _ = try RepositoryName(validating: "octocat/a\u{1B}[31m")
        } throws: { error in
            guard case DomainError.invalidInput(let message) = error else { return false }
            return !message.contains("\u{1B}") && message.contains("(with control characters)")
        }
    }

    @Test func aTeamIsAnOrganizationAndASlug() throws {
        let team = try TeamName(validating: "github/justice-league")
        #expect(team.organization.value == "github" && team.slug == "justice-league")
        for bad in [
            "github", "github/", "github/a.b", "github/a/b", "-x/team", "github/" + String(repeating: "t", count: 101),
        ] {
            #expect(throws: DomainError.self, "\(bad)") { try TeamName(validating: bad) }
        }
        // A slug of 100 is GitHub's longest (helper-339's M7-11: refused at 100).
        #expect(try TeamName(validating: "github/" + String(repeating: "t", count: 100)).slug.count == 100)
    }
}

/// The star history of `GET /repos/{owner}/{repo}/stargazers/history` with today's count: days and weeks, and
/// the running total counted back from the count.
struct StarHistoryTests {
    /// GitHub's documented example: the week of Sunday 2025-08-10, 12 stars on Monday and 7 on Tuesday.
    let documented = StarWeek(startSeconds: 1_754_784_000, days: [0, 12, 7, 0, 0, 0, 0])

    @Test func aWeekIsSevenDaysFromASundayAtMidnight() throws {
        let week = try #require(documented)
        #expect(week.start == CalendarDay("2025-08-10"))
        #expect(StarWeek(startSeconds: 1_754_784_000, days: [1, 2]) == nil)
        #expect(StarWeek(startSeconds: 1_754_784_000, days: [0, -1, 0, 0, 0, 0, 0]) == nil)
        #expect(StarWeek(startSeconds: 1_754_784_000 + 86_400, days: [0, 0, 0, 0, 0, 0, 0]) == nil)
        #expect(StarWeek(startSeconds: 1_754_784_000 + 3_600, days: [0, 0, 0, 0, 0, 0, 0]) == nil)
    }

    @Test func theRunningTotalIsCountedBackFromTodaysCount() throws {
        let later = try #require(StarWeek(startSeconds: 1_754_784_000 + 7 * 86_400, days: [1, 0, 0, 0, 0, 0, 2]))
        // Newest first, as GitHub pages them, and a week given twice counted once.
        let history = StarHistory(count: 100, weeks: [later, try #require(documented), later])
        let span = try #require(CalendarDay("2025-08-11"))...(try #require(CalendarDay("2025-08-18")))
        let days = history.days(in: span)
        #expect(days.map(\.start.description).first == "2025-08-11" && days.count == 8)
        #expect(days.map(\.gained) == [12, 7, 0, 0, 0, 0, 1, 0])
        // 2 stars came on 2025-08-23, after the span: it ends at 98, and each day before at 98 less what came
        // after it.
        #expect(days.map(\.total) == [90, 97, 97, 97, 97, 97, 98, 98])
    }

    /// Stars given on the span's last day count in its total, and are not taken off as if given after it
    /// (helper-327: `>=` for `>` there was caught only by the below-zero test).
    @Test func theSpansLastDayKeepsItsStarsInItsTotal() throws {
        let history = StarHistory(count: 19, weeks: [try #require(documented)])
        let span = try #require(CalendarDay("2025-08-11"))...(try #require(CalendarDay("2025-08-12")))
        let days = history.days(in: span)
        #expect(days.map(\.gained) == [12, 7])
        #expect(days.map(\.total) == [12, 19])
    }

    @Test func weeksSumTheSpansDaysFromTheirSunday() throws {
        let history = StarHistory(count: 19, weeks: [try #require(documented)])
        let span = try #require(CalendarDay("2025-08-11"))...(try #require(CalendarDay("2025-08-20")))
        let weeks = history.weeks(in: span)
        // The first week counts from the span's Monday, and is dated so (before: its Sunday, 2025-08-10).
        #expect(weeks.map(\.start.description) == ["2025-08-11", "2025-08-17"])
        #expect(weeks.map(\.gained) == [19, 0])
        #expect(weeks.map(\.total) == [19, 19])
    }
}

/// Paging that gives a week twice keeps the first copy (mutation round 8's M8-9: the later one's counts won).
struct StarHistoryWeekTests {
    @Test func aWeekGivenTwiceKeepsItsFirstCopy() throws {
        let sunday: Int64 = 1_704_585_600  // 2024-01-07
        let first = try #require(StarWeek(startSeconds: sunday, days: [1, 0, 0, 0, 0, 0, 2]))
        let again = try #require(StarWeek(startSeconds: sunday, days: [5, 5, 5, 5, 5, 5, 5]))
        let before = try #require(StarWeek(startSeconds: sunday - 7 * 86_400, days: [0, 0, 0, 0, 0, 0, 1]))
        #expect(StarHistory(count: 10, weeks: [first, before, again]).weeks == [before, first])
    }
}
