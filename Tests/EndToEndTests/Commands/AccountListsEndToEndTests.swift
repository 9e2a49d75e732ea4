import Foundation
import GitHubStandIn
import Testing

/// The lists under an account (keys, signing-keys, gpg-keys, social, orgs, starred, gists, events) through the
/// built binary, against the stand-in's accounts that have hundreds of each, so every one pages. An unknown
/// account is `CommandErrorTests`'.
struct AccountListsEndToEndTests: EndToEndSuite {
    let accounts = 2000

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
}
