import Foundation
import GitHubStandIn
import Testing

/// `hovercard` through the built binary against the stand-in: the contexts as lines, the subject sent as
/// GitHub's two query keys, and the refusals made before anything is sent.
struct HovercardEndToEndTests {
    private let signedIn = ["GH_TOKEN": StandInTokens.token(for: "octocat")]

    @Test func theContextsAreLinesAndASubjectIsAskedAbout() async throws {
        try await withStandIn(users: 200) { server in
            let octocat = try #require(server.population.user(login: "octocat"))
            let location = try #require(octocat.profile.location)
            let repository = try #require(server.population.repositories(ofUserID: octocat.id).first)
            let api = ["--format", "tsv", "--api-url", server.baseURL]
            let plain = try await BinaryRunner.run(["hovercard", "octocat"] + api, environment: signedIn)
            #expect(plain.status == 0, "\(plain.stderr)")
            #expect(plain.stdout.hasSuffix("Lives in \(location)\tlocation\n"), "\(plain.stdout)")
            #expect(!plain.stdout.contains("Owns this repository"))
            let about = try await BinaryRunner.run(
                ["hovercard", "octocat", "--subject-type", "repository", "--subject-id", "\(repository.id)"] + api,
                environment: signedIn)
            #expect(about.status == 0, "\(about.stderr)")
            #expect(about.stdout.hasPrefix("Owns this repository\trepo\n"), "\(about.stdout)")
            #expect(server.requests.last?.query == ["subject_type": "repository", "subject_id": "\(repository.id)"])
            let json = try await BinaryRunner.run(
                ["hovercard", "octocat", "--json", "--api-url", server.baseURL], environment: signedIn)
            #expect(json.stdout.hasPrefix("{\n  \"contexts\": [\n"), "\(json.stdout)")
        }
    }

    /// argv after the login, the token, the exit status and what stderr says; nothing is sent.
    @Test(arguments: [
        (
            ["--subject-type", "repository"], ["GH_TOKEN": "gho_octocat"], 64,
            "--subject-type and --subject-id go together"
        ),
        (["--subject-id", "1296269"], ["GH_TOKEN": "gho_octocat"], 64, "--subject-type and --subject-id go together"),
        (
            ["--subject-type", "gist", "--subject-id", "1"], ["GH_TOKEN": "gho_octocat"], 64,
            "choose one of organization"
        ),
        (["--subject-type", "issue", "--subject-id", "1x"], ["GH_TOKEN": "gho_octocat"], 64, "numeric id"),
        ([], [:], 4, "hovercard needs a token"),
    ])
    func badInputAndNoTokenAreRefusedBeforeAnythingIsSent(
        arguments: [String], environment: [String: String], status: Int32, stderr: String
    ) async throws {
        try await withStandIn(users: 200) { server in
            let result = try await BinaryRunner.run(
                ["hovercard", "octocat"] + arguments + ["--api-url", server.baseURL], environment: environment)
            #expect(result.status == status)
            #expect(result.stdout.isEmpty)
            #expect(result.stderr.contains(stderr), "\(result.stderr)")
            #expect(server.requests.isEmpty)
        }
    }
}
