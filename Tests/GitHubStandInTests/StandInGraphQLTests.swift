import Domain
import Foundation
import JSONBytes
import Testing

@testable import Data
@testable import GitHubStandIn

/// `POST /graphql`: documents read and executed generically, as gh-users sends them (`Sources/Data/GraphQL*.swift`).
@Suite struct StandInGraphQLTests {
    let world = StandInWorld.file

    private func post(_ server: StandInServer, _ body: [UInt8], as login: String, first: Int? = nil) throws
        -> [String: Any]
    {
        let text = String(decoding: body, as: UTF8.self).replacing("first: 100", with: "first: \(first ?? 100)")
        return try graphQL(server, body: Array(text.utf8), token: StandInTokens.token(for: login)).jsonObject()
    }

    private func profiles(_ logins: [String]) -> [UInt8] {
        GraphQLProfileQuery.body(for: logins.compactMap { try? Login(validating: $0) })
    }

    /// A collaborator edge as `login: "PERMISSION Type name PERMISSION role, …"`, one source after another.
    private func edges(_ connection: Any?) throws -> [String: String] {
        try (try #require(value(connection, "edges") as? [[String: Any]])).reduce(into: [:]) { edges, edge in
            let sources = (edge["permissionSources"] as? [[String: Any]] ?? []).map { source in
                let granter = source["source"] as? [String: Any] ?? [:]
                let name = granter["login"] ?? granter["slug"] ?? granter["nameWithOwner"] ?? "?"
                return
                    "\(granter["__typename"] ?? "?") \(name) \(source["permission"] ?? "?") \(source["roleName"] ?? "?")"
            }
            edges[try #require(value(edge, "node", "login") as? String)] =
                "\(edge["permission"] ?? "?") " + sources.joined(separator: ", ")
        }
    }

    /// Each error of `answers` as its type and path.
    private func errors(_ answers: [String: Any]...) -> [String] {
        answers.flatMap { $0["errors"] as? [[String: Any]] ?? [] }.map {
            "\($0["type"] ?? "") \($0["path"] as? [String] ?? [])"
        }
    }

    private func collaborators(_ names: [String], after: String? = nil, login: String? = nil) -> [UInt8] {
        GraphQLAccessQuery.collaborators(names.map { AccessPageAsk(repository: $0, cursor: after) }, login: login)
    }

    /// Fields in the order asked, under their aliases, from `$variables`, named and inline fragments by their type
    /// conditions (an interface's too), one key's fields merged in its first place; a missing account and a bot
    /// (no RepositoryOwner) are null with no error, as GitHub answers (see Bodies/NOTICE.md).
    @Test func fieldsAreWrittenAsAskedAndAMissingOwnerIsNullWithNoError() throws {
        let server = try standIn(StandInConfiguration(userCount: 40))
        let organization = try #require(server.population.users.first { $0.type == "Organization" })
        let query = """
            query Q($who: String) { o: repositoryOwner(login: $who) { ...f login } org: repositoryOwner(login: \
            "\(organization.login)") { ...f } gone: repositoryOwner(login: "no-such-account") { login }
            bot: repositoryOwner(login: "dependabot[bot]") { login } }
            fragment f on RepositoryOwner { __typename ... on User { databaseId login } ... on Organization { login } }
            """
        let answer = try graphQL(server, query, variables: ["who": "octocat"]).text
        #expect(
            answer == #"{"data":{"o":{"__typename":"User","databaseId":1,"login":"octocat"},"org":"#
                + #"{"__typename":"Organization","login":"\#(organization.login)"},"gone":null,"bot":null}}"#)
    }

    /// No token: 401. A field the stand-in does not serve, a document it cannot read (none, two operations, a
    /// fragment missing or spreading itself even through a field, nesting past 64 levels), more lookups than the
    /// node limit: an error with no `path` and no `data`. None of them spends a point, and none stops the server.
    @Test func refusedQueriesAreErrorsWithNoPathAndCostNothing() throws {
        let server = try standIn(StandInConfiguration(userCount: 40, graphQLNodeLimit: 3))
        let unauthenticated = try graphQL(server, body: profiles(["octocat"]), token: nil)
        #expect(unauthenticated.status == 401 && unauthenticated.text.contains("requires you to be authenticated"))
        let unreadable = [
            "query { meta { gitIpAddresses } }", "query { repositoryOwner(login: ", "",
            "query { rateLimit { cost } } query { rateLimit { used } }", "query { ...A }",
            "query { ...A } fragment A on Query { ...A }",
            #"query { o: repositoryOwner(login: "octocat") { ...B } } "#
                + "fragment B on User { followers { nodes { ...B } } }",
            "query " + String(repeating: "{ ... on Query ", count: 70) + "{ rateLimit { cost } }"
                + String(repeating: " }", count: 70),
        ]
        let overTheLimit = String(decoding: profiles(["a", "b", "c", "d"]), as: UTF8.self)
        let refusals = unreadable.map { ($0, String?.none) } + [(overTheLimit, "MAX_NODE_LIMIT_EXCEEDED")]
        for (query, type) in refusals {
            let body =
                query.hasPrefix("{") ? Array(query.utf8) : JSONValue.object([.init("query", .string(query))]).bytes
            let answer = try graphQL(server, body: body).jsonObject()
            let error = try #require((answer["errors"] as? [[String: Any]])?.first, "\(query)")
            #expect(answer["data"] == nil && error["path"] == nil && error["type"] as? String == type, "\(query)")
        }
        #expect(server.graphQLRateLimitRemaining(token: "gql-tests") == 5_000)
        #expect(try graphQL(server, body: profiles(["a", "b", "c"])).jsonObject()["errors"] == nil)
    }

    /// GitHub's cost: each connection (the profile's four counts, per lookup) a request, divided by 100 and rounded.
    @Test(arguments: [(12, 1), (37, 1), (38, 2), (100, 4)])
    func aQueryCostsItsConnectionsOverAHundredRounded(lookups: Int, cost: Int) throws {
        let server = try standIn(StandInConfiguration(userCount: 40))
        let answer = try graphQL(server, body: profiles((0..<lookups).map { "user\($0)" })).jsonObject()
        #expect(value(answer, "data", "rateLimit", "cost") as? Int == cost)
        #expect(value(answer, "data", "rateLimit", "remaining") as? Int == 5_000 - cost)
    }

    /// Nested connections multiply: every page of members asks each member's repositories (two organizations of
    /// 1 + 100 requests: 2 points). A `first` past 100 counts as 100, as the schema answers no more: no larger
    /// cost, and no overflow.
    @Test(arguments: ["100", "5000000000000"])
    func nestedConnectionsMultiplyAndAPageCountsAtMostAHundred(first: String) throws {
        let server = try standIn(StandInConfiguration(userCount: 40))
        let ask = { (alias: String) in
            "\(alias): organization(login: \"github\") { membersWithRole(first: \(first)) "
                + "{ nodes { repositories(first: \(first)) { totalCount } } } }"
        }
        let answer = try graphQL(server, "{ \(ask("a")) \(ask("b")) rateLimit { cost } }").jsonObject()
        #expect(answer["errors"] == nil)
        #expect(value(answer, "data", "rateLimit", "cost") as? Int == 2)
    }

    /// The calendar in weeks from Sunday; a day's count is the same in every span, none before the account was made.
    /// Asked as gh-users asks it (`GraphQLContributionsQuery`). A calendar GitHub finds too much work nulls its
    /// non-null parents up to the owner, with the error's path ending at `contributionCalendar` (since July 2026);
    /// the same owner's half year is answered.
    @Test func theCalendarRunsInSundayWeeksTheSameInEverySpanUnlessItIsTooMuchWork() throws {
        let server = try standIn(StandInConfiguration(userCount: 60))
        func days(_ login: String, _ from: String, _ to: String) throws -> [[[String: Any]]] {
            let span = try #require(CalendarDay(from))...(try #require(CalendarDay(to)))
            let query = GraphQLContributionsQuery.text(for: try Login(validating: login), in: span)
            let path = ["data", "repositoryOwner", "contributionsCollection", "contributionCalendar", "weeks"]
            let weeks = path.reduce(try graphQL(server, query).jsonObject() as Any?) { value($0, $1) }
            return (weeks as? [[String: Any]] ?? []).map { $0["contributionDays"] as? [[String: Any]] ?? [] }
        }
        let year = try days("octocat", "2025-01-01", "2025-12-31")
        let flat = year.flatMap { $0 }
        let count = { (day: [String: Any]) in day["contributionCount"] as? Int }
        // 2025-01-01 is a Wednesday: the first week holds Wednesday to Saturday, the others start on Sunday.
        #expect(
            flat.count == 365 && year.first?.count == 4 && year.dropFirst().dropLast().allSatisfy { $0.count == 7 })
        #expect(flat.allSatisfy { (count($0) == 0) == ($0["contributionLevel"] as? String == "NONE") })
        let june = try days("octocat", "2025-06-01", "2025-06-30").flatMap { $0 }.map(count)
        #expect(june == flat.filter { "\($0["date"] ?? "")".hasPrefix("2025-06") }.map(count))
        let user = try #require(server.population.users.first { $0.type == "User" && $0.ordinal > 1 })
        let day = { (seconds: Int) in String(UTCTimestamp.iso8601(seconds).prefix(10)) }
        let early = try days(user.login, day(user.createdAt - 100 * 86_400), day(user.createdAt + 200 * 86_400))
            .flatMap { $0 }
        #expect(early.prefix(100).allSatisfy { count($0) == 0 } && early.dropFirst(100).contains { count($0) != 0 })
        let busy = try #require(server.population.users.first { $0.type == "User" && $0.ordinal % 4 == 3 })
        let ask = { (alias: String, from: String) in
            "\(alias): repositoryOwner(login: \"\(busy.login)\") { ... on User { contributionsCollection(from: "
                + "\"\(from)T00:00:00Z\", to: \"2025-12-31T00:00:00Z\") { contributionCalendar { totalContributions } } } }"
        }
        let answer = try graphQL(server, "{ \(ask("year", "2025-01-01")) \(ask("half", "2025-07-01")) }")
            .jsonObject()
        #expect(value(answer, "data", "year") is NSNull)
        #expect(value(answer, "data", "half", "contributionsCollection", "contributionCalendar") != nil)
        let path = #"["year", "contributionsCollection", "contributionCalendar"]"#
        #expect(errors(answer) == ["RESOURCE_LIMITS_EXCEEDED " + path])
    }

    /// Everyone with a grant on each repository of the world, the highest as the permission and every grant as a
    /// source: an owner's admin from the organization and the repository (no base permission), else the base
    /// permission, the team that grants it (a child team's members name the parent), the repository for a direct
    /// grant; triage shows as READ and maintain as WRITE, roleName exact. `login:` asks for one alone, case aside.
    /// Of the bench organization's 1,000 repositories of about 150 people, a repository's people come at most 100
    /// a page, continued by cursor, each once. A caller who cannot push gets `collaborators: null` beside FORBIDDEN
    /// at its path; an unknown repository or organization is null beside NOT_FOUND; one connection costs a point.
    @Test func everyoneWithAGrantIsListedAHundredAPageAndRefusalsAreErrorsAtTheirPaths() throws {
        var configuration = StandInConfiguration(userCount: 2_000)
        configuration.accessBench = true
        let server = try standIn(configuration)
        let names = world.repositories.map(\.fullName)
        let answer = try post(server, collaborators(names), as: "octocat")
        #expect(answer["errors"] == nil)
        var of: [String: [String: String]] = [:]
        for (index, repository) in world.repositories.enumerated() {
            of[repository.fullName] = try edges(value(answer, "data", "r\(index)", "collaborators"))
            let people = world.people(of: repository).map(\.login).filter { server.population.user(login: $0) != nil }
            #expect(Set(of[repository.fullName]?.keys ?? [:].keys) == Set(people), "\(repository.fullName)")
        }
        #expect(
            of["github/docs"]?["octocat"]
                == "ADMIN Organization github ADMIN admin, Repository github/docs ADMIN admin, Team justice-league WRITE write"
        )
        #expect(of["github/docs"]?["livelyfalcon26"] == "WRITE Repository github/docs WRITE write")
        #expect(
            of["github/linguist"]?["Happy-Otter-5"]
                == "MAINTAIN Organization github READ read, Team linguists WRITE maintain")
        #expect(of["octo-org/octo-repo"]?["eager-falcon-20"] == "TRIAGE Team octo-team READ triage")
        #expect(of["octocat/Hello-World"]?["octocat"] == "ADMIN Repository octocat/Hello-World ADMIN admin")
        let one = try post(server, collaborators(["github/docs"], login: "KITSUNE-fox"), as: "octocat")
        #expect(Array(try edges(value(one, "data", "r0", "collaborators")).keys) == ["kitsune-fox"])
        let bench = server.world.current.repositories.filter { $0.owner == StandInWorld.benchOrganization }
        let people = server.world.current.people(of: bench[7]).map(\.login)
        #expect(bench.count == 1_000 && (140...160).contains(people.count))
        let pages = try pages(at: "data", "r0", "collaborators") { cursor in
            try post(server, collaborators([bench[7].fullName], after: cursor), as: "octocat")
        }.map(edges)
        #expect(pages.map(\.count) == [100, people.count - 100])
        #expect(Set(pages.flatMap(\.keys)) == Set(people))
        let refused = try post(
            server, collaborators(["github/docs", "github/linguist", "no/such"]), as: "Yamada-Taro")
        #expect(value(refused, "data", "r1", "collaborators") is NSNull && value(refused, "data", "r2") is NSNull)
        #expect(value(refused, "data", "r0", "collaborators", "edges") != nil)
        let unknown = try post(server, GraphQLAccessQuery.members(of: "no-such-org", after: nil), as: "Yamada-Taro")
        #expect(value(unknown, "data", "organization") is NSNull)
        let found = errors(refused, unknown)
        #expect(found == [#"FORBIDDEN ["r1", "collaborators"]"#, #"NOT_FOUND ["r2"]"#, #"NOT_FOUND ["organization"]"#])
        let spent = try #require(value(unknown, "data", "rateLimit", "remaining") as? Int)
        let listing = try post(server, GraphQLAccessQuery.repositories(of: "github", after: nil), as: "Yamada-Taro")
        let nodes = value(listing, "data", "organization", "repositories", "nodes") as? [[String: Any]]
        #expect(nodes?.compactMap { $0["nameWithOwner"] as? String } == ["github/docs", "github/linguist"])
        #expect(value(listing, "data", "rateLimit", "remaining") as? Int == spent - 1)
    }

    /// The members with their role; their two-factor state only to an owner (null, never false, to anyone else); a
    /// non-member sees the public members alone. Three a page, by the stand-in's cursors; `viewer` beside them is
    /// the caller.
    @Test(arguments: [
        ("octocat", ["octocat": "ADMIN true", "lively-otter-8": "ADMIN true", "Happy-Otter-5": "MEMBER false"]),
        ("Yamada-Taro", ["octocat": "ADMIN null", "Happy-Otter-5": "MEMBER null", "Yamada-Taro": "MEMBER null"]),
        ("eager-falcon-20", ["octocat": "ADMIN null", "Yamada-Taro": "MEMBER null", "jollyotter6": "MEMBER null"]),
    ])
    func membersWithTheirRoleAndTwoFactorStateToOwnersAlone(caller: String, expected: [String: String]) throws {
        let server = try standIn(StandInConfiguration(userCount: 100))
        let organization = try #require(world.organization("github"))
        let connections = try pages(at: "data", "organization", "membersWithRole") { cursor in
            try post(server, GraphQLAccessQuery.members(of: "github", after: cursor), as: caller, first: 3)
        }
        var listed: [String: String] = [:]
        for edge in connections.flatMap({ $0["edges"] as? [[String: Any]] ?? [] }) {
            let twoFactor = edge["hasTwoFactorEnabled"].map { $0 is NSNull ? "null" : "\($0 as? Bool == true)" }
            listed[value(edge, "node", "login") as? String ?? "?"] = "\(edge["role"] ?? "?") \(twoFactor ?? "?")"
        }
        let member = organization.member(caller) != nil
        #expect(Set(listed.keys) == Set(organization.members.filter { member || $0.isPublic }.map(\.login)))
        for (login, edge) in expected { #expect(listed[login] == edge, "\(login)") }
        let first = try post(server, GraphQLAccessQuery.members(of: "github", after: nil), as: caller)
        #expect(value(first, "data", "viewer", "login") as? String == caller)
    }

    /// `team-members --direct`: a team's own members (not its child team's), `$role` filtering, in GraphQL's
    /// capitals; null to a non-member; paged from `$after` by the shared cursors.
    @Test func aTeamsOwnMembersAreTheWorldsWithoutItsChildTeams() throws {
        let server = try standIn(StandInConfiguration(userCount: 40))
        let team = try TeamName(validating: "github/justice-league")
        func members(_ caller: String, _ role: String?, first: Int = 100, after: String? = nil) throws -> Any? {
            let body = GraphQLTeamMembersQuery.body(for: team, role: role, first: first, after: after)
            return value(try post(server, body, as: caller), "data", "organization", "team", "members")
        }
        func edges(_ members: Any?) -> [String]? {
            (value(members, "edges") as? [[String: Any]])?.map {
                "\($0["role"] ?? "") \(value($0, "node", "login") ?? "")"
            }
        }
        #expect(edges(try members("Yamada-Taro", "MEMBER")) == ["MEMBER Yamada-Taro"])
        #expect(edges(try members("Yamada-Taro", "MAINTAINER")) == ["MAINTAINER octocat"])
        #expect(try members("eager-falcon-20", nil) == nil)
        let paged = try pages(at: "data", "organization", "team", "members") { after in
            try post(
                server, GraphQLTeamMembersQuery.body(for: team, role: nil, first: 1, after: after), as: "octocat")
        }
        #expect(paged.flatMap { edges($0) ?? [] } == ["MAINTAINER octocat", "MEMBER Yamada-Taro"])
    }
}
