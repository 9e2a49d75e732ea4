import Foundation
import GitHubStandIn
import Testing

/// `hovercard` through the built binary against the stand-in: the contexts it gives as lines, and the subject
/// sent as GitHub's two query keys. `--json` and the refusals made before anything is sent are
/// `HovercardCommandTests`'.
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
        }
    }
}
