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
        // A list that needs a token itself says so first, and what the token needs.
        let needs = Self.needAToken[command].map { "\(command) (\($0))" } ?? "\(command) --via graphql"
        #expect(run.err.hasPrefix("gh-users: \(needs) needs a token"), "\(command): \(run.err)")
    }

    /// The lists GitHub shows to no one without a token (a team's members are 401 even for a visible team; the
    /// rest need an owner or push access), and what each one's token needs.
    static let needAToken = [
        "team-members": "read:org", "outside-collaborators": "read:org, as an owner of the organization",
        "invitations": "admin:org, as an owner of the organization",
        "collaborators": "push access to the repository",
    ]

    /// Those lists without a token are exit 4 before anything is sent, with what the token needs (before: the
    /// request went, and GitHub's refusal was worded as one of the token's, "no team … that the token can see").
    @Test(arguments: needAToken.keys.sorted())
    func aListOnlyATokenSeesIsRefusedWithoutOne(command: String) async {
        let owner = command == "team-members" ? "github/justice-league" : command == "collaborators" ? "o/r" : "github"
        let run = await CommandHarness().run([command, owner])
        #expect(run.status == 4, "\(command): \(run.err)")
        #expect(run.out.isEmpty)
        #expect(
            run.err.hasPrefix("gh-users: \(command) (\(Self.needAToken[command] ?? "")) needs a token"), "\(run.err)")
    }
}
