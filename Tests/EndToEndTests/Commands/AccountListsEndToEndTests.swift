import Foundation
import GitHubStandIn
import Testing

/// keys, signing-keys, gpg-keys, social, orgs, starred, gists, events and me through the built binary, against
/// the stand-in's accounts that have hundreds of each, so every one pages.
struct AccountSurfaceEndToEndTests {
    private func withServer<T>(_ body: (StandInServer) async throws -> T) async throws -> T {
        let server = try StandInServer(configuration: StandInConfiguration(userCount: 2000))
        try server.start()
        defer { server.stop() }
        return try await body(server)
    }

    private func api(_ server: StandInServer) -> [String] { ["--api-url", server.baseURL] }

    private func user(_ server: StandInServer, _ login: String) throws -> StandInUser {
        try #require(server.population.user(login: login))
    }

    /// `--all --format ndjson` is GitHub's objects byte for byte, in order, paged 100 at a time.
    private func expectEveryRecord(
        _ command: [String], _ expected: [String], server: StandInServer,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let result = try await BinaryRunner.run(command + ["--all", "--format", "ndjson"] + api(server))
        #expect(result.status == 0, "\(command): \(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stderr.isEmpty, "\(command): \(result.stderr)", sourceLocation: sourceLocation)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == expected.count, "\(command)", sourceLocation: sourceLocation)
        #expect(lines == expected, "\(command)", sourceLocation: sourceLocation)
        #expect(
            server.requests.count == (expected.count + 99) / 100, "\(command): \(server.requests.map(\.target))",
            sourceLocation: sourceLocation)
    }

    @Test func keysSigningKeysAndGPGKeysPageThroughEveryKey() async throws {
        try await withServer { server in
            let many = try user(server, StandInPopulation.manyKeysLogin)
            #expect(server.population.keys(of: many).count > 200)
            try await expectEveryRecord(
                ["keys", many.login], server.population.keys(of: many).map { $0.json() }, server: server)
        }
        try await withServer { server in
            let octocat = try user(server, "octocat")
            try await expectEveryRecord(
                ["signing-keys", "octocat"], server.population.signingKeys(of: octocat).map { $0.json() },
                server: server)
        }
        try await withServer { server in
            let octocat = try user(server, "octocat")
            try await expectEveryRecord(
                ["gpg-keys", "octocat"], server.population.gpgKeys(of: octocat).map { $0.json() }, server: server)
        }
    }

    @Test func aKeysTableShowsFingerprintsAndAQuestionMarkForAMalformedKey() async throws {
        try await withServer { server in
            let login = StandInPopulation.malformedKeysLogin
            let result = try await BinaryRunner.run(
                ["keys", login, "--format", "tsv", "--fields", "id,key"] + api(server))
            #expect(result.status == 0)
            let table = try await BinaryRunner.run(["keys", login, "--format", "table"] + api(server))
            #expect(table.status == 0, "\(table.stderr)")
            let rows = table.stdout.split(separator: "\n").dropFirst()
            #expect(rows.contains { $0.contains("SHA256:") })
            #expect(rows.contains { $0.split(separator: " ", omittingEmptySubsequences: true).contains("?") })
        }
    }

    @Test func socialOrgsAndGistsPage() async throws {
        try await withServer { server in
            let octocat = try user(server, "octocat")
            try await expectEveryRecord(
                ["social", "octocat"], server.population.socialAccounts(of: octocat).map { $0.json() }, server: server)
        }
        try await withServer { server in
            let many = try user(server, StandInPopulation.manyOrganizationsLogin)
            try await expectEveryRecord(
                ["orgs", many.login], server.population.organizations(of: many).map { $0.json() }, server: server)
        }
        try await withServer { server in
            let many = try user(server, StandInPopulation.manyGistsLogin)
            try await expectEveryRecord(
                ["gists", many.login], server.population.gists(of: many).map { $0.json() }, server: server)
        }
    }

    @Test func starredCarriesWhenEachWasStarredAndSortsAsAsked() async throws {
        try await withServer { server in
            let many = try user(server, StandInPopulation.manyStarsLogin)
            try await expectEveryRecord(
                ["starred", many.login], server.population.starred(by: many).map { $0.starJSON() }, server: server)
            #expect(server.requests.allSatisfy { $0.header("Accept") == "application/vnd.github.star+json" })
        }
        try await withServer { server in
            let many = try user(server, StandInPopulation.manyStarsLogin)
            let expected = server.population.starred(by: many, sort: .updated, direction: .asc).map { $0.starJSON() }
            try await expectEveryRecord(
                ["starred", many.login, "--sort", "updated", "--direction", "asc"], expected, server: server)
        }
    }

    @Test func eventsStopAtThreeHundredWithoutAskingForThePageGitHubRefuses() async throws {
        try await withServer { server in
            let many = try user(server, StandInPopulation.manyEventsLogin)
            #expect(server.population.publicEvents(of: many).count > 300)
            let result = try await BinaryRunner.run(
                ["events", many.login, "--all", "--format", "ndjson"] + api(server))
            #expect(result.status == 0)
            let expected = server.population.publicEvents(of: many).prefix(300).map { $0.json() }
            #expect(result.stdout.split(separator: "\n").map(String.init) == Array(expected))
            #expect(result.stderr.contains("only the 300 most recent public events"))
            #expect(server.requests.count == 3)
            // With pages of 7, the 43rd page would start past the 300th event: it is never asked for.
            let small = try await BinaryRunner.run(
                ["events", many.login, "--all", "--per-page", "7", "--format", "ndjson"] + api(server))
            #expect(small.status == 0, "\(small.stderr)")
            #expect(small.stdout.split(separator: "\n").count == 300)
            #expect(!small.stderr.contains("422"))
        }
    }

    @Test func anUnknownLoginIsExitThreeForEveryListOfAnAccount() async throws {
        try await withServer { server in
            for command in ["keys", "signing-keys", "gpg-keys", "social", "orgs", "starred", "gists", "events"] {
                let result = try await BinaryRunner.run([command, "no-such-user"] + api(server))
                #expect(result.status == 3, "\(command)")
                #expect(result.stdout.isEmpty, "\(command)")
                #expect(
                    result.stderr.hasPrefix("gh-users: no user 'no-such-user' (HTTP 404)\nrequest id: "), "\(command)")
            }
        }
    }

    @Test func meIsTheTokensAccountAndNeedsAToken() async throws {
        try await withServer { server in
            let token = StandInTokens.token(for: "octocat")
            let octocat = try user(server, "octocat")
            let json = try await BinaryRunner.run(
                ["me", "--format", "ndjson"] + api(server), environment: ["GH_TOKEN": token])
            #expect(json.status == 0, "\(json.stderr)")
            #expect(json.stdout == octocat.privateUserJSON() + "\n")
            #expect(!json.stdout.contains(token) && !json.stderr.contains(token))
            let before = server.requests.count
            let anonymous = try await BinaryRunner.run(["me"] + api(server))
            #expect(anonymous.status == 4)
            #expect(anonymous.stdout.isEmpty)
            #expect(anonymous.stderr.hasPrefix("gh-users: me needs a token"))
            #expect(server.requests.count == before)
        }
    }
}
