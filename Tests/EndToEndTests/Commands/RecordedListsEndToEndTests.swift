import Foundation
import GitHubStandIn
import Testing

/// The commands whose answers the stand-in serves from a recorded or documented body (Sources/GitHubStandIn/Bodies)
/// through the built binary: each prints every record of its body. How they page, cap and sort is proven in
/// process (`CommandRequestTests`) and the stand-in's paging by `StandInRecordedHandlerTests`.
struct RecordedListsEndToEndTests: EndToEndSuite {
    let accounts = 200
    private let signedIn = ["GH_TOKEN": StandInTokens.token(for: "octocat")]

    /// The body the stand-in serves for an operation, one parsed record a line.
    private func records(_ operationID: String) throws -> [NSDictionary] {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/GitHubStandIn/Bodies/\(operationID.replacing("/", with: "-")).json")
        return try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [NSDictionary])
    }

    private func lines(_ ndjson: String) throws -> [NSDictionary] {
        try ndjson.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? NSDictionary)
        }
    }

    @Test func everyListCommandPrintsEveryRecordOfItsBody() async throws {
        let commands: [(arguments: [String], operationID: String)] = [
            (["keys", "octocat"], "users/list-public-keys-for-user"),
            (["signing-keys", "octocat"], "users/list-ssh-signing-keys-for-user"),
            (["gpg-keys", "octocat"], "users/list-gpg-keys-for-user"),
            (["social", "octocat"], "users/list-social-accounts-for-user"),
            (["gists", "octocat"], "gists/list-for-user"),
            (["events", "octocat"], "activity/list-public-events-for-user"),
            (["events", "octocat", "--received"], "activity/list-received-public-events-for-user"),
            (["emails"], "users/list-emails-for-authenticated-user"),
        ]
        try await withServer { server in
            for (arguments, operationID) in commands {
                let result = try await BinaryRunner.run(
                    arguments + ["--all", "--format", "ndjson"] + api(server), environment: signedIn)
                #expect(result.status == 0, "\(arguments): \(result.stderr)")
                #expect(try lines(result.stdout) == records(operationID), "\(arguments)")
            }
            // An account's repositories, public organizations and stars are the world's (issue 40).
            for (arguments, field, expected) in [
                (["repos", "octocat"], "full_name", ["octocat/Hello-World", "octocat/Spoon-Knife"]),
                (["repos", "github"], "full_name", ["github/docs", "github/linguist"]),
                (["orgs", "octocat"], "login", ["github", "octo-org", "acme"]), (["orgs", "kitsune-fox"], "login", []),
                // Newest first: the world's stars, and the population's of Spoon-Knife.
                (
                    ["starred", "kitsune-fox"], "repo.full_name",
                    ["github/linguist", "octocat/Spoon-Knife", "octocat/Hello-World"]
                ),
            ] {
                let result = try await BinaryRunner.run(
                    arguments + ["--format", "tsv", "--fields", field] + api(server), environment: signedIn)
                let lines = result.stdout.split(separator: "\n").map(String.init)
                #expect(result.status == 0 && lines == expected, "\(arguments): \(result.stdout)\(result.stderr)")
            }
            #expect(server.requests.contains { $0.path == "/users/octocat/received_events/public" })
            #expect(server.requests.contains { $0.header("Accept") == "application/vnd.github.star+json" })
        }
    }

    @Test func theHovercardsContextsAreLinesAndASubjectIsAskedAbout() async throws {
        try await withServer { server in
            let about = try await BinaryRunner.run(
                ["hovercard", "octocat", "--subject-type", "repository", "--subject-id", "1296269", "--format", "tsv"]
                    + api(server), environment: signedIn)
            #expect(about.status == 0, "\(about.stderr)")
            #expect(about.stdout == "Owns this repository\trepo\n", "\(about.stdout)")
            #expect(server.requests.last?.query == ["subject_type": "repository", "subject_id": "1296269"])
        }
    }
}
