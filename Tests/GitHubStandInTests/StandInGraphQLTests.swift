import Foundation
import GitHubStandIn
import Testing

/// The fields a profile lookup asks for, as gh-users's own query asks for them.
private let ownerFragment = """
    fragment owner on RepositoryOwner {
      __typename
      login
      ... on User {
        databaseId id login name company location bio twitterUsername websiteUrl email isHireable isSiteAdmin
        createdAt updatedAt url avatarUrl
        followers { totalCount } following { totalCount }
        repositories(privacy: PUBLIC, ownerAffiliations: OWNER) { totalCount }
        gists(privacy: PUBLIC) { totalCount }
      }
      ... on Organization { databaseId }
    }
    """

private func lookups(_ logins: [String]) -> String {
    var text = "query { rateLimit { cost remaining resetAt }\n"
    for (index, login) in logins.enumerated() {
        text += "a\(index): repositoryOwner(login: \"\(login)\") { ...owner }\n"
    }
    return text + "}\n" + ownerFragment
}

@Suite struct StandInGraphQLTests {
    /// Issue 26, item 3: GitHub answers `repositoryOwner(login:)` for a login nobody has (and a bot, which is no
    /// RepositoryOwner) with a null and no error: clients' tests pin `{"data":{"repositoryOwner":null}}` (see
    /// Sources/GitHubStandIn/Bodies/NOTICE.md). Before, the stand-in added a NOT_FOUND error GitHub does not.
    @Test func aMissingAccountAndABotAreNullAliasesWithNoError() throws {
        try withStandInServer(StandInConfiguration(userCount: 40)) { server throws in
            let body = try graphQL(server, lookups(["octocat", "no-such-account", "dependabot[bot]"])).jsonObject()
            let data = try #require(body["data"] as? [String: Any])
            #expect(value(data, "a0", "login") as? String == "octocat")
            #expect(data["a1"] is NSNull && data["a2"] is NSNull && body["errors"] == nil)
            let single = try graphQL(server, #"query { repositoryOwner(login: "no-such-account") { login } }"#)
            #expect(single.text == #"{"data":{"repositoryOwner":null}}"#)
        }
    }

    /// `team-members --direct`: a team's own members through GraphQL, the world's (not its child team's), with the
    /// role in GraphQL's capitals; `role` (a variable, as gh-users sends it) filters; a non-member sees no team; the
    /// shared cursors page it from `$after`.
    @Test func aTeamsOwnMembersAreTheWorldsWithoutItsChildTeams() throws {
        let query = """
            query($org: String!, $team: String!, $after: String, $role: TeamMemberRole) { organization(login: $org) {
            team(slug: $team) { members(first: 100, after: $after, membership: IMMEDIATE, role: $role) { totalCount
            edges { role node { databaseId id login url avatarUrl isSiteAdmin } } pageInfo { hasNextPage endCursor } } } } }
            """
        try withStandInServer(StandInConfiguration(userCount: 40)) { server throws in
            let asked = [("MEMBER", ["Yamada-Taro"]), ("MAINTAINER", ["octocat"]), ("MEMBER", [])]
            for (index, (role, expected)) in asked.enumerated() {
                let token = index < 2 ? "gho_Yamada-Taro" : "gho_eager-falcon-20"
                let variables = ["org": "github", "team": "justice-league", "role": role]
                let answer = try graphQL(server, query, variables: variables, token: token).jsonObject()
                let edges = value(answer, "data", "organization", "team", "members", "edges") as? [[String: Any]]
                #expect((edges ?? []).compactMap { value($0, "node", "login") as? String } == expected)
                #expect((edges ?? []).allSatisfy { $0["role"] as? String == role })
                #expect((edges == nil) == (index == 2))
            }
            let onePerPage = query.replacingOccurrences(of: "first: 100", with: "first: 1")
            let teamPages = try pages(at: "data", "organization", "team", "members") { after in
                var variables = ["org": "github", "team": "justice-league"]
                variables["after"] = after
                return try graphQL(server, onePerPage, variables: variables, token: "gho_octocat").jsonObject()
            }
            let edges = teamPages.flatMap { $0["edges"] as? [[String: Any]] ?? [] }
            #expect(
                teamPages.count == 2
                    && edges.compactMap { value($0, "node", "login") as? String } == ["octocat", "Yamada-Taro"])
        }
    }

    @Test func withoutATokenItIs401AndSpendsNothing() throws {
        try withStandInServer(StandInConfiguration(userCount: 40)) { server throws in
            let response = try graphQL(server, lookups(["octocat"]), token: nil)
            #expect(response.status == 401 && response.text.contains("requires you to be authenticated"))
            #expect(server.graphQLRateLimitRemaining(token: "gql-tests") == 5_000)
        }
    }

    @Test func moreLookupsThanTheNodeLimitIsAnErrorWithNoPathAndCostsNothing() throws {
        try withStandInServer(StandInConfiguration(userCount: 40, graphQLNodeLimit: 3)) { server throws in
            let body = try graphQL(server, lookups(["octocat", "Yamada-Taro", "kitsune-fox", "ansi-red"])).jsonObject()
            #expect(body["data"] == nil)
            let errors = try #require(body["errors"] as? [[String: Any]])
            #expect(errors.first?["type"] as? String == "MAX_NODE_LIMIT_EXCEEDED" && errors.first?["path"] == nil)
            #expect(server.graphQLRateLimitRemaining(token: "gql-tests") == 5_000)
            let three = try graphQL(server, lookups(["octocat", "Yamada-Taro", "kitsune-fox"])).jsonObject()
            #expect(three["errors"] == nil)
        }
    }
}

/// A User's `contributionsCollection`, as `gh-users contributions` asks for it.
@Suite struct StandInContributionsTests {
    private func calendar(_ login: String, from: String, to: String) -> String {
        """
        query { repositoryOwner(login: "\(login)") { __typename ... on User {
          contributionsCollection(from: "\(from)", to: "\(to)") { contributionCalendar {
            totalContributions weeks { firstDay contributionDays { date contributionCount contributionLevel } } } } } } }
        """
    }

    private func days(_ response: RawHTTPResponse) throws -> (total: Int, weeks: [[[String: Any]]]) {
        let path = ["data", "repositoryOwner", "contributionsCollection", "contributionCalendar"]
        let calendar = try #require(path.reduce(try response.jsonObject() as Any?) { value($0, $1) } as? [String: Any])
        let weeks = try #require(calendar["weeks"] as? [[String: Any]])
        return (
            try #require(calendar["totalContributions"] as? Int),
            try weeks.map { try #require($0["contributionDays"] as? [[String: Any]]) }
        )
    }

    /// The same day has the same count in every span it is asked in; an Organization has only its type.
    @Test func theCalendarRunsFromSundayWeeksAndIsTheSameInEverySpan() throws {
        try withStandInServer(StandInConfiguration(userCount: 20)) { server throws in
            let year = try days(
                graphQL(server, calendar("octocat", from: "2025-01-01T00:00:00Z", to: "2025-12-31T23:59:59Z")))
            let flat = year.weeks.flatMap { $0 }
            #expect(flat.count == 365 && flat.first?["date"] as? String == "2025-01-01")
            // 2025-01-01 is a Wednesday: the first week holds Wednesday to Saturday, the others start on Sunday.
            #expect(year.weeks.first?.count == 4 && year.weeks.dropFirst().dropLast().allSatisfy { $0.count == 7 })
            #expect(year.total == flat.reduce(0) { $0 + ($1["contributionCount"] as? Int ?? 0) } && year.total > 0)
            #expect(
                flat.allSatisfy {
                    ($0["contributionCount"] as? Int == 0) == ($0["contributionLevel"] as? String == "NONE")
                })
            let june = try days(
                graphQL(server, calendar("octocat", from: "2025-06-01T00:00:00Z", to: "2025-06-30T23:59:59Z")))
            let inJune = flat.filter { ($0["date"] as? String ?? "").hasPrefix("2025-06") }
            #expect(
                june.weeks.flatMap { $0 }.map { $0["contributionCount"] as? Int }
                    == inJune.map { $0["contributionCount"] as? Int })
            let organization = try #require(server.population.users.first { $0.type == "Organization" })
            let answer = try graphQL(
                server, calendar(organization.login, from: "2025-01-01T00:00:00Z", to: "2025-01-31T00:00:00Z"))
            let owner = value(try answer.jsonObject(), "data", "repositoryOwner") as? [String: Any]
            #expect(owner?.count == 1 && owner?["__typename"] as? String == "Organization")
        }
    }

    @Test func noDayBeforeTheAccountWasCreatedHasAContribution() throws {
        try withStandInServer(StandInConfiguration(userCount: 60)) { server throws in
            let user = try #require(server.population.users.first { $0.type == "User" && $0.ordinal > 1 })
            let from = user.createdAt - user.createdAt % 86_400 - 100 * 86_400
            let format = { (seconds: Int) in
                ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: Double(seconds)))
            }
            let flat = try days(
                graphQL(server, calendar(user.login, from: format(from), to: format(from + 300 * 86_400)))
            )
            .weeks.flatMap { $0 }
            #expect(flat.count == 301)
            #expect(flat.prefix(100).allSatisfy { $0["contributionCount"] as? Int == 0 })
            #expect(flat.dropFirst(100).contains { ($0["contributionCount"] as? Int ?? 0) > 0 })
        }
    }
}
