import Foundation
import Testing

@testable import gh_users

/// csv through the real client: every header names fields that `--fields` takes back, and a list with no
/// records still has its header.
struct CSVHeaderCommandTests {
    /// A command, the request it sends and the body GitHub answers it with.
    struct Listing: Sendable, CustomTestStringConvertible {
        let command: String
        let request: String
        let body: String

        init(_ command: String, _ request: String, _ body: String) {
            self.command = command
            self.request = request
            self.body = body
        }

        var testDescription: String { command }
    }

    /// Every csv header names a field that `--fields` takes, and gets the same header and the same values back:
    /// a column holds what GitHub sent under its name (before: gpg-keys' `emails` and gists' `files` summed the
    /// field up in csv and gave GitHub's JSON by name, and rate-limit's `reset` was a time by default and epoch
    /// seconds by name; it is `resets_at` now).
    @Test(arguments: [
        Listing("starred octocat", "GET /users/octocat/starred?per_page=30", "activity-list-repos-starred-by-user"),
        Listing(
            "events octocat", "GET /users/octocat/events/public?per_page=30", "activity-list-public-events-for-user"),
        Listing("keys octocat", "GET /users/octocat/keys?per_page=30", "users-list-public-keys-for-user"),
        Listing(
            "signing-keys octocat", "GET /users/octocat/ssh_signing_keys?per_page=30",
            "users-list-ssh-signing-keys-for-user"),
        Listing("repos octocat", "GET /users/octocat/repos?per_page=30", "repos-list-for-user"),
        Listing("gists octocat", "GET /users/octocat/gists?per_page=30", "gists-list-for-user"),
        Listing("gpg-keys octocat", "GET /users/octocat/gpg_keys?per_page=30", "users-list-gpg-keys-for-user"),
        Listing("orgs octocat", "GET /users/octocat/orgs?per_page=30", "orgs-list-for-user"),
        Listing("list --limit 3", "GET /users?since=0&per_page=3", "users-list"),
        Listing("show octocat", "GET /users/octocat", "users-get-by-username"),
        Listing("rate-limit", "GET /rate_limit", "rate-limit-get"),
        Listing(
            "followers octocat --limit 3", "GET /users/octocat/followers?per_page=3", "users-list-followers-for-user"),
    ])
    func everyCSVHeaderIsAField(_ listing: Listing) async throws {
        let harness = CommandHarness()
        let base = listing.command.split(separator: " ").map(String.init) + ["--format", "csv"]
        harness.expect(listing.request, body: listing.body)
        let plain = await harness.run(base)
        #expect(plain.status == 0, "\(plain.err)")
        let header = try #require(plain.out.components(separatedBy: "\r\n").first)
        harness.expect(listing.request, body: listing.body)
        let chosen = await harness.run(base + ["--fields", header])
        #expect(chosen.status == 0, "\(listing.command) --fields \(header): \(chosen.err)")
        #expect(chosen.out.components(separatedBy: "\r\n").first == header)
        #expect(chosen.out == plain.out)
    }

    @Test func csvHasItsHeaderWithNoRecords() async {
        let harness = CommandHarness()
        harness.expect("GET /users?since=100000&per_page=30", body: "empty-list")
        let run = await harness.run(["list", "--since", "100000", "--format", "csv"])
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out == "id,login,type,html_url\r\n")
        #expect(run.err.isEmpty)
    }
}
