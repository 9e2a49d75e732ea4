import Testing

@testable import gh_users

/// Every people list, walked from the catalog: what needs a token is refused without one before anything is
/// sent (the strict stub fails the test on any request). Each list's `run` checks for a token at its top, so a
/// list added to `PeopleLists.entries` without that check fails here.
struct PeopleListTokenTests {
    /// Each people list whose records are accounts (it takes `--full`), with an owner of the kind its argument
    /// names: an organization, a team or a repository.
    static let lists: [(command: String, owner: String)] = PeopleLists.entries.compactMap { entry in
        let spec = entry.build().spec
        guard (spec.options + spec.groups.flatMap(\.options)).contains(where: { $0.name == "full" }) else {
            return nil
        }
        let argument = spec.arguments.first?.name ?? ""
        let owner =
            argument.contains("TEAM")
            ? "github/justice-league" : argument.contains("REPO") ? "octocat/Hello-World" : "github"
        return (entry.name, owner)
    }

    /// Only `invitations` lists no accounts (an invitation may be an email's), so every other list is walked.
    @Test func everyListOfAccountsIsWalked() {
        #expect(Self.lists.count == PeopleLists.entries.count - 1, "\(Self.lists.map(\.command))")
        #expect(!Self.lists.contains { $0.command == "invitations" })
        #expect(Set(Self.lists.map(\.owner)) == ["github", "github/justice-league", "octocat/Hello-World"])
    }

    /// `--full --via graphql` reads the profiles through GraphQL, which refuses anonymous callers: exit 4, naming
    /// the command and the way out, and nothing sent.
    @Test(arguments: lists)
    func fullProfilesThroughGraphQLWithoutATokenAreRefusedBeforeAnythingIsSent(command: String, owner: String)
        async
    {
        let run = await CommandHarness().run([command, owner, "--full", "--via", "graphql"])
        #expect(run.status == 4, "\(command): \(run.err)")
        #expect(run.out.isEmpty)
        #expect(run.err.hasPrefix("gh-users: \(command) --via graphql needs a token"), "\(command): \(run.err)")
    }
}
