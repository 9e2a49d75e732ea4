import Domain

/// The people of organizations, teams and repositories: lists of accounts under one owner, each a declaration
/// here (`Command(accounts:noun:spec:)` for a plain one) and a line in `commands`, which the catalog appends to
/// its own. Adding one takes its endpoint row, its declaration here, its command-test row and GitHub's body.
enum PeopleLists {
    static let commands: [Command] = []
}
