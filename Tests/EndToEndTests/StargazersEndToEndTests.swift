import Foundation
import GitHubStandIn
import Testing

/// `gh-users stargazers` against the stand-in, which lists a repository's stargazers only to its admins and
/// collaborators (404 for anyone else, as GitHub answers since July 2026) and stops REST at 400 pages (`StandInStargazerList`). The requests
/// and the records are `StargazersCommandTests`' and `PeopleListCommandTests`'.
struct StargazersEndToEndTests {
    /// Someone who is neither an admin nor a collaborator of the repository (kitsune-fox, in the world): one line on stderr that says why and points to star-history,
    /// exit 4, nothing on stdout.
    @Test func aNonCollaboratorIsRefusedInOneLine() async throws {
        try await withStandIn(users: 40) { server in
            let run = try await BinaryRunner.run(
                ["stargazers", "octocat/Hello-World", "--api-url", server.baseURL, "--no-cache"],
                environment: ["GH_TOKEN": StandInTokens.token(for: "kitsune-fox")])
            #expect(run.status == 4, "\(run.stderr)")
            #expect(run.stdout.isEmpty)
            #expect(run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
            #expect(run.stderr.contains("only to its admins and collaborators"), "\(run.stderr)")
            #expect(run.stderr.contains("gh-users star-history octocat/Hello-World"), "\(run.stderr)")
        }
    }

    /// A repository past REST's reach (octocat/Spoon-Knife, which the whole population stars), `--all` at 10 a
    /// page, where REST's 400 pages hold 4,000: every one of them, each once, through GraphQL (REST's list is
    /// never asked past its count), and stderr says so. At 100 a page the same holds past 40,000, with ten times
    /// the accounts to make and read.
    @Test func everyStargazerPastPageFourHundredThroughGraphQL() async throws {
        try await withStandIn(users: 4_500) { server in
            let count = server.population.users.filter { $0.type == "User" }.count
            #expect(count > 4_000)
            let run = try await BinaryRunner.run(
                [
                    "stargazers", "octocat/Spoon-Knife", "--all", "--per-page", "10", "--format", "tsv", "--fields",
                    "starred_at", "--api-url", server.baseURL, "--no-cache",
                ],
                environment: ["GH_TOKEN": StandInTokens.token(for: "octocat")])
            #expect(run.status == 0, "\(run.stderr)")
            let lines = run.stdout.split(separator: "\n")
            // Each stargazer of the stand-in starred an hour after the one before: one line each, none twice.
            #expect(lines.count == count)
            #expect(Set(lines).count == count)
            #expect(run.stderr.contains("read through GraphQL"), "\(run.stderr)")
            let asked = server.requests
            #expect(asked.filter { $0.path == "/graphql" }.count == (count + 99) / 100)
            #expect(!asked.contains { $0.path.hasSuffix("/stargazers") })
        }
    }
}
