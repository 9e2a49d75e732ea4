/// `gh-users follow LOGIN...` and `gh-users unfollow LOGIN...`: two writes of the follow graph. `gh` asks only
/// before what cannot simply be undone, so follow never asks and unfollow asks before several accounts.
enum FollowChangeCommand {
    static let follow = Command(
        write: WriteDeclaration(
            endpoint: .follow, name: "follow", past: "followed", progressive: "Following", confirmation: .never,
            counterpart: "unfollow", abstract: "Follow accounts as the token's user", example: "Follow one account.",
            moreExamples: [("gh-users follow - < logins.txt", "Follow every login in a file.")]))

    static let unfollow = Command(
        write: WriteDeclaration(
            endpoint: .unfollow, name: "unfollow", past: "unfollowed", progressive: "Unfollowing",
            confirmation: .whenMoreThanOne, counterpart: "follow",
            abstract: "Stop following accounts as the token's user", example: "Stop following one.",
            moreExamples: [
                (
                    "gh-users following --all --not-following-back --format tsv --fields login | gh-users unfollow --yes -",
                    "Stop following everyone who does not follow you back."
                )
            ]))
}
