import Foundation
import Testing

@testable import gh_users

/// README.md as a new user reads it: its first screen tours the three families of commands, and its command
/// lists name every command the catalog has.
struct ReadmeTests {
    private static let readme = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("README.md")

    private static func lines() throws -> [String] {
        try String(contentsOf: readme, encoding: .utf8).components(separatedBy: "\n")
    }

    /// Before, the first screen showed only `list` and `show`, the organization and repository commands started
    /// at line 115 of 212, and the 2FA filters were not in the tour.
    @Test func theFirstSixtyLinesTourAccountsOrganizationsAndRepositories() throws {
        let first = try Self.lines().prefix(60).joined(separator: "\n")
        for shown in [
            "gh-users show ", "gh-users members ", "gh-users team-members ", "gh-users collaborators ",
            "--2fa-disabled", "--2fa-insecure",
        ] {
            #expect(first.contains(shown), "\(shown)")
        }
    }

    /// Every command (`help` included) is named on a line of the README's command lists.
    @Test func theCommandListsNameEveryCommand() throws {
        let named = Set(
            try Self.lines().filter { $0.hasPrefix("gh-users ") || $0.hasPrefix("$ gh-users ") }
                .flatMap { $0.split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init) })
        for spec in CommandCatalog.specs {
            #expect(named.contains(spec.name), "\(spec.name)")
        }
    }
}
