/// `gh-users follow LOGIN...` and `gh-users unfollow LOGIN...`: two writes of the follow graph. `gh` asks only
/// before what cannot simply be undone, so follow never asks and unfollow asks before several accounts.
struct FollowCommand: AccountWriteCommand {
    static let declaration = WriteDeclaration(
        endpoint: .follow, name: "follow", past: "followed", progressive: "Following", confirmation: .never,
        counterpart: "unfollow", abstract: "Follow accounts as the token's user", example: "Follow one account.",
        moreExamples: [("gh-users follow - < logins.txt", "Follow every login in a file.")])

    var write: WriteOptions

    /// `PUT /user/following/{username}` for each login, a second apart; follow never asks.
    func run(_ context: CommandContext, _ github: GitHubReader) async -> CommandOutcome {
        await send(context, github)
    }
}

/// `gh-users unfollow LOGIN...`: asks before several accounts.
struct UnfollowCommand: AccountWriteCommand {
    static let declaration = WriteDeclaration(
        endpoint: .unfollow, name: "unfollow", past: "unfollowed", progressive: "Unfollowing",
        confirmation: .whenMoreThanOne, counterpart: "follow",
        abstract: "Stop following accounts as the token's user", example: "Stop following one.",
        moreExamples: [
            (
                "gh-users following --all --not-following-back --format tsv --fields login | gh-users unfollow --yes -",
                "Stop following everyone who does not follow you back."
            )
        ])

    var write: WriteOptions

    /// `DELETE /user/following/{username}` for each login, a second apart, once confirmed.
    func run(_ context: CommandContext, _ github: GitHubReader) async -> CommandOutcome {
        await send(context, github)
    }
}
