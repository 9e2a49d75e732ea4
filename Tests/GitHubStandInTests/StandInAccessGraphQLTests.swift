import Foundation
import GitHubStandIn
import Testing

@testable import Data

/// `gh-users access`'s three documents, as the command sends them (`GraphQLAccessQuery`), answered from the world by
/// its access rules (issue 41).
@Suite struct StandInAccessGraphQLTests {
    let world = StandInWorld.file

    /// The answer to `body` (a document of `GraphQLAccessQuery`, its page size `first` where given) as `login`.
    private func post(_ server: StandInServer, _ body: [UInt8], as login: String, first: Int? = nil) throws
        -> [String: Any]
    {
        var text = String(decoding: body, as: UTF8.self)
        if let first { text = text.replacing("first: 100", with: "first: \(first)") }
        let response = try graphQL(server, body: Array(text.utf8), token: StandInTokens.token(for: login))
        #expect(response.status == 200)
        return try response.jsonObject()
    }

    private func batch(_ repositories: [String], after cursor: String? = nil, login: String? = nil) -> [UInt8] {
        GraphQLAccessQuery.collaborators(
            repositories.map { AccessPageAsk(repository: $0, cursor: cursor) }, login: login)
    }

    /// A connection's edges, as `login: "PERMISSION <source>, <source>"`, a source `Type name PERMISSION role`.
    private func edges(_ connection: Any?) throws -> [String: String] {
        var edges: [String: String] = [:]
        for edge in try #require(value(connection, "edges") as? [[String: Any]]) {
            let sources = try #require(edge["permissionSources"] as? [[String: Any]]).map { source in
                let granter = source["source"] as? [String: Any] ?? [:]
                let name = granter["login"] ?? granter["slug"] ?? granter["nameWithOwner"] ?? "?"
                let role = source["roleName"] ?? "?"
                return "\(granter["__typename"] ?? "?") \(name) \(source["permission"] ?? "?") \(role)"
            }
            edges[try #require(value(edge, "node", "login") as? String)] =
                "\(edge["permission"] ?? "?") " + sources.joined(separator: ", ")
        }
        return edges
    }

    /// The edges of one alias of a batch's answer.
    private func edges(_ answer: [String: Any], _ alias: String) throws -> [String: String] {
        try edges(value(answer, "data", alias, "collaborators"))
    }

    /// Everyone with a grant on each repository of the world is listed, with the highest as the permission and
    /// every grant as a source: ownership and the base permission (two organization sources), the team that grants
    /// it (a child team's members name the parent), the repository for a direct grant; triage shows as READ and
    /// maintain as WRITE, with the exact role as roleName, as GitHub answers.
    @Test func everyoneWithAGrantIsListedWithEverySource() throws {
        try withStandInServer(StandInConfiguration(userCount: 100)) { server throws in
            let names = world.repositories.map(\.fullName)
            let answer = try post(server, batch(names), as: "octocat")
            #expect(answer["errors"] == nil)
            for (index, repository) in world.repositories.enumerated() {
                let people = world.people(of: repository).filter { server.population.user(login: $0) != nil }
                #expect(Set(try edges(answer, "r\(index)").keys) == Set(people), "\(repository.fullName)")
            }
            func of(_ repository: String) throws -> [String: String] {
                try edges(answer, "r\(try #require(names.firstIndex(of: repository)))")
            }
            let docs = try of("github/docs")
            #expect(
                docs["octocat"]
                    == "ADMIN Organization github ADMIN admin, Organization github READ read, "
                    + "Team justice-league WRITE write")
            #expect(docs["kitsune-fox"] == "WRITE Organization github READ read, Team justice-league WRITE write")
            #expect(docs["livelyfalcon26"] == "WRITE Repository github/docs WRITE write")
            let linguist = try of("github/linguist")
            #expect(
                linguist["Happy-Otter-5"] == "MAINTAIN Organization github READ read, Team linguists WRITE maintain")
            #expect(try of("octo-org/octo-repo")["eager-falcon-20"] == "TRIAGE Team octo-team READ triage")
            #expect(try of("octocat/Hello-World")["octocat"] == "ADMIN Repository octocat/Hello-World ADMIN admin")
        }
    }

    /// `collaborators(first: 1, login:)`, as `access --person` asks: that person's edge alone, case aside, or none.
    @Test func aLoginAsksForOnePersonAlone() throws {
        try withStandInServer(StandInConfiguration(userCount: 100)) { server throws in
            let answer = try post(
                server, batch(["github/docs", "github/linguist"], login: "KITSUNE-fox"), as: "octocat")
            #expect(Array(try edges(answer, "r0").keys) == ["kitsune-fox"])
            #expect(Array(try edges(answer, "r1").keys) == ["kitsune-fox"])
            let nobody = try post(server, batch(["github/docs"], login: "ghost"), as: "octocat")
            #expect(try edges(nobody, "r0").isEmpty)
        }
    }

    /// The members, with their role; their two-factor state only to an owner (null, never false, to anyone else);
    /// a non-member sees the public members alone. Three a page, by the stand-in's cursors.
    @Test(arguments: [
        ("octocat", ["octocat": "ADMIN true", "lively-otter-8": "ADMIN true", "Happy-Otter-5": "MEMBER false"]),
        ("Yamada-Taro", ["octocat": "ADMIN null", "Happy-Otter-5": "MEMBER null", "Yamada-Taro": "MEMBER null"]),
        ("eager-falcon-20", ["octocat": "ADMIN null", "Yamada-Taro": "MEMBER null", "jollyotter6": "MEMBER null"]),
    ])
    func membersWithTheirRoleAndTwoFactorStateToOwnersAlone(caller: String, expected: [String: String]) throws {
        try withStandInServer(StandInConfiguration(userCount: 100)) { server throws in
            let organization = try #require(world.organization("github"))
            let member = world.isMember(caller, of: organization)
            var listed: [String: String] = [:]
            let connections = try pages(at: "data", "organization", "membersWithRole") { cursor in
                try post(server, GraphQLAccessQuery.members(of: "github", after: cursor), as: caller, first: 3)
            }
            for edge in connections.flatMap({ $0["edges"] as? [[String: Any]] ?? [] }) {
                let twoFactor = edge["hasTwoFactorEnabled"].map { $0 is NSNull ? "null" : "\($0 as? Bool == true)" }
                listed[value(edge, "node", "login") as? String ?? "?"] = "\(edge["role"] ?? "?") \(twoFactor ?? "?")"
            }
            #expect(Set(listed.keys) == Set(organization.members.filter { member || $0.isPublic }.map(\.login)))
            for (login, edge) in expected { #expect(listed[login] == edge, "\(login)") }
        }
    }

    /// A repository the caller cannot push to is `collaborators: null` beside a FORBIDDEN error with its path, one
    /// that does not exist null beside NOT_FOUND, an unknown organization NOT_FOUND; each document costs a point.
    @Test func refusalsAndUnknownsAreGitHubsErrorsAtTheirPaths() throws {
        try withStandInServer(StandInConfiguration(userCount: 100)) { server throws in
            let answer = try post(
                server, batch(["github/docs", "github/linguist", "github/nothing"]), as: "Yamada-Taro")
            #expect(try edges(answer, "r0")["Yamada-Taro"]?.hasPrefix("ADMIN ") == true)
            #expect(value(answer, "data", "r1", "collaborators") is NSNull && value(answer, "data", "r2") is NSNull)
            let errors = try #require(answer["errors"] as? [[String: Any]])
            #expect(
                errors.map { "\($0["type"] ?? "") \($0["path"] as? [String] ?? [])" } == [
                    #"FORBIDDEN ["r1", "collaborators"]"#, #"NOT_FOUND ["r2"]"#,
                ])
            let spent = try #require(value(answer, "data", "rateLimit", "remaining") as? Int)
            let listing = try post(server, GraphQLAccessQuery.repositories(of: "github", after: nil), as: "Yamada-Taro")
            let nodes = value(listing, "data", "organization", "repositories", "nodes") as? [[String: Any]]
            #expect(nodes?.compactMap { $0["nameWithOwner"] as? String } == ["github/docs", "github/linguist"])
            #expect(value(listing, "data", "rateLimit", "remaining") as? Int == spent - 1)
            let unknown = try post(server, GraphQLAccessQuery.members(of: "no-such-org", after: nil), as: "octocat")
            #expect(value(unknown, "data", "organization") is NSNull)
            #expect((unknown["errors"] as? [[String: Any]])?.first?["type"] as? String == "NOT_FOUND")
        }
    }

    /// A repository's people past a page are continued by cursor, each once, in the order of one long page.
    @Test func collaboratorsArePagedByCursor() throws {
        try withStandInServer(StandInConfiguration(userCount: 100)) { server throws in
            let whole = try edges(post(server, batch(["github/docs"]), as: "octocat"), "r0")
            var paged: [String: String] = [:]
            for page in try pages(
                at: "data", "r0", "collaborators",
                answer: { cursor in
                    try post(server, batch(["github/docs"], after: cursor), as: "octocat", first: 2)
                })
            {
                let edges = try edges(page)
                #expect(edges.count <= 2 && edges.keys.allSatisfy { paged[$0] == nil })
                paged.merge(edges) { old, _ in old }
            }
            #expect(paged == whole && whole.count > 4)
        }
    }

    /// `--access-bench`'s organization, computed beside the world: 1,000 repositories of about 150 people, whose
    /// collaborators come 100 a page and are continued by cursor.
    @Test func theBenchOrganizationsRepositoriesArePagedPastAHundredPeople() throws {
        var configuration = StandInConfiguration(userCount: 2_000)
        configuration.accessBench = true
        try withStandInServer(configuration) { server throws in
            let world = server.world.current
            let repositories = world.repositories.filter { $0.owner == StandInWorld.benchOrganization }
            #expect(repositories.count == 1_000)
            let counts = stride(from: 7, to: 1_000, by: 50).map { world.people(of: repositories[$0]).count }
            #expect(counts.allSatisfy { (140...160).contains($0) }, "\(counts)")
            let pages = try pages(at: "data", "r0", "collaborators") { cursor in
                try post(server, batch(["bench-org/repo-0007"], after: cursor), as: "octocat")
            }
            #expect(try pages.map { try edges($0).count } == [100, counts[0] - 100])
        }
    }
}
