import Foundation
import GitHubStandIn
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `gh-users access ORG` through the built binary against the stand-in, which answers its GraphQL documents from its
/// world by GitHub's access rules (`StandInGraphQLSchema`); between runs the world changes through the stand-in's
/// routes, as `Scripts/try --world` changes it.
final class AccessEndToEndTests {
    private let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("gh-users-access-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    /// Each test's folder (its snapshots) goes with it: the tests leave the temporary folder as they found it.
    deinit {
        try? FileManager.default.removeItem(at: folder)
    }

    private var snapshot: String { folder.appendingPathComponent("access.json").path }

    private func access(_ server: StandInServer, _ arguments: [String], as login: String = "octocat") async throws
        -> RunResult
    {
        try await BinaryRunner.run(
            ["access"] + arguments + ["--api-url", server.baseURL, "--no-cache"],
            environment: ["GH_TOKEN": StandInTokens.token(for: login)])
    }

    /// One request to the stand-in as `login`, as GitHub's web UI would make the change; its answer's JSON, if any.
    @discardableResult
    private func send(
        _ server: StandInServer, _ method: String, _ path: String, as login: String, _ body: String? = nil
    ) async throws -> [String: Any] {
        var request = URLRequest(url: try #require(URL(string: server.baseURL + path)))
        request.httpMethod = method
        request.setValue("Bearer " + StandInTokens.token(for: login), forHTTPHeaderField: "Authorization")
        request.httpBody = body.map { Data($0.utf8) }
        let (data, response) = try await URLSession.shared.data(for: request)
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        #expect((200..<300).contains(status), "\(method) \(path): \(status)")
        return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
    }

    /// The NDJSON records, by "repository login".
    private func records(_ stdout: String) throws -> [String: [String: Any]] {
        var records: [String: [String: Any]] = [:]
        for line in stdout.split(separator: "\n") {
            let record = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            records["\(record["repository"] ?? "") \(record["login"] ?? "")"] = record
        }
        return records
    }

    private func sources(_ record: [String: Any]?) -> String {
        (record?["sources"] as? [[String: Any]] ?? []).map {
            "\($0["kind"] ?? "") \($0["name"] ?? "") \($0["permission"] ?? "")"
        }
        .joined(separator: ", ")
    }

    /// The map of one organization, as its owner reads it: every person with a grant on each repository, with the
    /// permission, affiliation and two-factor state the world gives them, and every source of it. An archived
    /// repository's (github/linguist) are there too.
    @Test func theFullMapOfAnOrganizationIsTheWorlds() async throws {
        try await withStandIn(users: 100) { server in
            let run = try await access(server, ["github", "--format", "ndjson"])
            #expect(run.status == 0, "\(run.stderr)")
            let records = try records(run.stdout)
            let world = server.world.current
            let organization = try #require(world.organization("github"))
            var expected: [String: String] = [:]
            for repository in world.repositories where repository.owner == "github" {
                for (login, _) in world.people(of: repository) {
                    let member = organization.members.first { $0.login == login }
                    let level = try #require(world.permission(of: login, on: repository))
                    let affiliation = member.map { $0.role == "admin" ? "owner" : "member" } ?? "outside"
                    let twoFactor = member.map { "\($0.twoFactor != "disabled")" } ?? "nil"
                    expected["\(repository.fullName) \(login)"] =
                        "\(StandInWorld.roleName(level)) \(affiliation) \(twoFactor)"
                }
            }
            let got = records.mapValues { record in
                let twoFactor = (record["two_factor"] as? Bool).map { "\($0)" } ?? "nil"
                return "\(record["permission"] ?? "") \(record["affiliation"] ?? "") \(twoFactor)"
            }
            #expect(got == expected)
            #expect(
                Array(records.keys).sorted { $0.lowercased() < $1.lowercased() }
                    == run.stdout.split(separator: "\n").map {
                        let record = try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
                        return "\(record?["repository"] ?? "") \(record?["login"] ?? "")"
                    })
            #expect(
                sources(records["github/docs octocat"])
                    == "organization github admin, repository github/docs admin, team justice-league write")
            // kitsune-fox is in linguists, a child of justice-league, which grants it: the source is the parent.
            #expect(
                sources(records["github/docs kitsune-fox"]) == "organization github read, team justice-league write")
            #expect(sources(records["github/docs livelyfalcon26"]) == "repository github/docs write")
            #expect(
                sources(records["github/linguist Happy-Otter-5"]) == "organization github read, team linguists maintain"
            )
            #expect(world.repository("github", "linguist")?.archived == true)
            #expect(records.keys.contains { $0.hasPrefix("github/linguist ") })
        }
    }

    /// A member who can push to some repositories only: the records of those, stderr names the others and how
    /// many, exit 1; two-factor states are null, as GitHub shows them to owners alone.
    @Test func aMembersTokenReadsOnlyWhatItCanPushTo() async throws {
        try await withStandIn(users: 100) { server in
            let run = try await access(server, ["github", "--format", "ndjson"], as: "Yamada-Taro")
            #expect(run.status == 1, "\(run.stderr)")
            let records = try records(run.stdout)
            #expect(!records.isEmpty && records.keys.allSatisfy { $0.hasPrefix("github/docs ") })
            #expect(records.values.allSatisfy { $0["two_factor"] is NSNull })
            #expect(run.stderr.contains("GitHub did not show the collaborators of 1 repository of 2"), "\(run.stderr)")
            #expect(run.stderr.contains("github/linguist"), "\(run.stderr)")
        }
    }

    /// The same through a pipe with `--state`: the refused repository, the map's last, is still named, exit 1, and
    /// the state is complete. Before, the summary was read before the repositories the reader took last were
    /// saved, and the map was said whole, exit 0 (a review's find).
    @Test func aPipedMapWithAStateNamesTheRepositoryRefusedLast() async throws {
        try await withStandIn(users: 100) { server in
            let state = folder.appendingPathComponent("s").path
            let run = try await BinaryRunner.shell(
                #""$GH_USERS" access github --format ndjson --state "$STATE" --api-url "$API" --no-cache | cat > /dev/null; "#
                    + #"exit ${PIPESTATUS[0]}"#,
                environment: [
                    "GH_TOKEN": StandInTokens.token(for: "Yamada-Taro"), "STATE": state, "API": server.baseURL,
                ])
            #expect(run.status == 1, "\(run.stderr)")
            #expect(run.stderr.contains("GitHub did not show the collaborators of 1 repository of 2"), "\(run.stderr)")
            #expect(try String(contentsOfFile: state, encoding: .utf8).contains(#""complete":true"#))
            // A map of no repository read writes nothing through a pipe, as to a file: no csv header, twice.
            let csv = folder.appendingPathComponent("none.csv").path
            for _ in 0..<2 {
                let none = try await BinaryRunner.shell(
                    #""$GH_USERS" access github --repo linguist --format csv --state "$STATE.csv" --api-url "$API" "#
                        + #"--no-cache | cat >> "$CSV"; exit ${PIPESTATUS[0]}"#,
                    environment: [
                        "GH_TOKEN": StandInTokens.token(for: "Yamada-Taro"), "STATE": state, "API": server.baseURL,
                        "CSV": csv,
                    ])
                #expect(none.status == 4, "\(none.stderr)")
            }
            #expect(try String(contentsOfFile: csv, encoding: .utf8).isEmpty)
        }
    }

    /// `--repo` and the organization typed in any case give the full map's records: GitHub's names, not the
    /// typed ones.
    @Test func aNamedRepositoryIsWrittenAsTheFullMapWritesIt() async throws {
        try await withStandIn(users: 100) { server in
            let full = try await access(server, ["github", "--format", "ndjson"])
            #expect(full.status == 0, "\(full.stderr)")
            let named = try await access(server, ["GitHub", "--repo", "DOCS", "--format", "ndjson"])
            #expect(named.status == 0, "\(named.stderr)")
            let docs = full.stdout.split(separator: "\n").filter { $0.hasPrefix(#"{"repository":"github/docs","#) }
            #expect(!docs.isEmpty && named.stdout == docs.map { $0 + "\n" }.joined())
        }
    }

    /// To a token that is no member (livelyfalcon26, who can push to github/docs) GitHub lists only the members who
    /// show their membership: those who do not, an owner among them, are never outside collaborators. Someone not
    /// listed who has the base permission (below admin) and not the organization's admin is a member; any other
    /// record of someone not listed has a null affiliation, so `--affiliation outside` keeps none, and stderr says
    /// why.
    @Test func aNonMembersTokenCallsNoHiddenMemberOutside() async throws {
        try await withStandIn(users: 100) { server in
            let run = try await access(
                server, ["github", "--repo", "docs", "--format", "ndjson"], as: "livelyfalcon26")
            #expect(run.status == 0, "\(run.stderr)")
            let organization = try #require(server.world.current.organization("github"))
            let repository = try #require(server.world.current.repository("github", "docs"))
            var expected: [String: String] = [:]
            for (login, grants) in server.world.current.people(of: repository) {
                let member = organization.members.first { $0.login == login && $0.isPublic && $0.active }
                let base = grants.contains { $0.source == "base permission" && $0.level < 4 }
                let owner = grants.contains { $0.source == "organization owner" }
                expected["github/docs \(login)"] =
                    member.map { $0.role == "admin" ? "owner" : "member" } ?? (base && !owner ? "member" : "null")
            }
            let got = try records(run.stdout).mapValues { ($0["affiliation"] as? String) ?? "null" }
            #expect(got == expected)
            // A hidden owner stays unknown; a hidden member with the base permission (read) is a member.
            #expect(got["github/docs lively-otter-8"] == "null" && got["github/docs kitsune-fox"] == "member")
            #expect(got["github/docs octocat"] == "owner")

            let outside = try await access(
                server, ["github", "--repo", "docs", "--affiliation", "outside", "--format", "csv"],
                as: "livelyfalcon26")
            #expect(outside.status == 0, "\(outside.stderr)")
            #expect(outside.stdout == "repository,login,permission,affiliation,sources,two_factor\r\n")
            // Of the four nulls only the token's own record (a direct grant alone) may be an outside collaborator's:
            // the others reach docs through the organization or a team, which only members do.
            #expect(outside.stderr.contains("--affiliation outside left out 1 record whose affiliation is null"))
        }
    }

    /// `--changes` across three runs: the first records; then a collaborator added and a team's grant raised (its
    /// child team's members with it); then a member removed. A snapshot of another organization is refused, and
    /// the file left byte for byte.
    @Test func changesAcrossThreeRunsAndAnotherOrganizationsSnapshotRefused() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try await withStandIn(users: 100) { server in
            let fields = ["--format", "tsv", "--fields", "change,repository,login,old_permission,new_permission"]
            let first = try await access(server, ["github", "--changes", snapshot] + fields)
            #expect(first.status == 0, "\(first.stderr)")
            #expect(first.stdout.isEmpty)
            #expect(first.stderr.contains("recorded"), "\(first.stderr)")

            let invitation = try await send(
                server, "PUT", "/repos/github/docs/collaborators/eager-falcon-20", as: "octocat",
                #"{"permission":"push"}"#)
            let id = try #require(invitation["id"] as? Int)
            try await send(server, "PATCH", "/user/repository_invitations/\(id)", as: "eager-falcon-20")
            try await send(
                server, "PUT", "/orgs/github/teams/justice-league/repos/github/docs", as: "octocat",
                #"{"permission":"maintain"}"#)
            let second = try await access(server, ["github", "--changes", snapshot] + fields)
            #expect(second.status == 0, "\(second.stderr)")
            #expect(
                second.stdout.split(separator: "\n").sorted() == [
                    "added\tgithub/docs\teager-falcon-20\t\twrite",
                    "changed\tgithub/docs\tHappy-Otter-5\twrite\tmaintain",
                    "changed\tgithub/docs\tYamada-Taro\tadmin\tadmin",
                    "changed\tgithub/docs\tkitsune-fox\twrite\tmaintain",
                    "changed\tgithub/docs\toctocat\tadmin\tadmin",
                ])

            try await send(server, "DELETE", "/orgs/github/members/kitsune-fox", as: "octocat")
            let third = try await access(server, ["github", "--changes", snapshot] + fields)
            #expect(third.status == 0, "\(third.stderr)")
            #expect(
                third.stdout.split(separator: "\n").sorted() == [
                    "removed\tgithub/docs\tkitsune-fox\tmaintain\t",
                    "removed\tgithub/linguist\tkitsune-fox\tmaintain\t",
                ])

            let before = try Data(contentsOf: URL(fileURLWithPath: snapshot))
            let other = try await access(server, ["octo-org", "--changes", snapshot])
            #expect(other.status == 1, "\(other.stderr)")
            #expect(other.stdout.isEmpty)
            #expect(other.stderr.contains("was made for 'gh-users access github"), "\(other.stderr)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: snapshot)) == before)
        }
    }
}
