/// The people of organizations, teams and repositories: lists of accounts under one owner, each a command type in
/// this folder (sharing `PeopleList`'s helpers) and a line here, which the catalog appends to its own. Adding one
/// takes its endpoint row, its type, its line here, its command-test row and GitHub's body.
enum PeopleLists {
    static let entries: [CommandCatalog.Entry] = [
        CommandCatalog.Entry("members", MembersCommand.self, .organizations),
        CommandCatalog.Entry("outside-collaborators", OutsideCollaboratorsCommand.self, .organizations),
        CommandCatalog.Entry("invitations", InvitationsCommand.self, .organizations),
        CommandCatalog.Entry("team-members", TeamMembersCommand.self, .organizations),
        CommandCatalog.Entry("assignees", AssigneesCommand.self, .organizations),
        CommandCatalog.Entry("collaborators", CollaboratorsCommand.self, .organizations),
        CommandCatalog.Entry("contributors", ContributorsCommand.self, .organizations),
        CommandCatalog.Entry("forkers", ForkersCommand.self, .organizations),
        CommandCatalog.Entry("watchers", WatchersCommand.self, .organizations),
        CommandCatalog.Entry("stargazers", StargazersCommand.self, .organizations),
    ]
}
