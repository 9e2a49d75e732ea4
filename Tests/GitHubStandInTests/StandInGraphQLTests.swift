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

/// One POST of `query` on a fresh connection.
private func graphQL(_ server: StandInServer, _ query: String, token: String? = "gql-tests") throws -> RawHTTPResponse {
    let body = try JSONSerialization.data(withJSONObject: ["query": query])
    var headers = [("Content-Type", "application/json"), ("Content-Length", String(body.count))]
    if let token { headers.append(("Authorization", "Bearer \(token)")) }
    let connection = try RawHTTPConnection(port: server.port)
    try connection.write(RawHTTPConnection.requestText(method: "POST", target: "/graphql", headers: headers))
    try connection.write([UInt8](body))
    return try connection.readResponse()
}

@Suite struct StandInGraphQLTests {
    @Test func everyUserFieldAgreesWithTheRESTProfile() throws {
        try withStandInServer(StandInConfiguration(userCount: 120)) { server throws in
            let users = Array(server.population.users.filter { $0.type == "User" }.prefix(100))
            let response = try graphQL(server, lookups(users.map(\.login)))
            #expect(response.status == 200)
            #expect(response.header("x-ratelimit-resource") == "graphql")
            let data = try #require(try response.jsonObject()["data"] as? [String: Any])
            for (index, user) in users.enumerated() {
                let owner = try #require(data["a\(index)"] as? [String: Any], "\(user.login)")
                let rest = try fetch(
                    server, "/users/\(user.loginPathComponent)", headers: [("Authorization", "Bearer gql-tests")]
                ).jsonObject()
                #expect(owner["__typename"] as? String == "User")
                #expect(owner["login"] as? String == rest["login"] as? String)
                #expect(owner["databaseId"] as? Int == rest["id"] as? Int)
                #expect(owner["id"] as? String == rest["node_id"] as? String)
                #expect(owner["url"] as? String == rest["html_url"] as? String)
                for (graph, key) in [
                    ("name", "name"), ("company", "company"), ("location", "location"), ("bio", "bio"),
                    ("twitterUsername", "twitter_username"), ("createdAt", "created_at"), ("updatedAt", "updated_at"),
                ] {
                    #expect(owner[graph] as? String == rest[key] as? String, "\(user.login) \(key)")
                }
                #expect(owner["isSiteAdmin"] as? Bool == rest["site_admin"] as? Bool)
                // GraphQL's own conventions for what REST sends as "" or null.
                #expect((owner["websiteUrl"] as? String ?? "") == rest["blog"] as? String)
                #expect(owner["email"] as? String == (rest["email"] as? String ?? ""))
                #expect(owner["isHireable"] as? Bool == (rest["hireable"] as? Bool ?? false))
                for (graph, key) in [
                    ("followers", "followers"), ("following", "following"), ("repositories", "public_repos"),
                    ("gists", "public_gists"),
                ] {
                    let count = (owner[graph] as? [String: Any])?["totalCount"] as? Int
                    #expect(count == rest[key] as? Int, "\(user.login) \(key)")
                }
            }
        }
    }

    /// Issue 26, item 3: GitHub answers `repositoryOwner(login:)` for a login nobody has (and a bot, which is no
    /// RepositoryOwner) with a null and no error: clients' tests pin `{"data":{"repositoryOwner":null}}` (see
    /// Sources/GitHubStandIn/Bodies/NOTICE.md). Before, the stand-in added a NOT_FOUND error GitHub does not.
    @Test func aMissingAccountAndABotAreNullAliasesWithNoError() throws {
        try withStandInServer(StandInConfiguration(userCount: 40)) { server throws in
            let response = try graphQL(server, lookups(["octocat", "no-such-account", "dependabot[bot]"]))
            #expect(response.status == 200)
            let body = try response.jsonObject()
            let data = try #require(body["data"] as? [String: Any])
            #expect((data["a0"] as? [String: Any])?["login"] as? String == "octocat")
            #expect(data["a1"] is NSNull)
            #expect(data["a2"] is NSNull)
            #expect(body["errors"] == nil)
            let single = try graphQL(server, #"query { repositoryOwner(login: "no-such-account") { login } }"#)
            #expect(single.text == #"{"data":{"repositoryOwner":null}}"#)
        }
    }

    @Test func anOrganizationComesBackAsOneAndHasNoFollowers() throws {
        try withStandInServer(StandInConfiguration(userCount: 40)) { server throws in
            let organization = try #require(server.population.users.first { $0.type == "Organization" })
            let response = try graphQL(server, lookups([organization.login]))
            let owner = try #require((try response.jsonObject()["data"] as? [String: Any])?["a0"] as? [String: Any])
            #expect(owner["__typename"] as? String == "Organization")
            #expect(owner["databaseId"] as? Int == organization.id)
            #expect(owner["followers"] == nil)
        }
    }

    @Test func withoutATokenItIs401AndSpendsNothing() throws {
        try withStandInServer(StandInConfiguration(userCount: 40)) { server throws in
            let response = try graphQL(server, lookups(["octocat"]), token: nil)
            #expect(response.status == 401)
            #expect(response.text.contains("requires you to be authenticated"))
            #expect(server.graphQLRateLimitRemaining(token: "gql-tests") == 5_000)
        }
    }

    @Test func costIsAPointPerHundredConnectionsAndAtLeastOne() throws {
        try withStandInServer(StandInConfiguration(userCount: 250)) { server throws in
            let logins = server.population.users.prefix(100).map(\.login)
            let big = try graphQL(server, lookups(logins))
            let rate = try #require((try big.jsonObject()["data"] as? [String: Any])?["rateLimit"] as? [String: Any])
            // 100 lookups × 4 connections each = 400 connections: 4 points.
            #expect(rate["cost"] as? Int == 4)
            #expect(rate["remaining"] as? Int == 4_996)
            #expect(big.header("x-ratelimit-remaining") == "4996")
            let small = try graphQL(server, lookups(["octocat"]))
            let cost = ((try small.jsonObject()["data"] as? [String: Any])?["rateLimit"] as? [String: Any])?["cost"]
            #expect(cost as? Int == 1)
            #expect(server.graphQLRateLimitRemaining(token: "gql-tests") == 4_995)
            // GET /rate_limit reports the live bucket.
            let limits = try fetch(server, "/rate_limit", headers: [("Authorization", "Bearer gql-tests")]).jsonObject()
            let graphql = (limits["resources"] as? [String: Any])?["graphql"] as? [String: Int]
            #expect(graphql?["used"] == 5)
            #expect(graphql?["remaining"] == 4_995)
        }
    }

    @Test func moreLookupsThanTheNodeLimitIsAnErrorWithNoPathAndCostsNothing() throws {
        try withStandInServer(StandInConfiguration(userCount: 40, graphQLNodeLimit: 3)) { server throws in
            let body = try graphQL(server, lookups(["octocat", "Yamada-Taro", "kitsune-fox", "zwj-dev"])).jsonObject()
            #expect(body["data"] == nil)
            let errors = try #require(body["errors"] as? [[String: Any]])
            #expect(errors.first?["type"] as? String == "MAX_NODE_LIMIT_EXCEEDED")
            #expect(errors.first?["path"] == nil)
            #expect(server.graphQLRateLimitRemaining(token: "gql-tests") == 5_000)
            let three = try graphQL(server, lookups(["octocat", "Yamada-Taro", "kitsune-fox"])).jsonObject()
            #expect(three["errors"] == nil)
        }
    }

    /// GitHub's answer today (recorded by others: `{"errors":[{"type":"RATE_LIMIT","code":"graphql_rate_limit",
    /// "message":"API rate limit already exceeded for user ID …"}]}`, status 200), and the older `RATE_LIMITED`.
    @Test(arguments: [
        (StandInGraphQLRateLimitForm.rateLimit, "RATE_LIMIT", String?("graphql_rate_limit")),
        (.rateLimited, "RATE_LIMITED", String?.none),
    ])
    func aSpentBucketIsRateLimitedWithStatus200(form: StandInGraphQLRateLimitForm, type: String, code: String?) throws {
        try withStandInServer(
            StandInConfiguration(userCount: 250, graphQLRateLimit: 5, graphQLRateLimitForm: form)
        ) { server throws in
            let logins = server.population.users.prefix(100).map(\.login)
            #expect(try graphQL(server, lookups(logins)).status == 200)
            let limited = try graphQL(server, lookups(logins))
            #expect(limited.status == 200)
            let body = try limited.jsonObject()
            #expect(body["data"] == nil)
            let errors = try #require(body["errors"] as? [[String: Any]])
            #expect(errors.first?["type"] as? String == type)
            #expect(errors.first?["code"] as? String == code)
            #expect(
                (errors.first?["message"] as? String)?.hasPrefix("API rate limit already exceeded for user ID ") == true
            )
            #expect(limited.header("x-ratelimit-remaining") == "1")
            #expect(limited.header("x-ratelimit-resource") == "graphql")
        }
    }

    @Test func aSpentBucketCanBeA403WithNothingRemaining() throws {
        try withStandInServer(
            StandInConfiguration(userCount: 250, graphQLRateLimit: 5, graphQLRateLimitForm: .forbidden)
        ) { server throws in
            let logins = server.population.users.prefix(100).map(\.login)
            #expect(try graphQL(server, lookups(logins)).status == 200)
            let limited = try graphQL(server, lookups(logins))
            #expect(limited.status == 403)
            #expect(limited.header("x-ratelimit-remaining") == "0")
            #expect(limited.header("x-ratelimit-resource") == "graphql")
            #expect(limited.header("x-ratelimit-reset") != nil)
            #expect(
                (try limited.jsonObject()["message"] as? String)?.hasPrefix("API rate limit already exceeded") == true)
        }
    }

    @Test func injectedFaultsReachTheGraphQLPath() throws {
        try withStandInServer(StandInConfiguration(userCount: 40)) { server throws in
            server.injectFaults(
                [.graphQLRateLimited(resetAfterSeconds: 30), .status(502, body: "{\"message\":\"Bad Gateway\"}")],
                forPath: "/graphql")
            let before = Int(Date().timeIntervalSince1970)
            let limited = try graphQL(server, lookups(["octocat"]))
            #expect(limited.status == 200)
            #expect(limited.header("x-ratelimit-remaining") == "0")
            let reset = try #require(limited.header("x-ratelimit-reset").flatMap { Int($0) })
            #expect(reset >= before + 29 && reset <= Int(Date().timeIntervalSince1970) + 31)
            #expect(
                ((try limited.jsonObject()["errors"] as? [[String: Any]])?.first?["type"] as? String) == "RATE_LIMIT")
            #expect(try graphQL(server, lookups(["octocat"])).status == 502)
            #expect(try graphQL(server, lookups(["octocat"])).status == 200)
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
        let data = try #require(try response.jsonObject()["data"] as? [String: Any])
        let owner = try #require(data["repositoryOwner"] as? [String: Any])
        let collection = try #require(owner["contributionsCollection"] as? [String: Any])
        let calendar = try #require(collection["contributionCalendar"] as? [String: Any])
        let weeks = try #require(calendar["weeks"] as? [[String: Any]])
        return (
            try #require(calendar["totalContributions"] as? Int),
            try weeks.map { try #require($0["contributionDays"] as? [[String: Any]]) }
        )
    }

    @Test func theCalendarRunsFromSundayWeeksAndIsTheSameInEverySpan() throws {
        try withStandInServer(StandInConfiguration(userCount: 20)) { server throws in
            let year = try days(
                graphQL(server, calendar("octocat", from: "2025-01-01T00:00:00Z", to: "2025-12-31T23:59:59Z")))
            let flat = year.weeks.flatMap { $0 }
            #expect(flat.count == 365)
            #expect(flat.first?["date"] as? String == "2025-01-01" && flat.last?["date"] as? String == "2025-12-31")
            // 2025-01-01 is a Wednesday: the first week holds Wednesday to Saturday, the others start on Sunday.
            #expect(year.weeks.first?.count == 4 && year.weeks.dropFirst().dropLast().allSatisfy { $0.count == 7 })
            #expect(year.total == flat.reduce(0) { $0 + ($1["contributionCount"] as? Int ?? 0) })
            #expect(year.total > 0)
            let levels = Set(flat.compactMap { $0["contributionLevel"] as? String })
            #expect(
                levels.isSubset(of: ["NONE", "FIRST_QUARTILE", "SECOND_QUARTILE", "THIRD_QUARTILE", "FOURTH_QUARTILE"]))
            #expect(
                flat.allSatisfy {
                    ($0["contributionCount"] as? Int == 0) == ($0["contributionLevel"] as? String == "NONE")
                })
            let june = try days(
                graphQL(server, calendar("octocat", from: "2025-06-01T00:00:00Z", to: "2025-06-30T23:59:59Z")))
            let counts = june.weeks.flatMap { $0 }.map { $0["contributionCount"] as? Int }
            #expect(
                counts
                    == flat.filter { ($0["date"] as? String ?? "").hasPrefix("2025-06") }.map {
                        $0["contributionCount"] as? Int
                    })
        }
    }

    @Test func noDayBeforeTheAccountWasCreatedHasAContribution() throws {
        try withStandInServer(StandInConfiguration(userCount: 60)) { server throws in
            let user = try #require(server.population.users.first { $0.type == "User" && $0.ordinal > 1 })
            let created = user.createdAt - user.createdAt % 86_400
            let from = created - 100 * 86_400
            let format = { (seconds: Int) in
                ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: Double(seconds)))
            }
            let answer = try days(
                graphQL(server, calendar(user.login, from: format(from), to: format(from + 300 * 86_400))))
            let flat = answer.weeks.flatMap { $0 }
            #expect(flat.count == 301)
            #expect(flat.prefix(100).allSatisfy { $0["contributionCount"] as? Int == 0 })
            #expect(flat.dropFirst(100).contains { ($0["contributionCount"] as? Int ?? 0) > 0 })
        }
    }

    /// Issue 26, item 3: since July 2026 GitHub refuses a year's calendar of an account with a long history:
    /// `{"data":{"user":null},"errors":[{"type":"RESOURCE_LIMITS_EXCEEDED","path":["user",
    /// "contributionsCollection","contributionCalendar"],"message":"Resource limits for this query exceeded."}]}`
    /// (recorded in github-profile-3d-contrib issue #163, 2026-07-19), while six months pass (muesli/markscribe
    /// #103). The stand-in's long histories are the accounts that contribute most days.
    @Test func aLongWindowOfALongHistoryIsRefusedAsGitHubDoesAndSixMonthsPass() throws {
        try withStandInServer(StandInConfiguration(userCount: 20)) { server throws in
            let busy = try #require(server.population.users.first { $0.type == "User" && $0.ordinal % 4 == 3 })
            let year = try graphQL(
                server, calendar(busy.login, from: "2025-01-01T00:00:00Z", to: "2025-12-31T23:59:59Z"))
            #expect(year.status == 200)
            let body = try year.jsonObject()
            #expect((body["data"] as? [String: Any])?["repositoryOwner"] is NSNull)
            let errors = try #require(body["errors"] as? [[String: Any]])
            #expect(errors.count == 1)
            #expect(errors.first?["type"] as? String == "RESOURCE_LIMITS_EXCEEDED")
            #expect(errors.first?["message"] as? String == "Resource limits for this query exceeded.")
            #expect(
                errors.first?["path"] as? [String] == [
                    "repositoryOwner", "contributionsCollection", "contributionCalendar",
                ])
            let half = try days(
                graphQL(server, calendar(busy.login, from: "2025-01-01T00:00:00Z", to: "2025-07-01T23:59:59Z")))
            #expect(half.weeks.flatMap { $0 }.count == 182)
        }
    }

    @Test func aSpanOverAYearAndAnOrganizationAnswerAsGitHubDoes() throws {
        try withStandInServer(StandInConfiguration(userCount: 20)) { server throws in
            let long = try graphQL(
                server, calendar("octocat", from: "2024-01-01T00:00:00Z", to: "2025-01-02T00:00:00Z"))
            let errors = try #require(try long.jsonObject()["errors"] as? [[String: Any]])
            #expect(
                errors.first?["message"] as? String
                    == "The total time spanned by 'from' and 'to' must not exceed 1 year")
            let organization = try #require(server.population.users.first { $0.type == "Organization" })
            let answer = try graphQL(
                server, calendar(organization.login, from: "2025-01-01T00:00:00Z", to: "2025-01-31T00:00:00Z"))
            let data = try #require(try answer.jsonObject()["data"] as? [String: Any])
            let owner = try #require(data["repositoryOwner"] as? [String: Any])
            #expect(owner.count == 1 && owner["__typename"] as? String == "Organization")
        }
    }
}
