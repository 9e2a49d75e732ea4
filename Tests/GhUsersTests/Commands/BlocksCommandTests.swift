import Foundation
import Testing

@testable import gh_users

/// `block`, `unblock` and `blocks`: a write needs `--yes` without a terminal, GitHub's refusal of one account is
/// that account's line, a dry run sends nothing, and a token without the `user` scope is status 4 naming it.
/// The block's effect on GitHub (listed, follows ended) is `BlocksEndToEndTests`'.
struct BlocksCommandTests {
    @Test(arguments: [
        AnsweredCase("block Yamada-Taro --format tsv", status: 64, err: "blocking 1 account needs --yes"),
        AnsweredCase(
            "block --yes octocat --format tsv",
            answers: [
                StubbedAnswer(
                    "PUT /user/blocks/octocat", status: 422, headers: [CommandHarness.requestID],
                    body: "error-422-validation")
            ],
            status: 1, out: "octocat\tblock\tfailed: GitHub answered HTTP 422: Validation Failed\n",
            err: "gh-users: block octocat: GitHub answered HTTP 422: Validation Failed\nrequest id: CF25:41C0:C9E976\n"),
        AnsweredCase(
            "unblock --dry-run Yamada-Taro --format tsv", status: 0,
            out: "Yamada-Taro\tunblock\tdry run\tDELETE\thttps://api.github.com/user/blocks/Yamada-Taro\t\n"),
        AnsweredCase(
            "unblock --dry-run Yamada-Taro", status: 0, out: "DELETE https://api.github.com/user/blocks/Yamada-Taro\n"),
        AnsweredCase(
            "unblock Yamada-Taro --format tsv",
            answers: [.scopeRefusal("DELETE /user/blocks/Yamada-Taro", accepted: "user")], status: 4,
            out: "Yamada-Taro\tunblock\trefused: the token lacks the user scope\n",
            err: "the token needs the user scope"),
        AnsweredCase("blocks --format tsv", token: false, status: 4, err: "gh-users: blocks needs a token"),
    ])
    func eachCommandKeepsTheKindsPromises(_ example: AnsweredCase) async {
        await example.run()
    }
}
