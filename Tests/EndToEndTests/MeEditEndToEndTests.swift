import Foundation
import GitHubStandIn
import Testing

/// `me edit` through the built binary against the stand-in: the edit is what a later `me` shows, and a dry run
/// reaches nothing (the stand-in's log stays empty). A token without the `user` scope is `MeEditCommandTests`'.
struct MeEditEndToEndTests {
    private let octocat = ["GH_TOKEN": StandInTokens.token(for: "octocat")]

    @Test func anEditIsWhatALaterMeShows() async throws {
        try await withStandIn(users: 200) { server in
            let api = ["--format", "tsv", "--api-url", server.baseURL]
            let bio = "Tends \"octocats\" \\ and 🐙"
            // tsv writes a backslash as two.
            let cell = bio.replacingOccurrences(of: "\\", with: "\\\\")
            let edited = try await BinaryRunner.run(
                ["me", "edit", "--bio", bio, "--location", "", "--hireable", "--fields", "login,bio,location,hireable"]
                    + api, environment: octocat)
            #expect(edited.status == 0, "\(edited.stderr)")
            #expect(edited.stdout == "octocat\t\(cell)\t\ttrue\n")
            let shown = try await BinaryRunner.run(
                ["me", "--fields", "bio,location,hireable"] + api, environment: octocat)
            #expect(shown.status == 0, "\(shown.stderr)")
            #expect(shown.stdout == "\(cell)\t\ttrue\n")
            #expect(server.requests.map { "\($0.method) \($0.path)" } == ["PATCH /user", "GET /user"])
        }
    }

    /// stdout closed or full: the edit GitHub made cannot be shown, and stderr says it was made all the same, so a
    /// failed run is not taken for a failed edit (before: only "cannot write to stdout", exit 1).
    @Test(arguments: [">&-", "> /dev/full"])
    func anEditThatCannotBeShownSaysItWasMade(redirect: String) async throws {
        try await withStandIn(users: 200) { server in
            let result = try await BinaryRunner.shell(
                #""$GH_USERS" me edit --location Paris --api-url "$API" "# + redirect,
                environment: octocat.merging(["API": server.baseURL]) { $1 })
            #expect(result.status == 1)
            #expect(
                result.stderr.hasSuffix("gh-users: the profile was changed all the same; 'gh-users me' shows it\n"),
                "\(result.stderr)")
            #expect(server.requests.map { "\($0.method) \($0.path)" } == ["PATCH /user"])
        }
    }

    @Test func aDryRunSendsNothing() async throws {
        try await withStandIn(users: 200) { server in
            let result = try await BinaryRunner.run(
                ["me", "edit", "--bio", "never sent", "--dry-run", "--api-url", server.baseURL], environment: octocat)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout == "PATCH \(server.baseURL)/user\n{\n  \"bio\": \"never sent\"\n}\n")
            #expect(server.requests.isEmpty)
            let octocatUser = try #require(server.population.user(login: "octocat"))
            let shown = try await BinaryRunner.run(
                ["me", "--format", "tsv", "--fields", "bio", "--api-url", server.baseURL], environment: octocat)
            #expect(shown.stdout == (octocatUser.profile.bio ?? "") + "\n")
        }
    }
}
