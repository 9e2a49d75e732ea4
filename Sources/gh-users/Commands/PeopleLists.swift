import Domain

/// The people of organizations, teams and repositories: lists of accounts under one owner, each a declaration
/// here (`Command(accounts:noun:spec:)` for a plain one) and a line in `commands`, which the catalog appends to
/// its own. Adding one takes its endpoint row, its declaration here, its command-test row and GitHub's body.
enum PeopleLists {
    static let commands: [Command] = [members.listed(under: .organizations)]

    static let members = Command(
        accounts: .publicMembers, noun: "members",
        spec: CommandSpec(
            name: "members",
            abstract: "List the public members of an organization (\(Endpoint.publicMembers)).",
            usage: "gh-users members ORG [--limit N | --all] [options]",
            discussion: """
                Lists the members who show their membership, as anyone sees them: the ones who keep it private
                are not listed.
                """,
            arguments: [("ORG", "The organization whose members to list.")],
            options: [],
            examples: [
                ("gh-users members github --all", "Every public member of github."),
                ("gh-users members github --all --full --format tsv --fields login,name", "Their names too."),
            ],
            fields: FieldCatalog.account))
}
