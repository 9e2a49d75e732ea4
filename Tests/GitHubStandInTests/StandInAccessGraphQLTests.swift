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

    private func batch(_ repositories: [String]) -> [UInt8] {
        GraphQLAccessQuery.collaborators(repositories.map { AccessPageAsk(repository: $0, cursor: nil) })
    }

    /// Each alias's edges, as `login: "PERMISSION <source>, <source>"`, a source `Type name PERMISSION role`.
    private func edges(_ answer: [String: Any], _ alias: String) throws -> [String: String] {
        let data = try #require(answer["data"] as? [String: Any])
        let connection = try #require((data[alias] as? [String: Any])?["collaborators"] as? [String: Any])
        var edges: [String: String] = [:]
        for edge in try #require(connection["edges"] as? [[String: Any]]) {
            let sources = try #require(edge["permissionSources"] as? [[String: Any]]).map { source in
                let granter = source["source"] as? [String: Any] ?? [:]
                let name = granter["login"] ?? granter["slug"] ?? granter["nameWithOwner"] ?? "?"
                let role = source["roleName"] ?? "?"
                return "\(granter["__typename"] ?? "?") \(name) \(source["permission"] ?? "?") \(role)"
            }
            let login = try #require((edge["node"] as? [String: Any])?["login"] as? String)
            edges[login] = "\(edge["permission"] ?? "?") " + sources.joined(separator: ", ")
        }
        return edges
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
            let docs = try edges(answer, "r\(try #require(names.firstIndex(of: "github/docs")))")
            #expect(
                docs["octocat"]
                    == "ADMIN Organization github ADMIN admin, Organization github READ read, "
                    + "Team justice-league WRITE write")
            #expect(docs["kitsune-fox"] == "WRITE Organization github READ read, Team justice-league WRITE write")
            #expect(docs["livelyfalcon26"] == "WRITE Repository github/docs WRITE write")
            let linguist = try edges(answer, "r\(try #require(names.firstIndex(of: "github/linguist")))")
            #expect(
                linguist["Happy-Otter-5"] == "MAINTAIN Organization github READ read, Team linguists WRITE maintain")
            let octo = try edges(answer, "r\(try #require(names.firstIndex(of: "octo-org/octo-repo")))")
            #expect(octo["eager-falcon-20"] == "TRIAGE Team octo-team READ triage")
            #expect(try edges(answer, "r0")["octocat"] == "ADMIN Repository octocat/Hello-World ADMIN admin")
        }
    }

    /// `collaborators(first: 1, login:)`, as `access --person` asks: that person's edge alone, case aside, or none.
    @Test func aLoginAsksForOnePersonAlone() throws {
        try withStandInServer(StandInConfiguration(userCount: 100)) { server throws in
            let asks = ["github/docs", "github/linguist"].map { AccessPageAsk(repository: $0, cursor: nil) }
            let answer = try post(server, GraphQLAccessQuery.collaborators(asks, login: "KITSUNE-fox"), as: "octocat")
            #expect(Array(try edges(answer, "r0").keys) == ["kitsune-fox"])
            #expect(Array(try edges(answer, "r1").keys) == ["kitsune-fox"])
            let nobody = try post(server, GraphQLAccessQuery.collaborators(asks, login: "ghost"), as: "octocat")
            #expect(try edges(nobody, "r0").isEmpty)
        }
    }

    /// The members, with their role; their two-factor state only to an owner (null, never false, to anyone else);
    /// a non-member sees the public members alone.
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
            var cursor: String? = nil
            repeat {  // Three a page, by the stand-in's cursors.
                let answer = try post(
                    server, GraphQLAccessQuery.members(of: "github", after: cursor), as: caller, first: 3)
                let data = try #require((answer["data"] as? [String: Any])?["organization"] as? [String: Any])
                let members = try #require(data["membersWithRole"] as? [String: Any])
                for edge in try #require(members["edges"] as? [[String: Any]]) {
                    let login = try #require((edge["node"] as? [String: Any])?["login"] as? String)
                    let twoFactor =
                        edge["hasTwoFactorEnabled"].map { $0 is NSNull ? "null" : "\($0 as? Bool == true)" } ?? "?"
                    listed[login] = "\(edge["role"] ?? "?") \(twoFactor)"
                }
                let info = try #require(members["pageInfo"] as? [String: Any])
                cursor = info["hasNextPage"] as? Bool == true ? info["endCursor"] as? String : nil
            } while cursor != nil
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
            let data = try #require(answer["data"] as? [String: Any])
            #expect(try edges(answer, "r0")["Yamada-Taro"]?.hasPrefix("ADMIN ") == true)
            #expect((data["r1"] as? [String: Any])?["collaborators"] is NSNull && data["r2"] is NSNull)
            let errors = try #require(answer["errors"] as? [[String: Any]])
            #expect(
                errors.map { "\($0["type"] ?? "") \($0["path"] as? [String] ?? [])" } == [
                    #"FORBIDDEN ["r1", "collaborators"]"#, #"NOT_FOUND ["r2"]"#,
                ])
            let spent = try #require((data["rateLimit"] as? [String: Any])?["remaining"] as? Int)
            let listing = try post(server, GraphQLAccessQuery.repositories(of: "github", after: nil), as: "Yamada-Taro")
            let listed = try #require((listing["data"] as? [String: Any])?["organization"] as? [String: Any])
            let repositories = try #require(listed["repositories"] as? [String: Any])
            #expect(
                (repositories["nodes"] as? [[String: Any]])?.compactMap { $0["nameWithOwner"] as? String } == [
                    "github/docs", "github/linguist",
                ])
            #expect(
                ((listing["data"] as? [String: Any])?["rateLimit"] as? [String: Any])?["remaining"] as? Int == spent - 1
            )
            let unknown = try post(server, GraphQLAccessQuery.members(of: "no-such-org", after: nil), as: "octocat")
            #expect((unknown["data"] as? [String: Any])?["organization"] is NSNull)
            #expect((unknown["errors"] as? [[String: Any]])?.first?["type"] as? String == "NOT_FOUND")
        }
    }

    /// A repository's people past a page are continued by cursor, each once, in the order of one long page.
    @Test func collaboratorsArePagedByCursor() throws {
        try withStandInServer(StandInConfiguration(userCount: 100)) { server throws in
            let whole = try edges(post(server, batch(["github/docs"]), as: "octocat"), "r0")
            var paged: [String: String] = [:]
            var cursor: String? = nil
            repeat {
                let ask = [AccessPageAsk(repository: "github/docs", cursor: cursor)]
                let answer = try post(server, GraphQLAccessQuery.collaborators(ask), as: "octocat", first: 2)
                let page = try edges(answer, "r0")
                #expect(page.count <= 2 && page.keys.allSatisfy { paged[$0] == nil })
                paged.merge(page) { old, _ in old }
                let data = try #require(answer["data"] as? [String: Any])
                let info = try #require(
                    ((data["r0"] as? [String: Any])?["collaborators"] as? [String: Any])?["pageInfo"] as? [String: Any])
                cursor = info["hasNextPage"] as? Bool == true ? info["endCursor"] as? String : nil
            } while cursor != nil
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
            let first = try post(server, batch(["bench-org/repo-0007"]), as: "octocat")
            let page = try #require((first["data"] as? [String: Any])?["r0"] as? [String: Any])
            let info = try #require((page["collaborators"] as? [String: Any])?["pageInfo"] as? [String: Any])
            let cursor = try #require(info["endCursor"] as? String)
            #expect(try edges(first, "r0").count == 100 && info["hasNextPage"] as? Bool == true)
            let ask = [AccessPageAsk(repository: "bench-org/repo-0007", cursor: cursor)]
            let rest = try edges(post(server, GraphQLAccessQuery.collaborators(ask), as: "octocat"), "r0")
            #expect(rest.count == counts[0] - 100)
        }
    }
}
